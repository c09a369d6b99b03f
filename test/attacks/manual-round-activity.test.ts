// Attack: raising the activity score (20% of the score that splits epoch rewards) by spamming manual decision
// rounds. Manual rounds are paid for by the platform and limited only by a cooldown, so activity counts the
// completed SCHEDULED rounds of the 7 days before the snapshot alone (docs/api/fortune.md "Scores"). Rounds are recorded as
// the engine records them; the real snapshot scores them on a real database.
import { beforeAll, describe, expect, it } from 'vitest';
import { takeScoreSnapshot } from '../../src/domain/scores/snapshot.ts';
import { useTestApp } from '../helpers/app.ts';
import { scoreFixtures } from '../helpers/scores.ts';

const t = useTestApp();
const f = scoreFixtures(t);

beforeAll(async () => {
  // Both run the schedule's round a day for the week before 2026-03-10.
  await f.company('honest', { createdAt: new Date('2026-01-01T00:00:01Z') });
  await f.company('spammer', { createdAt: new Date('2026-01-01T00:00:02Z') });
  for (const id of ['honest', 'spammer']) {
    for (let day = 3; day <= 9; day++) await f.round(id, 'COMPLETE', `2026-03-0${day}T12:00:00Z`);
  }
  // The spammer also asks for a manual round every 5 minutes (the cooldown) for four hours a day, all complete.
  for (let day = 3; day <= 9; day++) {
    for (let i = 0; i < 48; i++) {
      const at = new Date(Date.parse(`2026-03-0${day}T13:00:00Z`) + i * 300_000).toISOString();
      await f.round('spammer', 'COMPLETE', at, 'MANUAL');
    }
  }
  expect(await takeScoreSnapshot(t.container, t.database.db, '2026-03-10')).toMatchObject({ status: 'taken' });
});

describe('manual-round spam', () => {
  it('adds nothing to activity: only scheduled rounds count', async () => {
    const s = await f.snapshotOf('2026-03-10');
    const activity = (id: string) => [s.get(id)!.activityRaw, s.get(id)!.activityScore];
    // 7 rounds against the floor of 24 (the best here has 7): 100 * 7 / 24.
    expect(activity('honest')).toEqual([7, 29.17]);
    expect(activity('spammer')).toEqual([7, 29.17]);
  });

  it('does not lift the spammer above the honest company', async () => {
    const s = await f.snapshotOf('2026-03-10');
    expect(s.get('spammer')!.overall).toBe(s.get('honest')!.overall);
    // Equal scores: the older company ranks first.
    expect([s.get('honest')!.rank, s.get('spammer')!.rank]).toEqual([1, 2]);
  });
});
