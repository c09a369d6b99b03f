// Starts anvil (a real EVM node, from npm @foundry-rs/anvil) on a free loopback port, optionally keeping its
// state in a file across restarts.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

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

export async function startAnvil(options: AnvilOptions = {}): Promise<AnvilNode> {
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
  ];
  if (options.stateFile) {
    args.push('--state', options.stateFile, '--state-interval', String(options.stateIntervalS ?? 5));
  }
  if (options.stateFile) mkdirSync(path.dirname(options.stateFile), { recursive: true });
  // Not --silent: that also hides the "Listening on" line that tells us the port.
  const child = spawn(anvilBinary(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
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
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  return {
    rpcUrl: `http://127.0.0.1:${port}`,
    port,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        process.off('exit', killOnExit);
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const force = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => {
          clearTimeout(force);
          resolve();
        });
        // SIGTERM lets anvil write its state file before it exits.
        child.kill('SIGTERM');
      }),
  };
}
