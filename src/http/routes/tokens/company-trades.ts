// GET /api/v1/companies/{slug}/token/trades (docs/api/tokens.md "Trades"): the company token's trades in chain order,
// filtered and paged by cursor; `data.trades` and `data.pagination` as ever, and the same `pagination` beside `data`.
import { tradeList } from '../../../domain/tokens/history.ts';
import { route } from '../../route.ts';
import { SlugParams } from '../../schemas/tokens.ts';
import { pageTotalsOf } from './market.ts';
import { TradesData, tradeKey, V1TradesQuery } from './trade.ts';

export default route({
  auth: 'apiKey',
  tag: 'tokens',
  summary: "The company token's trades in chain order, newest first (or oldest first), filtered and paged",
  description:
    '`data.trades` and `data.pagination` as ever, and the same `pagination` beside `data` as on every v1 list. `GET /api/v1/trades?company=` answers the same trades as a v1 list (`data` the array), which the client\'s `items()` pages (docs/api/tokens.md "Trades")',
  params: SlugParams,
  query: V1TradesQuery,
  response: TradesData,
  page: true,
  // Kept until a company or a trade changes, or the indexer moves (a trade's finality).
  cache: {
    name: 'v1-trades',
    tables: ['companies', 'token_trades', 'chain_cursors'],
    key: ({ params, query }) => tradeKey({ ...query, company: params.slug }),
  },
  load: async (deps, { params, query }) => {
    const filter = { ...query, company: params.slug };
    const { items, pagination } = await tradeList(deps.database.db, filter, pageTotalsOf(deps).trades);
    return { data: { trades: items, pagination }, pagination };
  },
  v1: { url: '/companies/:slug/token/trades' },
});
