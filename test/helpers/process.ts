// The service as a real process (`tsx src/main.ts`), as the end-to-end and crash tests run it: spawned with an
// environment, waited on until healthy, stopped with SIGTERM or killed with SIGKILL. Also what such a process
// keeps across restarts: the file's chain with the contracts deployed (and their file), and a
// database that survives the process (a PGlite data directory on disk, or a fresh database on TEST_DATABASE_URL).
import { type ChildProcess, spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { toHex } from 'viem';
import { type ChainClients, devAccount } from '../../src/chain/client.ts';
import { type ContractsFile, writeContractsFile } from '../../src/chain/contracts/addresses.ts';
import { type Database, openDatabase } from '../../src/db/client.ts';
import { SHARED_CHAIN_BASE_URL } from './broker.ts';
import { startTestChain } from './chain.ts';
import { createServerDatabase } from './db.ts';
import { freePort } from './ports.ts';
import { type HttpMethod, type MessageSigner, serializeBody, signedRequest } from './security.ts';

export const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run cli -- ...args` as a child process, with PATH, HOME and TMPDIR and `env` only. */
export function runCli(args: string[], env: Record<string, string>): Promise<CliRun> {
  return runScript('src/cli/main.ts', args, env);
}

/**
 * A TypeScript entry point of the repository (`tsx <script> ...args`, as its npm script runs it) as a child process,
 * with PATH, HOME and TMPDIR and `env` only; resolves with its exit code and output once it ends.
 */
export function runScript(script: string, args: string[], env: Record<string, string>): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: REPO_ROOT,
      // Only what the script needs: the test runner's environment carries variables of its own (BASE_URL, ...).
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), TMPDIR: tmpdir(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export const lastLine = (s: string) => s.trimEnd().split('\n').at(-1)!;

export interface ServiceProcess {
  base: string;
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** SIGTERM, then the exit code (throws when it takes longer than 15 s; the process is then killed). */
  stop(): Promise<number | null>;
  /** SIGKILL, resolved once the process is gone: no handler runs, nothing is flushed or closed. */
  kill(): Promise<void>;
}

const running = new Set<ChildProcess>();

/** Kills (SIGKILL) every service process this test file started that still runs; for afterAll. */
export function killServices(): void {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  running.clear();
}

/**
 * Spawns `tsx src/main.ts` with PATH, HOME, LOG_LEVEL=warn, PORT (free, or `port`) and `env` (nothing else of the test's environment),
 * and resolves once GET /api/health answers 200 with status `ok` (within `timeoutMs`: two minutes, since a start
 * that takes seconds on a quiet machine took over one at load 16, compiling src/ with tsx and migrating).
 */
export async function startService(
  env: Record<string, string>,
  { timeoutMs = 120_000, port: fixedPort }: { timeoutMs?: number; port?: number } = {},
): Promise<ServiceProcess> {
  // A given port: a restarted service where its clients expect it.
  const port = fixedPort ?? (await freePort());
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  const service: ServiceProcess = {
    base: `http://127.0.0.1:${port}`,
    child,
    output: () => output,
    async stop() {
      child.kill('SIGTERM');
      const done = await Promise.race([
        exited.then(() => 'exited' as const),
        new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 15_000)),
      ]);
      if (done === 'timeout') {
        child.kill('SIGKILL');
        throw new Error(`server did not stop within 15 s of SIGTERM: ${output.slice(-2000)}`);
      }
      return child.exitCode;
    },
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode}): ${output}`);
    try {
      const res = await fetch(`${service.base}/api/health`);
      if (res.ok && ((await res.json()) as { data: { status: string } }).data.status === 'ok') return service;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`server not healthy within ${timeoutMs} ms: ${output}`);
}

/**
 * Resolves once every job in `names` has run to an end in `service` (ok or failed), as its /metrics counts them:
 * the start-up jobs run once each right after start. A job's outcome is `failed` when any of its runs failed, else
 * `ok`. A run `skipped` (another run held the job's lock: the schedule's minute tick of the same job, when the start
 * crosses a minute) is no outcome: the job is waited for until a run ends.
 */
export async function waitForJobs(
  service: ServiceProcess,
  names: readonly string[],
  { timeoutMs = 60_000 }: { timeoutMs?: number } = {},
): Promise<Record<string, string>> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    last = await (await fetch(`${service.base}/metrics`)).text();
    const outcomes: Record<string, string> = {};
    for (const name of names) {
      const ran = (outcome: string) =>
        new RegExp(`aie_job_duration_seconds_count\\{job="${name}",outcome="${outcome}"\\} [1-9]`).test(last);
      if (ran('failed')) outcomes[name] = 'failed';
      else if (ran('ok')) outcomes[name] = 'ok';
    }
    if (names.every((n) => outcomes[n])) return outcomes;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`jobs ${names.join(', ')} not all run within ${timeoutMs} ms:\n${last}\n${service.output()}`);
}

/**
 * The chain service processes run on: the worker's shared chain (test/helpers/chain.ts), reverted to the deployment
 * for this file, or a node of the file's own with `own: true` or TEST_CHAIN_PER_FILE=1. It outlives every service
 * process the file starts; the test kills services, never this node.
 */
export interface ServiceChain {
  node: { rpcUrl: string; port: number };
  clients: ChainClients;
  file: ContractsFile;
  /** The environment that points a service at this chain: CHAIN_RPC_URL, CONTRACTS_FILE, the platform key. */
  env: Record<string, string>;
  /** Hands the shared chain back (stops a node of the file's own). */
  stop(): Promise<void>;
}

/**
 * The file's chain with the platform's contracts deployed (account 0 is owner, platform and oracle), their file
 * written under `dir`.
 */
export async function startServiceChain(
  dir: string,
  { baseUrl = SHARED_CHAIN_BASE_URL, own = false }: { baseUrl?: string; own?: boolean } = {},
): Promise<ServiceChain> {
  const chain = await startTestChain({ baseUrl, own });
  const contractsFile = path.join(dir, 'contracts.json');
  writeContractsFile(contractsFile, chain.file);
  const privateKey = devAccount(0).getHdKey().privateKey;
  if (!privateKey) throw new Error('dev account 0 has no private key');
  return {
    node: chain.node,
    clients: chain.chain,
    file: chain.file,
    env: {
      CHAIN_RPC_URL: chain.node.rpcUrl,
      CONTRACTS_FILE: contractsFile,
      CHAIN_ID: '31337',
      PLATFORM_PRIVATE_KEY: toHex(privateKey),
      // Automine: a block per transaction, so the indexer need not wait for confirmations.
      CHAIN_CONFIRMATIONS: '0',
    },
    stop: chain.stop,
  };
}

/** A database that survives the service process: its environment for the service, and a way to open it here. */
export interface ServiceDatabase {
  kind: 'pglite' | 'postgres';
  /** DATABASE_URL for PostgreSQL; nothing for PGlite (the service then keeps it under DATA_DIR/pg). */
  env: Record<string, string>;
  /** Opens it in this process; for PGlite only while no service runs on it (its data directory is locked). */
  open(): Promise<Database>;
  /** Drops the PostgreSQL database; PGlite's directory goes with DATA_DIR. */
  drop(): Promise<void>;
}

/**
 * A fresh database on the server of TEST_DATABASE_URL when set (a copy of the run's migrated template,
 * test/helpers/db.ts, so the service's migrations find nothing to do), else PGlite under `dataDir`/pg.
 */
export async function serviceDatabase(dataDir: string): Promise<ServiceDatabase> {
  const server = process.env.TEST_DATABASE_URL;
  if (!server) {
    return {
      kind: 'pglite',
      env: {},
      open: () => openDatabase({ dataDir: path.join(dataDir, 'pg') }),
      drop: async () => {},
    };
  }
  const created = await createServerDatabase(server, { fromTemplate: true });
  return {
    kind: 'postgres',
    env: { DATABASE_URL: created.url },
    open: () => openDatabase({ url: created.url, poolSize: 2 }),
    drop: created.drop,
  };
}

const usedSignatures = new Set<string>();
/**
 * fetch with a wallet signature by `account`, dated at the latest second within the window not yet used for the
 * same signer, method, path and body (the service refuses a replayed signature), so a test may repeat a call.
 */
export async function signedFetch(
  base: string,
  account: MessageSigner,
  method: HttpMethod,
  url: string,
  body?: unknown,
): Promise<Response> {
  const payload = serializeBody(body);
  const nowS = Math.floor(Date.now() / 1000);
  let ts = nowS;
  const key = (t: number) => `${account.address} ${method} ${url} ${payload} ${t}`;
  while (usedSignatures.has(key(ts)) && ts > nowS - 250) ts--;
  usedSignatures.add(key(ts));
  const headers = await signedRequest(account, method, url, body, ts);
  return fetch(`${base}${url}`, { method, headers, ...(payload === undefined ? {} : { body: payload }) });
}
