// The daily score snapshot on a real chain and database: a hand-computed fixture of six companies (every raw
// value, component, the referral boost, overall, ranks and tie-breaks), a re-run that changes nothing, score
// events only for changed platform scores, the season event, the catch-up at start under a fake clock, the
// max == min rule, the referral cap, and treasuries kept from the last snapshot while the chain is down.
import { asc, eq, gt } from 'drizzle-orm';
import { type Address, getAddress } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { MockUSDCAbi } from '../../src/chain/generated/abis.ts';
import { AGENT_ROLES } from '../../src/constants.ts';
import { agents, companies } from '../../src/db/schema/companies.ts';
import { decisionRounds } from '../../src/db/schema/decisions.ts';
import { platformEvents } from '../../src/db/schema/events.ts';
import { scoreSnapshots } from '../../src/db/schema/scores.ts';
import { tokenTrades } from '../../src/db/schema/tokens.ts';
import { latestEventId } from '../../src/domain/events/store.ts';
import { takeScoreSnapshot } from '../../src/domain/scores/snapshot.ts';
import { jobs, runJobOnce, runStartupJobs } from '../../src/jobs/scheduler.ts';
import { useTestApp } from '../helpers/app.ts';

let clock = Date.parse('2026-03-10T00:00:00.250Z');
const t = useTestApp({ now: () => clock, chain: { timeoutMs: 1000 } });
const db = () => t.database.db;

const USDC = 1_000_000n;
const TREASURY_B = getAddress(`0x${'b0'.repeat(20)}`);
const TREASURY_C = getAddress(`0x${'c0'.repeat(20)}`);
const AGENT_A = getAddress(`0x${'a1'.repeat(20)}`);
const AGENT_B = getAddress(`0x${'b1'.repeat(20)}`);
const AGENT_D = getAddress(`0x${'d1'.repeat(20)}`);
const OUTSIDER = getAddress(`0x${'ee'.repeat(20)}`);

let card = 5000;
async function company(id: string, values: Partial<typeof companies.$inferInsert> = {}) {
  await db()
    .insert(companies)
    .values({
      id,
      name: `Company ${id}`,
      slug: id,
      category: 'AI_TOKENS',
      creatorAddress: devAccount(1).address,
      cardTokenId: card++,
      // Locked: the card-lock repair run by the start-up jobs leaves these rows alone.
      cardLockedAt: new Date('2026-01-01T00:00:00Z'),
      ...values,
    });
}

let agentSeq = 0;
async function agent(companyId: string, role: string | null, status = 'ACTIVE', onChainAddress?: Address) {
  agentSeq++;
  await db()
    .insert(agents)
    .values({
      id: `agent${agentSeq}`,
      companyId,
      name: `Agent ${agentSeq}`,
      role,
      status,
      creatorAddress: devAccount(1).address,
      onChainAddress: onChainAddress ?? null,
      persona: { role: role ?? 'Analyst', description: 'test agent' },
      skills: ['testing'],
      strategy: { type: 'test', preset: 'BALANCED' },
    });
}

let logIndex = 0;
async function trade(token: string, trader: string, side: 'buy' | 'sell', usdc: bigint, at: string) {
  logIndex++;
  await db()
    .insert(tokenTrades)
    .values({
      txHash: `0x${logIndex.toString(16).padStart(64, '0')}`,
      logIndex,
      companyId: token,
      tokenAddress: getAddress(`0x${'70'.repeat(19)}${logIndex.toString(16).padStart(2, '0')}`),
      blockNumber: 1n,
      blockTime: new Date(at),
      trader,
      side,
      usdcAmount: usdc,
      tokenAmount: 1n,
      venue: 'CURVE',
    });
}

const cycles = new Map<string, number>();
async function round(companyId: string, status: 'COMPLETE' | 'FAILED', at: string) {
  const cycle = (cycles.get(companyId) ?? 0) + 1;
  cycles.set(companyId, cycle);
  await db()
    .insert(decisionRounds)
    .values({ id: `${companyId}r${cycle}`, companyId, cycle, status, trigger: 'SCHEDULED', createdAt: new Date(at) });
}

async function mintUsdc(to: Address, amount: bigint) {
  const client = t.chain.chain.publicClient;
  const hash = await t.chain.wallet(0).writeContract({
    address: t.chain.chain.contracts.usdc!,
    abi: MockUSDCAbi,
    functionName: 'mint',
    args: [to, amount],
  });
  expect((await client.waitForTransactionReceipt({ hash })).status).toBe('success');
}

const snapshotOf = async (date: string) => {
  const rows = await db()
    .select()
    .from(scoreSnapshots)
    .where(eq(scoreSnapshots.snapshotDate, date))
    .orderBy(asc(scoreSnapshots.rank));
  return new Map(rows.map((r) => [r.companyId, r]));
};
const platformScores = async () =>
  Object.fromEntries(
    (await db().select({ id: companies.id, score: companies.platformScore }).from(companies)).map((r) => [
      r.id,
      r.score,
    ]),
  );
/** The events the snapshots published after `id` (other start-up jobs may publish season events of their own). */
const eventsAfter = async (id: bigint) =>
  (await db().select().from(platformEvents).where(gt(platformEvents.id, id)).orderBy(asc(platformEvents.id))).filter(
    (e) => e.type === 'score' || (e.type === 'season' && e.data.kind === 'snapshot'),
  );
const lastEventId = () => latestEventId(db());

describe('takeScoreSnapshot with no company', () => {
  it('writes nothing and publishes no season event', async () => {
    const result = await takeScoreSnapshot(t.container, db(), '2026-03-01');
    expect(result).toMatchObject({ date: '2026-03-01', status: 'empty', companies: 0, changed: 0 });
    expect((await snapshotOf('2026-03-01')).size).toBe(0);
    expect(await eventsAfter(0n)).toEqual([]);
  });
});

describe('takeScoreSnapshot of 2026-03-10 (hand-computed)', () => {
  let firstEvent: bigint;
  beforeAll(async () => {
    // A: full profile (11/11), treasury = dev account 1 (1,000,000 USDC), refers B, C and D (boost 0.03).
    await company('coa', {
      createdAt: new Date('2026-01-01T00:00:01Z'),
      description: 'Yield desk',
      logoUrl: 'https://example.com/a.png',
      treasuryAddress: devAccount(1).address,
      tokenStatus: 'BONDING',
      tokenSymbol: 'ACME',
      category: 'DEFI_YIELD',
    });
    for (const role of AGENT_ROLES) await agent('coa', role, 'ACTIVE', role === 'CFO' ? AGENT_A : undefined);
    // B: description, logo, treasury of 999 USDC, no token, CFO/CTO/CMO (a terminated CSO does not count): 6/11.
    await company('cob', {
      createdAt: new Date('2026-01-01T00:00:02Z'),
      description: 'Market maker',
      logoUrl: 'https://example.com/b.png',
      treasuryAddress: TREASURY_B,
      referrerCompanyId: 'coa',
    });
    await agent('cob', 'CFO', 'ACTIVE', AGENT_B);
    await agent('cob', 'CTO');
    await agent('cob', 'CMO', 'PAUSED');
    await agent('cob', 'CSO', 'TERMINATED');
    // C: a blank description and no logo do not count; an empty treasury and a token do: 2/11.
    await company('coc', {
      createdAt: new Date('2026-01-01T00:00:03Z'),
      description: '   ',
      treasuryAddress: TREASURY_C,
      tokenStatus: 'GRADUATED',
      tokenSymbol: 'CEE',
      referrerCompanyId: 'coa',
    });
    // D: nothing filled (its only agent is terminated), trades only outside the window.
    await company('cod', { createdAt: new Date('2026-01-01T00:00:04Z'), referrerCompanyId: 'coa' });
    await agent('cod', 'CFO', 'TERMINATED', AGENT_D);
    // E and F: empty, created at the same instant (tie broken by id); F's platformScore already equals its overall.
    await company('coe', { createdAt: new Date('2026-01-01T00:00:05Z') });
    await company('cof', { createdAt: new Date('2026-01-01T00:00:05Z'), platformScore: 6.67 });
    await mintUsdc(TREASURY_B, 999n * USDC);

    // The day before the snapshot: [2026-03-09T00:00Z, 2026-03-10T00:00Z).
    await trade('coa', AGENT_A.toLowerCase(), 'buy', 2n * USDC, '2026-03-09T00:00:00.000Z'); // first instant: in
    await trade('coa', AGENT_A, 'sell', 5n * USDC, '2026-03-09T12:00:00Z');
    await trade('coa', AGENT_B, 'buy', 1n * USDC, '2026-03-09T18:00:00Z');
    await trade('coc', OUTSIDER, 'buy', 99n * USDC, '2026-03-09T06:00:00Z');
    await trade('coc', AGENT_D, 'sell', 50n * USDC, '2026-03-10T00:00:00.000Z'); // the snapshot instant: out
    await trade('coc', AGENT_D, 'buy', 7n * USDC, '2026-03-08T23:59:59.999Z'); // before the day: out
    // The 7 days before: [2026-03-03T00:00Z, 2026-03-10T00:00Z).
    await round('coa', 'COMPLETE', '2026-03-02T23:59:59.999Z'); // out
    await round('coa', 'COMPLETE', '2026-03-03T00:00:00.000Z');
    await round('coa', 'COMPLETE', '2026-03-05T10:00:00Z');
    await round('coa', 'FAILED', '2026-03-08T10:00:00Z'); // not COMPLETE
    await round('coa', 'COMPLETE', '2026-03-09T23:59:59.999Z');
    await round('coa', 'COMPLETE', '2026-03-10T00:00:00.000Z'); // out (counts from 2026-03-11)
    await round('cob', 'COMPLETE', '2026-03-06T10:00:00Z');

    firstEvent = await lastEventId();
    clock = Date.parse('2026-03-10T00:00:00.250Z');
  });

  it('takes today by the container clock, reading treasuries on-chain', async () => {
    const result = await takeScoreSnapshot(t.container, db());
    expect(result).toMatchObject({ date: '2026-03-10', status: 'taken', companies: 6, changed: 5, treasury: 'chain' });
    expect(result.block).toBeGreaterThan(0n);
  });

  it('stores every raw value', async () => {
    const s = await snapshotOf('2026-03-10');
    const raw = (id: string) => {
      const r = s.get(id)!;
      return [r.treasuryRaw, r.tradingRaw, r.volumeRaw, r.activityRaw, r.completenessRaw, r.referralBoost];
    };
    // treasury, trading (sells - buys of the company's agents), volume of its token, rounds, completeness, boost
    expect(raw('coa')).toEqual([1_000_000n * USDC, 3n * USDC, 8n * USDC, 3, 1, 0.03]);
    expect(raw('cob')).toEqual([999n * USDC, -1n * USDC, 0n, 1, 6 / 11, 0]);
    expect(raw('coc')).toEqual([0n, 0n, 99n * USDC, 0, 2 / 11, 0]);
    expect(raw('cod')).toEqual([0n, 0n, 0n, 0, 0, 0]);
    expect(raw('coe')).toEqual([0n, 0n, 0n, 0, 0, 0]);
    expect(raw('cof')).toEqual([0n, 0n, 0n, 0, 0, 0]);
    expect(s.get('coa')!.category).toBe('DEFI_YIELD');
    expect(s.get('coa')!.treasuryBlock).toBeGreaterThan(0n);
  });

  it('normalises each component onto 0-100 and computes overall with the boost', async () => {
    const s = await snapshotOf('2026-03-10');
    const scores = (id: string) => {
      const r = s.get(id)!;
      return [r.treasuryScore, r.tradingScore, r.volumeScore, r.activityScore, r.completenessScore, r.overall];
    };
    // treasury: f = ln(1 + x/1e6): A ln(1000001) = 13.8155, B ln(1000) = 6.9078, others 0 -> 100, 50.00, 0
    // trading: f(A) = ln 4, f(B) = -ln 2, others 0; range 3 ln 2 -> 100, 0, (ln 2)/(3 ln 2) = 33.33
    // volume: f(A) = ln 9, f(C) = ln 100 -> A 100 ln9/ln100 = 47.71, C 100
    // activity: 3, 1, 0 -> 100, 33.33, 0; completeness: 1, 6/11, 2/11, 0 -> 100, 54.55, 18.18, 0
    // A: (30 + 20 + 0.2*47.71 + 20 + 10) * 1.03 = 89.542 * 1.03 = 92.228 -> 92.23
    expect(scores('coa')).toEqual([100, 100, 47.71, 100, 100, 92.23]);
    // B: 0.3*50 + 0.2*33.33 + 0.1*54.55 = 15 + 6.666 + 5.455 = 27.121
    expect(scores('cob')).toEqual([50, 0, 0, 33.33, 54.55, 27.12]);
    // C: 0.2*33.33 + 0.2*100 + 0.1*18.18 = 6.666 + 20 + 1.818 = 28.484
    expect(scores('coc')).toEqual([0, 33.33, 100, 0, 18.18, 28.48]);
    // D, E, F: 0.2*33.33 = 6.666
    for (const id of ['cod', 'coe', 'cof']) expect(scores(id)).toEqual([0, 33.33, 0, 0, 0, 6.67]);
  });

  it('ranks by overall, then the older company, then id', async () => {
    const s = await snapshotOf('2026-03-10');
    expect([...s.values()].map((r) => [r.companyId, r.rank])).toEqual([
      ['coa', 1],
      ['coc', 2],
      ['cob', 3],
      ['cod', 4], // 6.67, created first
      ['coe', 5], // 6.67, created with F: id coe < cof
      ['cof', 6],
    ]);
  });

  it('sets platformScore and publishes a score event for each changed company, then the season event', async () => {
    expect(await platformScores()).toEqual({ coa: 92.23, cob: 27.12, coc: 28.48, cod: 6.67, coe: 6.67, cof: 6.67 });
    const events = await eventsAfter(firstEvent);
    expect(events.map((e) => [e.type, e.companyId, e.data])).toEqual([
      ['score', 'coa', { platformScore: 92.23, previousScore: 0, rank: 1 }],
      ['score', 'coc', { platformScore: 28.48, previousScore: 0, rank: 2 }],
      ['score', 'cob', { platformScore: 27.12, previousScore: 0, rank: 3 }],
      ['score', 'cod', { platformScore: 6.67, previousScore: 0, rank: 4 }],
      ['score', 'coe', { platformScore: 6.67, previousScore: 0, rank: 5 }],
      // F's platformScore was already 6.67: no score event. The season event goes under the leader.
      ['season', 'coa', { kind: 'snapshot', epoch: '2026-03-10', companies: 6 }],
    ]);
  });

  it('is taken once: a second run finds the date done and changes nothing', async () => {
    const before = await lastEventId();
    const rows = await snapshotOf('2026-03-10');
    await mintUsdc(TREASURY_C, 5n * USDC); // a new balance a re-run would see
    clock = Date.parse('2026-03-10T07:00:00Z');
    expect(await takeScoreSnapshot(t.container, db())).toMatchObject({ date: '2026-03-10', status: 'exists' });
    expect(await runJobOnce(jobs.find((j) => j.name === 'score-snapshot')!, t.container)).toBe(true);
    expect(await snapshotOf('2026-03-10')).toEqual(rows);
    expect(await eventsAfter(before)).toEqual([]);
  });
});

describe('the score-snapshot job', () => {
  it('runs at the top of every hour (the first run of a UTC day takes its snapshot) and at start', () => {
    expect(jobs.find((j) => j.name === 'score-snapshot')?.pattern).toBe('0 * * * *');
  });

  it('catches up the missed snapshot of today at start', async () => {
    const before = await lastEventId();
    // The process was down at midnight and starts at 09:30 UTC.
    clock = Date.parse('2026-03-11T09:30:00Z');
    const errors: object[] = [];
    const log = { info: () => {}, error: (obj: object) => errors.push(obj) };
    await runStartupJobs(t.container, log);
    const snapshotErrors = () => errors.filter((e) => (e as { job?: string }).job === 'score-snapshot');
    expect(snapshotErrors()).toEqual([]);

    const s = await snapshotOf('2026-03-11');
    expect(s.size).toBe(6);
    // The windows moved: the trades of 2026-03-09 are out; the sell at 2026-03-10T00:00Z is in, for C's volume
    // and for D, whose agent made it (terminated since, its trades still count).
    const moved = (id: string) => [s.get(id)!.tradingRaw, s.get(id)!.volumeRaw];
    expect(moved('coa')).toEqual([0n, 0n]);
    expect(moved('coc')).toEqual([0n, 50n * USDC]);
    expect(moved('cod')).toEqual([50n * USDC, 0n]);
    // A's round of 2026-03-03 is out, that of 2026-03-10T00:00Z in.
    expect(s.get('coa')!.activityRaw).toBe(3);
    // C's treasury gained 5 USDC: A 100, B ln(1000)/ln(1000001) = 50.00, C ln 6/ln(1000001) = 12.97.
    expect([s.get('coa')!.treasuryScore, s.get('cob')!.treasuryScore, s.get('coc')!.treasuryScore]).toEqual([
      100, 50, 12.97,
    ]);
    // A: (30 + 20 + 10) * 1.03 = 61.80; B unchanged 27.12; C: 3.891 + 20 (volume) + 1.818 = 25.709; D: 20 (trading)
    expect([...s.values()].map((r) => [r.companyId, r.overall, r.rank])).toEqual([
      ['coa', 61.8, 1],
      ['cob', 27.12, 2],
      ['coc', 25.71, 3],
      ['cod', 20, 4],
      ['coe', 0, 5],
      ['cof', 0, 6],
    ]);
    // B's platformScore did not change: no event for it.
    const events = await eventsAfter(before);
    expect(events.map((e) => [e.type, e.companyId, e.data])).toEqual([
      ['score', 'coa', { platformScore: 61.8, previousScore: 92.23, rank: 1 }],
      ['score', 'coc', { platformScore: 25.71, previousScore: 28.48, rank: 3 }],
      ['score', 'cod', { platformScore: 20, previousScore: 6.67, rank: 4 }],
      ['score', 'coe', { platformScore: 0, previousScore: 6.67, rank: 5 }],
      ['score', 'cof', { platformScore: 0, previousScore: 6.67, rank: 6 }],
      ['season', 'coa', { kind: 'snapshot', epoch: '2026-03-11', companies: 6 }],
    ]);

    // Starting again the same day takes nothing more.
    const after = await lastEventId();
    await runStartupJobs(t.container, log);
    expect(await eventsAfter(after)).toEqual([]);
    expect(snapshotErrors()).toEqual([]);
  });

  it('backfills an earlier date without moving platformScore back', async () => {
    const scores = await platformScores();
    const result = await takeScoreSnapshot(t.container, db(), '2026-03-05');
    expect(result).toMatchObject({ status: 'taken', companies: 6, changed: 0 });
    expect(await platformScores()).toEqual(scores);
  });
});

describe('takeScoreSnapshot with the referral cap and the chain down', () => {
  it('caps the referral boost at 0.25 and keeps the last treasury values while the chain does not answer', async () => {
    // B refers 30 companies: 0.30 is capped at 0.25.
    for (let i = 0; i < 30; i++) {
      await company(`ref${i}`, {
        referrerCompanyId: 'cob',
        category: 'RWA',
        createdAt: new Date('2026-02-01T00:00:00Z'),
      });
    }
    // A live read would now see 1,999 USDC in B's treasury; the chain goes down first.
    await mintUsdc(TREASURY_B, 1000n * USDC);
    await t.chain.stop();

    clock = Date.parse('2026-03-12T00:00:01Z');
    const result = await takeScoreSnapshot(t.container, db());
    expect(result).toMatchObject({ date: '2026-03-12', status: 'taken', companies: 36, treasury: 'previous' });
    expect(result.block).toBeNull();

    const s = await snapshotOf('2026-03-12');
    // The values of the last snapshot (2026-03-11), not the chain's; companies new since then have 0.
    expect([s.get('coa')!.treasuryRaw, s.get('cob')!.treasuryRaw, s.get('coc')!.treasuryRaw]).toEqual([
      1_000_000n * USDC,
      999n * USDC,
      5n * USDC,
    ]);
    expect(s.get('ref0')!.treasuryRaw).toBe(0n);
    expect(s.get('cob')!.treasuryBlock).toBeNull();
    // No trade in the day before: trading and volume are 0 everywhere, max == min, and every company scores 0.
    for (const r of s.values()) {
      expect([r.tradingRaw, r.volumeRaw, r.tradingScore, r.volumeScore]).toEqual([0n, 0n, 0, 0]);
    }
    // B: 27.121 * 1.25 = 33.90; A unchanged at 61.80; C: 3.891 + 1.818 = 5.71.
    expect([s.get('cob')!.referralBoost, s.get('cob')!.overall, s.get('cob')!.rank]).toEqual([0.25, 33.9, 2]);
    expect([s.get('coa')!.overall, s.get('coc')!.overall]).toEqual([61.8, 5.71]);
    // Equal overall 0: D, E, F (2026-01-01) before the referred companies (2026-02-01), each group by id.
    expect([...s.values()].slice(3, 7).map((r) => r.companyId)).toEqual(['cod', 'coe', 'cof', 'ref0']);
    const [b] = await db().select().from(companies).where(eq(companies.id, 'cob'));
    expect(b!.platformScore).toBe(33.9);
  });
});
