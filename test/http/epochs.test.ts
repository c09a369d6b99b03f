// Epoch rewards over HTTP on anvil with the deployed distributor (a week per epoch, moved with increaseTime):
// the running epoch's fields, the distribution (epoch 0 still running, the happy path against a hand-computed
// fixture of score snapshots, idempotence, an epoch without participants, the secret), the proof route, the
// claimable list (both variants, the 12-epoch cap), every outcome of the claim, and crashes: before and after the
// finalize transaction, before and after a claim transaction.

import { EpochDistributorAbi, PrimaryTokenAbi } from '@ai-economy/shared/abis';
import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import { and, eq, sql } from 'drizzle-orm';
import { type Address, getAddress, type Hex, keccak256, type TransactionReceipt, toHex, zeroHash } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import type { EpochInfo } from '../../src/chain/contracts/distributor.ts';
import { companyKey } from '../../src/chain/contracts/launcher.ts';
import { buildEpochTree, EPOCH_LEAF_ENCODING, rewardOf } from '../../src/chain/merkle.ts';
import { createOutbox, type Outbox } from '../../src/chain/outbox.ts';
import { chainTxs } from '../../src/db/schema/chain.ts';
import { companies } from '../../src/db/schema/companies.ts';
import { rewardClaims, rewardEpochs } from '../../src/db/schema/epochs.ts';
import { platformEvents } from '../../src/db/schema/events.ts';
import { scoreSnapshots } from '../../src/db/schema/scores.ts';
import { claimEpochReward } from '../../src/domain/epochs/claim.ts';
import { distributeEpoch } from '../../src/domain/epochs/distribute.ts';
import { readEventsByIds } from '../../src/domain/events/store.ts';
import { utcDateOf } from '../../src/domain/scores/dates.ts';
import { jobs, runJobOnce, startupJobs } from '../../src/jobs/scheduler.ts';
import { useTestApp } from '../helpers/app.ts';
import { anvilTestClient } from '../helpers/chain.ts';
import { mintCard, signed } from '../helpers/companies.ts';
import { platformEventCheck } from '../helpers/openapi.ts';
import { runCommonRouteTests } from '../helpers/security.ts';

const CRON = 'cron-secret-for-epochs';
const ADMIN = 'admin-secret-for-epochs';
const t = useTestApp({ env: { CRON_SECRET: CRON, ADMIN_SECRET: ADMIN } });

const WEEK = 604_800n;
const POOL = 100_000n * 10n ** 18n;

let testClient: ReturnType<typeof anvilTestClient>;

const distributor = () => t.chain.chain.contracts.distributor!;
const primary = () => t.chain.chain.contracts.primaryToken!;
const db = () => t.database.db;

function read<T>(functionName: string, args: readonly unknown[] = []): Promise<T> {
  return testClient.readContract({
    address: distributor(),
    abi: EpochDistributorAbi,
    functionName,
    args,
  } as any) as Promise<T>;
}
const epochInfo = (epoch: number) => read<EpochInfo>('epochInfo', [BigInt(epoch)]);
const balanceOf = (account: Address) =>
  testClient.readContract({ address: primary(), abi: PrimaryTokenAbi, functionName: 'balanceOf', args: [account] });
const blockNumber = () => testClient.getBlockNumber({ cacheTime: 0 });

const cron = (secret: string | null = CRON) =>
  t.app.inject({
    method: 'POST',
    url: '/api/cron/epoch-distribute',
    headers: secret === null ? {} : { authorization: `Bearer ${secret}` },
  });
const get = (url: string) => t.app.inject({ method: 'GET', url });
const claim = (signer: number, body: unknown) => signed(t.app, signer, 'POST', '/api/epochs/claim', body);
/** Dev account 9, a stranger to the company, claims a leaf with its public proof (anyone may). */
const claimWithPublicProof = (epoch: number, proof: any) =>
  t.chain.wallet(9).writeContract({
    address: distributor(),
    abi: EpochDistributorAbi,
    functionName: 'claim',
    args: [
      BigInt(epoch),
      BigInt(proof.leaf.index),
      proof.leaf.companyKey,
      proof.leaf.claimTo,
      BigInt(proof.leaf.score),
      proof.proof,
    ],
  });

let startTime: bigint;
/** The window of epoch `e` in seconds. */
const windowOf = (e: number) => ({ start: startTime + BigInt(e) * WEEK, end: startTime + BigInt(e + 1) * WEEK });
/** The snapshot date `day` days into epoch `e` (its 00:00 UTC is in the window for day 0-6; day 7 is the next epoch). */
const dateIn = (e: number, day: number) => utcDateOf(Number(windowOf(e).start + BigInt(day) * 86_400n) * 1000);

/** Mines a block in epoch `e` (a few seconds after it starts). */
async function moveTo(e: number) {
  const latest = await testClient.getBlock();
  const target = windowOf(e).start + 5n;
  expect(latest.timestamp).toBeLessThan(target);
  await testClient.increaseTime({ seconds: Number(target - latest.timestamp) });
  await testClient.mine({ blocks: 1 });
  expect(await read<bigint>('currentEpoch')).toBe(BigInt(e));
}

/** A fresh address that never held tokens. */
const freshAddress = (label: string): Address => getAddress(`0x${keccak256(toHex(`epochs:${label}`)).slice(26)}`);

/** A company of dev account `creator`, bound to a card it really holds (claims check the holder on-chain). */
async function company(id: string, creator: number, treasury: Address | null) {
  const card = Number(await mintCard(t.chain, creator));
  await db()
    .insert(companies)
    .values({
      id,
      name: id.toUpperCase(),
      slug: `${id}-slug`,
      creatorAddress: devAccount(creator).address,
      cardTokenId: card,
      cardLockedAt: new Date(),
      category: 'AI_TOKENS',
      treasuryAddress: treasury,
      // Created a day before epoch 0 starts, so every snapshot dated in the window covers a whole day of the company.
      createdAt: new Date(Number(windowOf(0).start - 86_400n) * 1000),
    });
}

async function snapshot(companyId: string, date: string, overall: number) {
  await db().insert(scoreSnapshots).values({
    snapshotDate: date,
    companyId,
    category: 'AI_TOKENS',
    treasuryRaw: 0n,
    tradingRaw: 0n,
    volumeRaw: 0n,
    activityRaw: 0,
    completenessRaw: 0,
    treasuryScore: 0,
    tradingScore: 0,
    volumeScore: 0,
    activityScore: 0,
    completenessScore: 0,
    referralBoost: 0,
    overall,
    rank: 1,
  });
}

const epochRow = async (epoch: number) =>
  (await db().select().from(rewardEpochs).where(eq(rewardEpochs.epoch, epoch)))[0];
const claimRow = async (epoch: number, companyId: string) =>
  (
    await db()
      .select()
      .from(rewardClaims)
      .where(and(eq(rewardClaims.epoch, epoch), eq(rewardClaims.companyId, companyId)))
  )[0];
const finalizedEvents = (epoch: number) =>
  db()
    .select()
    .from(platformEvents)
    .where(
      and(
        eq(platformEvents.type, 'season'),
        sql`${platformEvents.data}->>'kind' = 'epoch_finalized'`,
        sql`(${platformEvents.data}->>'epoch')::integer = ${epoch}`,
      ),
    );
const outboxHash = async (key: string) =>
  (await db().select().from(chainTxs).where(eq(chainTxs.key, key)))[0]?.hash as Hex | undefined;

// The fixture: treasuries are fresh addresses, so their balances are the rewards exactly.
const TA = freshAddress('a');
const TB = freshAddress('b');
const TD = freshAddress('d');
const TE = freshAddress('e');
// Scores of epoch 0: floor(100 * sum of overall / 7) of the snapshots dated inside the window's 7 days.
const SCORE_A = 1439n; // floor(100 * (50.25 + 50.50) / 7); the 100.00 dated on the next epoch's first day does not count
const SCORE_B = 857n; // floor(100 * (10.00 + 20.01 + 30.00) / 7)
const TOTAL0 = SCORE_A + SCORE_B;

beforeAll(async () => {
  testClient = anvilTestClient(t.chain.node.rpcUrl, t.chain.chain.viemChain);
  startTime = await read<bigint>('startTime');
  await company('ep-a', 1, TA);
  await company('ep-b', 2, TB);
  await company('ep-c', 3, null); // no treasury: not eligible whatever its score
  await company('ep-d', 4, TD); // scores 0: left out
  await company('ep-e', 5, TE); // snapshots outside the window only
  await snapshot('ep-a', dateIn(0, 0), 50.25);
  await snapshot('ep-a', dateIn(0, 6), 50.5);
  await snapshot('ep-a', dateIn(0, 7), 100);
  await snapshot('ep-b', dateIn(0, 1), 10);
  await snapshot('ep-b', dateIn(0, 2), 20.01);
  await snapshot('ep-b', dateIn(0, 3), 30);
  await snapshot('ep-c', dateIn(0, 1), 90);
  await snapshot('ep-d', dateIn(0, 1), 0);
  await snapshot('ep-d', dateIn(0, 2), 0);
  await snapshot('ep-e', dateIn(0, -1), 80);
  await snapshot('ep-e', dateIn(0, 7), 80);
});

describe('GET /api/epochs/current', () => {
  it('reads the running epoch from the distributor', async () => {
    const res = await get('/api/epochs/current');
    expect(res.statusCode, res.body).toBe(200);
    const latest = await testClient.getBlock();
    const current = await read<bigint>('currentEpoch');
    const end = startTime + (current + 1n) * WEEK;
    expect(res.json()).toEqual({
      success: true,
      data: {
        epochNumber: Number(current),
        startTime: Number(startTime + current * WEEK),
        endTime: Number(end),
        rewardPool: POOL.toString(),
        totalScore: '0',
        totalClaimed: '0',
        companyCount: 0,
        finalized: false,
        epochDuration: Number(WEEK),
        nextEpochIn: Number(end - latest.timestamp),
      },
    });
    expect(current).toBe(0n);
  });
});

describe('POST /api/cron/epoch-distribute', () => {
  it('needs the cron or the admin secret', async () => {
    for (const secret of [null, 'wrong', `${CRON}x`]) {
      const res = await cron(secret);
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('UNAUTHORIZED');
    }
    const basic = await t.app.inject({
      method: 'POST',
      url: '/api/cron/epoch-distribute',
      headers: { authorization: `Basic ${CRON}` },
    });
    expect(basic.statusCode).toBe(401);
    expect((await cron(ADMIN)).statusCode).toBe(200);
  });

  it('while epoch 0 runs: already_processed with a reason, nothing sent', async () => {
    const before = await blockNumber();
    const res = await cron();
    expect(res.json()).toEqual({
      success: true,
      data: { epoch: 0, status: 'already_processed', reason: 'no_epoch_ended_yet' },
    });
    expect(await blockNumber()).toBe(before);
    expect(await epochRow(0)).toBeUndefined();
  });

  it('finalizes the ended epoch: eligible companies, their mean scores, exact amounts, the root on-chain', async () => {
    await moveTo(1);
    const res = await cron();
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toEqual({
      epoch: 0,
      participantCount: 2,
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      status: 'finalized',
    });
    expect(data.txHash).toBe(await outboxHash('epoch-finalize:0'));

    const expected = buildEpochTree(0, [
      { companyKey: companyKey('ep-a'), claimTo: TA, score: SCORE_A },
      { companyKey: companyKey('ep-b'), claimTo: TB, score: SCORE_B },
    ]);
    const info = await epochInfo(0);
    expect(info.merkleRoot).toBe(expected.root);
    expect(info.totalScore).toBe(TOTAL0);
    expect(info.rewardPool).toBe(POOL);
    expect(info.companyCount).toBe(2n);
    expect(info.finalizedAt).toBeGreaterThan(0n);

    const row = (await epochRow(0))!;
    const receipt = await testClient.getTransactionReceipt({ hash: data.txHash });
    const block = await testClient.getBlock({ blockNumber: receipt.blockNumber });
    expect(row).toMatchObject({
      epoch: 0,
      windowStart: new Date(Number(windowOf(0).start) * 1000),
      windowEnd: new Date(Number(windowOf(0).end) * 1000),
      merkleRoot: expected.root,
      totalScore: TOTAL0,
      rewardPool: POOL,
      companyCount: 2,
      status: 'FINALIZED',
      finalizeTxHash: data.txHash,
      finalizedAt: new Date(Number(block.timestamp) * 1000),
    });
    const claims = await db().select().from(rewardClaims).where(eq(rewardClaims.epoch, 0));
    expect(claims.map((c) => c.companyId).sort()).toEqual(['ep-a', 'ep-b']);
    for (const c of claims) {
      const leaf = expected.leaves.find((l) => l.companyKey === c.companyKey)!;
      expect(c).toMatchObject({
        leafIndex: leaf.index,
        claimTo: leaf.claimTo,
        score: leaf.score,
        amount: rewardOf(POOL, leaf.score, TOTAL0),
        proof: leaf.proof,
        status: 'PENDING',
        claimTxHash: null,
      });
    }
    expect((await claimRow(0, 'ep-a'))!.amount).toBe((POOL * SCORE_A) / TOTAL0);

    const events = await finalizedEvents(0);
    expect(events).toHaveLength(1);
    expect(events[0]!.companyId).toBe('ep-a'); // the epoch's best score
    expect(events[0]!.data).toEqual({
      kind: 'epoch_finalized',
      epoch: 0,
      participantCount: 2,
      rewardPool: POOL.toString(),
      txHash: data.txHash,
    });
    // As the stream sends it (the store joins the company's slug).
    const [read] = await readEventsByIds(t.database.db, [events[0]!.id]);
    expect(platformEventCheck(t.app)(read)).toBeNull();
  });

  it('is idempotent: a second call answers already_processed and sends nothing', async () => {
    const before = await blockNumber();
    for (const secret of [CRON, ADMIN]) {
      expect((await cron(secret)).json()).toEqual({ success: true, data: { epoch: 0, status: 'already_processed' } });
    }
    expect(await blockNumber()).toBe(before);
    expect(await finalizedEvents(0)).toHaveLength(1);
  });

  it('runs from the scheduler too: the epoch-distribute job, hourly and at start', async () => {
    const job = jobs.find((j) => j.name === 'epoch-distribute')!;
    expect(job.pattern).toMatch(/^\S+ \* \* \* \*$/);
    expect(startupJobs).toContain('epoch-distribute');
    const before = await blockNumber();
    expect(await runJobOnce(job, t.container)).toBe(true);
    expect(await blockNumber()).toBe(before);
  });
});

describe('GET /api/epochs/{epoch}/proof/{companyId}', () => {
  it("serves the leaf and proof, which verify against the chain's root", async () => {
    const res = await get('/api/epochs/0/proof/ep-a');
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    const row = (await claimRow(0, 'ep-a'))!;
    expect(data).toEqual({
      epoch: 0,
      companyId: 'ep-a',
      leaf: {
        index: row.leafIndex,
        companyKey: companyKey('ep-a'),
        claimTo: TA,
        score: SCORE_A.toString(),
        amount: row.amount.toString(),
      },
      proof: row.proof,
      root: (await epochInfo(0)).merkleRoot,
      claimed: false,
    });
    const value = [0n, BigInt(data.leaf.index), data.leaf.companyKey, data.leaf.claimTo, BigInt(data.leaf.score)];
    expect(StandardMerkleTree.verify(data.root, [...EPOCH_LEAF_ENCODING], value, data.proof)).toBe(true);
    // By slug too.
    expect((await get('/api/epochs/0/proof/ep-a-slug')).json().data.companyId).toBe('ep-a');
  });

  it('answers 404 without a leaf, and 400 for an epoch that is not a non-negative integer', async () => {
    for (const url of [
      '/api/epochs/0/proof/ep-c',
      '/api/epochs/0/proof/ep-d',
      '/api/epochs/7/proof/ep-a',
      '/api/epochs/0/proof/nobody',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
    }
    for (const epoch of ['-1', '1.5', 'abc', '1e3', '99999999999']) {
      const res = await get(`/api/epochs/${epoch}/proof/ep-a`);
      expect(res.statusCode, epoch).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
  });
});

describe('GET /api/epochs/claimable/{companyId}', () => {
  it('lists the finalized rewards and the unclaimed total', async () => {
    const amount = (await claimRow(0, 'ep-a'))!.amount.toString();
    const res = await get('/api/epochs/claimable/ep-a');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      data: {
        companyId: 'ep-a',
        treasuryAddress: TA,
        claimable: [{ epochNumber: 0, amount, alreadyClaimed: false }],
        totalClaimable: amount,
      },
    });
    // A company with a treasury and no reward: an empty list.
    expect((await get('/api/epochs/claimable/ep-d')).json().data).toEqual({
      companyId: 'ep-d',
      treasuryAddress: TD,
      claimable: [],
      totalClaimable: '0',
    });
  });

  it('answers the no_treasury_address variant, and 404 for an unknown company', async () => {
    expect((await get('/api/epochs/claimable/ep-c')).json()).toEqual({
      success: true,
      data: {
        companyId: 'ep-c',
        treasuryAddress: null,
        claimable: [],
        totalClaimable: '0',
        reason: 'no_treasury_address',
      },
    });
    const res = await get('/api/epochs/claimable/nobody');
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('NOT_FOUND');
  });

  it('returns the last 12 finalized epochs at most, newest first', async () => {
    await company('ep-cap', 6, freshAddress('cap'));
    for (let e = 100; e <= 115; e++) {
      await db()
        .insert(rewardEpochs)
        .values({
          epoch: e,
          windowStart: new Date(),
          windowEnd: new Date(),
          merkleRoot: keccak256(toHex(e)),
          totalScore: 10n,
          rewardPool: 1000n,
          companyCount: 1,
          status: e === 115 ? 'PREPARED' : 'FINALIZED',
        });
      await db()
        .insert(rewardClaims)
        .values({
          epoch: e,
          companyId: 'ep-cap',
          leafIndex: 0,
          companyKey: companyKey('ep-cap'),
          claimTo: freshAddress('cap'),
          score: 10n,
          amount: BigInt(e),
          proof: [],
          status: e % 2 === 0 ? 'CLAIMED' : 'PENDING',
        });
    }
    const data = (await get('/api/epochs/claimable/ep-cap')).json().data;
    expect(data.claimable.map((c: { epochNumber: number }) => c.epochNumber)).toEqual([
      114, 113, 112, 111, 110, 109, 108, 107, 106, 105, 104, 103,
    ]);
    expect(data.claimable[0]).toEqual({ epochNumber: 114, amount: '114', alreadyClaimed: true });
    expect(data.claimable[1]).toEqual({ epochNumber: 113, amount: '113', alreadyClaimed: false });
    expect(data.totalClaimable).toBe(String(113 + 111 + 109 + 107 + 105 + 103));
  });
});

describe('POST /api/epochs/claim', () => {
  it('refuses bad bodies with 400 VALIDATION_ERROR', async () => {
    const bad: unknown[] = [
      {},
      { companyId: 'ep-a' },
      { epochNumber: 0 },
      { companyId: 'ep-a', epochNumber: -1 },
      { companyId: 'ep-a', epochNumber: 1.5 },
      { companyId: 'ep-a', epochNumber: '0' },
      { companyId: '', epochNumber: 0 },
      { companyId: 7, epochNumber: 0 },
      { companyId: 'ep-a', epochNumber: 0, extra: true },
    ];
    for (const body of bad) {
      const res = await claim(1, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
  });

  it('answers 404 for an unknown company and 403 for anyone but the creator', async () => {
    const unknown = await claim(1, { companyId: 'nobody', epochNumber: 0 });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('NOT_FOUND');
    const other = await claim(2, { companyId: 'ep-a', epochNumber: 0 });
    expect(other.statusCode).toBe(403);
    expect(other.json().error.code).toBe('FORBIDDEN');
  });

  it('answers 400 BAD_REQUEST for an epoch not finalized, no treasury, or no reward in the epoch', async () => {
    const cases: [number, unknown, RegExp][] = [
      [1, { companyId: 'ep-a', epochNumber: 1 }, /not finalized/],
      [1, { companyId: 'ep-a', epochNumber: 5000 }, /not finalized/],
      [3, { companyId: 'ep-c', epochNumber: 0 }, /no treasury address/],
      [4, { companyId: 'ep-d', epochNumber: 0 }, /no reward in epoch 0/],
    ];
    const before = await blockNumber();
    for (const [signer, body, message] of cases) {
      const res = await claim(signer, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.code).toBe('BAD_REQUEST');
      expect(res.json().error.message).toMatch(message);
    }
    expect(await blockNumber()).toBe(before);
  });

  it('mints the reward to the treasury exactly, once; a second claim answers alreadyClaimed', async () => {
    const row = (await claimRow(0, 'ep-a'))!;
    expect(await balanceOf(TA)).toBe(0n);
    const res = await claim(1, { companyId: 'ep-a', epochNumber: 0 });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toEqual({
      success: true,
      alreadyClaimed: false,
      txHash: await outboxHash('epoch-claim:0:ep-a'),
      amount: row.amount.toString(),
      epoch: 0,
    });
    expect(await balanceOf(TA)).toBe(row.amount);
    expect(row.amount).toBe(rewardOf(POOL, SCORE_A, TOTAL0));
    expect(await read<boolean>('isClaimed', [0n, BigInt(row.leafIndex)])).toBe(true);
    expect((await epochInfo(0)).totalClaimed).toBe(row.amount);
    expect(await claimRow(0, 'ep-a')).toMatchObject({ status: 'CLAIMED', claimTxHash: data.txHash });

    const before = await blockNumber();
    const again = await claim(1, { companyId: 'ep-a', epochNumber: 0 });
    expect(again.json()).toEqual({
      success: true,
      data: { success: true, alreadyClaimed: true, txHash: null, amount: '0', epoch: 0 },
    });
    expect(await blockNumber()).toBe(before);
    expect(await balanceOf(TA)).toBe(row.amount);

    const claimable = (await get('/api/epochs/claimable/ep-a')).json().data;
    expect(claimable.claimable).toEqual([{ epochNumber: 0, amount: row.amount.toString(), alreadyClaimed: true }]);
    expect(claimable.totalClaimable).toBe('0');
    expect((await get('/api/epochs/0/proof/ep-a')).json().data.claimed).toBe(true);
  });

  runCommonRouteTests(() => ({ app: t.app, now: Date.now }), {
    method: 'POST',
    url: '/api/epochs/claim',
    body: { companyId: 'ep-b', epochNumber: 0 },
  });
});

describe('later epochs', () => {
  it("count the snapshots dated on their first day (00:00 UTC of the window's start)", async () => {
    await moveTo(2);
    const res = await cron();
    expect(res.json().data).toMatchObject({ epoch: 1, participantCount: 2, status: 'finalized' });
    const claims = await db().select().from(rewardClaims).where(eq(rewardClaims.epoch, 1));
    expect(claims.map((c) => [c.companyId, c.score]).sort()).toEqual([
      ['ep-a', 1_428n], // floor(100 * 100 / 7)
      ['ep-e', 1_142n], // floor(100 * 80 / 7)
    ]);
    expect((await epochInfo(1)).totalScore).toBe(2_570n);
    expect((await finalizedEvents(1))[0]!.companyId).toBe('ep-a');
  });

  it('an epoch without participants is finalized with zeros and a season event', async () => {
    await moveTo(3);
    const res = await cron();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ epoch: 2, participantCount: 0, status: 'finalized' });
    expect(await epochInfo(2)).toMatchObject({
      merkleRoot: zeroHash,
      totalScore: 0n,
      rewardPool: 0n,
      companyCount: 0n,
    });
    expect(await read<boolean>('isFinalized', [2n])).toBe(true);
    expect(await epochRow(2)).toMatchObject({
      status: 'FINALIZED',
      merkleRoot: zeroHash,
      rewardPool: 0n,
      companyCount: 0,
    });
    expect(await db().select().from(rewardClaims).where(eq(rewardClaims.epoch, 2))).toEqual([]);
    const [event] = await finalizedEvents(2);
    expect(event!.data).toEqual({
      kind: 'epoch_finalized',
      epoch: 2,
      participantCount: 0,
      rewardPool: '0',
      txHash: res.json().data.txHash,
    });
    const claimRes = await claim(1, { companyId: 'ep-a', epochNumber: 2 });
    expect(claimRes.statusCode).toBe(400);
    expect(claimRes.json().error.message).toMatch(/no reward in epoch 2/);
  });
});

/** An outbox that records the transaction and dies before broadcasting it. */
function crashingBeforeBroadcast(): Outbox {
  return createOutbox({
    db: t.database.db,
    chain: t.chain.chain,
    wallet: t.chain.chain.oracle,
    beforeBroadcast: () => {
      throw new Error('crash before broadcast');
    },
  });
}

/** The real outbox, but the process dies once the transaction is mined, before anything is recorded. */
function crashingAfterReceipt(receipts: TransactionReceipt[]): Outbox {
  const real = t.container.oracleOutbox;
  return {
    send: async (key, build) => {
      receipts.push(await real.send(key, build));
      throw new Error('crash after receipt');
    },
    settlePending: () => real.settlePending(),
    recheckMined: (finalized) => real.recheckMined(finalized),
  };
}

describe('crashes', () => {
  it('(a) after the PREPARED record, before the finalize broadcast: the rerun finalizes once, with the same root', async () => {
    await snapshot('ep-a', dateIn(3, 0), 40);
    await snapshot('ep-b', dateIn(3, 0), 60);
    await moveTo(4);
    const before = await blockNumber();
    await expect(distributeEpoch({ ...t.container, oracleOutbox: crashingBeforeBroadcast() })).rejects.toThrow(
      'crash before broadcast',
    );
    expect(await blockNumber()).toBe(before);
    expect(await read<boolean>('isFinalized', [3n])).toBe(false);
    const prepared = (await epochRow(3))!;
    expect(prepared).toMatchObject({ status: 'PREPARED', totalScore: 1_428n, companyCount: 2, finalizeTxHash: null });
    const recorded = await outboxHash('epoch-finalize:3');
    expect(recorded).toBeDefined();

    // The snapshots change meanwhile: the prepared tree is used as it was, never recomputed.
    await snapshot('ep-a', dateIn(3, 1), 100);
    await snapshot('ep-d', dateIn(3, 1), 100);

    const res = await cron();
    expect(res.json().data).toEqual({ epoch: 3, participantCount: 2, txHash: recorded, status: 'finalized' });
    expect((await epochInfo(3)).merkleRoot).toBe(prepared.merkleRoot);
    expect((await epochInfo(3)).totalScore).toBe(1_428n);
    expect(await epochRow(3)).toMatchObject({
      status: 'FINALIZED',
      merkleRoot: prepared.merkleRoot,
      finalizeTxHash: recorded,
    });
    expect(await db().select().from(rewardClaims).where(eq(rewardClaims.epoch, 3))).toHaveLength(2);
    expect(await finalizedEvents(3)).toHaveLength(1);
    // One finalize transaction: the recorded one.
    const logs = await testClient.getContractEvents({
      address: distributor(),
      abi: EpochDistributorAbi,
      eventName: 'EpochFinalized',
      args: { epoch: 3n },
      fromBlock: 0n,
    });
    expect(logs.map((l) => l.transactionHash)).toEqual([recorded]);
  });

  it('(c) a claim crashing before its broadcast is paid once by the rerun', async () => {
    const row = (await claimRow(3, 'ep-a'))!;
    const before = await balanceOf(TA);
    await expect(
      claimEpochReward({ ...t.container, oracleOutbox: crashingBeforeBroadcast() }, 'ep-a', 3, devAccount(1).address),
    ).rejects.toThrow('crash before broadcast');
    expect(await balanceOf(TA)).toBe(before);
    expect((await claimRow(3, 'ep-a'))!.status).toBe('PENDING');
    const recorded = await outboxHash('epoch-claim:3:ep-a');

    const res = await claim(1, { companyId: 'ep-a', epochNumber: 3 });
    expect(res.json().data).toEqual({
      success: true,
      alreadyClaimed: false,
      txHash: recorded,
      amount: rewardOf(POOL, 571n, 1_428n).toString(),
      epoch: 3,
    });
    expect(await balanceOf(TA)).toBe(before + row.amount);
    expect(await claimRow(3, 'ep-a')).toMatchObject({ status: 'CLAIMED', claimTxHash: recorded });
    expect((await claim(1, { companyId: 'ep-a', epochNumber: 3 })).json().data.alreadyClaimed).toBe(true);
    expect(await balanceOf(TA)).toBe(before + row.amount);
  });

  it('(b) after the finalize is mined, before the record: the rerun answers already_finalized and completes it', async () => {
    await snapshot('ep-a', dateIn(4, 2), 25);
    await snapshot('ep-b', dateIn(4, 2), 75);
    await moveTo(5);
    const receipts: TransactionReceipt[] = [];
    await expect(distributeEpoch({ ...t.container, oracleOutbox: crashingAfterReceipt(receipts) })).rejects.toThrow(
      'crash after receipt',
    );
    expect(receipts).toHaveLength(1);
    const info = await epochInfo(4);
    expect(info.finalizedAt).toBeGreaterThan(0n);
    const prepared = (await epochRow(4))!;
    expect(prepared.status).toBe('PREPARED');
    expect(await finalizedEvents(4)).toHaveLength(0);

    const before = await blockNumber();
    expect((await cron()).json()).toEqual({ success: true, data: { epoch: 4, status: 'already_finalized' } });
    expect(await blockNumber()).toBe(before);
    const row = (await epochRow(4))!;
    expect(row).toMatchObject({
      status: 'FINALIZED',
      merkleRoot: info.merkleRoot,
      totalScore: info.totalScore,
      rewardPool: info.rewardPool,
      companyCount: Number(info.companyCount),
      finalizeTxHash: receipts[0]!.transactionHash,
      finalizedAt: new Date(Number(info.finalizedAt) * 1000),
    });
    const events = await finalizedEvents(4);
    expect(events).toHaveLength(1);
    expect(events[0]!.companyId).toBe('ep-b');
    expect(events[0]!.data).toMatchObject({ participantCount: 2, txHash: receipts[0]!.transactionHash });
    expect((await cron()).json().data).toEqual({ epoch: 4, status: 'already_processed' });
  });

  it("(d) after the claim is mined, before the record: the rerun pays nothing and records the chain's transaction", async () => {
    const row = (await claimRow(4, 'ep-b'))!;
    const before = await balanceOf(TB);
    const receipts: TransactionReceipt[] = [];
    await expect(
      claimEpochReward(
        { ...t.container, oracleOutbox: crashingAfterReceipt(receipts) },
        'ep-b',
        4,
        devAccount(2).address,
      ),
    ).rejects.toThrow('crash after receipt');
    expect(await balanceOf(TB)).toBe(before + row.amount);
    expect((await claimRow(4, 'ep-b'))!.status).toBe('PENDING');

    const blockBefore = await blockNumber();
    const res = await claim(2, { companyId: 'ep-b', epochNumber: 4 });
    expect(res.json().data).toEqual({ success: true, alreadyClaimed: true, txHash: null, amount: '0', epoch: 4 });
    expect(await blockNumber()).toBe(blockBefore);
    expect(await balanceOf(TB)).toBe(before + row.amount);
    const after = (await claimRow(4, 'ep-b'))!;
    expect(after.status).toBe('CLAIMED');
    expect(after.claimTxHash).toBe(receipts[0]!.transactionHash);
    const block = await testClient.getBlock({ blockNumber: receipts[0]!.blockNumber });
    expect(after.claimedAt).toEqual(new Date(Number(block.timestamp) * 1000));
  });

  it('a leaf claimed by someone else with the public proof is recorded from the Claimed log', async () => {
    const proof = (await get('/api/epochs/4/proof/ep-a')).json().data;
    const before = await balanceOf(TA);
    const hash = await claimWithPublicProof(4, proof);
    await testClient.waitForTransactionReceipt({ hash });
    expect(await balanceOf(TA)).toBe(before + BigInt(proof.leaf.amount));
    const res = await claim(1, { companyId: 'ep-a', epochNumber: 4 });
    expect(res.json().data.alreadyClaimed).toBe(true);
    expect(await claimRow(4, 'ep-a')).toMatchObject({ status: 'CLAIMED', claimTxHash: hash });
    expect(await balanceOf(TA)).toBe(before + BigInt(proof.leaf.amount));
  });

  it("a leaf paid by a transaction the node no longer shows is recorded at the chain's time, not the server's", async () => {
    const proof = (await get('/api/epochs/3/proof/ep-b')).json().data;
    const wallet = t.chain.wallet(9);
    const hash = await claimWithPublicProof(3, proof);
    const paid = await testClient.waitForTransactionReceipt({ hash });
    // The Claimed log is searched from the epoch's finalization on: pointing that at a later transaction hides the
    // log, as a node that no longer serves old logs would.
    const later = await testClient.waitForTransactionReceipt({
      hash: await wallet.sendTransaction({ to: wallet.account.address, value: 0n }),
    });
    await db().update(rewardEpochs).set({ finalizeTxHash: later.transactionHash }).where(eq(rewardEpochs.epoch, 3));
    const res = await claim(2, { companyId: 'ep-b', epochNumber: 3 });
    expect(res.json().data.alreadyClaimed).toBe(true);
    const row = (await claimRow(3, 'ep-b'))!;
    expect(row).toMatchObject({ status: 'CLAIMED', claimTxHash: null });
    // The chain runs weeks ahead of the server here (epoch 5): the paying block's time is a lower bound.
    const paidAt = Number((await testClient.getBlock({ blockNumber: paid.blockNumber })).timestamp) * 1000;
    expect(paidAt - Date.now()).toBeGreaterThan(86_400_000);
    expect(row.claimedAt!.getTime()).toBeGreaterThanOrEqual(paidAt);
  });
});
