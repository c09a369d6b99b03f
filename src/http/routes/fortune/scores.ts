// GET /api/companies/{id}/scores, and its twin GET /api/v1/companies/{slug}/scores (registered by v1.ts): a
// company's score history, its daily snapshots newest first, both kept in the read cache.
import { Type } from 'typebox';
import { scoreHistory } from '../../../domain/scores/history.ts';
import { route, slugTwin } from '../../route.ts';
import { CompanyParams } from '../../schemas/companies.ts';
import { scoreComponents } from './shared.ts';

export const ScoreHistoryQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 366, default: 90, description: 'The last this many snapshots' }),
});
export const ScoreHistoryData = Type.Object({
  companyId: Type.String(),
  snapshots: Type.Array(
    Type.Object({
      date: Type.String({ format: 'date', description: 'The snapshot date (its 00:00 UTC)' }),
      rank: Type.Integer(),
      overall: Type.Number(),
      treasuryScore: Type.Number(),
      tradingScore: Type.Number(),
      volumeScore: Type.Number(),
      activityScore: Type.Number(),
      completenessScore: Type.Number(),
      treasuryRaw: scoreComponents.treasuryRaw,
      tradingRaw: scoreComponents.tradingRaw,
      volumeRaw: scoreComponents.volumeRaw,
      activityRaw: scoreComponents.activityRaw,
      completenessRaw: scoreComponents.completenessRaw,
      referralBoost: scoreComponents.referralBoost,
    }),
    { description: 'Newest first' },
  ),
});

export default route({
  url: '/api/companies/:id/scores',
  auth: 'none',
  tag: 'fortune',
  summary: "A company's score history: its daily snapshots, newest first",
  params: CompanyParams,
  query: ScoreHistoryQuery,
  response: ScoreHistoryData,
  // Kept until a table they were read from changes (read-cache.ts).
  cache: {
    name: 'scores',
    v1: 'v1-scores',
    tables: ['score_snapshots', 'companies'],
    key: ({ params, query }) => `${params.id}|${query.limit}`,
  },
  load: (deps, { params, query }) => scoreHistory(deps.database.db, params.id, query.limit),
  v1: slugTwin('/companies/:slug/scores', CompanyParams),
});
