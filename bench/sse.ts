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
import { loadConfig } from '../src/config.ts';
import { createContainer } from '../src/container.ts';
import { createApiKey, revokeApiKey } from '../src/domain/auth/api-keys.ts';
import { publishEvent } from '../src/domain/events/store.ts';
import { buildApp } from '../src/http/app.ts';
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
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i]!.split('=', 2);
    const value = () => inline ?? argv[++i];
    const count = (name: string) => {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 1) throw new Error(`${name} takes a whole number of at least 1`);
      return n;
    };
    if (flag === '--clients') options.clients = count('--clients');
    else if (flag === '--events') options.events = count('--events');
    else if (flag === '--interval-ms') options.intervalMs = count('--interval-ms');
    else if (flag === '--concurrency') options.concurrency = count('--concurrency');
    else if (flag === '--out') options.out = path.resolve(value() ?? '');
    else
      throw new Error(
        `unknown option ${flag}: use --clients N, --events N, --interval-ms N, --concurrency N, --out FILE`,
      );
  }
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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runSseBench(options: SseBenchOptions) {
  const limit = openFileLimit();
  if (limit !== undefined && limit < options.clients + 500) {
    console.warn(
      `warning: the open-file limit is ${limit}; ${options.clients} streams need more (ulimit -n ${options.clients + 1000})`,
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
  const child = fork(path.join(here, 'sse-clients.ts'), [], {
    execArgv: ['--import', 'tsx', '--max-old-space-size=4096'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const fromChild = (kind: string) =>
    new Promise<any>((resolve, reject) => {
      const onMessage = (msg: { kind: string }) => {
        if (msg.kind !== kind) return;
        child.off('message', onMessage);
        resolve(msg);
      };
      child.on('message', onMessage);
      child.once('exit', (code) => reject(new Error(`the client process exited (${code})`)));
    });
  try {
    await fromChild('ready');
    // A first stream starts the reader, so the baseline holds everything but the connections themselves.
    child.send({ kind: 'start', start: { url, clients: 1, concurrency: 1, apiKey: key.key } });
    await fromChild('connected');
    gc?.();
    await sleep(200);
    const before = process.memoryUsage();

    console.log(`opening ${options.clients} streams ...`);
    child.send({
      kind: 'start',
      start: { url, clients: options.clients, concurrency: options.concurrency, apiKey: key.key },
    });
    const opened = await fromChild('connected');
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
    child.send({ kind: 'collect', events: options.events });
    const { perEvent, closedEarly } = (await fromChild('results')) as { perEvent: number[][]; closedEarly: number };

    const all = perEvent.flat().sort((a, b) => a - b);
    const lastClient = perEvent.map((l) => Math.max(...l)).sort((a, b) => a - b);
    const delivered = perEvent.map((l) => l.length);
    const results = {
      date: new Date().toISOString(),
      machine: {
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model,
        memoryGiB: Math.round(os.totalmem() / 2 ** 30),
        node: process.version,
      },
      database: container.database.kind,
      clients: options.clients,
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
    console.log(`written to ${path.relative(process.cwd(), options.out)}`);
    await revokeApiKey(container.database.db, key.id);
    return results;
  } finally {
    child.send({ kind: 'exit' });
    await app.close();
    await container.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runSseBench(parseSseBenchArgs(process.argv.slice(2))).then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
