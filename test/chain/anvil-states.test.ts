// anvil writes the chain's older states to disk (past the few hundred it keeps in memory) and never removes them by
// itself: each node of ours keeps them in a directory of its own (src/chain/anvil.ts `--cache-path`), gone when the
// node stops, and one left by a node whose starting process was killed is removed by the next start.
import { existsSync, mkdirSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type AnvilNode, STATES_DIR_PREFIX, startAnvil } from '../../src/chain/anvil.ts';

const nodes: AnvilNode[] = [];
afterAll(async () => {
  for (const node of nodes) await node.stop();
});

const statesDirOf = (node: AnvilNode) => {
  const args = node.process.spawnargs;
  return args[args.indexOf('--cache-path') + 1]!;
};

async function mine(node: AnvilNode, blocks: number) {
  // One request a block: anvil_mine's blocks share one state, and each evm_mine's is its own.
  for (let i = 0; i < blocks; i++) {
    const res = await fetch(node.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'evm_mine', params: [] }),
    });
    await res.arrayBuffer();
  }
}

const filesUnder = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true }).reduce(
    (n, entry) => n + (entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : 1),
    0,
  );

describe("the node's older states on disk", () => {
  it('are written to a directory of the node, removed when it stops', async () => {
    const node = await startAnvil();
    nodes.push(node);
    const dir = statesDirOf(node);
    expect(path.basename(dir).startsWith(STATES_DIR_PREFIX)).toBe(true);
    await mine(node, 700);
    // Past what anvil keeps in memory: the older states are on disk, in the node's directory.
    await expect.poll(() => filesUnder(dir), { timeout: 10_000 }).toBeGreaterThan(100);
    await node.stop();
    expect(existsSync(dir)).toBe(false);
  }, 60_000);

  it("removes a directory left by a node that ended unseen at the next start, and keeps a running node's", async () => {
    const running = await startAnvil();
    nodes.push(running);
    // A node's directory whose node no longer runs (its owner file names a pid no process has).
    const left = path.join(tmpdir(), `${STATES_DIR_PREFIX}left-${process.pid}`);
    mkdirSync(path.join(left, 'anvil-state-x'), { recursive: true });
    writeFileSync(path.join(left, 'owner'), '2147483646');
    writeFileSync(path.join(left, 'anvil-state-x', '0x01.json'), '{}');
    // A directory with no owner file: left by a start killed before its node ran (older than a minute), or one
    // being created right now (kept).
    const unowned = path.join(tmpdir(), `${STATES_DIR_PREFIX}unowned-${process.pid}`);
    mkdirSync(unowned);
    const twoMinutesAgo = new Date(Date.now() - 120_000);
    utimesSync(unowned, twoMinutesAgo, twoMinutesAgo);
    const creating = path.join(tmpdir(), `${STATES_DIR_PREFIX}creating-${process.pid}`);
    mkdirSync(creating);
    const next = await startAnvil();
    nodes.push(next);
    expect(existsSync(left)).toBe(false);
    expect(existsSync(unowned)).toBe(false);
    expect(existsSync(creating)).toBe(true);
    rmSync(creating, { recursive: true });
    expect(existsSync(statesDirOf(running))).toBe(true);
  }, 60_000);
});
