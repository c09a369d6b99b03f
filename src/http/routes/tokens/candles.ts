// GET /api/companies/{id}/token/candles (docs/api/tokens.md "Candles"), and its twin
// GET /api/v1/companies/{slug}/token/candles: candles of the company token's price from its indexed trades.
import { Type } from 'typebox';
import { tokenCandles } from '../../../domain/tokens/history.ts';
import { route, slugTwin } from '../../route.ts';
import { Nullable, StringEnum } from '../../schemas/common.ts';
import { CompanyParams } from '../../schemas/companies.ts';
import { Decimal, Raw } from './market.ts';

const UnixSeconds = (description: string) => Type.Integer({ minimum: 0, maximum: 253_402_300_799, description });

export const CandlesQuery = Type.Object({
  interval: StringEnum(['1m', '5m', '15m', '1h', '4h', '1d'] as const, {
    description: 'Candle width: 1, 5 or 15 minutes, 1 or 4 hours, or 1 day (buckets aligned to the unix epoch, UTC)',
  }),
  limit: Type.Integer({ minimum: 1, maximum: 1_000, default: 300, description: 'Candles a page holds at most' }),
  from: Type.Optional(
    UnixSeconds(
      'Unix seconds: the first `limit` candles starting at or after this (rounded up to the interval), oldest first; page on with `nextFrom`. Without it, the last `limit` candles (before `to`), paged back with `previousTo`',
    ),
  ),
  to: Type.Optional(UnixSeconds('Unix seconds: only candles that start before this')),
});
const priceExact = (which: string) => Decimal(`${which}: USDC per token, full precision (18 decimals, rounded down)`);
export const CandlesData = Type.Object({
  companyId: Type.String(),
  interval: Type.String(),
  intervalSeconds: Type.Optional(Type.Integer({ description: 'The interval in seconds' })),
  candles: Type.Array(
    Type.Object({
      time: Type.Integer({ description: "The candle's start, unix seconds (UTC)" }),
      open: Decimal('USDC per token, rounded down to 6 decimals'),
      high: Decimal('USDC per token, rounded down to 6 decimals'),
      low: Decimal('USDC per token, rounded down to 6 decimals'),
      close: Decimal('USDC per token, rounded down to 6 decimals'),
      openExact: Type.Optional(priceExact('Open')),
      highExact: Type.Optional(priceExact('High')),
      lowExact: Type.Optional(priceExact('Low')),
      closeExact: Type.Optional(priceExact('Close')),
      volumeUsdc: Decimal('USDC traded'),
      volumeUsdcRaw: Type.Optional(Raw('USDC traded (6 decimals)')),
      trades: Type.Integer(),
    }),
    {
      description:
        'Oldest first; only intervals that hold a trade. Open and close follow chain order (block, then log index), as the trades list does',
    },
  ),
  nextFrom: Type.Optional(
    Nullable(Type.Integer({ description: 'With `from`: the `from` of the next page; null on the last page' })),
  ),
  previousTo: Type.Optional(
    Nullable(
      Type.Integer({ description: 'Without `from`: the `to` of the page of older candles; null when none is older' }),
    ),
  ),
});

export default route({
  url: '/api/companies/:id/token/candles',
  auth: 'none',
  tag: 'tokens',
  summary: "Candles of the company token's price from its indexed trades (1m, 5m, 15m, 1h, 4h or 1d)",
  params: CompanyParams,
  query: CandlesQuery,
  response: CandlesData,
  // Kept until a company or a trade changes (read-cache.ts).
  cache: {
    name: 'candles',
    v1: 'v1-candles',
    tables: ['companies', 'token_trades'],
    key: ({ params, query }) => `${params.id}|${query.interval}|${query.limit}|${query.from ?? ''}|${query.to ?? ''}`,
  },
  load: (deps, { params, query }) => {
    const { interval, limit, from, to } = query;
    return tokenCandles(deps.database.db, params.id, interval, { limit, from, to });
  },
  v1: slugTwin('/companies/:slug/token/candles', CompanyParams, {
    description:
      'Without `from`: the last `limit` candles (before `to`), oldest first; `previousTo` is the `to` of the page before them. With `from`: the first `limit` from there; `nextFrom` is the `from` of the next page. Prices to 6 decimals, and full precision in `openExact`... (docs/api/tokens.md "Candles")',
  }),
});
