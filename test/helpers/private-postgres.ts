// A throwaway PostgreSQL server of the test's own, for fault tests that stop and restart it: initdb into a temp
// directory, the server on a free loopback port (its socket in that directory too), never the shared server on
// 5432. PostgreSQL refuses to run as root, so as root everything runs as the `postgres` OS user (runuser).
// Uses the binaries of PG_BIN, else the newest /usr/lib/postgresql/<version>/bin; `privatePostgresUnavailable()`
// says why a test cannot run here (no binaries, no postgres user), so it can skip instead of failing.
import { execFile, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './ports.ts';

const run = promisify(execFile);

export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres (trust authentication). */
  url: string;
  port: number;
  /** Stops the server (`fast`: sessions are ended with 57P01, as a routine restart does). */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Starts it again on the same port and data; resolves once it accepts connections. */
  start(): Promise<void>;
  /** `pg_ctl restart -m fast`. */
  restart(): Promise<void>;
  /** The server's log so far (for a failing test's message). */
  log(): string;
  /** Stops the server if it runs and deletes its directory. */
  destroy(): Promise<void>;
}

function binDir(): string | undefined {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => /^[0-9]+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  return versions.map((v) => path.join(root, v, 'bin')).find((dir) => existsSync(path.join(dir, 'pg_ctl')));
}

const isRoot = () => process.getuid?.() === 0;

/** Why a private server cannot be started on this machine, or undefined when it can. Synchronous, for skipIf. */
export function privatePostgresUnavailable(): string | undefined {
  if (process.platform === 'win32') return 'private PostgreSQL: not supported on Windows';
  const bin = binDir();
  if (!bin)
    return 'private PostgreSQL: no server binaries (set PG_BIN, or install PostgreSQL under /usr/lib/postgresql)';
  for (const tool of ['initdb', 'pg_ctl', 'postgres']) {
    if (!existsSync(path.join(bin, tool))) return `private PostgreSQL: ${tool} missing in ${bin}`;
  }
  const probe = asServerUser(path.join(bin, 'postgres'), ['--version']);
  const res = spawnSync(probe.file, probe.args, { encoding: 'utf8', timeout: 10_000 });
  if (res.status !== 0) {
    const why = (res.stderr || res.error?.message || `exit ${res.status}`).trim();
    return `private PostgreSQL: ${probe.file} ${probe.args.join(' ')} does not run (${why})${isRoot() ? '; as root the server runs as the postgres OS user' : ''}`;
  }
  return undefined;
}

function asServerUser(file: string, args: string[]): { file: string; args: string[] } {
  return isRoot() ? { file: 'runuser', args: ['-u', 'postgres', '--', file, ...args] } : { file, args };
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = binDir();
  if (!bin) throw new Error('no PostgreSQL binaries');
  // /tmp when there is one: the postgres user can reach it (a root's TMPDIR may be private), and the socket path
  // stays short (at most 107 bytes).
  const dir = mkdtempSync(path.join(existsSync('/tmp') ? '/tmp' : tmpdir(), 'aie-pg-'));
  const data = path.join(dir, 'data');
  const logFile = path.join(dir, 'server.log');
  if (isRoot()) {
    const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    chownSync(dir, uid, gid);
  }
  const tool = (name: string, args: string[]) => {
    const cmd = asServerUser(path.join(bin, name), args);
    return run(cmd.file, cmd.args, { timeout: 60_000 });
  };
  const port = await freePort();
  // fsync off: the data is thrown away, and a restart must not wait on the disk.
  const serverOptions = `-p ${port} -h 127.0.0.1 -k ${dir} -F -c max_connections=50`;
  const pgCtl = (args: string[]) => tool('pg_ctl', ['-D', data, '-l', logFile, '-w', '-t', '30', ...args]);
  let running = false;
  const handle: PrivatePostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async stop(mode = 'fast') {
      await pgCtl(['-m', mode, 'stop']);
      running = false;
    },
    async start() {
      await pgCtl(['-o', serverOptions, 'start']);
      running = true;
    },
    async restart() {
      await pgCtl(['-m', 'fast', '-o', serverOptions, 'restart']);
      running = true;
    },
    log: () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''),
    async destroy() {
      if (running) await handle.stop('immediate').catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await tool('initdb', [
      '-D',
      data,
      '--auth=trust',
      '-U',
      'postgres',
      '-E',
      'UTF8',
      '--no-sync',
      '--no-instructions',
    ]);
    await handle.start();
  } catch (err) {
    const log = handle.log();
    await handle.destroy();
    throw new Error(`could not start a private PostgreSQL: ${(err as Error).message}\n${log}`);
  }
  return handle;
}
