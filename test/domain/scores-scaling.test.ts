// Scores are scaled against the larger of the best company of the snapshot and the component's floor, not the worst
// (docs/api/fortune.md "Scaling"): a healthy company that happens to be the weakest still scores (and takes part in
// the epoch), one outlier does not push every other company to 0, and a best below the floor does not earn full
// points. On a real database, through the snapshot and the epoch scores.
import { getAddress } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { AGENT_ROLES } from '../../src/constants.ts';
import { epochScores } from '../../src/domain/epochs/scores.ts';
import { takeScoreSnapshot } from '../../src/domain/scores/snapshot.ts';
import { useTestApp } from '../helpers/app.ts';
import { scoreFixtures, USDC } from '../helpers/scores.ts';

const t = useTestApp();
const f = scoreFixtures(t);
const treasuryOf = (n: number) => getAddress(`0x${n.toString(16).padStart(40, '0')}`);

/** Creates a company with a treasury holding `usdc` whole USDC, `rounds` scheduled rounds in the week and agents. */
async function company(id: string, usdc: bigint, rounds: number, profile: { token: boolean }, n: number) {
  await f.company(id, {
    createdAt: new Date(`2026-01-01T00:00:0${n}Z`),
    description: `Company ${id}`,
    logoUrl: `https://example.com/${id}.png`,
    ...(profile.token ? { tokenStatus: 'BONDING', tokenSymbol: `T${n}` } : {}),
  });
  for (const role of AGENT_ROLES) await f.agent(id, role);
  // Proven before the week, holding the same throughout.
  await f.treasury(id, treasuryOf(n), '2026-03-01T00:00:00Z', usdc * USDC);
  for (let i = 0; i < rounds; i++) await f.round(id, 'COMPLETE', `2026-03-0${3 + (i % 7)}T0${i % 10}:00:00Z`);
}

beforeAll(async () => {
  // The outlier: 10,000,000 USDC, a full profile, two scheduled rounds a day.
  await company('big', 10_000_000n, 14, { token: true }, 1);
  // A healthy company: 5,000 USDC, seven agents, every profile item but a token (10/11), a round a day. It is the
  // weakest of the five in every component, which min-max scaling turned into 0 everywhere.
  await company('healthy', 5_000n, 7, { token: false }, 2);
  await company('mid6', 6_000n, 7, { token: true }, 3);
  await company('mid7', 7_000n, 7, { token: true }, 4);
  await company('mid8', 8_000n, 7, { token: true }, 5);
  expect(await takeScoreSnapshot(t.container, t.database.db, '2026-03-10')).toMatchObject({ status: 'taken' });
});

describe('scores scaled against the best company', () => {
  it('gives the weakest healthy company its share, not 0', async () => {
    const row = (await f.snapshotOf('2026-03-10')).get('healthy')!;
    // treasury 100 ln(1 + 5,000/100) / ln(1 + 10,000,000/100) = 34.15; activity 7 of max(best 14, floor 24);
    // completeness 10/11; no trade anywhere: trading and volume 0. Overall 0.3 * 34.15 + 0.2 * 29.17 + 0.1 * 90.91
    // = 25.17.
    expect([row.treasuryScore, row.tradingScore, row.volumeScore, row.activityScore, row.completenessScore]).toEqual([
      34.15, 0, 0, 29.17, 90.91,
    ]);
    expect(row.overall).toBe(25.17);
    expect(row.rank).toBe(5);
  });

  it('keeps the others apart from 0 beside one outlier', async () => {
    const s = await f.snapshotOf('2026-03-10');
    // 100 ln(1 + x/100) / ln(100,001) for 6,000, 7,000 and 8,000 USDC; the outlier 100.
    expect(['big', 'mid6', 'mid7', 'mid8'].map((id) => s.get(id)!.treasuryScore)).toEqual([100, 35.71, 37.03, 38.17]);
    expect(['big', 'mid6', 'mid7', 'mid8'].map((id) => s.get(id)!.completenessScore)).toEqual([100, 100, 100, 100]);
  });

  it('gives the best company full points only at or above the floor', async () => {
    const s = await f.snapshotOf('2026-03-10');
    // The most active company ran 14 scheduled rounds, below the floor of 24: 100 * 14 / 24.
    expect(s.get('big')!.activityScore).toBe(58.33);
  });

  it('lets the healthy company take part in the epoch', async () => {
    const start = BigInt(Date.parse('2026-03-09T00:00:00Z') / 1000);
    const scores = await epochScores(t.database.db, start, start + 7n * 86_400n);
    // One snapshot (25.17) in a week of 7 days: floor(2517 / 7).
    expect(scores.find((s) => s.companyId === 'healthy')?.score).toBe(359n);
    expect(scores).toHaveLength(5);
  });
});
