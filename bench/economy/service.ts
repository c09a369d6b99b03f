// The service the simulation drives: `tsx src/main.ts` as `npm start` runs it, on its embedded defaults (its own
// anvil chain with the contracts deployed, PGlite in a fresh data directory, or PostgreSQL when DATABASE_URL is
// set), on a free loopback port, with the engine polling every half second so scheduled rounds follow the chain's
// clock closely. Stopped with SIGTERM (the service stops its chain), its data directory removed.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../test/helpers/ports.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const START_TIMEOUT_MS = 600_000;

export interface SimService {
  url: string;
  secret: string;
  stop(): Promise<void>;
}

/** `env`: settings for the service (an owner's parameters, bench/economy/params.ts), over the embedded defaults. */
export async function startSimService(
  log: (line: string) => void,
  env: Record<string, string> = {},
): Promise<SimService> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'aie-sim-'));
  const port = await freePort();
  let output = '';
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      ENGINE_POLL_MS: '500',
      // One client address sends everything.
      RATE_LIMIT_MAX: '10000000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const done = await Promise.race([
        exited.then(() => true),
        new Promise((r) => setTimeout(() => r(false), 20_000)),
      ]);
      if (!done) child.kill('SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 500 });
  };
  log(`starting the service on ${url} (embedded defaults${process.env.DATABASE_URL ? ', DATABASE_URL' : ', PGlite'})`);
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`the service exited early (${child.exitCode}): ${output.slice(-3000)}`);
    }
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok && ((await res.json()) as { data: { status: string } }).data.status === 'ok') {
        const secret = readFileSync(path.join(dataDir, 'cron-secret'), 'utf8').trim();
        return { url, secret, stop };
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  await stop();
  throw new Error(`the service was not healthy within ${START_TIMEOUT_MS / 1000} s: ${output.slice(-3000)}`);
}
