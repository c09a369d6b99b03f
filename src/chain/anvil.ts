// Starts anvil (a real EVM node, from npm @foundry-rs/anvil) on a free loopback port, optionally keeping its
// state in a file across restarts.
import { type ChildProcess, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EVM_VERSION } from './hardfork.ts';

const require = createRequire(import.meta.url);

export const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk';
export const ANVIL_CHAIN_ID = 31337;

export interface AnvilNode {
  rpcUrl: string;
  port: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

export interface AnvilOptions {
  /** File the chain state is loaded from and saved to; in memory only when absent. */
  stateFile?: string | undefined;
  /** Seconds between state saves, so a crash loses at most this much. */
  stateIntervalS?: number;
  chainId?: number;
  startTimeoutMs?: number;
}

/**
 * The anvil binary: ANVIL_BIN when set, else the platform package from npm (`@foundry-rs/anvil-linux-amd64`,
 * an optional dependency; the registry this project installs from serves no other platform's build, so on
 * another platform install Foundry's anvil and set ANVIL_BIN).
 */
export function anvilBinary(env: Record<string, string | undefined> = process.env): string {
  if (env.ANVIL_BIN) {
    if (!existsSync(env.ANVIL_BIN)) throw new Error(`ANVIL_BIN ${env.ANVIL_BIN} does not exist`);
    return env.ANVIL_BIN;
  }
  const pkg = `@foundry-rs/anvil-${process.platform}-${process.arch === 'x64' ? 'amd64' : process.arch}`;
  try {
    const dir = path.dirname(require.resolve(`${pkg}/package.json`));
    const bin = path.join(dir, 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
    if (existsSync(bin)) return bin;
  } catch {
    // fall through to the error below
  }
  throw new Error(
    `anvil binary not found (looked for ${pkg}): run npm install, or install Foundry's anvil and set ANVIL_BIN`,
  );
}

async function rpc(url: string, method: string, params: unknown[]): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: { message?: string } };
  if (body.error) throw new Error(`anvil ${method}: ${body.error.message ?? 'failed'}`);
  return body.result;
}

/**
 * anvil loads a saved chain with the wall clock, so a chain whose clock was moved ahead (the demo ends an epoch with
 * evm_increaseTime) would mine its next block in the past: epochs would run again, pending rewards drop. Its clock
 * is set to resume just after the saved chain's latest block whenever that block lies ahead of the wall clock.
 */
async function resumeClock(rpcUrl: string): Promise<void> {
  const latest = (await rpc(rpcUrl, 'eth_getBlockByNumber', ['latest', false])) as { timestamp: string } | null;
  if (!latest) return;
  const saved = Number(BigInt(latest.timestamp));
  if (saved >= Math.floor(Date.now() / 1000)) await rpc(rpcUrl, 'anvil_setTime', [saved + 1]);
}

/**
 * The file that names the node keeping `stateFile`, the process that started it and the node's loopback port, while
 * the node runs (`<node pid> <owner pid> <port>`): how a local tool (cli reconcile) finds a running service's chain.
 */
const pidFileOf = (stateFile: string) => `${stateFile}.pid`;

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * The RPC URL of the node keeping `stateFile` while the process that started it (a running service) still runs it,
 * else undefined: none runs, or one left behind by a killed process (the next start ends it).
 */
export function runningLocalChain(stateFile: string): string | undefined {
  try {
    const [node, owner, port] = readFileSync(pidFileOf(stateFile), 'utf8').trim().split(/\s+/).map(Number) as [
      number,
      number,
      number | undefined,
    ];
    const command = readFileSync(`/proc/${node}/cmdline`, 'utf8').split('\0').join(' ');
    const parent = Number(readFileSync(`/proc/${node}/stat`, 'utf8').split(')').at(-1)!.trim().split(' ')[1]);
    if (!command.includes('anvil') || !command.includes(` ${stateFile} `) || parent !== owner) return undefined;
    return port !== undefined && Number.isInteger(port) && port > 0 ? `http://127.0.0.1:${port}` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Makes `stateFile` free for a new node. A node whose starting process still runs it (its parent is still the
 * process named in the pid file) is in use: start-up stops with an error, and that node is left alone. A node left
 * running by a process killed with SIGKILL (which runs no handler) would keep saving its older chain over the new
 * node's: it is ended with SIGTERM, which makes it write its state, the newest there is, for the new node to load.
 * Only a process whose command line shows anvil keeping this very file is touched (Linux's /proc tells; where there
 * is no /proc nothing is checked and nothing is ended).
 */
async function claimStateFile(stateFile: string): Promise<void> {
  let node: number;
  let owner: number;
  let command: string;
  let parent: number;
  try {
    [node, owner] = readFileSync(pidFileOf(stateFile), 'utf8').trim().split(/\s+/).map(Number) as [number, number];
    command = readFileSync(`/proc/${node}/cmdline`, 'utf8').split('\0').join(' ');
    // /proc/<pid>/stat: "pid (comm) state ppid ...", and comm may hold spaces: the fields after the last ")".
    parent = Number(readFileSync(`/proc/${node}/stat`, 'utf8').split(')').at(-1)!.trim().split(' ')[1]);
  } catch {
    return;
  }
  if (!Number.isInteger(node) || node <= 0 || !command.includes('anvil') || !command.includes(` ${stateFile} `)) return;
  if (parent === owner) {
    throw new Error(
      `the local chain's state ${stateFile} is in use by process ${owner}: stop that service, or give this one its own DATA_DIR`,
    );
  }
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(node, name);
    } catch {
      // ended meanwhile
    }
  };
  signal('SIGTERM');
  const deadline = Date.now() + 10_000;
  while (isAlive(node) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  if (isAlive(node)) signal('SIGKILL');
}

/** The directories our nodes keep their older states in (STATES_DIR_PREFIX + a random suffix, in the system's tmp). */
export const STATES_DIR_PREFIX = 'aie-anvil-states-';
const OWNER_FILE = 'owner';
/** A states directory with no owner file this old was left by a start that never finished. */
const UNOWNED_MAX_AGE_MS = 60_000;

function olderThan(dir: string, ms: number): boolean {
  try {
    return statSync(dir).mtimeMs < Date.now() - ms;
  } catch {
    return false;
  }
}

/**
 * anvil keeps a few hundred of the chain's latest states in memory and writes older ones to disk, by default under
 * ~/.foundry/anvil/tmp, which it never cleans: a node that mined a simulated month left 1.5 GB there when it ended,
 * by SIGTERM or otherwise, and a day of simulations and test runs filled a machine's disk. Each node of ours writes
 * them to a directory of its own (`--cache-path`), removed when the node ends; one whose node ended without its
 * starting process seeing it (that process was killed) is removed by the next start.
 */
function statesDir(): string {
  const root = tmpdir();
  for (const name of readdirSync(root)) {
    if (!name.startsWith(STATES_DIR_PREFIX)) continue;
    const dir = path.join(root, name);
    let left: boolean;
    try {
      const owner = Number(readFileSync(path.join(dir, OWNER_FILE), 'utf8'));
      left = Number.isInteger(owner) && owner > 0 && !isAlive(owner);
    } catch {
      // No owner file: being created (kept), or left by a process killed between creating it and starting its node
      // (removed once it is older than any start takes).
      left = olderThan(dir, UNOWNED_MAX_AGE_MS);
    }
    if (!left) continue;
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // another user's, or going meanwhile
    }
  }
  return mkdtempSync(path.join(root, STATES_DIR_PREFIX));
}

export async function startAnvil(options: AnvilOptions = {}): Promise<AnvilNode> {
  const states = statesDir();
  const args = [
    '--host',
    '127.0.0.1',
    '--port',
    '0',
    '--chain-id',
    String(options.chainId ?? ANVIL_CHAIN_ID),
    '--mnemonic',
    ANVIL_MNEMONIC,
    '--accounts',
    '10',
    // The rules the contracts are compiled for (src/chain/hardfork.ts), not anvil's newest.
    '--hardfork',
    EVM_VERSION,
    '--cache-path',
    states,
  ];
  if (options.stateFile) {
    args.push('--state', options.stateFile, '--state-interval', String(options.stateIntervalS ?? 5));
  }
  if (options.stateFile) {
    mkdirSync(path.dirname(options.stateFile), { recursive: true });
    await claimStateFile(options.stateFile);
  }
  // Not --silent: that also hides the "Listening on" line that tells us the port.
  const child = spawn(anvilBinary(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid !== undefined) writeFileSync(path.join(states, OWNER_FILE), String(child.pid));
  child.once('exit', () => rmSync(states, { recursive: true, force: true }));
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`anvil did not start within ${options.startTimeoutMs ?? 20_000} ms: ${out.slice(-500)}`));
    }, options.startTimeoutMs ?? 20_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /Listening on 127\.0\.0\.1:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolve(Number(m[1]));
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`anvil exited with code ${code} before listening: ${out.slice(-500)}`));
    });
  });
  // Keep draining output so a chatty node never blocks on a full pipe.
  child.stdout?.resume();
  child.stderr?.resume();
  // A process that ends without stopping its node (a crash, a shutdown past its deadline) still asks it to end the
  // way that writes its state: SIGTERM, not SIGKILL, or everything since the last periodic save (a moved clock, the
  // latest blocks) would be lost. anvil then writes its file and exits on its own.
  const killOnExit = () => child.kill('SIGTERM');
  process.once('exit', killOnExit);
  const rpcUrl = `http://127.0.0.1:${port}`;
  if (options.stateFile) {
    try {
      writeFileSync(pidFileOf(options.stateFile), `${child.pid} ${process.pid} ${port}\n`);
      await resumeClock(rpcUrl);
    } catch (err) {
      child.kill('SIGKILL');
      throw err;
    }
  }
  return {
    rpcUrl,
    port,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        process.off('exit', killOnExit);
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const force = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => {
          clearTimeout(force);
          if (options.stateFile) rmSync(pidFileOf(options.stateFile), { force: true });
          resolve();
        });
        // SIGTERM lets anvil write its state file before it exits.
        child.kill('SIGTERM');
      }),
  };
}
