// GET /api/tokens, the token board, and its twin GET /api/v1/tokens (docs/api/tokens.md): launched company tokens,
// newest first, with their market fields, paged by page or cursor.
import { Type } from 'typebox';
import { V1_PAGE_SIZE_DEFAULT, V1_PAGE_SIZE_MAX } from '../../../constants.ts';
import { listTokens, VOLUMES_REUSE_MS } from '../../../domain/tokens/queries.ts';
import { route } from '../../route.ts';
import { CursorQuery, PageQuery, StringEnum } from '../../schemas/common.ts';
import { marketsOf, pageTotalsOf, ref, TOKEN_LIST_TABLES, TokenListItem } from './market.ts';

export const TokenListQuery = Type.Object({
  ...PageQuery(V1_PAGE_SIZE_DEFAULT, V1_PAGE_SIZE_MAX),
  ...CursorQuery(
    "`pagination.nextCursor` of the page before: the items after that page's last one, whatever was launched since (no repeat, no gap); `page` then counts from it",
  ),
  status: Type.Optional(StringEnum(['BONDING', 'GRADUATED'] as const)),
});

export default route({
  url: '/api/tokens',
  auth: 'none',
  tag: 'tokens',
  summary: "The token board: launched tokens, newest first, with the v1 list's items (market fields included)",
  query: TokenListQuery,
  response: Type.Array(ref(TokenListItem)),
  page: true,
  // Kept until a table they were read from changes (read-cache.ts), and at most as long as the 24-hour volumes they
  // show are reused; each v1 response gets its own timestamp.
  cache: {
    name: 'tokens',
    v1: 'v1-tokens',
    tables: TOKEN_LIST_TABLES,
    maxAgeMs: VOLUMES_REUSE_MS,
    key: ({ query }) => `${query.page}|${query.limit}|${query.status ?? ''}|${query.cursor ?? ''}`,
  },
  load: async (deps, { query }) => {
    const { page, limit, status, cursor } = query;
    const { items, ...at } = await listTokens(
      deps,
      { page, limit, status, cursor },
      pageTotalsOf(deps).tokens,
      marketsOf(deps).reader,
      marketsOf(deps).pages,
    );
    return { data: items, pagination: { page, limit, ...at } };
  },
  v1: {
    url: '/tokens',
    summary: 'Launched company tokens, newest first, with their market fields (docs/api/tokens.md)',
  },
});
