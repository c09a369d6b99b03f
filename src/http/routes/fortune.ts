// The Fortune List: the internal ranking of a daily score snapshot, and the public v1 ranking by platformScore
// (v1FortuneRoutes, under /api/v1).

import { chainDateForReads } from '../../chain/time.ts';
import { createPageTotals } from '../../db/page-total.ts';
import { dayOf } from '../../domain/costs/gas-budget.ts';
import { scoreHistory } from '../../domain/scores/history.ts';
import { getFortuneList, listFortune } from '../../domain/scores/queries.ts';
import { requireApiKey } from '../auth/index.ts';
import { linkNextPage, ok, v1CursorPage } from '../envelope.ts';
import { internalErrors, v1Errors } from '../schemas/common.ts';
import { CompanyParams } from '../schemas/companies.ts';
import {
  FortuneListQuery,
  FortuneListResponse,
  FortuneQuery,
  FortuneResponse,
  ScoreHistoryQuery,
  ScoreHistoryResponse,
  V1ScoreHistoryResponse,
} from '../schemas/fortune.ts';
import { SlugParams } from '../schemas/tokens.ts';
import type { App, RouteOptions } from '../types.ts';

export default async function fortuneRoutes(app: App, { deps, reads }: RouteOptions) {
  // Kept until a table they were read from changes (read-cache.ts).
  const snapshotLists = reads.route('fortune-list', { tables: ['score_snapshots', 'companies'] });
  const histories = reads.route('scores', { tables: ['score_snapshots', 'companies'] });

  app.get(
    '/api/fortune-list',
    {
      schema: {
        tags: ['fortune'],
        summary: 'The Fortune List of a daily snapshot (latest by default), by rank',
        description:
          'Scores are taken daily at 00:00 UTC (docs/api/fortune.md). With no snapshot yet, or none on the date asked for, `companies` is empty and `message` says why.',
        querystring: FortuneListQuery,
        response: { 200: FortuneListResponse, ...internalErrors },
      },
    },
    async (request, reply) => {
      const { limit, epoch, category, league } = request.query;
      // The day is in the key: with no snapshot yet, the list names the next midnight, the chain's as the snapshots
      // follow it (chainDateForReads: never waits on a node that does not answer).
      const day = dayOf((await chainDateForReads(deps.chain.publicClient, deps.now)).getTime());
      return snapshotLists.send(reply, `${limit}|${epoch}|${category ?? ''}|${league ?? ''}|${day}`, async () =>
        ok(await getFortuneList(deps, { limit, epoch, category, league })),
      );
    },
  );

  app.get(
    '/api/companies/:id/scores',
    {
      schema: {
        tags: ['fortune'],
        summary: "A company's score history: its daily snapshots, newest first",
        params: CompanyParams,
        querystring: ScoreHistoryQuery,
        response: { 200: ScoreHistoryResponse, ...internalErrors },
      },
    },
    async (request, reply) =>
      histories.send(reply, `${request.params.id}|${request.query.limit}`, async () =>
        ok(await scoreHistory(deps.database.db, request.params.id, request.query.limit)),
      ),
  );
}

/** The public v1 ranking, registered under /api/v1 by v1.ts. */
export async function v1FortuneRoutes(app: App, { deps, reads }: RouteOptions) {
  // Kept until a table they were read from changes (read-cache.ts).
  const rankings = reads.route('v1-fortune', { tables: ['companies', 'agents', 'score_snapshots'] });
  const totals = createPageTotals();

  app.get(
    '/fortune',
    {
      preValidation: requireApiKey(deps, { allowQuery: true }),
      onSend: linkNextPage,
      schema: {
        tags: ['fortune'],
        summary: 'Companies ranked by platformScore (the overall score of the latest snapshot)',
        description:
          'Pages by `page` or by `cursor` (`pagination.nextCursor`, also the `Link` header rel="next"): a cursor continues after its page\'s last company without repeat or gap while companies are created; 409 CONFLICT when a daily score snapshot changed the ranking since the cursor was given (start again from the first page). docs/api/fortune.md "Cursors".',
        security: [{ apiKey: [] }, { apiKeyQuery: [] }],
        querystring: FortuneQuery,
        response: { 200: FortuneResponse, ...v1Errors },
      },
    },
    async (request, reply) => {
      const { page, limit, category, league, cursor } = request.query;
      const key = `${page}|${limit}|${category ?? ''}|${league ?? ''}|${cursor ?? ''}`;
      return rankings.sendV1(reply, key, async (timestamp) => {
        const { items, ...at } = await listFortune(deps, { page, limit, category, league, cursor }, totals);
        return v1CursorPage(items, { page, limit, ...at }, timestamp);
      });
    },
  );

  const v1Histories = reads.route('v1-scores', { tables: ['score_snapshots', 'companies'] });
  app.get(
    '/companies/:slug/scores',
    {
      preValidation: requireApiKey(deps),
      schema: {
        tags: ['fortune'],
        summary: "A company's score history: its daily snapshots, newest first",
        security: [{ apiKey: [] }],
        params: SlugParams,
        querystring: ScoreHistoryQuery,
        response: { 200: V1ScoreHistoryResponse, ...v1Errors },
      },
    },
    async (request, reply) =>
      v1Histories.sendV1(reply, `${request.params.slug}|${request.query.limit}`, async (timestamp) => ({
        data: await scoreHistory(deps.database.db, request.params.slug, request.query.limit),
        meta: { timestamp },
      })),
  );
}
