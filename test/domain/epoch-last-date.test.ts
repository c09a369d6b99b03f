// An epoch whose window does not end at a midnight (the deployment's hour, or an EPOCH_DURATION_S that is not whole
// days) ends on a date whose score snapshot is taken only once the chain's previous day is indexed and finalized.
// Distributed in between, that date counted 0 for every company, for good. The distribution now waits, saying so in
// words, and distributes once the date has its snapshot. Real chain, streams, snapshot job and distributor.
import { describe, expect, it } from 'vitest';
import { readEpoch } from '../../src/chain/contracts/distributor.ts';
import { distributeEpoch, loadEpoch } from '../../src/domain/epochs/distribute.ts';
import { windowDates } from '../../src/domain/epochs/scores.ts';
import { utcDateOf } from '../../src/domain/scores/dates.ts';
import { jobs, runJobOnce } from '../../src/jobs/scheduler.ts';
import { useTestApp } from '../helpers/app.ts';
import { finalizeScored, scoreFixtures } from '../helpers/scores.ts';
import { treasuryHelpers } from '../helpers/treasuries.ts';

// Epochs of a week and an hour: epoch 0 starts at a midnight and ends at 01:00 of its eighth day.
const EPOCH_S = 7 * 86_400 + 3_600;
const t = useTestApp({ chain: { epochDurationS: EPOCH_S }, env: { EPOCH_DURATION_S: String(EPOCH_S) } });
const f = scoreFixtures(t);
const tr = treasuryHelpers(t);
const snapshotJob = jobs.find((j) => j.name === 'score-snapshot')!;

describe("an epoch's last date", () => {
  it('waits for its snapshot, then is distributed with it', async () => {
    await f.company('lastday', { createdAt: new Date('2026-01-01T00:00:00Z') });
    const { start, end } = await readEpoch(t.container, 0);
    expect(end - start).toBe(BigInt(EPOCH_S));
    // Just past the epoch's end: its last date is the chain's today, and the day before is not finalized yet.
    await tr.at(Number(end) + 1);
    const today = utcDateOf((Number(end) + 1) * 1000);
    const { until } = windowDates(start, end);
    expect(today < until).toBe(true);
    expect((await f.snapshotOf(today)).size).toBe(0);

    const waiting = await distributeEpoch(t.container);
    expect(waiting).toEqual({
      epoch: 0,
      status: 'waiting',
      reason: expect.stringContaining(`the window's last date ${today} has no score snapshot yet`),
    });
    // Nothing recorded: no tree that would count the date as 0.
    expect(await loadEpoch(t.database.db, 0)).toBeUndefined();

    // The day before is finalized; the snapshot of the last date is taken; the epoch is distributed.
    await finalizeScored(t);
    expect(await runJobOnce(snapshotJob, t.container)).toBe(true);
    expect((await f.snapshotOf(today)).get('lastday')).toBeDefined();
    expect(await distributeEpoch(t.container)).toMatchObject({ epoch: 0, status: 'finalized' });
  }, 120_000);
});
