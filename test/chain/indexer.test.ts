// The chain indexer on anvil and each test database: access card transfers move the bound company and its agents
// to the new holder, exactly once across polls and restarts, only once confirmed, and never past a failure.

import { AccessCardAbi, MockUSDCAbi } from '@ai-economy/shared/abis';
import { eq, inArray } from 'drizzle-orm';
import type pg from 'pg';
import { type Address, createPublicClient, custom, type Hex, parseEventLogs } from 'viem';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cardTransferEvent } from '../../src/chain/contracts/access-card.ts';
import { createLogFollower, type FollowedLog } from '../../src/chain/indexer.ts';
import { type FollowOptions, followStream } from '../../src/chain/streams.ts';
import { CARD_MINT_PRICE_USDC } from '../../src/constants.ts';
import type { Database } from '../../src/db/client.ts';
import { agents } from '../../src/db/schema/agents.ts';
import { chainCursors } from '../../src/db/schema/chain.ts';
import { companies } from '../../src/db/schema/companies.ts';
import { accessCardTransfers, applyCardTransfers } from '../../src/domain/companies/access-card-transfers.stream.ts';
import { anvilTestClient, startTestChain, type TestChain } from '../helpers/chain.ts';
import { testDatabases } from '../helpers/db.ts';

let chain: TestChain;
let anvil: ReturnType<typeof anvilTestClient>;
beforeAll(async () => {
  chain = await startTestChain();
  anvil = anvilTestClient(chain.node.rpcUrl, chain.chain.viemChain, 20);
});
afterAll(async () => {
  await chain?.stop();
});

describe.each(testDatabases)('card transfer indexer on $name', ({ name: dbName, open }) => {
  let database: Database;
  let snapshot: Hex;
  let card: Address;
  const addr = (i: number) => chain.wallet(i).account.address;

  beforeAll(async () => {
    // Each database sees the same chain history from the deployment on: the chain goes back after the suite.
    snapshot = await anvil.snapshot();
    database = await open();
    card = chain.chain.contracts.accessCard!;
  });
  afterAll(async () => {
    await database?.close();
    if (snapshot) await anvil.revert({ id: snapshot });
  });

  const mined = async (hash: Promise<Hex>) => {
    const receipt = await anvil.waitForTransactionReceipt({ hash: await hash });
    expect(receipt.status).toBe('success');
    return receipt;
  };
  async function mintCard(i: number): Promise<bigint> {
    const wallet = chain.wallet(i);
    await mined(
      wallet.writeContract({
        address: chain.chain.contracts.usdc!,
        abi: MockUSDCAbi,
        functionName: 'approve',
        args: [card, CARD_MINT_PRICE_USDC],
      }),
    );
    const receipt = await mined(wallet.writeContract({ address: card, abi: AccessCardAbi, functionName: 'mint' }));
    const [minted] = parseEventLogs({ abi: AccessCardAbi, eventName: 'Transfer', logs: receipt.logs });
    return minted!.args.tokenId;
  }
  const transfer = (from: number, to: number, tokenId: bigint) =>
    mined(
      chain.wallet(from).writeContract({
        address: card,
        abi: AccessCardAbi,
        functionName: 'transferFrom',
        args: [addr(from), addr(to), tokenId],
      }),
    );

  let seq = 0;
  /** A company bound to `tokenId`, created by `creator`, with an active, a terminated and a pending agent. */
  async function bindCompany(tokenId: bigint, creator: Address) {
    const id = `co_${dbName}_${++seq}`;
    await database.db.insert(companies).values({
      id,
      name: `Company ${seq}`,
      slug: `company-${seq}`,
      category: 'DEFI',
      creatorAddress: creator,
      cardTokenId: Number(tokenId),
    });
    const team = [
      { role: 'CEO', status: 'ACTIVE' },
      { role: 'CEO', status: 'TERMINATED' },
      { role: 'CFO', status: 'PENDING' },
    ];
    await database.db.insert(agents).values(
      team.map(({ role, status }, i) => ({
        id: `${id}_agent_${i}`,
        companyId: id,
        name: `Agent ${i}`,
        role,
        status,
        creatorAddress: creator,
        persona: { role, description: `${role} of ${id}` },
        skills: [],
        strategy: { type: 'balanced', preset: 'BALANCED' },
      })),
    );
    return id;
  }
  async function ownership(companyId: string) {
    const [company] = await database.db.select().from(companies).where(eq(companies.id, companyId));
    const team = await database.db.select().from(agents).where(eq(agents.companyId, companyId));
    return {
      creator: company!.creatorAddress,
      updatedAt: company!.updatedAt,
      agents: team.map((a) => a.creatorAddress),
    };
  }
  const everything = async () => ({
    companies: await database.db.select().from(companies).orderBy(companies.id),
    agents: await database.db.select().from(agents).orderBy(agents.id),
  });

  const follower = (options: FollowOptions = {}) =>
    followStream({ database, chain: chain.chain, config: { chainConfirmations: 0 } }, accessCardTransfers, options)!;
  /** Polls until caught up; returns every poll's result. */
  async function catchUp(f: ReturnType<typeof follower>) {
    const results = [];
    for (let i = 0; i < 100; i++) {
      const r = await f.pollOnce();
      results.push(r);
      if (r.caughtUp) return results;
    }
    throw new Error('never caught up');
  }

  let cardA: bigint;
  let companyA: string;
  let companyB: string;

  it('the access-card-transfers stream moves the company and all its agents to the card’s new holder', async () => {
    cardA = await mintCard(1);
    const cardB = await mintCard(2);
    companyA = await bindCompany(cardA, addr(1));
    companyB = await bindCompany(cardB, addr(2));
    const before = await ownership(companyA);
    await transfer(1, 3, cardA);

    const results = await catchUp(follower());
    // Two mints and one transfer, all Transfer events.
    expect(results.reduce((n, r) => n + r.applied, 0)).toBe(3);
    const last = results.at(-1)!;
    expect(last.cursor).toBe(await anvil.getBlockNumber({ cacheTime: 0 }));
    expect(await follower().cursor()).toBe(last.cursor);

    const after = await ownership(companyA);
    expect(after.creator).toBe(addr(3));
    expect(after.agents).toEqual([addr(3), addr(3), addr(3)]);
    expect(after.updatedAt.getTime()).toBeGreaterThan(before.updatedAt.getTime());
    expect(await ownership(companyB)).toMatchObject({ creator: addr(2), agents: [addr(2), addr(2), addr(2)] });
  });

  it('pollOnce again applies nothing and changes nothing', async () => {
    const before = await everything();
    const result = await follower().pollOnce();
    expect(result).toMatchObject({ applied: 0, caughtUp: true, busy: false });
    expect(result.to).toBeLessThan(result.from);
    expect(await everything()).toEqual(before);
  });

  it('applyCardTransfers applied twice to one batch changes nothing the second time', async () => {
    const logs = [{ args: { from: addr(1), to: addr(3), tokenId: cardA }, blockNumber: 1n }];
    const before = await everything();
    expect(await applyCardTransfers(database.db, logs)).toEqual({ companies: 0, agents: 0 });
    expect(await everything()).toEqual(before);
  });

  it('a new follower resumes from the persisted cursor and applies only the new transfer', async () => {
    const cursor = await follower().cursor();
    const receipt = await transfer(3, 4, cardA);
    const restarted = follower();
    const result = await restarted.pollOnce();
    expect(result).toMatchObject({ from: cursor + 1n, to: receipt.blockNumber, applied: 1, caughtUp: true });
    expect(await ownership(companyA)).toMatchObject({ creator: addr(4), agents: [addr(4), addr(4), addr(4)] });
  });

  it('createLogFollower hands every log to apply exactly once across restarts and small batches', async () => {
    const seen: FollowedLog<[typeof cardTransferEvent]>[] = [];
    const collector = (batchSize: number) =>
      createLogFollower({
        name: 'test-collector',
        db: database.db,
        client: chain.chain.publicClient,
        address: card,
        events: [cardTransferEvent],
        fromBlock: chain.chain.deployBlocks!.accessCard!,
        confirmations: 0,
        batchSize,
        apply: async (_tx, logs) => {
          seen.push(...logs);
        },
      });
    const first = await collector(3).pollOnce();
    expect(first.to - first.from).toBe(2n);
    expect(first.caughtUp).toBe(false);
    await catchUp(collector(3));
    await transfer(4, 5, cardA);
    await catchUp(collector(2000));

    const all = await chain.chain.publicClient.getLogs({
      address: card,
      event: cardTransferEvent,
      fromBlock: chain.chain.deployBlocks!.accessCard!,
      toBlock: 'latest',
    });
    const key = (l: { blockNumber: bigint; logIndex: number }) => `${l.blockNumber}:${l.logIndex}`;
    expect(seen.map(key)).toEqual(all.map(key));
    expect(seen.every((l) => l.eventName === 'Transfer')).toBe(true);
    // The main stream applies the same transfer.
    await catchUp(follower());
    expect((await ownership(companyA)).creator).toBe(addr(5));
  });

  it('several transfers of one card in one batch, even in one block: the last holder wins', async () => {
    await transfer(5, 6, cardA);
    await transfer(6, 7, cardA);
    // Two transfers in one block: 7 -> 2, then 2 -> 8 by 7 as an operator for 2.
    await mined(
      chain.wallet(2).writeContract({
        address: card,
        abi: AccessCardAbi,
        functionName: 'setApprovalForAll',
        args: [addr(7), true],
      }),
    );
    await anvil.setAutomine(false);
    try {
      const nonce = await anvil.getTransactionCount({ address: addr(7) });
      const send = (from: Address, to: Address, n: number) =>
        chain.wallet(7).writeContract({
          address: card,
          abi: AccessCardAbi,
          functionName: 'transferFrom',
          args: [from, to, cardA],
          nonce: n,
          gas: 200_000n,
        });
      const hashes = [await send(addr(7), addr(2), nonce), await send(addr(2), addr(8), nonce + 1)];
      await anvil.mine({ blocks: 1 });
      const receipts = await Promise.all(hashes.map((hash) => anvil.waitForTransactionReceipt({ hash })));
      expect(receipts.map((r) => r.status)).toEqual(['success', 'success']);
      expect(receipts[0]!.blockNumber).toBe(receipts[1]!.blockNumber);
    } finally {
      await anvil.setAutomine(true);
    }

    const results = await catchUp(follower());
    expect(results.reduce((n, r) => n + r.applied, 0)).toBe(4);
    expect(await ownership(companyA)).toMatchObject({ creator: addr(8), agents: [addr(8), addr(8), addr(8)] });
  });

  it('a transfer of a card bound to no company is ignored', async () => {
    const unbound = await mintCard(3);
    await transfer(3, 9, unbound);
    const before = await everything();
    const results = await catchUp(follower());
    expect(results.reduce((n, r) => n + r.applied, 0)).toBe(2);
    expect(await everything()).toEqual(before);
  });

  it('with confirmations 3, a transfer applies only once 3 more blocks are mined', async () => {
    const confirmed = follower({ confirmations: 3 });
    const receipt = await transfer(8, 9, cardA);
    expect((await confirmed.pollOnce()).applied).toBe(0);
    await anvil.mine({ blocks: 2 });
    const early = await confirmed.pollOnce();
    expect(early).toMatchObject({ applied: 0, caughtUp: true });
    expect(early.cursor).toBe(receipt.blockNumber - 1n);
    expect((await ownership(companyA)).creator).toBe(addr(8));

    await anvil.mine({ blocks: 1 });
    const result = await confirmed.pollOnce();
    expect(result).toMatchObject({ applied: 1, to: receipt.blockNumber, cursor: receipt.blockNumber });
    expect(confirmed.lag()).toBe(3n);
    expect((await ownership(companyA)).creator).toBe(addr(9));
    await anvil.mine({ blocks: 3 });
    await catchUp(follower());
  });

  /** A client on the same node whose eth_getLogs fails `failures` times. */
  function flakyClient(failures: number) {
    let left = failures;
    return createPublicClient({
      chain: chain.chain.viemChain,
      transport: custom(
        {
          request: async ({ method, params }) => {
            if (method === 'eth_getLogs' && left-- > 0) throw new Error('eth_getLogs failed');
            return chain.chain.publicClient.request({ method, params } as never);
          },
        },
        // No transport retries: each failure reaches the follower.
        { retryCount: 0 },
      ),
    });
  }

  it('an RPC failure in pollOnce leaves the cursor where it was', async () => {
    const cursor = await follower().cursor();
    await transfer(9, 1, cardA);
    const failing = followStream(
      { database, chain: { ...chain.chain, publicClient: flakyClient(1) as never }, config: { chainConfirmations: 0 } },
      accessCardTransfers,
      {},
    )!;
    await expect(failing.pollOnce()).rejects.toThrow();
    expect(await follower().cursor()).toBe(cursor);
    expect((await ownership(companyA)).creator).toBe(addr(9));

    await catchUp(follower());
    expect((await ownership(companyA)).creator).toBe(addr(1));
  });

  it('a failure while applying rolls back the batch and the cursor together', async () => {
    const cursor = await follower().cursor();
    await transfer(1, 2, cardA);
    const crashing = createLogFollower({
      name: accessCardTransfers.name,
      db: database.db,
      client: chain.chain.publicClient,
      address: card,
      events: [cardTransferEvent],
      fromBlock: 0n,
      confirmations: 0,
      apply: async (tx, logs) => {
        await applyCardTransfers(tx, logs);
        throw new Error('crash after applying');
      },
    });
    await expect(crashing.pollOnce()).rejects.toThrow('crash after applying');
    expect(await follower().cursor()).toBe(cursor);
    expect((await ownership(companyA)).creator).toBe(addr(1));

    await catchUp(follower());
    expect(await ownership(companyA)).toMatchObject({ creator: addr(2), agents: [addr(2), addr(2), addr(2)] });
  });

  it('start keeps polling through chain failures without throwing, and stop waits for it', async () => {
    const warn = vi.fn();
    const debug = vi.fn();
    const looping = followStream(
      { database, chain: { ...chain.chain, publicClient: flakyClient(2) as never }, config: { chainConfirmations: 0 } },
      accessCardTransfers,
      { log: { warn, debug } },
    )!;
    await transfer(2, 6, cardA);
    looping.start(10);
    try {
      await vi.waitFor(async () => expect((await ownership(companyA)).creator).toBe(addr(6)), { timeout: 10_000 });
    } finally {
      await looping.stop();
    }
    expect(warn).toHaveBeenCalledTimes(2);
    expect(debug).toHaveBeenCalledWith(
      expect.objectContaining({ follower: accessCardTransfers.name }),
      'applied chain logs',
    );
    expect(looping.lag()).toBe(0n);
  });

  it.runIf(dbName === 'postgres')('skips a poll while another replica holds the stream’s lock', async () => {
    const cursor = await follower().cursor();
    await transfer(6, 3, cardA);
    // A second connection to the same database stands in for another replica mid-batch.
    const replica = await (database.db as unknown as { $client: pg.Pool }).$client.connect();
    try {
      await replica.query('begin');
      await replica.query('select pg_advisory_xact_lock(hashtext($1))', [`indexer:${accessCardTransfers.name}`]);
      const result = await follower().pollOnce();
      expect(result).toMatchObject({ busy: true, applied: 0, caughtUp: false, cursor });
      expect(await follower().cursor()).toBe(cursor);
      await replica.query('rollback');
    } finally {
      replica.release();
    }
    await catchUp(follower());
    expect((await ownership(companyA)).creator).toBe(addr(3));
  });

  it('keeps the cursor row per stream', async () => {
    const rows = await database.db
      .select()
      .from(chainCursors)
      .where(inArray(chainCursors.name, [accessCardTransfers.name, 'test-collector']));
    expect(rows.map((r) => r.name).sort()).toEqual([accessCardTransfers.name, 'test-collector']);
  });
});
