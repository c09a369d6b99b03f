// Company-token routes: launch (creator) and the public token status; the v1 token detail and list (v1TokenRoutes,
// under /api/v1).

import { Type } from 'typebox';
import { ADDRESS_RULE, parseAddress } from '../../address.ts';
import { createPageTotals } from '../../db/page-total.ts';
import { tokenCandles, tokenTradePage, tradeList } from '../../domain/tokens/history.ts';
import { topHolders } from '../../domain/tokens/holders.ts';
import { launchToken } from '../../domain/tokens/launch.ts';
import { getTokenDetail, getTokenStatus, listTokens, VOLUMES_REUSE_MS } from '../../domain/tokens/queries.ts';
import { tokenPositionOf } from '../../domain/trading/position.ts';
import { badRequest } from '../../errors.ts';
import { requireApiKey } from '../auth/index.ts';
import { blockReads } from '../block-reads.ts';
import { linkNextPage, ok, v1CursorPage } from '../envelope.ts';
import { internalErrors, v1Errors, WalletParams } from '../schemas/common.ts';
import { CompanyParams } from '../schemas/companies.ts';
import {
  CandlesQuery,
  CandlesResponse,
  HoldersQuery,
  HoldersResponse,
  InternalTokenListResponse,
  LaunchTokenBody,
  PositionResponse,
  SlugParams,
  TokenDetailResponse,
  TokenListQuery,
  TokenListResponse,
  TokenStatusResponse,
  TradesQuery,
  TradesResponse,
  V1CandlesResponse,
  V1TradeFeedQuery,
  V1TradeFeedResponse,
  V1TradesQuery,
  V1TradesResponse,
} from '../schemas/tokens.ts';
import { registerSignedWrite, type SignedWrite, signedWrite } from '../signed-writes.ts';
import type { ApiDeps, App, RouteOptions } from '../types.ts';

export default async function tokenRoutes(app: App, { deps, reads, chainHead }: RouteOptions) {
  for (const route of tokenWrites(deps)) registerSignedWrite(app, deps, route, 'internal');

  // The price is read on-chain: kept per block (block-reads.ts), and until the company's row changes (its launch).
  const tokenStatuses = blockReads(chainHead, reads.route('token-status', { tables: ['companies'] }));
  app.get(
    '/api/companies/:id/token',
    {
      schema: {
        tags: ['tokens'],
        summary: "A company's token status; price and market cap read on-chain (from the v4 pool once graduated)",
        params: CompanyParams,
        response: { 200: TokenStatusResponse, ...internalErrors },
      },
    },
    (request, reply) => {
      const { id } = request.params;
      return tokenStatuses.send(reply, id, async (block) => ok(await getTokenStatus(deps, id, block)));
    },
  );

  const db = deps.database.db;
  // Kept until a table they were read from changes (read-cache.ts).
  const candles = reads.route('candles', { tables: ['companies', 'token_trades'] });
  const trades = reads.route('trades', { tables: ['companies', 'token_trades', 'chain_cursors'] });
  app.get(
    '/api/companies/:id/token/candles',
    {
      schema: {
        tags: ['tokens'],
        summary: "Candles of the company token's price from its indexed trades (1m, 5m, 15m, 1h, 4h or 1d)",
        params: CompanyParams,
        querystring: CandlesQuery,
        response: { 200: CandlesResponse, ...internalErrors },
      },
    },
    async (request, reply) => {
      const { interval, limit, from, to } = request.query;
      return candles.send(reply, `${request.params.id}|${interval}|${limit}|${from ?? ''}|${to ?? ''}`, async () =>
        ok(await tokenCandles(db, request.params.id, interval, { limit, from, to })),
      );
    },
  );

  app.get(
    '/api/companies/:id/token/trades',
    {
      schema: {
        tags: ['tokens'],
        summary: "The company token's trades, newest first, paged",
        params: CompanyParams,
        querystring: TradesQuery,
        response: { 200: TradesResponse, ...internalErrors },
      },
    },
    async (request, reply) => {
      const { page, limit } = request.query;
      return trades.send(reply, `${request.params.id}|${page}|${limit}`, async () => ({
        success: true as const,
        data: await tokenTradePage(db, request.params.id, { page, limit }),
      }));
    },
  );

  // Kept until a balance or the holder count changes (the holder stream's writes).
  const holders = reads.route('token-holders', { tables: ['companies', 'token_balances', 'token_holder_counts'] });
  app.get(
    '/api/companies/:id/token/holders',
    {
      schema: {
        tags: ['tokens'],
        summary: "The company token's largest holders with their share of the supply, largest first",
        description:
          "From the token's indexed Transfer logs. The launcher (kind `curve`: what the bonding curve has not sold yet) and the v4 PoolManager (kind `pool`) are named as such. Empty before the launch; 404 for an unknown company.",
        params: CompanyParams,
        querystring: HoldersQuery,
        response: { 200: HoldersResponse, ...internalErrors },
      },
    },
    async (request, reply) => {
      const { limit } = request.query;
      return holders.send(reply, `${request.params.id}|${limit}`, async () =>
        ok(await topHolders(deps, request.params.id, limit)),
      );
    },
  );

  const tokenLists = reads.route('tokens', { tables: TOKEN_LIST_TABLES, maxAgeMs: VOLUMES_REUSE_MS });
  const tokenTotals = createPageTotals();
  app.get(
    '/api/tokens',
    {
      onSend: linkNextPage,
      schema: {
        tags: ['tokens'],
        summary: "The token board: launched tokens, newest first, with the v1 list's items (market fields included)",
        querystring: TokenListQuery,
        response: { 200: InternalTokenListResponse, ...internalErrors },
      },
    },
    async (request, reply) => {
      const { page, limit, status, cursor } = request.query;
      return tokenLists.send(reply, `${page}|${limit}|${status ?? ''}|${cursor ?? ''}`, async () => {
        const { items, ...at } = await listTokens(deps, { page, limit, status, cursor }, tokenTotals);
        return { success: true as const, data: items, pagination: { page, limit, ...at } };
      });
    },
  );

  app.get(
    '/api/companies/:id/token/position/:wallet',
    {
      // The wallet is checked by the handler, so a bad one answers 400 BAD_REQUEST as the staking routes do.
      attachValidation: true,
      schema: {
        tags: ['tokens'],
        summary: "A wallet's position in the company token at average cost, from its indexed trades",
        description:
          "quantity and costUsdc follow the average-cost method: a buy adds its tokens and USDC, a sale takes out the sold tokens' share of the cost and realises the difference. The wallet's balance itself is on-chain. 400 BAD_REQUEST for an invalid wallet; 404 for an unknown company.",
        params: Type.Object({ ...CompanyParams.properties, ...WalletParams.properties }),
        response: { 200: PositionResponse, ...internalErrors },
      },
    },
    async (request) => ok(await tokenPositionOf(db, request.params.id, walletOf(request.params.wallet))),
  );
}

/** What the token lists read: a cached page is kept until one of them changes (and VOLUMES_REUSE_MS at most). */
const TOKEN_LIST_TABLES = ['companies', 'token_trades', 'token_holder_counts', 'token_balances'] as const;

/** A wallet path parameter, checked as the staking routes check it: a bad one is 400 BAD_REQUEST, named. */
function walletOf(raw: string) {
  const parsed = parseAddress(raw);
  if (parsed.ok) return parsed.address;
  throw badRequest(`Invalid wallet address "${raw.slice(0, 50)}" (${parsed.reason}); expected ${ADDRESS_RULE}`);
}

/** The v1 token detail and list, registered under /api/v1 by v1.ts. */
export async function v1TokenRoutes(app: App, { deps, reads }: RouteOptions) {
  const apiKey = requireApiKey(deps);
  // Kept until a table they were read from changes (read-cache.ts), and at most as long as the 24-hour volumes
  // they show are reused; each response gets its own timestamp.
  const lists = reads.route('v1-tokens', { tables: TOKEN_LIST_TABLES, maxAgeMs: VOLUMES_REUSE_MS });
  // The detail reads the same tables: kept likewise, so its ETag is that of its content, without the response's
  // timestamp (and, as every tag, without the derived ageSeconds: plugins/etag.ts), and a poll of unchanged data gets 304.
  const details = reads.route('v1-token', { tables: TOKEN_LIST_TABLES, maxAgeMs: VOLUMES_REUSE_MS });
  const totals = createPageTotals();

  app.get(
    '/companies/:slug/token',
    {
      preValidation: apiKey,
      schema: {
        tags: ['tokens'],
        summary: "A company's token (v1 detail view); 404 while it has none",
        security: [{ apiKey: [] }],
        params: SlugParams,
        response: { 200: TokenDetailResponse, ...v1Errors },
      },
    },
    async (request, reply) =>
      details.sendV1(reply, request.params.slug, async (timestamp) => ({
        data: await getTokenDetail(deps, request.params.slug),
        meta: { timestamp },
      })),
  );

  app.get(
    '/tokens',
    {
      preValidation: apiKey,
      onSend: linkNextPage,
      schema: {
        tags: ['tokens'],
        summary: 'Launched company tokens, newest first, with their market fields (docs/api/tokens.md)',
        security: [{ apiKey: [] }],
        querystring: TokenListQuery,
        response: { 200: TokenListResponse, ...v1Errors },
      },
    },
    async (request, reply) => {
      const { page, limit, status, cursor } = request.query;
      return lists.sendV1(reply, `${page}|${limit}|${status ?? ''}|${cursor ?? ''}`, async (timestamp) => {
        const { items, ...at } = await listTokens(deps, { page, limit, status, cursor }, totals);
        return v1CursorPage(items, { page, limit, ...at }, timestamp);
      });
    },
  );

  // The market history under /api/v1 with a key: the internal routes' data and field names, in the v1 envelope, with
  // the filters, order and cursors a bot pages by; kept until a company or a trade changes.
  const v1Candles = reads.route('v1-candles', { tables: ['companies', 'token_trades'] });
  const v1Trades = reads.route('v1-trades', { tables: ['companies', 'token_trades', 'chain_cursors'] });
  // The feed has its own cached bodies: `?company=x` and the company path with the same query are different bodies.
  const v1Feed = reads.route('v1-trade-feed', { tables: ['companies', 'token_trades', 'chain_cursors'] });
  const tradeTotals = createPageTotals();
  app.get(
    '/companies/:slug/token/candles',
    {
      preValidation: apiKey,
      schema: {
        tags: ['tokens'],
        summary: "Candles of the company token's price from its indexed trades (1m, 5m, 15m, 1h, 4h or 1d)",
        description:
          'Without `from`: the last `limit` candles (before `to`), oldest first; `previousTo` is the `to` of the page before them. With `from`: the first `limit` from there; `nextFrom` is the `from` of the next page. Prices to 6 decimals, and full precision in `openExact`... (docs/api/tokens.md "Candles")',
        security: [{ apiKey: [] }],
        params: SlugParams,
        querystring: CandlesQuery,
        response: { 200: V1CandlesResponse, ...v1Errors },
      },
    },
    async (request, reply) => {
      const { interval, limit, from, to } = request.query;
      const key = `${request.params.slug}|${interval}|${limit}|${from ?? ''}|${to ?? ''}`;
      return v1Candles.sendV1(reply, key, async (timestamp) => ({
        data: await tokenCandles(deps.database.db, request.params.slug, interval, { limit, from, to }),
        meta: { timestamp },
      }));
    },
  );
  const tradeKey = (q: Record<string, unknown>) =>
    ['company', 'page', 'limit', 'cursor', 'order', 'trader', 'since', 'until', 'fromBlock', 'toBlock']
      .map((k) => String(q[k] ?? ''))
      .join('|');
  app.get(
    '/companies/:slug/token/trades',
    {
      preValidation: apiKey,
      onSend: linkNextPage,
      schema: {
        tags: ['tokens'],
        summary: "The company token's trades in chain order, newest first (or oldest first), filtered and paged",
        description:
          '`data.trades` and `data.pagination` as ever, and the same `pagination` beside `data` as on every v1 list. `GET /api/v1/trades?company=` answers the same trades as a v1 list (`data` the array), which the client\'s `items()` pages (docs/api/tokens.md "Trades")',
        security: [{ apiKey: [] }],
        params: SlugParams,
        querystring: V1TradesQuery,
        response: { 200: V1TradesResponse, ...v1Errors },
      },
    },
    async (request, reply) => {
      const query = { ...request.query, company: request.params.slug };
      return v1Trades.sendV1(reply, tradeKey(query), async (timestamp) => {
        const { items, pagination } = await tradeList(deps.database.db, query, tradeTotals);
        return { data: { trades: items, pagination }, pagination, meta: { timestamp } };
      });
    },
  );
  app.get(
    '/trades',
    {
      preValidation: apiKey,
      onSend: linkNextPage,
      schema: {
        tags: ['tokens'],
        summary: 'Trades of every company token in chain order, newest first (or oldest first), filtered and paged',
        description:
          'By company, trader, block time (`since`, `until`) and block (`fromBlock`, `toBlock`); `pagination.nextCursor` (and the `Link` header) gives the next page, with no repeat and no gap while trades are indexed (docs/api/tokens.md "Trades")',
        security: [{ apiKey: [] }],
        querystring: V1TradeFeedQuery,
        response: { 200: V1TradeFeedResponse, ...v1Errors },
      },
    },
    async (request, reply) => {
      const query = request.query;
      return v1Feed.sendV1(reply, tradeKey(query), async (timestamp) => {
        const { items, pagination } = await tradeList(deps.database.db, query, tradeTotals);
        return { data: items, pagination, meta: { timestamp } };
      });
    },
  );
}

/** The token launch, signed by the card's holder: under /api here and under /api/v1 by v1.ts (signed-writes.ts). */
export function tokenWrites(deps: ApiDeps): SignedWrite[] {
  return [
    signedWrite({
      method: 'POST',
      path: '/companies/:id/token',
      status: 201,
      tags: ['tokens'],
      summary: "Launch the company's token on its bonding curve (creator only): PRE_PUBLIC -> BONDING, company PUBLIC",
      description:
        'Deploys the token (1,000,000 supply, 18 decimals) through the token launcher and opens its USDC curve; it graduates into a Uniswap v4 pool when its market cap reaches GRADUATION_THRESHOLD_USD. 409 when the company already has a token or another launch is in flight; repeating the same request finishes an interrupted launch.',
      params: CompanyParams,
      body: LaunchTokenBody,
      response: TokenStatusResponse,
      run: (request) => launchToken(deps, request.params.id, request.signer, request.body),
    }),
  ];
}
