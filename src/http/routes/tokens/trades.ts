// GET /api/companies/{id}/token/trades (docs/api/tokens.md "Trades"): the company token's trades, newest first, paged.
import { Type } from 'typebox';
import { AGENTS_PAGE_SIZE_DEFAULT, AGENTS_PAGE_SIZE_MAX } from '../../../constants.ts';
import { tokenTradePage } from '../../../domain/tokens/history.ts';
import { route } from '../../route.ts';
import { PageQuery } from '../../schemas/common.ts';
import { CompanyParams } from '../../schemas/companies.ts';
import { TradesData } from './trade.ts';

export const TradesQuery = Type.Object(PageQuery(AGENTS_PAGE_SIZE_DEFAULT, AGENTS_PAGE_SIZE_MAX));

export default route({
  url: '/api/companies/:id/token/trades',
  auth: 'none',
  tag: 'tokens',
  summary: "The company token's trades, newest first, paged",
  params: CompanyParams,
  query: TradesQuery,
  response: TradesData,
  // Kept until a company or a trade changes, or the indexer moves (a trade's finality).
  cache: {
    name: 'trades',
    tables: ['companies', 'token_trades', 'chain_cursors'],
    key: ({ params, query }) => `${params.id}|${query.page}|${query.limit}`,
  },
  load: (deps, { params, query }) =>
    tokenTradePage(deps.database.db, params.id, { page: query.page, limit: query.limit }),
});
