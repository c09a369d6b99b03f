// npm run bench: the benchmarks of bench/, run one after another. For now only the event stream (bench/sse.ts);
// options are passed on, e.g. `npm run bench -- --clients 10000`.
import { parseSseBenchArgs, runSseBench } from './sse.ts';

runSseBench(parseSseBenchArgs(process.argv.slice(2))).then(
  () => process.exit(0),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
