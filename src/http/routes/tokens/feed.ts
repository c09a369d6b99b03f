// GET /api/v1/trades (docs/api/tokens.md "Trades"): trades of every company token in chain order, filtered by company,
// trader, time and block, and paged by cursor with no repeat and no gap while trades are indexed.
import { Type } from 'typebox';
import { tradeList } from '../../../domain/tokens/history.ts';
import { route } from '../../route.ts';
import { pageTotalsOf } from './market.ts';
import { Trade, tradeKey, V1TradeFeedQuery } from './trade.ts';

export default route({
  auth: 'apiKey',
  tag: 'tokens',
  summary: 'Trades of every company token in chain order, newest first (or oldest first), filtered and paged',
  description:
    'By company, trader, block time (`since`, `until`) and block (`fromBlock`, `toBlock`); `pagination.nextCursor` (and the `Link` header) gives the next page, with no repeat and no gap while trades are indexed (docs/api/tokens.md "Trades")',
  query: V1TradeFeedQuery,
  response: Type.Array(Trade),
  page: true,
  // Its own kept bodies: `?company=x` and the company's path with the same query are different bodies.
  cache: {
    name: 'v1-trade-feed',
    tables: ['companies', 'token_trades', 'chain_cursors'],
    key: ({ query }) => tradeKey(query),
  },
  load: async (deps, { query }) => {
    const { items, pagination } = await tradeList(deps.database.db, query, pageTotalsOf(deps).trades);
    return { data: items, pagination };
  },
  v1: { url: '/trades' },
});
