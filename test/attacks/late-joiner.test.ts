// Attack: join on an epoch's last day. The epoch score was the mean of a company's own daily snapshots, so a company
// with one snapshot weighed like one with seven: a card bought just after the epoch's sixth snapshot, 50,000 USDC
// held for a day and a filled profile took the largest reward of the epoch. Now an epoch score is the sum of the
// company's daily overall scores divided by the days of the epoch's window (a day without a counted snapshot adds
// 0), and a snapshot counts only for a company that existed for the whole day it covers (docs/api/epochs.md).
// Real snapshots of companies written as the platform writes them, scored by the real epoch scoring.
import { getAddress } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { epochScores } from '../../src/domain/epochs/scores.ts';
import { takeScoreSnapshot } from '../../src/domain/scores/snapshot.ts';
import { useTestApp } from '../helpers/app.ts';
import { scoreFixtures, USDC } from '../helpers/scores.ts';

const t = useTestApp();
const f = scoreFixtures(t);
const treasuryOf = (n: number) => getAddress(`0x${(0xbeef00 + n).toString(16).padStart(40, '0')}`);

/** The epoch's window: 7 days from 2026-06-01 00:00 UTC, snapshots dated 06-01 to 06-07. */
const START = BigInt(Date.parse('2026-06-01T00:00:00Z') / 1000);
const END = START + 7n * 86_400n;
const DATES = ['01', '02', '03', '04', '05', '06', '07'].map((d) => `2026-06-${d}`);

/** A company created at `createdAt` with the same profile and a proven treasury of 50,000 USDC from then on. */
async function company(id: string, createdAt: string, n: number) {
  await f.company(id, {
    createdAt: new Date(createdAt),
    description: `Company ${id}`,
    logoUrl: 'https://x.test/l.png',
  });
  await f.treasury(id, treasuryOf(n), createdAt, 50_000n * USDC);
}

beforeAll(async () => {
  // Ran all week.
  await company('full', '2026-05-01T00:00:00Z', 1);
  // Created 23 hours before the snapshot of 06-04: its first whole day is 06-04, counted by the snapshots of 06-05,
  // 06-06 and 06-07.
  await company('mid', '2026-06-03T01:00:00Z', 2);
  // Created five minutes after the epoch's sixth snapshot (06-06 00:00): one snapshot (06-07), covering a day it
  // did not exist for the whole of.
  await company('late', '2026-06-06T00:05:00Z', 3);
  for (const date of DATES) {
    // A backfill: every company gets a row of each date, even one created later (its days before it existed count 0).
    expect(await takeScoreSnapshot(t.container, t.database.db, date)).toMatchObject({ status: 'taken' });
  }
});

describe('a company that joins late in the epoch', () => {
  it('scores as well as the full-week company on the days it ran', async () => {
    const full = await f.snapshotOf('2026-06-07');
    // The point of the attack: on its one day the late company looks as good as the company that ran all week.
    expect(full.get('late')!.overall).toBeGreaterThan(0.95 * full.get('full')!.overall);
    expect(full.get('mid')!.overall).toBe(full.get('full')!.overall);
  });

  it('earns at most its days share of what the full-week company earns', async () => {
    const scores = new Map((await epochScores(t.database.db, START, END)).map((s) => [s.companyId, s.score]));
    const full = scores.get('full')!;
    expect(full).toBeGreaterThan(0n);
    // Three whole days of seven: at most 3/7 of the full company's score (exactly, with the same daily score).
    expect(scores.get('mid')! * 7n).toBeLessThanOrEqual(full * 3n);
    expect(scores.get('mid')! * 7n).toBeGreaterThan(full * 3n - 7n);
    // No whole day in the epoch: no part in it (before: a score as large as the full company's).
    expect(scores.has('late')).toBe(false);
  });
});
