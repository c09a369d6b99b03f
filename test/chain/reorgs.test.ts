// Reorgs on a real anvil chain of the file's own (anvil_reorg, evm_snapshot/evm_revert, anvil_rollback): the log
// follower records the hashes of the blocks it applied, finds that the chain left them by the next batch's parent
// hash (or the cursor's own hash while caught up), rolls the stream back to the common ancestor in one transaction
// and reads the new branch; what it applied then equals a fresh read of the final chain. A reorg below finality stops
// the follower instead.

import { MockUSDCAbi } from '@ai-economy/shared/abis';
import { and, eq } from 'drizzle-orm';
import { erc20Abi, type Hex, parseAbiItem } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogFollower, DeepReorgError, type FollowedLog, type LogFollower } from '../../src/chain/indexer.ts';
import type { Finality } from '../../src/chain/reorgs.ts';
import type { Database } from '../../src/db/client.ts';
import { chainBlocks, chainCursors } from '../../src/db/schema/chain.ts';
import { anvilTestClient, startTestChain, type TestChain } from '../helpers/chain.ts';
import { testDatabases } from '../helpers/db.ts';

const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
type TransferLog = FollowedLog<readonly [typeof transferEvent]>;

let chain: TestChain;
let anvil: ReturnType<typeof anvilTestClient>;
beforeAll(async () => {
  chain = await startTestChain({ own: true });
  anvil = anvilTestClient(chain.node.rpcUrl, chain.chain.viemChain, 20);
  const hash = await chain.wallet(0).writeContract({
    address: chain.chain.contracts.usdc!,
    abi: MockUSDCAbi,
    functionName: 'mint',
    args: [chain.wallet(0).account.address, 10n ** 12n],
  });
  await anvil.waitForTransactionReceipt({ hash });
});
afterAll(async () => {
  await chain?.stop();
});

describe.each(testDatabases)('reorgs on $name', ({ open }) => {
  let database: Database;
  let seq = 0;
  beforeAll(async () => {
    database = await open();
  });
  afterAll(async () => {
    await database?.close();
  });

  /** A follower of USDC transfers whose state is `applied`, undone above the ancestor by its rollback. */
  async function follower(finality: Finality = { depth: 50 }) {
    const name = `reorg-test-${++seq}`;
    // A transaction an earlier test's reorg left in the pool would be mined beside this test's own transfers.
    await anvil.request({ method: 'anvil_dropAllTransactions' } as never);
    const fromBlock = (await anvil.getBlockNumber()) + 1n;
    const applied: TransferLog[] = [];
    const reorgs: { ancestor: bigint; orphanedTo: bigint }[] = [];
    const f: LogFollower = createLogFollower({
      name,
      db: database.db,
      client: chain.chain.publicClient,
      address: chain.chain.contracts.usdc!,
      events: [transferEvent],
      fromBlock,
      confirmations: 0,
      finality,
      batchSize: 4,
      apply: async (_tx, logs) => {
        applied.push(...logs);
      },
      rollback: async (_tx, ancestor) => {
        const kept = applied.filter((l) => l.blockNumber <= ancestor);
        applied.splice(0, applied.length, ...kept);
      },
    });
    const sync = async () => {
      for (let i = 0; i < 200; i++) {
        const result = await f.pollOnce();
        if (result.reorg) reorgs.push(result.reorg);
        if (result.caughtUp) return;
      }
      throw new Error('never caught up');
    };
    /** What a fresh index of the final chain reads: every transfer, by block hash and log index. */
    const expectEqualsChain = async () => {
      const fresh = await chain.chain.publicClient.getLogs({
        address: chain.chain.contracts.usdc!,
        event: transferEvent,
        fromBlock,
        toBlock: 'latest',
      });
      const key = (l: { blockHash: Hex; logIndex: number; args: { value?: bigint } }) =>
        `${l.blockHash}:${l.logIndex}:${l.args.value}`;
      expect(applied.map(key)).toEqual(fresh.map(key));
    };
    return { name, f, applied, reorgs, sync, expectEqualsChain };
  }

  let amount = 1000n;
  /** One USDC transfer of a new amount, mined in a block of its own. */
  async function transfer(): Promise<bigint> {
    const hash = await chain.wallet(0).writeContract({
      address: chain.chain.contracts.usdc!,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [chain.wallet(1).account.address, ++amount],
    });
    const receipt = await anvil.waitForTransactionReceipt({ hash });
    return receipt.blockNumber;
  }
  const reorg = (depth: number) => anvil.request({ method: 'anvil_reorg' as never, params: [depth, []] as never });

  it.each([
    1, 3, 10,
  ])('anvil_reorg of depth %i: rolled back to the common ancestor, then the new branch read', async (depth) => {
    const s = await follower();
    for (let i = 0; i < 12; i++) await transfer();
    await s.sync();
    await s.expectEqualsChain();
    const head = await anvil.getBlockNumber();
    const recordedBefore = (await database.db.select().from(chainBlocks).where(eq(chainBlocks.stream, s.name))).map(
      (r) => r.number,
    );
    await reorg(depth);
    // Caught up at the same height: the cursor's own hash tells.
    await s.sync();
    expect(s.reorgs).toHaveLength(1);
    expect(s.reorgs[0]!.orphanedTo).toBe(head);
    expect(s.reorgs[0]!.ancestor).toBeLessThanOrEqual(head - BigInt(depth));
    expect(recordedBefore).toContain(s.reorgs[0]!.ancestor);
    for (let i = 0; i < 3; i++) await transfer();
    await s.sync();
    await s.expectEqualsChain();
    expect(s.applied.length).toBeGreaterThanOrEqual(15 - depth);
  });

  it('evm_snapshot, 3 transfers applied, evm_revert, 4 new ones: the 3 are gone and the 4 all applied', async () => {
    const s = await follower();
    await transfer();
    await s.sync();
    const snapshot = await anvil.snapshot();
    for (let i = 0; i < 3; i++) await transfer();
    await s.sync();
    expect(s.applied).toHaveLength(4);
    await anvil.revert({ id: snapshot });
    const kept = s.applied[0]!;
    const fresh: bigint[] = [];
    for (let i = 0; i < 4; i++) fresh.push(await transfer());
    await s.sync();
    expect(s.reorgs).toHaveLength(1);
    await s.expectEqualsChain();
    expect(s.applied).toHaveLength(5);
    expect(s.applied[0]!.blockHash).toBe(kept.blockHash);
    expect(s.applied.slice(1).map((l) => l.blockNumber)).toEqual(fresh);
  });

  it('anvil_rollback shortens the chain below the cursor: rolled back, and the new blocks read', async () => {
    const s = await follower();
    for (let i = 0; i < 5; i++) await transfer();
    await s.sync();
    await anvil.request({ method: 'anvil_rollback' as never, params: [2] as never });
    await s.sync();
    expect(s.reorgs).toHaveLength(1);
    await s.expectEqualsChain();
    expect(s.applied).toHaveLength(3);
    await transfer();
    await s.sync();
    await s.expectEqualsChain();
  });

  it('a reorg the follower is idle through, found by the next batch’s parent hash, moves the cursor back in one commit', async () => {
    const s = await follower();
    for (let i = 0; i < 4; i++) await transfer();
    await s.sync();
    const cursor = await s.f.cursor();
    await reorg(2);
    await transfer();
    const result = await s.f.pollOnce();
    expect(result.reorg).toEqual({ ancestor: expect.any(BigInt), orphanedTo: cursor });
    expect(await s.f.cursor()).toBe(result.reorg!.ancestor);
    const above = await database.db
      .select()
      .from(chainBlocks)
      .where(and(eq(chainBlocks.stream, s.name)));
    expect(above.every((r) => r.number <= result.reorg!.ancestor)).toBe(true);
    await s.sync();
    await s.expectEqualsChain();
  });

  it('keeps only the blocks above finality, and the finalized anchor', async () => {
    const s = await follower({ depth: 3 });
    for (let i = 0; i < 10; i++) await transfer();
    await s.sync();
    const head = await anvil.getBlockNumber();
    const rows = await database.db.select().from(chainBlocks).where(eq(chainBlocks.stream, s.name));
    const numbers = rows.map((r) => r.number).sort((a, b) => (a < b ? -1 : 1));
    const finalized = head - 3n;
    expect(numbers.filter((n) => n <= finalized)).toHaveLength(1);
    expect(numbers).toContain(head);
    for (const r of rows) expect((await anvil.getBlock({ blockNumber: r.number })).hash).toBe(r.hash);
  });

  it('a reorg below finality stops the follower with DeepReorgError, its state untouched', async () => {
    const s = await follower({ depth: 2 });
    for (let i = 0; i < 8; i++) await transfer();
    await s.sync();
    const cursor = await s.f.cursor();
    const applied = s.applied.length;
    await reorg(6);
    await expect(s.f.pollOnce()).rejects.toBeInstanceOf(DeepReorgError);
    expect(await s.f.cursor()).toBe(cursor);
    expect(s.applied).toHaveLength(applied);
    const [row] = await database.db.select().from(chainCursors).where(eq(chainCursors.name, s.name));
    expect(row?.block).toBe(cursor);
  });
});
