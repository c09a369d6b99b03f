// npm run bench: the benchmarks of bench/, one after another: the read routes over HTTP (bench/http.ts, writes
// bench/results.json), the soak run of those routes at 80% of capacity (bench/soak.ts, bench/soak-results.json), the
// event stream (bench/sse.ts, writes bench/sse-results.json), then the gas of the contract calls (bench/gas.ts, from
// docs/contracts.md), the anchoring gas per decision round at 1, 10 and 100 rounds a minute (bench/anchoring.ts), and
// the engine soak (bench/engine-soak.ts: 2,000 rounds, the heap after GC every 200).
// `--only http|soak|sse|gas|anchoring|engine` (or a comma list) runs some of them; the flags of bench/http.ts and
// bench/soak.ts go to them and the rest to bench/sse.ts, e.g. `npm run bench -- --seconds 8 --soak-minutes 3`.
// Three longer parts run only when named: `--only scale` (the cost table at 10,000 and 100,000 companies,
// bench/scale.ts, about 40 minutes), `--only engine-scale` (bench/engine-scale.ts) and `--only engine-schedule` (the
// engine at real model latency, one then two engine processes, bench/engine-schedule.ts, about 35 minutes). Every part records its
// figures in bench/results.json (bench/results.ts).

import { runAnchoringBench } from './anchoring.ts';
import { runEngineScale } from './engine-scale.ts';
import { runEngineSchedule } from './engine-schedule.ts';
import { runEngineSoak } from './engine-soak.ts';
import { printGasTable } from './gas.ts';
import { HTTP_FLAGS, parseHttpBenchArgs, runHttpBench } from './http.ts';
import { runScaleBench } from './scale.ts';
import { parseSoakArgs, runSoak, SOAK_FLAGS } from './soak.ts';
import { parseSseBenchArgs, runSseBench } from './sse.ts';

const DEFAULT_PARTS = ['http', 'soak', 'sse', 'gas', 'anchoring', 'engine'] as const;
const PARTS = [...DEFAULT_PARTS, 'scale', 'engine-scale', 'engine-schedule'] as const;
type Part = (typeof PARTS)[number];

function split(argv: string[]) {
  const http: string[] = [];
  const soak: string[] = [];
  const sse: string[] = [];
  let only: Part[] = [...DEFAULT_PARTS];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.split('=', 2);
    const takesValue = inline === undefined && flag !== '--no-seed';
    if (flag === '--only') {
      const value = (inline ?? argv[++i] ?? '').split(',').filter(Boolean);
      const bad = value.filter((v) => !PARTS.includes(v as Part));
      if (bad.length || value.length === 0) throw new Error(`--only takes ${PARTS.join(', ')} (or a comma list)`);
      only = value as Part[];
    } else if (flag === '--no-seed') {
      http.push(arg);
      soak.push(arg);
    } else {
      const to = HTTP_FLAGS.includes(flag!) ? http : SOAK_FLAGS.includes(flag!) ? soak : sse;
      to.push(arg);
      if (takesValue && argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('--')) to.push(argv[++i]!);
    }
  }
  // The soak reads the database the HTTP part has just seeded.
  if (only.includes('http') && !soak.includes('--no-seed')) soak.push('--no-seed');
  return { only, http, soak, sse };
}

async function main() {
  const { only, http, soak, sse } = split(process.argv.slice(2));
  // Parse everything first, so a wrong flag fails before minutes of load.
  const httpOptions = only.includes('http') ? parseHttpBenchArgs(http) : undefined;
  const soakOptions = only.includes('soak') ? parseSoakArgs(soak) : undefined;
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
  if (soakOptions) {
    await part('soak (bench/soak.ts)', async () => {
      if (!(await runSoak(soakOptions)).summary.passed) throw new Error('the soak run did not pass');
    });
  }
  if (sseOptions) await part('event stream (bench/sse.ts)', () => runSseBench(sseOptions));
  if (only.includes('gas')) await part('gas (bench/gas.ts)', () => printGasTable());
  if (only.includes('anchoring')) await part('anchoring gas per round (bench/anchoring.ts)', () => runAnchoringBench());
  if (only.includes('scale')) {
    await part('cost table at 10,000 and 100,000 companies (bench/scale.ts)', () =>
      runScaleBench({ sizes: [10_000, 100_000], http: ['--rounds', '1', '--seconds', '4', '--warmup', '1'] }),
    );
  }
  if (only.includes('engine-scale')) {
    await part('engine over 10,000 due companies (bench/engine-scale.ts)', () => runEngineScale());
  }
  if (only.includes('engine-schedule')) {
    await part('engine at real model latency, one then two processes (bench/engine-schedule.ts)', () =>
      runEngineSchedule(),
    );
  }
  if (only.includes('engine')) {
    await part('engine soak (bench/engine-soak.ts)', async () => {
      if (!(await runEngineSoak()).passed) throw new Error('the engine soak did not pass');
    });
  }
  return failed;
}

main().then(
  (failed) => process.exit(failed > 0 ? 1 : 0),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
