// Benchmark of the main read routes on a large platform. Seeds PostgreSQL (bench/seed.ts: 10,000
// companies, 70,000 agents, 1,000,000 events, a year of daily snapshots), starts the service in this process on it
// (ROLES=api, a local anvil chain with the contracts deployed; these routes barely touch the chain), and drives each
// route with autocannon from a child process (bench/http-load.ts), then a bare Fastify route serving a JSON body of
// the same size from memory, in this same process, so both share one event loop, one Node and one machine load; the
// ratio route/bare is the share of the bare throughput the route keeps. Writes bench/results.json.
// Each list route runs twice: with identical requests (where sharing one read serves them all) and, as
// `<name>-varied`, with a different page, filter or company in every request (5,000 paths drawn with a fixed
// seed), which is what real clients send.
//
//   npx tsx bench/http.ts [--connections 64] [--seconds 6] [--warmup 2] [--rounds 1] [--routes nft-image,agents]
//     [--no-seed] [--same-headers]
//
// The routes, their paths and goals are declared in bench/http-routes.ts; this file seeds, starts the service and
// measures.
//
// --rounds N measures each route and its bare twin N times, alternating, and reports the median of each figure:
// on a shared machine one round can fall on a busy moment of either side.
//
// --same-headers measures a second bare twin in each round, one that answers with the route's own response headers
// (copied from a sample answer: the request id, the security, CORS and rate-limit headers, the ETag and the cache
// policy, all as fixed values) and reports the route's ratio to it as well. On a machine where autocannon shares the
// server's cores, reading the route's longer header block costs the client more than the bare answer's, and the
// client can be the one at its limit (docs/benchmarks.md "What the headers cost the client"); the second ratio leaves
// the headers' cost out on both sides and measures the server's work per request alone.
//
// BENCH_DATABASE_URL names the database (its tables are emptied and seeded); by default the database `bench` on
// postgres://postgres@127.0.0.1:5432 (BENCH_SERVER_URL) is dropped and created again. --no-seed reuses it as seeded.
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { readFlags, wholeNumberFlag } from '../scripts/flags.ts';
import type { LoadRequest, LoadSummary } from './http-load.ts';
import { ROUTES } from './http-routes.ts';
import { runAsScript } from './main.ts';
import { machine, recordResults } from './results.ts';
import { DEFAULT_SEED, seedCounts } from './seed.ts';
import { benchDatabase, startBenchService, startLoadProcess } from './service.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

export interface HttpBenchOptions {
  connections: number;
  seconds: number;
  warmupSeconds: number;
  /** Route/bare pairs measured per route; the medians are reported. */
  rounds: number;
  seed: boolean;
  /** Also measure a bare twin that sends the route's own response headers (see --same-headers above). */
  sameHeaders: boolean;
  /** Names of the routes to run; all when empty. */
  routes: string[];
  /** Companies seeded (the rest in proportion, bench/seed.ts). */
  companies: number;
  /** The section of bench/results.json the report is recorded as; none when undefined. */
  section?: string | undefined;
  out: string;
}

/** Flags this benchmark takes (bench/run.ts passes the others to the event-stream benchmark). */
export const HTTP_FLAGS = [
  '--connections',
  '--seconds',
  '--warmup',
  '--rounds',
  '--routes',
  '--no-seed',
  '--same-headers',
  '--http-out',
  '--companies',
  '--no-record',
];

export function parseHttpBenchArgs(argv: string[]): HttpBenchOptions {
  const options: HttpBenchOptions = {
    connections: 64,
    seconds: 6,
    warmupSeconds: 2,
    rounds: 1,
    seed: true,
    sameHeaders: false,
    routes: [],
    companies: DEFAULT_SEED.companies,
    out: path.join(here, 'http-results.json'),
    section: 'http',
  };
  readFlags(argv, {
    '--connections': (value) => {
      options.connections = wholeNumberFlag('--connections', value(), 1);
    },
    '--seconds': (value) => {
      options.seconds = wholeNumberFlag('--seconds', value(), 1);
    },
    '--warmup': (value) => {
      options.warmupSeconds = wholeNumberFlag('--warmup', value(), 0);
    },
    '--rounds': (value) => {
      options.rounds = wholeNumberFlag('--rounds', value(), 1);
    },
    '--no-seed': () => {
      options.seed = false;
    },
    '--same-headers': () => {
      options.sameHeaders = true;
    },
    '--no-record': () => {
      options.section = undefined;
    },
    '--companies': (value) => {
      options.companies = wholeNumberFlag('--companies', value(), 100);
    },
    '--http-out': (value) => {
      options.out = path.resolve(value());
    },
    '--routes': (value) => {
      options.routes = value()
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const unknown = options.routes.filter((r) => !ROUTES.some((c) => c.name === r));
      if (unknown.length) throw new Error(`unknown route ${unknown.join(', ')}: use ${ROUTES.map((r) => r.name)}`);
    },
  });
  return options;
}

/** Headers Node's http server writes on every answer itself. */
const NODE_WRITES = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/** A JSON document of exactly `bytes` bytes (at least 12). */
function jsonOfSize(bytes: number): string {
  const shell = '{"data":""}';
  return `{"data":"${'x'.repeat(Math.max(0, bytes - shell.length))}"}`;
}

/** Busy share of all cores between two os.cpus() readings, in percent. */
function machineBusy(before: os.CpuInfo[], after: os.CpuInfo[]): number {
  let busy = 0;
  let total = 0;
  after.forEach((cpu, i) => {
    const b = before[i]!.times;
    const t = cpu.times;
    const all = t.user + t.nice + t.sys + t.idle + t.irq - (b.user + b.nice + b.sys + b.idle + b.irq);
    total += all;
    busy += all - (t.idle - b.idle);
  });
  return total === 0 ? 0 : +((busy / total) * 100).toFixed(0);
}

/** The median of each numeric figure of several measurements. */
function medianOf<T extends object>(runs: T[]): T {
  const mid = (xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    const m = sorted.length >> 1;
    return sorted.length % 2 ? sorted[m]! : (sorted[m - 1]! + sorted[m]!) / 2;
  };
  const first = runs[0]!;
  return Object.fromEntries(
    Object.keys(first).map((k) => [
      k,
      typeof (first as Record<string, unknown>)[k] === 'number'
        ? mid(runs.map((r) => (r as Record<string, number>)[k]!))
        : (first as Record<string, unknown>)[k],
    ]),
  ) as T;
}

interface Measured extends LoadSummary {
  /** CPU of this (server) process, in percent of one core. */
  serverCpuPercent: number;
  /** CPU of the whole machine (server, client, PostgreSQL), in percent of all cores. */
  machineCpuPercent: number;
}

export async function runHttpBench(options: HttpBenchOptions) {
  const cases = options.routes.length ? ROUTES.filter((r) => options.routes.includes(r.name)) : ROUTES;
  const { url, seed } = await benchDatabase(options.seed, seedCounts(options.companies));
  const service = await startBenchService(url);
  const appUrl = service.url;

  // The bare twin: Fastify's defaults and nothing else, answering any path with ready bytes of the measured route's
  // size. It is asked the very requests the route is (the same paths, queries and headers), so the client's work
  // per request, on the same cores, is the same on both sides and the ratio is the server's alone.
  // The twin of --same-headers is the same with the route's headers, its content type included (started only then).
  let bareBody = '';
  let routeHeaders: Record<string, string> = {};
  const twin = async (headers: () => Record<string, string>) => {
    const app = Fastify({ logger: false });
    app.get('/*', (_request, reply) => reply.headers(headers()).send(bareBody));
    await app.listen({ port: 0, host: '127.0.0.1' });
    return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
  };
  const jsonOnly = { 'content-type': 'application/json; charset=utf-8' };
  const bare = await twin(() => jsonOnly);
  const sameBare = options.sameHeaders ? await twin(() => routeHeaders) : undefined;

  const loader = await startLoadProcess();
  const load = async (
    req: Omit<LoadRequest, 'kind' | 'connections' | 'seconds'>,
    seconds: number,
  ): Promise<Measured> => {
    const cpu = process.cpuUsage();
    const cpus = os.cpus();
    const started = performance.now();
    const summary = await loader.load({ connections: options.connections, ...req, seconds });
    const used = process.cpuUsage(cpu);
    const ms = performance.now() - started;
    return {
      ...summary,
      serverCpuPercent: +(((used.user + used.system) / 1000 / ms) * 100).toFixed(0),
      machineCpuPercent: machineBusy(cpus, os.cpus()),
    };
  };

  const results = [];
  try {
    for (const route of cases) {
      const headers: Record<string, string> = route.apiKey ? { 'x-api-key': service.apiKey } : {};
      const sample = await fetch(appUrl + (route.variants?.[0] ?? route.path.replace('{i}', '1')), { headers });
      const body = Buffer.from(await sample.arrayBuffer());
      if (sample.status !== 200) throw new Error(`${route.path} answered ${sample.status}: ${body}`);
      bareBody = jsonOfSize(body.length);
      // The headers Node writes itself (the date, the connection's, the length) are left to it.
      routeHeaders = {};
      sample.headers.forEach((value, name) => {
        if (!NODE_WRITES.has(name)) routeHeaders[name] = value;
      });
      const spread = route.spread === 'companies' ? options.companies : route.spread;
      const appReq = { url: appUrl, path: route.path, spread, headers, variants: route.variants };
      const bareReq = { ...appReq, url: bare.url };
      process.stdout.write(`${route.name}: ${body.length} bytes ... `);
      // Routes with many paths: each path asked once first, every request a miss of the read cache (the cold
      // figure: what a first read of a page costs); the rounds then measure the steady state, as a service that
      // has run for a while serves them.
      const paths = route.variants?.length ?? (route.path.includes('{i}') ? spread : 1);
      const cold = paths > 1 ? await load({ ...appReq, amount: paths }, 600) : undefined;
      const rounds: { route: Measured; bare: Measured; ratio: number; sameHeadersRatio?: number }[] = [];
      const measure = async (req: typeof appReq) => {
        if (options.warmupSeconds > 0) await load(req, options.warmupSeconds);
        return load(req, options.seconds);
      };
      for (let round = 0; round < options.rounds; round++) {
        const routeRun = await measure(appReq);
        const bareRun = await measure(bareReq);
        const sameRun = sameBare ? await measure({ ...appReq, url: sameBare.url }) : undefined;
        rounds.push({
          route: routeRun,
          bare: bareRun,
          ratio: +(routeRun.rps / bareRun.rps).toFixed(2),
          ...(sameRun ? { sameHeadersRatio: +(routeRun.rps / sameRun.rps).toFixed(2) } : {}),
        });
      }
      const measured = medianOf(rounds.map((r) => r.route));
      const baseline = medianOf(rounds.map((r) => r.bare));
      // The median of the rounds' ratios (each route run against the bare runs right after it).
      const ratio = +medianOf(rounds.map((r) => ({ ratio: r.ratio }))).ratio.toFixed(2);
      const sameHeadersRatio = options.sameHeaders
        ? +medianOf(rounds.map((r) => ({ ratio: r.sameHeadersRatio! }))).ratio.toFixed(2)
        : undefined;
      const met =
        measured.non2xx === 0 &&
        measured.errors === 0 &&
        ratio >= route.goal.minRatio &&
        (route.goal.p99MaxMs === undefined || measured.p99 < route.goal.p99MaxMs);
      console.log(
        (cold ? `cold ${Math.round(cold.rps)} req/s (p99 ${cold.p99} ms), ` : '') +
          `${Math.round(measured.rps)} req/s, bare ${Math.round(baseline.rps)} req/s, ratio ${ratio}` +
          (rounds.length > 1 ? ` (rounds: ${rounds.map((r) => r.ratio).join(', ')})` : '') +
          (sameHeadersRatio === undefined
            ? ''
            : `, with the route's headers ${sameHeadersRatio} (rounds: ${rounds.map((r) => r.sameHeadersRatio).join(', ')})`),
      );
      results.push({
        name: route.name,
        path: route.path,
        bytes: body.length,
        route: measured,
        bare: baseline,
        /** Each path asked once, every request a cache miss (routes with many paths). */
        cold: cold && { paths, rps: Math.round(cold.rps), p50: cold.p50, p99: cold.p99, non2xx: cold.non2xx },
        ratio,
        /** The ratio to a bare twin sending the route's own headers (--same-headers). */
        ...(sameHeadersRatio === undefined ? {} : { sameHeadersRatio }),
        rounds: rounds.map((r) => ({
          rps: r.route.rps,
          p99: r.route.p99,
          bareRps: r.bare.rps,
          ratio: r.ratio,
          ...(r.sameHeadersRatio === undefined ? {} : { sameHeadersRatio: r.sameHeadersRatio }),
        })),
        goal: route.goal,
        met,
      });
    }
  } finally {
    loader.close();
    await bare.app.close();
    await sameBare?.app.close();
    await service.close();
  }

  const report = {
    date: new Date().toISOString(),
    machine: {
      ...machine(),
      note: 'server (this process), autocannon (a child process) and PostgreSQL share these cores',
    },
    database: { kind: 'postgres', poolSize: service.databasePoolSize },
    load: {
      connections: options.connections,
      seconds: options.seconds,
      warmupSeconds: options.warmupSeconds,
      rounds: options.rounds,
    },
    bare: 'a Fastify instance with default options in the server process, asked the same requests as the route; GET /* sends a ready JSON string of the route body size',
    ...(options.sameHeaders
      ? { sameHeadersBare: 'the same, also sending the headers of a sample answer of the route, as fixed values' }
      : {}),
    seed,
    routes: results,
  };
  console.table(
    Object.fromEntries(
      results.map((r) => [
        // The path, and for varied traffic which case: the same route is measured both ways.
        r.name.endsWith('-varied') ? `${r.path} (varied)` : r.path,
        {
          bytes: r.bytes,
          'req/s': Math.round(r.route.rps),
          'p50 ms': r.route.p50,
          'p99 ms': r.route.p99,
          'bare req/s': Math.round(r.bare.rps),
          'bare p99 ms': r.bare.p99,
          ratio: r.ratio,
          ...(r.sameHeadersRatio === undefined ? {} : { 'same headers': r.sameHeadersRatio }),
          'cold req/s': r.cold?.rps ?? '',
          goal: `>= ${r.goal.minRatio}${r.goal.p99MaxMs ? `, p99 < ${r.goal.p99MaxMs} ms` : ''}`,
          met: r.met ? 'yes' : 'NO',
        },
      ]),
    ),
  );
  writeFileSync(options.out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`written to ${path.relative(process.cwd(), options.out)}`);
  if (options.section) recordResults(options.section, report);
  return report;
}

runAsScript(import.meta.url, async () => {
  await runHttpBench(parseHttpBenchArgs(process.argv.slice(2)));
});
