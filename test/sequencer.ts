// The order test files start in. vitest's own order runs the longest files of the last run first and, with no last
// run (a clean clone, as CI runs), the largest files first. The files that start service processes, browsers or
// CLI commands are the run's longest (tens of seconds each) but not its largest, and started last they would end
// long after the other workers ran out of files. They start first, in vitest's order among themselves.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// The economy simulation's CI run is the longest file by far (minutes: a service, a chain and days of trading); it
// starts before every other, so that the other workers share the rest of the suite while it runs.
const LONGEST = /\/test\/e2e\/economy-sim\.test\.ts$/;
const SLOW = /\/test\/(e2e|faults)\/|\/test\/cli\.test\.ts$|\/test\/chain\/(reconcile|reorg-reconcile)\.test\.ts$/;

export class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const slow = (f: TestSpecification) => SLOW.test(f.moduleId);
    const longest = (f: TestSpecification) => LONGEST.test(f.moduleId);
    return [
      ...sorted.filter(longest),
      ...sorted.filter((f) => slow(f) && !longest(f)),
      ...sorted.filter((f) => !slow(f)),
    ];
  }
}
