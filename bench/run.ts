// npm run bench: the benchmarks of bench/, one after another: the read routes over HTTP (bench/http.ts, writes
// bench/results.json), the event stream (bench/sse.ts, writes bench/sse-results.json), then the gas of the contract
// calls (bench/gas.ts, from docs/contracts.md). `--only http|sse|gas` (or a comma list) runs some of them; the flags
// of bench/http.ts go to it and the rest to bench/sse.ts, e.g. `npm run bench -- --seconds 8 --clients 10000`.

import { printGasTable } from './gas.ts';
import { HTTP_FLAGS, parseHttpBenchArgs, runHttpBench } from './http.ts';
import { parseSseBenchArgs, runSseBench } from './sse.ts';

const PARTS = ['http', 'sse', 'gas'] as const;
type Part = (typeof PARTS)[number];

function split(argv: string[]) {
  const http: string[] = [];
  const sse: string[] = [];
  let only: Part[] = [...PARTS];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.split('=', 2);
    const takesValue = inline === undefined && flag !== '--no-seed';
    if (flag === '--only') {
      const value = (inline ?? argv[++i] ?? '').split(',').filter(Boolean);
      const bad = value.filter((v) => !PARTS.includes(v as Part));
      if (bad.length || value.length === 0) throw new Error(`--only takes ${PARTS.join(', ')} (or a comma list)`);
      only = value as Part[];
    } else {
      const to = HTTP_FLAGS.includes(flag!) ? http : sse;
      to.push(arg);
      if (takesValue && argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('--')) to.push(argv[++i]!);
    }
  }
  return { only, http, sse };
}

async function main() {
  const { only, http, sse } = split(process.argv.slice(2));
  // Parse everything first, so a wrong flag fails before minutes of load.
  const httpOptions = only.includes('http') ? parseHttpBenchArgs(http) : undefined;
  const sseOptions = only.includes('sse') ? parseSseBenchArgs(sse) : undefined;
  // A part that fails is reported and the next one still runs; the exit code says something failed.
  let failed = 0;
  const part = async (title: string, run: () => unknown) => {
    console.log(`== ${title} ==`);
    try {
      await run();
    } catch (err) {
      failed++;
      console.error(`${title} failed: ${err instanceof Error ? err.message : err}`);
    }
  };
  if (httpOptions) await part('HTTP read routes (bench/http.ts)', () => runHttpBench(httpOptions));
  if (sseOptions) await part('event stream (bench/sse.ts)', () => runSseBench(sseOptions));
  if (only.includes('gas')) await part('gas (bench/gas.ts)', () => printGasTable());
  return failed;
}

main().then(
  (failed) => process.exit(failed > 0 ? 1 : 0),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
