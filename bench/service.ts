// What the HTTP benchmarks share: the service started in this process as `npm start` builds it (on the seeded
// PostgreSQL database, ROLES=api, a local chain), the autocannon child process (bench/http-load.ts), and a full
// garbage collection before a memory reading.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import pino from 'pino';
import { loadConfig } from '../src/config.ts';
import { createContainer } from '../src/container.ts';
import { createApiKey } from '../src/domain/auth/api-keys.ts';
import { buildApp } from '../src/http/app.ts';
import { createLogger } from '../src/logger.ts';
import type { LoadRequest, LoadSummary } from './http-load.ts';
import {
  DEFAULT_SEED,
  DEFAULT_SERVER_URL,
  resetBenchDatabase,
  type SeedCounts,
  type SeedReport,
  seedBenchDatabase,
} from './seed.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

/** A full collection before each memory reading: --expose-gc when given, else switched on here. */
export const gc: (() => void) | undefined = (() => {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  try {
    v8.setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
})();

/** The seeded benchmark database: seeded anew when `seed`, else the one a previous run seeded. */
export async function benchDatabase(
  seed: boolean,
  counts: SeedCounts = DEFAULT_SEED,
): Promise<{ url: string; seed?: SeedReport }> {
  if (!seed) {
    const fallback = new URL(process.env.BENCH_SERVER_URL ?? DEFAULT_SERVER_URL);
    fallback.pathname = '/bench';
    return { url: process.env.BENCH_DATABASE_URL ?? fallback.toString() };
  }
  const url = await resetBenchDatabase();
  console.log('seeding the benchmark database ...');
  const report = await seedBenchDatabase(url, counts);
  console.log(
    `seeded in ${report.totalSeconds} s: ${Object.entries(report.counts)
      .map(([k, v]) => `${v} ${k}`)
      .join(', ')}`,
  );
  return { url, seed: report };
}

export interface BenchService {
  url: string;
  apiKey: string;
  databasePoolSize: number;
  close(): Promise<void>;
}

/**
 * The service on `databaseUrl`, listening on a loopback port, with an API key for the /api/v1 routes. It logs at
 * `BENCH_LOG_LEVEL`: by default warn, to the terminal; another level (`info` is the service's default, with its
 * access log) writes the service's lines to a file in its data directory, as a service writing to a file would.
 */
export async function startBenchService(databaseUrl: string): Promise<BenchService> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'aie-http-bench-'));
  const logLevel = process.env.BENCH_LOG_LEVEL ?? 'warn';
  const logger =
    logLevel === 'warn'
      ? createLogger('warn')
      : createLogger(logLevel, 'json', pino.destination({ dest: path.join(dataDir, 'service.log'), sync: true }));
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    LOG_LEVEL: logLevel,
    ROLES: 'api',
    // One client address sends everything: the per-IP limit must not be what is measured (the limiter still runs).
    RATE_LIMIT_MAX: '10000000',
  });
  console.log('starting the service (PostgreSQL, local chain) ...');
  const container = await createContainer(config, logger);
  const app = await buildApp(container, { logger });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const key = await createApiKey(container.database.db, 'bench');
  return {
    url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    apiKey: key.key,
    databasePoolSize: config.databasePoolSize,
    async close() {
      // Requests whose client left at the end of a load (autocannon closes its sockets mid-request) are still being
      // answered; let them finish before the pool closes under them.
      await new Promise((resolve) => setTimeout(resolve, 500));
      await app.close();
      await container.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface LoadProcess {
  /** One autocannon run in the child process; resolves with its summary. */
  load(request: Omit<LoadRequest, 'kind'>): Promise<LoadSummary>;
  close(): void;
}

/** autocannon in a child process (bench/http-load.ts), so it does not share the server's event loop. */
export async function startLoadProcess(): Promise<LoadProcess> {
  const child = fork(path.join(here, 'http-load.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const fromChild = () =>
    new Promise<any>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`the load process exited (${code})`));
      child.once('exit', onExit);
      child.once('message', (msg) => {
        child.off('exit', onExit);
        resolve(msg);
      });
    });
  await fromChild();
  return {
    async load(request) {
      const reply = fromChild();
      child.send({ kind: 'load', ...request } satisfies LoadRequest);
      const msg = await reply;
      if (msg.kind !== 'done') throw new Error(`autocannon failed: ${msg.message}`);
      return msg.summary as LoadSummary;
    },
    close() {
      child.send({ kind: 'exit' });
    },
  };
}
