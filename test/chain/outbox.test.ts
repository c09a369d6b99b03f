// The outbox makes platform transactions exactly-once: a key is sent once, a crash between recording and
// broadcasting is finished by the next start, and a transaction whose nonce went elsewhere is made anew.

import { MockUSDCAbi } from '@ai-economy/shared/abis';
import { eq, sql } from 'drizzle-orm';
import { createPublicClient, custom, encodeFunctionData, type Hex, hexToBigInt } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devAddresses } from '../../src/chain/client.ts';
import type { OutboxOptions, SendOptions, TxRequest } from '../../src/chain/outbox.ts';
import { type Database, rowsOf } from '../../src/db/client.ts';
import { chainTxs } from '../../src/db/schema/chain.ts';
import { anvilTestClient, startTestChain, type TestChain } from '../helpers/chain.ts';
import { testDatabases } from '../helpers/db.ts';
import { crashBeforeBroadcast, testOutbox } from '../helpers/outbox.ts';

let chain: TestChain;
beforeAll(async () => {
  chain = await startTestChain();
});
afterAll(async () => {
  await chain?.stop();
});

const recipient = devAddresses()[7]!;
const mintTx = (amount: bigint): TxRequest => ({
  to: chain.chain.contracts.usdc!,
  data: encodeFunctionData({ abi: MockUSDCAbi, functionName: 'mint', args: [recipient, amount] }),
});
const balance = () =>
  chain.chain.publicClient.readContract({
    address: chain.chain.contracts.usdc!,
    abi: MockUSDCAbi,
    functionName: 'balanceOf',
    args: [recipient],
  });

describe.each(testDatabases)('outbox on $name', ({ name, open }) => {
  let database: Database;
  const outbox = (extra: Partial<OutboxOptions> = {}) => testOutbox(database, chain, extra);

  beforeAll(async () => {
    database = await open();
  });
  afterAll(async () => {
    await database?.close();
  });

  it('sends a key once: a second send returns the same receipt and moves nothing', async () => {
    const before = await balance();
    const first = await outbox().send('test:once', () => mintTx(5n));
    expect(first.status).toBe('success');
    const second = await outbox().send('test:once', () => mintTx(5n));
    expect(second.transactionHash).toBe(first.transactionHash);
    expect(await balance()).toBe(before + 5n);
    const [row] = await database.db.select().from(chainTxs).where(eq(chainTxs.key, 'test:once'));
    expect(row).toMatchObject({ status: 'MINED', hash: first.transactionHash, blockNumber: first.blockNumber });
  });

  it('finishes a send interrupted between recording and broadcasting, once', async () => {
    const before = await balance();
    const crashing = outbox(crashBeforeBroadcast);
    await expect(crashing.send('test:crash', () => mintTx(7n))).rejects.toThrow('crash');
    const [row] = await database.db.select().from(chainTxs).where(eq(chainTxs.key, 'test:crash'));
    expect(row!.status).toBe('SENT');
    expect(await balance()).toBe(before);

    // The next start settles it; a later send under the key finds it done.
    expect(await outbox().settlePending()).toBe(1);
    expect(await balance()).toBe(before + 7n);
    const again = await outbox().send('test:crash', () => mintTx(7n));
    expect(again.transactionHash).toBe(row!.hash);
    expect(await balance()).toBe(before + 7n);
  });

  it('gives concurrent sends distinct nonces, and one key sent concurrently runs once', async () => {
    const before = await balance();
    const o = outbox();
    const receipts = await Promise.all([
      o.send('test:c1', () => mintTx(1n)),
      o.send('test:c2', () => mintTx(2n)),
      o.send('test:c3', () => mintTx(3n)),
      outbox().send('test:c3', () => mintTx(3n)),
    ]);
    expect(receipts.every((r) => r.status === 'success')).toBe(true);
    expect(receipts[3]!.transactionHash).toBe(receipts[2]!.transactionHash);
    expect(await balance()).toBe(before + 6n);
  });

  // Six deploy-suites at once each held a pooled connection in the database's queue for the signer's lock, with
  // the other work's connections, and the pool ran out (503s): a process's senders now wait their turn in memory.
  it.skipIf(name === 'pglite')(
    "holds one pooled connection for the signer's lock: the process's other sends wait in memory, not in the database's lock queue",
    async () => {
      const before = await balance();
      const o = outbox();
      const queued: number[] = [];
      const beforeSign = async (tx: Parameters<NonNullable<SendOptions['beforeSign']>>[0]) => {
        // Long enough for every other send to reach the lock if it could.
        await new Promise((resolve) => setTimeout(resolve, 150));
        const result = await tx.execute(
          sql`select count(*)::int as n from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock' and wait_event = 'advisory'`,
        );
        queued.push(rowsOf<{ n: number }>(result)[0]!.n);
      };
      await Promise.all(
        Array.from({ length: 4 }, (_, i) => o.send(`test:queue${i}`, () => mintTx(1n), { beforeSign })),
      );
      expect(queued).toEqual([0, 0, 0, 0]);
      expect(await balance()).toBe(before + 4n);
    },
  );

  it('makes a transaction anew when its nonce was taken by another before it was broadcast', async () => {
    const before = await balance();
    const crashing = outbox(crashBeforeBroadcast);
    await expect(crashing.send('test:dropped', () => mintTx(11n))).rejects.toThrow('crash');
    const [row] = await database.db.select().from(chainTxs).where(eq(chainTxs.key, 'test:dropped'));
    // Another transaction takes that nonce (e.g. an operator acting by hand with the same key).
    const other = await chain.chain.platform.sendTransaction({ to: recipient, value: 0n, nonce: row!.nonce });
    await chain.chain.publicClient.waitForTransactionReceipt({ hash: other });

    await outbox().settlePending();
    const [dropped] = await database.db.select().from(chainTxs).where(eq(chainTxs.key, 'test:dropped'));
    expect(dropped!.status).toBe('DROPPED');
    const receipt = await outbox().send('test:dropped', () => mintTx(11n));
    expect(receipt.status).toBe('success');
    expect(receipt.transactionHash).not.toBe(row!.hash as Hex);
    expect(await balance()).toBe(before + 11n);
  });

  it('proves a taken nonce on a node that keeps the state of recent blocks only', async () => {
    // A full node answers a count at an early block with an error, as anvil does before a reverted-to snapshot.
    const node = chain.chain.publicClient;
    const keptBlocks = 8n;
    const recentOnly = createPublicClient({
      chain: chain.chain.viemChain,
      transport: custom({
        async request({ method, params }) {
          if (method === 'eth_getTransactionCount' && typeof params[1] === 'string' && params[1].startsWith('0x')) {
            const latest = await node.getBlockNumber({ cacheTime: 0 });
            if (hexToBigInt(params[1] as Hex) + keptBlocks < latest) {
              throw new Error(`block height is ${latest} but requested was ${hexToBigInt(params[1] as Hex)}`);
            }
          }
          return node.request({ method, params } as never);
        },
      }),
    });
    // More blocks than the node keeps, so a bisection from the chain's start would read a pruned one.
    await anvilTestClient(chain.node.rpcUrl).mine({ blocks: 40 });
    const crashing = outbox(crashBeforeBroadcast);
    await expect(crashing.send('test:pruned', () => mintTx(13n))).rejects.toThrow('crash');
    const [row] = await database.db.select().from(chainTxs).where(eq(chainTxs.key, 'test:pruned'));
    const other = await chain.chain.platform.sendTransaction({ to: recipient, value: 0n, nonce: row!.nonce });
    await node.waitForTransactionReceipt({ hash: other });

    await outbox({ chain: { ...chain.chain, publicClient: recentOnly as typeof node } }).settlePending();
    const [dropped] = await database.db.select().from(chainTxs).where(eq(chainTxs.key, 'test:pruned'));
    expect(dropped!.status).toBe('DROPPED');
  });
});
