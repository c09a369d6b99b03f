// The daily score snapshot on a real chain and database: a hand-computed fixture of six companies (every raw
// value, component against the larger of the best company and its floor, the referral boost, overall, ranks and
// tie-breaks), today's date by the chain's clock once the indexer has applied the day, a re-run that changes
// nothing, score events only for changed platform scores, the season event, the catch-up at start, volume netted per
// trader and capped without the company's own wallets, the referral cap, and a date taken while the chain is down.

import { EpochDistributorAbi } from '@ai-economy/shared/abis';
import { asc, eq, gt } from 'drizzle-orm';
import { getAddress } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { AGENT_ROLES } from '../../src/constants.ts';
import { companies } from '../../src/db/schema/companies.ts';
import { platformEvents } from '../../src/db/schema/events.ts';
import { latestEventId, readEventsByIds } from '../../src/domain/events/store.ts';
import { takeScoreSnapshot } from '../../src/domain/scores/snapshot.ts';
import { jobs, runJobOnce, runStartupJobs } from '../../src/jobs/scheduler.ts';
import { useTestApp } from '../helpers/app.ts';
import { platformEventCheck } from '../helpers/openapi.ts';
import { finalizeScored, scoreFixtures, USDC } from '../helpers/scores.ts';
import { tokenTrading } from '../helpers/trading.ts';
import { treasuryHelpers } from '../helpers/treasuries.ts';

const t = useTestApp({ chain: { timeoutMs: 1000, own: true } });
const db = () => t.database.db;
const { company, agent, trades, round, treasury, transfer, snapshotOf } = scoreFixtures(t);
const tr = treasuryHelpers(t);
const trading = tokenTrading(t);
/**
 * Moves the chain's clock to `iso` and lets both scored streams apply every block up to it, then finalize it (the
 * finality depth's blocks mined, a second apart, after it).
 */
async function chainAt(iso: string) {
  await tr.at(Date.parse(iso) / 1000);
  await finalizeScored(t);
}
/** A trade of `usdc` whole USDC for `tokens` token units. */
const tradeRow = (token: string, trader: string, side: 'buy' | 'sell', usdc: bigint, tokens: bigint, at: string) => ({
  token,
  trader,
  side,
  usdc: usdc * USDC,
  tokens,
  at,
});

const TREASURY_B = getAddress(`0x${'b0'.repeat(20)}`);
const TREASURY_C = getAddress(`0x${'c0'.repeat(20)}`);
const AGENT_A = getAddress(`0x${'a1'.repeat(20)}`);
const AGENT_B = getAddress(`0x${'b1'.repeat(20)}`);
const AGENT_D = getAddress(`0x${'d1'.repeat(20)}`);
/** Traders who are no company's agents. */
const OUTSIDERS = [1, 2, 3, 4, 5].map((n) => getAddress(`0x${'e'.repeat(39)}${n}`));

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
/** The reward epoch whose window holds the date's 00:00 UTC, from the distributor's start time and epoch length. */
async function epochOfDate(date: string): Promise<number | null> {
  const read = (functionName: 'startTime' | 'epochDuration') =>
    t.chain.chain.publicClient.readContract({
      address: t.chain.chain.contracts.distributor!,
      abi: EpochDistributorAbi,
      functionName,
    });
  const [start, duration] = [await read('startTime'), await read('epochDuration')];
  const midnight = BigInt(Date.parse(`${date}T00:00:00Z`) / 1000);
  return midnight < start ? null : Number((midnight - start) / duration);
}

describe('takeScoreSnapshot with no company', () => {
  it('writes nothing and publishes no season event', async () => {
    const result = await takeScoreSnapshot(t.container, db(), '2027-03-01');
    expect(result).toMatchObject({ date: '2027-03-01', status: 'empty', companies: 0, changed: 0 });
    expect((await snapshotOf('2027-03-01')).size).toBe(0);
    expect(await eventsAfter(0n)).toEqual([]);
  });
});

describe('takeScoreSnapshot of 2027-03-10 (hand-computed)', () => {
  let firstEvent: bigint;
  beforeAll(async () => {
    // A: full profile (11/11), treasury = dev account 1 (1,000,000 USDC), refers B, C and D (boost 0.03).
    await company('coa', {
      createdAt: new Date('2026-01-01T00:00:01Z'),
      description: 'Yield desk',
      logoUrl: 'https://example.com/a.png',
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
      tokenStatus: 'GRADUATED',
      tokenSymbol: 'CEE',
      referrerCompanyId: 'coa',
    });
    // D: nothing filled (its only agent is terminated), trades only outside the window.
    await company('cod', { createdAt: new Date('2026-01-01T00:00:04Z'), referrerCompanyId: 'coa' });
    await agent('cod', 'CFO', 'TERMINATED', AGENT_D);
    // E and F: empty, created at the same instant (tie broken by id); E had a platformScore of 5, F's (0) already
    // equals its overall.
    await company('coe', { createdAt: new Date('2026-01-01T00:00:05Z'), platformScore: 5 });
    await company('cof', { createdAt: new Date('2026-01-01T00:00:05Z') });
    // Proven treasuries, each holding the same all week: 1,000,000, 999 and 0 USDC.
    await treasury('coa', devAccount(1).address, '2027-03-01T00:00:00Z', 1_000_000n * USDC);
    await treasury('cob', TREASURY_B, '2027-03-01T00:00:00Z', 999n * USDC);
    await treasury('coc', TREASURY_C, '2027-03-01T00:00:00Z');

    // The day before the snapshot: [2027-03-09T00:00Z, 2027-03-10T00:00Z).
    const [o1, o2, o3, o4, o5] = OUTSIDERS as [string, string, string, string, string];
    // A's token: A's agent buys 20 tokens for 2 USDC (the first instant: in; its address in lower case) and sells 10
    // of them for 5 USDC, a realised +4 after a 12-hour hold; as A's own wallet it adds nothing to A's volume. B's
    // agent and three outsiders buy 1 USDC each: four traders of 1 USDC, 4 USDC. An outsider's round trip of 100
    // USDC counts 0.
    // C's token: an outsider buys 99 USDC, three others 10 USDC each: the first counts no more than a quarter of
    // the total, S = min(129, 30 / 0.75, 20 / 0.5, 10 / 0.25) = 40 USDC.
    await trades([
      tradeRow('coa', AGENT_A.toLowerCase(), 'buy', 2n, 20n, '2027-03-09T00:00:00.000Z'),
      tradeRow('coa', AGENT_A, 'sell', 5n, 10n, '2027-03-09T12:00:00Z'),
      tradeRow('coa', AGENT_B, 'buy', 1n, 10n, '2027-03-09T18:00:00Z'),
      tradeRow('coa', o1, 'buy', 1n, 10n, '2027-03-09T18:00:01Z'),
      tradeRow('coa', o2, 'buy', 1n, 10n, '2027-03-09T18:00:02Z'),
      tradeRow('coa', o4, 'buy', 1n, 10n, '2027-03-09T18:00:03Z'),
      tradeRow('coa', o3, 'buy', 100n, 1000n, '2027-03-09T19:00:00Z'),
      tradeRow('coa', o3, 'sell', 100n, 1000n, '2027-03-09T19:00:01Z'),
      tradeRow('coc', o1, 'buy', 99n, 1n, '2027-03-09T06:00:00Z'),
      ...[o2, o4, o5].map((trader) => tradeRow('coc', trader, 'buy', 10n, 1n, '2027-03-09T07:00:00Z')),
      tradeRow('coc', AGENT_D, 'sell', 50n, 1n, '2027-03-10T00:00:00.000Z'), // the snapshot instant: out
      tradeRow('coc', AGENT_D, 'buy', 7n, 1n, '2027-03-08T23:59:59.999Z'), // before the day: out
    ]);
    // The 7 days before: [2027-03-03T00:00Z, 2027-03-10T00:00Z); completed scheduled rounds only.
    await round('coa', 'COMPLETE', '2027-03-02T23:59:59.999Z'); // out
    await round('coa', 'COMPLETE', '2027-03-03T00:00:00.000Z');
    await round('coa', 'COMPLETE', '2027-03-05T10:00:00Z');
    await round('coa', 'COMPLETE', '2027-03-06T10:00:00Z', 'MANUAL'); // manual: not counted
    await round('coa', 'FAILED', '2027-03-08T10:00:00Z'); // not COMPLETE
    await round('coa', 'COMPLETE', '2027-03-09T23:59:59.999Z');
    await round('coa', 'COMPLETE', '2027-03-10T00:00:00.000Z'); // out (counts from 2027-03-11)
    await round('cob', 'COMPLETE', '2027-03-06T10:00:00Z');

    firstEvent = await lastEventId();
    await tr.at(Date.parse('2027-03-10T00:00:01Z') / 1000);
  });

  it("waits until the indexer has applied the day, then takes today by the chain's clock", async () => {
    // The chain's day has ended, but neither scored stream has read its last blocks: nothing is written yet.
    expect(await takeScoreSnapshot(t.container, db())).toMatchObject({
      date: '2027-03-10',
      status: 'waiting',
      companies: 0,
      waitingFor: ['company-tokens', 'treasury-transfers'],
    });
    expect((await snapshotOf('2027-03-10')).size).toBe(0);
    await Promise.all([trading.index(), tr.index()]);
    // Both have applied the day now, but its last blocks are within the finality depth: a reorg could still take them.
    const unfinal = await takeScoreSnapshot(t.container, db());
    expect(unfinal).toMatchObject({ status: 'waiting', waitingFor: ['company-tokens', 'treasury-transfers'] });
    expect(unfinal.reason).toMatch(
      /^company-tokens: applied the day, but its last block is not finalized yet \(finalized up to block \d+\); treasury-transfers: applied the day, but/,
    );
    expect((await snapshotOf('2027-03-10')).size).toBe(0);
    await finalizeScored(t);
    const result = await takeScoreSnapshot(t.container, db());
    expect(result).toMatchObject({ date: '2027-03-10', status: 'taken', companies: 6, changed: 4 });
    expect(result.block).toBeGreaterThan(0n);
  });

  it('stores every raw value', async () => {
    const s = await snapshotOf('2027-03-10');
    const raw = (id: string) => {
      const r = s.get(id)!;
      return [r.treasuryRaw, r.tradingRaw, r.volumeRaw, r.activityRaw, r.completenessRaw, r.referralBoost];
    };
    // treasury (the day's time-weighted balance), trading (the realised PnL of the company's agents' sales: A's agent
    // sold 10 of the 20 tokens it bought for 2 USDC, so 5 - 1 = +4; B's agent only bought, which realises nothing),
    // counted volume of its token, completed scheduled rounds, completeness, boost
    expect(raw('coa')).toEqual([1_000_000n * USDC, 4n * USDC, 4n * USDC, 3, 1, 0.03]);
    expect(raw('cob')).toEqual([999n * USDC, 0n, 0n, 1, 6 / 11, 0]);
    expect(raw('coc')).toEqual([0n, 0n, 40n * USDC, 0, 2 / 11, 0]);
    expect(raw('cod')).toEqual([0n, 0n, 0n, 0, 0, 0]);
    expect(raw('coe')).toEqual([0n, 0n, 0n, 0, 0, 0]);
    expect(raw('cof')).toEqual([0n, 0n, 0n, 0, 0, 0]);
    expect(s.get('coa')!.category).toBe('DEFI_YIELD');
    expect(s.get('coa')!.treasuryBlock).toBeGreaterThan(0n);
  });

  it('scores each component 0-100 against the larger of the best company and its floor, with the boost', async () => {
    const s = await snapshotOf('2027-03-10');
    const scores = (id: string) => {
      const r = s.get(id)!;
      return [r.treasuryScore, r.tradingScore, r.volumeScore, r.activityScore, r.completenessScore, r.overall];
    };
    // money: 100 ln(1 + x/100) / ln(1 + max(best, floor)/100), x in USDC; 0 for nothing or a loss.
    // treasury: best A 1,000,000 (above the 10,000 floor) -> A 100, B ln(10.99)/ln(10001) = 26.02, others 0
    // trading: best A +4, below the 1,000 floor -> A ln(1.04)/ln(11) = 1.64; B realised nothing -> 0
    // volume: best C 40, below the 10,000 floor -> C ln(1.4)/ln(101) = 7.29, A ln(1.04)/ln(101) = 0.85
    // activity: 100 x / max(best 3, floor 24): 3, 1, 0 -> 12.5, 4.17, 0
    // completeness: 100 x: 1, 6/11, 2/11, 0 -> 100, 54.55, 18.18, 0
    // A: (30 + 0.2*1.64 + 0.2*0.85 + 0.2*12.5 + 10) * 1.03 = 42.998 * 1.03 = 44.288 -> 44.29
    expect(scores('coa')).toEqual([100, 1.64, 0.85, 12.5, 100, 44.29]);
    // B: 0.3*26.02 + 0.2*4.17 + 0.1*54.55 = 7.806 + 0.834 + 5.455 = 14.095 -> 14.10
    expect(scores('cob')).toEqual([26.02, 0, 0, 4.17, 54.55, 14.1]);
    // C: 0.2*7.29 + 0.1*18.18 = 3.276
    expect(scores('coc')).toEqual([0, 0, 7.29, 0, 18.18, 3.28]);
    // D, E, F: nothing, 0 everywhere
    for (const id of ['cod', 'coe', 'cof']) expect(scores(id)).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('ranks by overall, then the older company, then id', async () => {
    const s = await snapshotOf('2027-03-10');
    expect([...s.values()].map((r) => [r.companyId, r.rank])).toEqual([
      ['coa', 1],
      ['cob', 2],
      ['coc', 3],
      ['cod', 4], // 0, created first
      ['coe', 5], // 0, created with F: id coe < cof
      ['cof', 6],
    ]);
  });

  it('sets platformScore and publishes a score event for each changed company, then the season event', async () => {
    expect(await platformScores()).toEqual({ coa: 44.29, cob: 14.1, coc: 3.28, cod: 0, coe: 0, cof: 0 });
    const events = await eventsAfter(firstEvent);
    expect(events.map((e) => [e.type, e.companyId, e.data])).toEqual([
      ['score', 'coa', { platformScore: 44.29, previousScore: 0, rank: 1, snapshotDate: '2027-03-10' }],
      ['score', 'cob', { platformScore: 14.1, previousScore: 0, rank: 2, snapshotDate: '2027-03-10' }],
      ['score', 'coc', { platformScore: 3.28, previousScore: 0, rank: 3, snapshotDate: '2027-03-10' }],
      ['score', 'coe', { platformScore: 0, previousScore: 5, rank: 5, snapshotDate: '2027-03-10' }],
      // D's and F's platformScore was already 0: no score event. The season event goes under the leader.
      ['season', 'coa', { kind: 'snapshot', epoch: await epochOfDate('2027-03-10'), date: '2027-03-10', companies: 6 }],
    ]);
    // Each as the OpenAPI document types it.
    const check = platformEventCheck(t.app);
    // As the stream sends them (the store joins each company's slug).
    for (const e of await readEventsByIds(
      db(),
      events.map((e) => e.id),
    ))
      expect(check(e)).toBeNull();
  });

  it('is taken once: a second run finds the date done and changes nothing', async () => {
    const before = await lastEventId();
    const rows = await snapshotOf('2027-03-10');
    // A transfer indexed late: C's treasury held 5 USDC from the start of 2027-03-10, which a re-run would see.
    await transfer(TREASURY_C, '2027-03-10T00:00:00Z', 5n * USDC);
    await chainAt('2027-03-10T07:00:00Z');
    expect(await takeScoreSnapshot(t.container, db())).toMatchObject({ date: '2027-03-10', status: 'exists' });
    expect(await runJobOnce(jobs.find((j) => j.name === 'score-snapshot')!, t.container)).toBe(true);
    expect(await snapshotOf('2027-03-10')).toEqual(rows);
    expect(await eventsAfter(before)).toEqual([]);
  });
});

describe('the score-snapshot job', () => {
  it("runs every minute (the first run after the chain's midnight, once the day is indexed, takes it) and at start", () => {
    expect(jobs.find((j) => j.name === 'score-snapshot')?.pattern).toBe('* * * * *');
  });

  it('catches up the missed snapshot of today at start', async () => {
    const before = await lastEventId();
    // The process was down at the chain's midnight and starts at 09:30 UTC by the chain's clock.
    await chainAt('2027-03-11T09:30:00Z');
    const errors: object[] = [];
    const log = { debug: () => {}, error: (obj: object) => errors.push(obj) };
    await runStartupJobs(t.container, log);
    const snapshotErrors = () => errors.filter((e) => (e as { job?: string }).job === 'score-snapshot');
    expect(snapshotErrors()).toEqual([]);

    const s = await snapshotOf('2027-03-11');
    expect(s.size).toBe(6);
    // The windows moved: the trades of 2027-03-09 are out; the sell at 2027-03-10T00:00Z is in, for D, whose agent
    // made it (terminated since, its trades still count), and for C's volume, where one trader alone counts 0.
    const moved = (id: string) => [s.get(id)!.tradingRaw, s.get(id)!.volumeRaw];
    expect(moved('coa')).toEqual([0n, 0n]);
    expect(moved('coc')).toEqual([0n, 0n]);
    // D's agent sells for 50 USDC the token it bought for 7 a day before: a realised +43, held long enough.
    expect(moved('cod')).toEqual([43n * USDC, 0n]);
    // A's round of 2027-03-03 is out, that of 2027-03-10T00:00Z in.
    expect(s.get('coa')!.activityRaw).toBe(3);
    // C's treasury gained 5 USDC: A 100, B 26.02, C ln(1.05)/ln(10001) = 0.53.
    expect([s.get('coa')!.treasuryScore, s.get('cob')!.treasuryScore, s.get('coc')!.treasuryScore]).toEqual([
      100, 26.02, 0.53,
    ]);
    // A: (30 + 2.5 + 10) * 1.03 = 43.775; B unchanged 14.10; D: 0.2 * 100 ln(1.43)/ln(11) = 0.2 * 14.92 = 2.984;
    // C: 0.159 + 1.818 = 1.977
    expect([...s.values()].map((r) => [r.companyId, r.overall, r.rank])).toEqual([
      ['coa', 43.78, 1],
      ['cob', 14.1, 2],
      ['cod', 2.98, 3],
      ['coc', 1.98, 4],
      ['coe', 0, 5],
      ['cof', 0, 6],
    ]);
    // B's, E's and F's platformScore did not change: no event for them.
    const events = await eventsAfter(before);
    expect(events.map((e) => [e.type, e.companyId, e.data])).toEqual([
      ['score', 'coa', { platformScore: 43.78, previousScore: 44.29, rank: 1, snapshotDate: '2027-03-11' }],
      ['score', 'cod', { platformScore: 2.98, previousScore: 0, rank: 3, snapshotDate: '2027-03-11' }],
      ['score', 'coc', { platformScore: 1.98, previousScore: 3.28, rank: 4, snapshotDate: '2027-03-11' }],
      ['season', 'coa', { kind: 'snapshot', epoch: await epochOfDate('2027-03-11'), date: '2027-03-11', companies: 6 }],
    ]);

    // Starting again the same day takes nothing more.
    const after = await lastEventId();
    await runStartupJobs(t.container, log);
    expect(await eventsAfter(after)).toEqual([]);
    expect(snapshotErrors()).toEqual([]);
  });

  it('backfills an earlier date without moving platformScore back', async () => {
    const scores = await platformScores();
    const result = await takeScoreSnapshot(t.container, db(), '2027-03-05');
    expect(result).toMatchObject({ status: 'taken', companies: 6, changed: 0 });
    expect(await platformScores()).toEqual(scores);
  });
});

describe('takeScoreSnapshot with the referral cap and the chain down', () => {
  it('caps the referral boost at 0.25; with the chain down it cannot tell today, but takes a given date', async () => {
    // B refers 30 companies: 0.30 is capped at 0.25.
    for (let i = 0; i < 30; i++) {
      await company(`ref${i}`, {
        referrerCompanyId: 'cob',
        category: 'RWA',
        createdAt: new Date('2026-02-01T00:00:00Z'),
      });
    }
    // 1,000 USDC more in B's treasury for the second half of 2027-03-11: 999 + 1,000 / 2 = 1,499 on average.
    await transfer(TREASURY_B, '2027-03-11T12:00:00Z', 1000n * USDC);
    await t.chain.stop();

    // Today is the chain's: with the chain down the job cannot know it, and takes nothing (it retries).
    await expect(takeScoreSnapshot(t.container, db())).rejects.toMatchObject({ code: 'CHAIN_UNAVAILABLE' });
    // Everything a snapshot scores is indexed: a date given needs no chain.
    const result = await takeScoreSnapshot(t.container, db(), '2027-03-12');
    expect(result).toMatchObject({ date: '2027-03-12', status: 'taken', companies: 36, block: null });

    const s = await snapshotOf('2027-03-12');
    expect([s.get('coa')!.treasuryRaw, s.get('cob')!.treasuryRaw, s.get('coc')!.treasuryRaw]).toEqual([
      1_000_000n * USDC,
      1_499n * USDC,
      5n * USDC,
    ]);
    expect(s.get('ref0')!.treasuryRaw).toBe(0n);
    expect(s.get('cob')!.treasuryBlock).toBeNull();
    // No trade in the day before: trading and volume are 0 everywhere.
    for (const r of s.values()) {
      expect([r.tradingRaw, r.volumeRaw, r.tradingScore, r.volumeScore]).toEqual([0n, 0n, 0, 0]);
    }
    // B: treasury ln(15.99)/ln(10001) = 30.10; (0.3 * 30.10 + 0.2 * 4.17 + 0.1 * 54.55) * 1.25 = 15.319 * 1.25
    // = 19.149; A unchanged at 43.78, C at 1.98.
    expect([
      s.get('cob')!.referralBoost,
      s.get('cob')!.treasuryScore,
      s.get('cob')!.overall,
      s.get('cob')!.rank,
    ]).toEqual([0.25, 30.1, 19.15, 2]);
    expect([s.get('coa')!.overall, s.get('coc')!.overall]).toEqual([43.78, 1.98]);
    // Equal overall 0: D, E, F (2026-01-01) before the referred companies (2026-02-01), each group by id.
    expect([...s.values()].slice(3, 7).map((r) => r.companyId)).toEqual(['cod', 'coe', 'cof', 'ref0']);
    const [b] = await db().select().from(companies).where(eq(companies.id, 'cob'));
    expect(b!.platformScore).toBe(19.15);
  });
});
