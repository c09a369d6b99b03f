// The embedded chain of `npm start` (anvil with its state in DATA_DIR/chain-state.json) keeps its clock across
// restarts: after the clock moved past the end of an epoch, the next start is in that later epoch and mines forward
// from there, whether the previous process stopped its chain or ended without stopping it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createPublicClient, http } from 'viem';
import { afterAll, describe, expect, it } from 'vitest';
import { startAnvil } from '../../src/chain/anvil.ts';
import { type OpenedChain, openChain } from '../../src/chain/index.ts';
import { loadConfig } from '../../src/config.ts';
import { readCurrentEpochView } from '../../src/domain/epochs/queries.ts';
import { REPO_ROOT } from '../helpers/process.ts';

const dirs: string[] = [];
const opened: OpenedChain[] = [];
afterAll(async () => {
  for (const chain of opened) await chain.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'aie-embedded-clock-'));
  dirs.push(dir);
  return dir;
}

async function startEmbedded(dir: string) {
  const config = loadConfig({ DATA_DIR: dir });
  const chain = await openChain(config, () => {});
  opened.push(chain);
  const deps = { chain: chain.chain, config };
  return { ...chain, config, client: chain.chain.publicClient, epoch: () => readCurrentEpochView(deps) };
}

const rpc = (client: { request: (...args: never[]) => Promise<unknown> }, method: string, params: unknown[]) =>
  client.request({ method, params } as never);

describe('the embedded chain across restarts', () => {
  it('is still in the epoch its clock was moved to, and mines forward from its saved latest block', async () => {
    const dir = dataDir();
    const first = await startEmbedded(dir);
    const running = await first.epoch();
    expect(running.epochNumber).toBe(0);
    await rpc(first.client, 'evm_increaseTime', [running.nextEpochIn + 60]);
    await rpc(first.client, 'evm_mine', []);
    expect((await first.epoch()).epochNumber).toBe(1);
    const moved = await first.client.getBlock({ blockTag: 'latest' });
    await first.stop();

    const second = await startEmbedded(dir);
    const resumed = await second.client.getBlock({ blockTag: 'latest' });
    expect(resumed.number).toBeGreaterThanOrEqual(moved.number);
    expect(resumed.timestamp).toBeGreaterThanOrEqual(moved.timestamp);
    expect((await second.epoch()).epochNumber).toBe(1);
    await rpc(second.client, 'evm_mine', []);
    const next = await second.client.getBlock({ blockTag: 'latest' });
    expect(next.number).toBe(resumed.number + 1n);
    expect(next.timestamp).toBeGreaterThan(moved.timestamp);
    expect((await second.epoch()).epochNumber).toBe(1);
    await second.stop();
  });

  it('keeps a moved clock when the process ends without stopping its chain (a crash between two state saves)', async () => {
    const stateFile = path.join(dataDir(), 'chain-state.json');
    const moved = await moveClockAndEnd(stateFile, 'exit');
    // The node outlives its process only as long as it takes to write its state.
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && isAlive(moved.pid)) await new Promise((r) => setTimeout(r, 50));
    expect(isAlive(moved.pid)).toBe(false);
    await expectResumedAfter(stateFile, moved.timestamp);
  });

  it('ends the node a killed process left behind, keeping its state, before starting on the same file', async () => {
    const stateFile = path.join(dataDir(), 'chain-state.json');
    // SIGKILL runs no handler: the node runs on alone, and would keep saving its older chain over the new one's.
    const moved = await moveClockAndEnd(stateFile, 'kill');
    orphans.push(moved.pid);
    expect(isAlive(moved.pid)).toBe(true);
    await expectResumedAfter(stateFile, moved.timestamp);
    expect(isAlive(moved.pid)).toBe(false);
  });

  it('refuses a state file whose node a running process still keeps, and leaves that node running', async () => {
    const stateFile = path.join(dataDir(), 'chain-state.json');
    const node = await startAnvil({ stateFile });
    try {
      await expect(startAnvil({ stateFile })).rejects.toThrow(/in use by process \d+/);
      const client = createPublicClient({ transport: http(node.rpcUrl) });
      await client.request({ method: 'evm_mine' as never, params: [] as never });
      expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(1n);
    } finally {
      await node.stop();
    }
  });
});

const orphans: number[] = [];
afterAll(() => {
  for (const pid of orphans) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
});

/**
 * Runs a process that starts the chain on `stateFile` (saving only on exit: no periodic save can rescue the state),
 * moves its clock a week, mines, and ends at once without stopping the node: by `process.exit` or by SIGKILL.
 */
async function moveClockAndEnd(stateFile: string, end: 'exit' | 'kill') {
  const script = `
    import { startAnvil } from ${JSON.stringify(path.join(REPO_ROOT, 'src/chain/anvil.ts'))};
    const node = await startAnvil({ stateFile: ${JSON.stringify(stateFile)}, stateIntervalS: 3600 });
    const call = async (method, params) => {
      const res = await fetch(node.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
      return (await res.json()).result;
    };
    await call('evm_increaseTime', [604800]);
    await call('evm_mine', []);
    const block = await call('eth_getBlockByNumber', ['latest', false]);
    console.log(JSON.stringify({ pid: node.process.pid, timestamp: block.timestamp }));
    ${end === 'exit' ? 'process.exit(0);' : "process.kill(process.pid, 'SIGKILL');"}`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  await new Promise((resolve) => child.once('exit', resolve));
  const { pid, timestamp } = JSON.parse(out.trim().split('\n').at(-1)!) as { pid: number; timestamp: string };
  return { pid, timestamp: BigInt(timestamp) };
}

/** Starts a node on `stateFile`: its latest block is the saved one (not before `movedTo`), and it mines forward. */
async function expectResumedAfter(stateFile: string, movedTo: bigint) {
  const node = await startAnvil({ stateFile });
  try {
    const client = createPublicClient({ transport: http(node.rpcUrl) });
    const resumed = await client.getBlock({ blockTag: 'latest' });
    expect(resumed.number).toBeGreaterThan(0n);
    expect(resumed.timestamp).toBeGreaterThanOrEqual(movedTo);
    await client.request({ method: 'evm_mine' as never, params: [] as never });
    expect((await client.getBlock({ blockTag: 'latest' })).timestamp).toBeGreaterThan(movedTo);
  } finally {
    await node.stop();
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
