// Benchmark of GET /api/v1/events: starts the service (PGlite under a temporary DATA_DIR, or DATABASE_URL) with a
// local chain, opens N concurrent event streams from a child process, publishes events one by one, and reports the
// delivery latency to every client (p50, p99) and the server's memory per connection. Not a test: run it with
// `npx tsx bench/sse.ts --clients 10000` (or `npm run bench -- --clients 10000`). Writes bench/sse-results.json.
import { execSync, fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { readFlags, wholeNumberFlag } from '../scripts/flags.ts';
import { loadConfig } from '../src/config.ts';
import { createContainer } from '../src/container.ts';
import { createApiKey, revokeApiKey } from '../src/domain/auth/api-keys.ts';
import { publishEvent } from '../src/domain/events/store.ts';
import { buildApp } from '../src/http/app.ts';
import { runAsScript } from './main.ts';
import { machine, recordResults } from './results.ts';
import { gc } from './service.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

export interface SseBenchOptions {
  clients: number;
  events: number;
  /** Milliseconds between two published events. */
  intervalMs: number;
  /** Streams opened at once while connecting. */
  concurrency: number;
  out: string;
}

export function parseSseBenchArgs(argv: string[]): SseBenchOptions {
  const options: SseBenchOptions = {
    clients: 10_000,
    events: 20,
    intervalMs: 500,
    concurrency: 200,
    out: path.join(here, 'sse-results.json'),
  };
  readFlags(argv, {
    '--clients': (value) => {
      options.clients = wholeNumberFlag('--clients', value(), 1);
    },
    '--events': (value) => {
      options.events = wholeNumberFlag('--events', value(), 1);
    },
    '--interval-ms': (value) => {
      options.intervalMs = wholeNumberFlag('--interval-ms', value(), 1);
    },
    '--concurrency': (value) => {
      options.concurrency = wholeNumberFlag('--concurrency', value(), 1);
    },
    '--out': (value) => {
      options.out = path.resolve(value());
    },
  });
  return options;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

function openFileLimit(): number | undefined {
  try {
    return Number(execSync('ulimit -n', { shell: '/bin/sh', encoding: 'utf8' }).trim());
  } catch {
    return undefined;
  }
}

/**
 * The open-file limit of this process, raised to `wanted` when it is lower: the soft limit up to the hard one is
 * anyone's to raise (prlimit on this process; its children inherit it), above the hard one only a privileged user's.
 */
function raiseOpenFileLimit(wanted: number): number | undefined {
  const limit = openFileLimit();
  if (limit === undefined || limit >= wanted) return limit;
  for (const to of [wanted, 'hard']) {
    try {
      const value = to === 'hard' ? execSync('ulimit -Hn', { shell: '/bin/sh', encoding: 'utf8' }).trim() : to;
      execSync(`prlimit --pid ${process.pid} --nofile=${value}:${value}`, { stdio: 'ignore' });
      break;
    } catch {
      // not allowed (above the hard limit without privilege), or no prlimit: the next, or what there is
    }
  }
  return openFileLimit();
}

/** Streams per client process: each stays well under a common per-process open-file limit. */
const STREAMS_PER_CLIENT_PROCESS = 15_000;
/** Loopback source addresses the clients spread over: one has about 28,000 ephemeral ports to one server port. */
const LOCAL_ADDRESSES = ['127.0.0.1', '127.0.0.2', '127.0.0.3', '127.0.0.4'];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runSseBench(options: SseBenchOptions) {
  // The server holds every stream in this one process: a descriptor each, and some to spare.
  const needed = options.clients + 500;
  const limit = raiseOpenFileLimit(needed);
  if (limit !== undefined && limit < needed) {
    throw new Error(
      `the open-file limit of this process is ${limit} and cannot be raised here (its hard limit; raising that needs privilege: ulimit -Hn, LimitNOFILE): ${options.clients} streams in one server process need ${needed}; run with --clients ${limit - 500} or fewer`,
    );
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'aie-bench-'));
  const logger = pino({ level: process.env.LOG_LEVEL ?? 'warn' });
  const config = loadConfig({
    ...process.env,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ROLES: 'api',
    // This run's clients all come from one address with one key: the caps and the request limit must let them in.
    SSE_MAX_CONNECTIONS: String(options.clients + 100),
    SSE_MAX_CONNECTIONS_PER_CLIENT: String(options.clients + 100),
    RATE_LIMIT_MAX: String(options.clients * 2 + 1000),
  });
  console.log(`starting the service (${config.databaseUrl ? 'PostgreSQL' : 'PGlite'}, local chain) ...`);
  const container = await createContainer(config, logger);
  const app = await buildApp(container, { logger });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/v1/events`;
  const key = await createApiKey(container.database.db, 'bench');
  // The clients in child processes of their own (STREAMS_PER_CLIENT_PROCESS each), so the server keeps its core
  // and its descriptors.
  const processes = Math.max(1, Math.ceil(options.clients / STREAMS_PER_CLIENT_PROCESS));
  const children = Array.from({ length: processes }, () =>
    fork(path.join(here, 'sse-clients.ts'), [], {
      execArgv: ['--import', 'tsx', '--max-old-space-size=4096'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
  );
  const fromChild = (child: (typeof children)[number], kind: string) =>
    new Promise<any>((resolve, reject) => {
      const onMessage = (msg: { kind: string }) => {
        if (msg.kind !== kind) return;
        child.off('message', onMessage);
        resolve(msg);
      };
      child.on('message', onMessage);
      child.once('exit', (code) => reject(new Error(`a client process exited (${code})`)));
    });
  const fromAll = (kind: string) => Promise.all(children.map((c) => fromChild(c, kind)));
  try {
    await fromAll('ready');
    // A first stream starts the reader, so the baseline holds everything but the connections themselves.
    children[0]!.send({ kind: 'start', start: { url, clients: 1, concurrency: 1, apiKey: key.key } });
    await fromChild(children[0]!, 'connected');
    gc?.();
    await sleep(200);
    const before = process.memoryUsage();

    console.log(`opening ${options.clients} streams from ${processes} client process(es) ...`);
    const connecting = fromAll('connected');
    children.forEach((child, i) => {
      const share = Math.floor(options.clients / processes) + (i < options.clients % processes ? 1 : 0);
      child.send({
        kind: 'start',
        start: {
          url,
          clients: share,
          concurrency: Math.max(1, Math.round(options.concurrency / processes)),
          apiKey: key.key,
          localAddresses: LOCAL_ADDRESSES,
        },
      });
    });
    const openedAll = await connecting;
    const opened = {
      failed: openedAll.reduce((n, o) => n + o.failed, 0),
      ms: Math.max(...openedAll.map((o) => o.ms)),
    };
    if (opened.failed > 0) console.warn(`warning: ${opened.failed} streams could not be opened`);
    gc?.();
    await sleep(500);
    const after = process.memoryUsage();
    const streams = container.events.stats().streams;

    console.log(`publishing ${options.events} events, one every ${options.intervalMs} ms ...`);
    const cpuBefore = process.cpuUsage();
    const publishStarted = Date.now();
    const company = 'bench-company';
    for (let seq = 0; seq < options.events; seq++) {
      await publishEvent(container.database.db, {
        type: 'trade',
        companyId: company,
        data: { seq, sentAt: Date.now(), tokenSymbol: 'BENCH', side: 'buy', amount: '1000000', price: '1234' },
      });
      await sleep(options.intervalMs);
    }
    await sleep(2000);
    const cpu = process.cpuUsage(cpuBefore);
    const publishMs = Date.now() - publishStarted;
    const collected = fromAll('results');
    for (const child of children) child.send({ kind: 'collect', events: options.events });
    const reports = (await collected) as { perEvent: number[][]; closedEarly: number }[];
    const perEvent = Array.from({ length: options.events }, (_, seq) => reports.flatMap((r) => r.perEvent[seq] ?? []));
    const closedEarly = reports.reduce((n, r) => n + r.closedEarly, 0);

    const all = perEvent.flat().sort((a, b) => a - b);
    const lastClient = perEvent.map((l) => Math.max(...l)).sort((a, b) => a - b);
    const delivered = perEvent.map((l) => l.length);
    const results = {
      date: new Date().toISOString(),
      machine: machine(),
      database: container.database.kind,
      clients: options.clients,
      clientProcesses: processes,
      streamsOpen: streams,
      connectSeconds: opened.ms / 1000,
      events: options.events,
      deliveries: all.length,
      // Every open stream (the warm-up one too) should get every event.
      missedDeliveries: perEvent.reduce((n, l) => n + Math.max(0, streams - l.length), 0),
      minDeliveredPerEvent: Math.min(...delivered),
      streamsDroppedOrClosed: closedEarly,
      latencyMs: { p50: percentile(all, 50), p90: percentile(all, 90), p99: percentile(all, 99), max: all.at(-1) },
      lastClientLatencyMs: { p50: percentile(lastClient, 50), p99: percentile(lastClient, 99), max: lastClient.at(-1) },
      serverMemory: {
        rssBeforeMiB: +(before.rss / 2 ** 20).toFixed(1),
        rssAfterMiB: +(after.rss / 2 ** 20).toFixed(1),
        rssPerConnectionKiB: +((after.rss - before.rss) / options.clients / 1024).toFixed(1),
        heapPerConnectionKiB: +((after.heapUsed - before.heapUsed) / options.clients / 1024).toFixed(1),
        gcBeforeMeasuring: gc !== undefined,
      },
      serverCpuPercentWhilePublishing: +(((cpu.user + cpu.system) / 1000 / publishMs) * 100).toFixed(1),
      openFileLimit: limit,
    };
    console.table({
      clients: { value: results.clients },
      'streams open': { value: results.streamsOpen },
      'connect time (s)': { value: results.connectSeconds },
      events: { value: results.events },
      deliveries: { value: results.deliveries },
      'missed deliveries': { value: results.missedDeliveries },
      'latency p50 (ms)': { value: results.latencyMs.p50 },
      'latency p90 (ms)': { value: results.latencyMs.p90 },
      'latency p99 (ms)': { value: results.latencyMs.p99 },
      'latency max (ms)': { value: results.latencyMs.max },
      'last client p99 (ms)': { value: results.lastClientLatencyMs.p99 },
      'RSS per connection (KiB)': { value: results.serverMemory.rssPerConnectionKiB },
      'heap per connection (KiB)': { value: results.serverMemory.heapPerConnectionKiB },
      'server CPU while publishing (%)': { value: results.serverCpuPercentWhilePublishing },
    });
    writeFileSync(options.out, `${JSON.stringify(results, null, 2)}\n`);
    recordResults('sse', results);
    console.log(`written to ${path.relative(process.cwd(), options.out)}`);
    await revokeApiKey(container.database.db, key.id);
    return results;
  } finally {
    for (const child of children) child.send({ kind: 'exit' });
    await app.close();
    await container.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

runAsScript(import.meta.url, async () => {
  await runSseBench(parseSseBenchArgs(process.argv.slice(2)));
});
