// POST /api/cron/score-snapshot (docs/api/epochs.md): today's score snapshot on demand, with the scheduler's or the
// admin's secret (the scheduler takes it at 00:00 UTC).
import { Type } from 'typebox';
import { takeScoreSnapshot } from '../../../domain/scores/snapshot.ts';
import { route } from '../../route.ts';
import { Nullable } from '../../schemas/common.ts';

export const Snapshot = Type.Object({
  date: Type.String({ format: 'date', description: "The UTC date of the snapshot (today, by the chain's clock)" }),
  status: Type.Union([Type.Literal('taken'), Type.Literal('exists'), Type.Literal('empty'), Type.Literal('waiting')], {
    description:
      "taken: written now; exists: the date was already taken; empty: no company to rank; waiting: the chain's day has ended but the indexer has not applied its last blocks yet, or they are not finalized yet (waitingFor names the streams, reason says why; ask again shortly)",
  }),
  companies: Type.Integer({ minimum: 0, description: 'Companies in the snapshot written now' }),
  changed: Type.Integer({ minimum: 0, description: 'Companies whose platformScore changed (one score event each)' }),
  block: Nullable(Type.String({ pattern: '^[0-9]+$', description: "The chain's latest block when it was taken" })),
  waitingFor: Type.Optional(
    Type.Array(Type.String(), {
      description: "While waiting: the indexer streams that have not applied, or not finalized, the day's last block",
    }),
  ),
  reason: Type.Optional(
    Type.String({
      description:
        'While waiting: why, one sentence per stream, e.g. "company-tokens: applied the day, but its last block is not finalized yet (finalized up to block 108)"',
    }),
  ),
});

export default route({
  method: 'POST',
  url: '/api/cron/score-snapshot',
  auth: 'cronSecret',
  tag: 'epochs',
  summary: "Take today's score snapshot now, unless it is taken (the scheduler takes it at 00:00 UTC)",
  description:
    'Scores every company for today (UTC, by the chain\'s clock) exactly as the daily score-snapshot job does, once per date: a date already taken answers status "exists" and changes nothing; with no company, "empty"; while the indexer has not yet applied the day before, or its last block is not finalized yet, "waiting" with the reason (ask again shortly). Epochs reward the mean of the daily snapshots in their window. 401 UNAUTHORIZED without a valid CRON_SECRET or ADMIN_SECRET.',
  response: Snapshot,
  load: async (deps) => {
    const result = await takeScoreSnapshot(deps, deps.database.db);
    return { ...result, block: result.block === null ? null : result.block.toString() };
  },
});
