// bench/results.json: every figure of the benchmarks, one section per part (http, scale, engine, sse, anchoring,
// soak), each written by its part when it runs and kept when another part runs; docs/benchmarks.md shows them as
// tables. The machine is recorded with each section, since parts may run on different days.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const RESULTS_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results.json');

export const machine = () => ({
  cpus: os.cpus().length,
  cpuModel: os.cpus()[0]?.model,
  memoryGiB: Math.round(os.totalmem() / 2 ** 30),
  node: process.version,
});

/** Writes `figures` as the section `part` of bench/results.json, with the date and the machine. */
export function recordResults(part: string, figures: unknown, file = RESULTS_FILE): void {
  let all: Record<string, unknown> = {};
  if (existsSync(file)) {
    try {
      all = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    } catch {
      all = {};
    }
  }
  // A file of the old layout (the HTTP report alone) is replaced.
  if ('routes' in all) all = {};
  all[part] = { date: new Date().toISOString(), machine: machine(), ...(figures as object) };
  writeFileSync(file, `${JSON.stringify(all, null, 2)}\n`);
  // In the linter's own format (short arrays on one line), so a recorded file passes `npm run lint` as written.
  spawnSync('npx', ['biome', 'format', '--write', file], { stdio: 'ignore', cwd: path.dirname(RESULTS_FILE) });
  console.log(`recorded as "${part}" in ${path.relative(process.cwd(), file)}`);
}
