// Soak run of the read routes: the service on the seeded PostgreSQL database, the routes of bench/http-routes.ts
// asked in turn by every connection, first as fast as they go to measure capacity, then at a fixed share of that
// capacity (80% by default) for several minutes in windows. Passes when no request fails (no error, time-out or
// non-2xx), the rate is held, and the server's heap after a full collection stays flat. Writes
// bench/soak-results.json. Not a CI test: it takes minutes and the whole machine.
//
//   npx tsx bench/soak.ts [--soak-minutes 5] [--soak-window 30] [--soak-share 80] [--soak-connections 64] [--no-seed]
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFlags, wholeNumberFlag } from '../scripts/flags.ts';
import type { LoadSummary, LoadTarget } from './http-load.ts';
import { ROUTES } from './http-routes.ts';
import { runAsScript } from './main.ts';
import { machine, recordResults } from './results.ts';
import { DEFAULT_SEED } from './seed.ts';
import { benchDatabase, gc, startBenchService, startLoadProcess } from './service.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const MiB = 2 ** 20;

export interface SoakOptions {
  minutes: number;
  windowSeconds: number;
  /** Percent of the measured capacity the soak asks for. */
  sharePercent: number;
  connections: number;
  seed: boolean;
  out: string;
}

/** Flags this benchmark takes (bench/run.ts routes them here). */
export const SOAK_FLAGS = ['--soak-minutes', '--soak-window', '--soak-share', '--soak-connections', '--soak-out'];

export function parseSoakArgs(argv: string[]): SoakOptions {
  const options: SoakOptions = {
    minutes: 5,
    windowSeconds: 30,
    sharePercent: 80,
    connections: 64,
    seed: true,
    out: path.join(here, 'soak-results.json'),
  };
  readFlags(argv, {
    '--soak-minutes': (value) => {
      options.minutes = wholeNumberFlag('--soak-minutes', value(), 1);
    },
    '--soak-window': (value) => {
      options.windowSeconds = wholeNumberFlag('--soak-window', value(), 5);
    },
    '--soak-share': (value) => {
      options.sharePercent = wholeNumberFlag('--soak-share', value(), 1, 100);
    },
    '--soak-connections': (value) => {
      options.connections = wholeNumberFlag('--soak-connections', value(), 1);
    },
    '--soak-out': (value) => {
      options.out = path.resolve(value());
    },
    '--no-seed': () => {
      options.seed = false;
    },
  });
  return options;
}

/** Least-squares slope of y over x. */
function slope(xs: number[], ys: number[]): number {
  const n = xs.length;
  if (n < 2) return 0;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

const failures = (s: LoadSummary) => s.errors + s.timeouts + s.non2xx;

export async function runSoak(options: SoakOptions) {
  const { url: databaseUrl } = await benchDatabase(options.seed);
  const service = await startBenchService(databaseUrl);
  const loader = await startLoadProcess();
  try {
    // The routes with identical requests (`{i}` routes cycling through their ids); varied cases are the same routes.
    const mix: LoadTarget[] = ROUTES.filter((r) => r.variants === undefined).map((r) => ({
      path: r.path,
      spread: r.spread === 'companies' ? DEFAULT_SEED.companies : r.spread,
      headers: r.apiKey ? { 'x-api-key': service.apiKey } : ({} as Record<string, string>),
    }));
    const base = { url: service.url, path: mix[0]!.path, spread: mix[0]!.spread, headers: {}, mix };
    const connections = options.connections;

    console.log(`capacity: ${mix.length} routes in turn, ${connections} connections, as fast as they go ...`);
    await loader.load({ ...base, connections, seconds: 5 });
    const capacity = await loader.load({ ...base, connections, seconds: 15 });
    if (failures(capacity) > 0) console.warn(`warning: ${failures(capacity)} failed requests at full speed`);
    const rate = Math.max(1, Math.round((capacity.rps * options.sharePercent) / 100));
    const windows = Math.max(1, Math.round((options.minutes * 60) / options.windowSeconds));
    console.log(
      `capacity ${Math.round(capacity.rps)} req/s; soaking at ${rate} req/s (${options.sharePercent}%) for ` +
        `${windows} windows of ${options.windowSeconds} s ...`,
    );

    gc?.();
    const start = process.memoryUsage();
    const started = Date.now();
    const rows = [];
    for (let w = 1; w <= windows; w++) {
      const cpu = process.cpuUsage();
      const t0 = performance.now();
      const s = await loader.load({ ...base, connections, seconds: options.windowSeconds, rate });
      const used = process.cpuUsage(cpu);
      const ms = performance.now() - t0;
      gc?.();
      const mem = process.memoryUsage();
      const row = {
        window: w,
        minute: +((Date.now() - started) / 60_000).toFixed(2),
        rps: Math.round(s.rps),
        p50: s.p50,
        p99: s.p99,
        max: s.max,
        failed: failures(s),
        heapMiB: +(mem.heapUsed / MiB).toFixed(1),
        rssMiB: +(mem.rss / MiB).toFixed(1),
        serverCpuPercent: +(((used.user + used.system) / 1000 / ms) * 100).toFixed(0),
      };
      rows.push(row);
      console.log(
        `window ${w}/${windows}: ${row.rps} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms, ${row.failed} failed, ` +
          `heap ${row.heapMiB} MiB, rss ${row.rssMiB} MiB`,
      );
    }

    // Flat memory: the heap after a full collection grows by less than 5 MiB (or 5%) from the first window to the
    // last, and its trend over the run is under 1 MiB a minute. The first window holds the caches' warm-up.
    const minutes = rows.map((r) => r.minute);
    const heaps = rows.map((r) => r.heapMiB);
    const heapSlope = +slope(minutes, heaps).toFixed(2);
    const rssSlope = +slope(
      minutes,
      rows.map((r) => r.rssMiB),
    ).toFixed(2);
    const growth = +(heaps.at(-1)! - heaps[0]!).toFixed(1);
    const flat = growth < Math.max(5, heaps[0]! * 0.05) && heapSlope < 1;
    const failed = rows.reduce((n, r) => n + r.failed, 0);
    const held = rows.every((r) => r.rps >= rate * 0.95);
    const report = {
      date: new Date().toISOString(),
      machine: machine(),
      routes: mix.map((m) => m.path),
      connections,
      capacityRps: Math.round(capacity.rps),
      sharePercent: options.sharePercent,
      targetRps: rate,
      minutes: options.minutes,
      windowSeconds: options.windowSeconds,
      gcBeforeReading: gc !== undefined,
      startHeapMiB: +(start.heapUsed / MiB).toFixed(1),
      windows: rows,
      summary: {
        requests: rows.reduce((n, r) => n + r.rps * options.windowSeconds, 0),
        failed,
        rateHeld: held,
        heapGrowthMiB: growth,
        heapSlopeMiBPerMinute: heapSlope,
        rssSlopeMiBPerMinute: rssSlope,
        memoryFlat: flat,
        passed: failed === 0 && held && flat,
      },
    };
    console.table(
      Object.fromEntries(
        rows.map((r) => [
          `window ${r.window}`,
          {
            'req/s': r.rps,
            'p50 ms': r.p50,
            'p99 ms': r.p99,
            failed: r.failed,
            'heap MiB': r.heapMiB,
            'rss MiB': r.rssMiB,
            'cpu %': r.serverCpuPercent,
          },
        ]),
      ),
    );
    console.log(
      `soak: ${failed} failed, rate ${held ? 'held' : 'NOT held'}, heap ${growth >= 0 ? '+' : ''}${growth} MiB ` +
        `(${heapSlope} MiB/min): ${report.summary.passed ? 'passed' : 'FAILED'}`,
    );
    writeFileSync(options.out, `${JSON.stringify(report, null, 2)}\n`);
    recordResults('soak', report);
    console.log(`written to ${path.relative(process.cwd(), options.out)}`);
    return report;
  } finally {
    loader.close();
    await service.close();
  }
}

runAsScript(import.meta.url, async () =>
  (await runSoak(parseSoakArgs(process.argv.slice(2)))).summary.passed ? 0 : 1,
);
