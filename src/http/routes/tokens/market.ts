// What the token routes' schemas share: the market fields of a launched token and the list item, each one component
// of the OpenAPI document (registered by plugins/api-docs.ts), USDC amounts, the v4 pool id, decimal and base-unit
// strings, and the tables the token lists and detail read.
import { type Static, type TSchema, Type } from 'typebox';
import { COMPANY_CATEGORIES } from '../../../constants.ts';
import type { WatchedTable } from '../../../db/changes.ts';
import { createPageTotals } from '../../../db/page-total.ts';
import type { MarketStatsReader } from '../../../domain/tokens/market.ts';
import type { TokenPageReader } from '../../../domain/tokens/queries.ts';
import { perApp } from '../../route.ts';
import {
  AddressOut,
  AddressString,
  IsoTimestamp,
  Nullable,
  OpenEnum,
  StringEnum,
  WeiString,
} from '../../schemas/common.ts';

export const UsdcString = Type.String({
  pattern: '^[0-9]+\\.[0-9]{1,6}$|^[0-9]+$',
  description: 'USDC with up to 6 decimals',
});
export const PoolId = Type.String({
  description:
    'The Uniswap v4 pool id (bytes32 hex) inside the PoolManager: v4 pools have no address of their own, so `v4PoolAddress` and `v4Pool.address` hold this id too',
});

export const Usdc = (description: string) =>
  Type.String({ pattern: '^[0-9]+\\.[0-9]{1,6}$|^[0-9]+$', description: `${description}; USDC, up to 6 decimals` });

/** A component of the OpenAPI document, referenced by name wherever it is used (one definition of each field). */
export const ref = <T extends TSchema>(schema: T) =>
  Type.Unsafe<Static<T>>({ $ref: `${(schema as { $id?: string }).$id}#` });

/**
 * The market fields of a launched token (docs/api/tokens.md "Market fields"), shared by the v1 list, the v1 detail
 * and the internal list: one definition in the OpenAPI document (`TokenMarket`).
 */
export const TokenMarket = Type.Object(
  {
    price: Nullable(
      Type.String({
        description:
          "USDC per token after its latest indexed trade (the curve, or the v4 pool once graduated); before its first trade, the curve's opening price; null for a token launched before opening prices were recorded and never traded since",
      }),
    ),
    marketCap: Nullable(Type.String({ description: '`price` times the 1,000,000-token supply, in USDC' })),
    poolId: Nullable(PoolId),
    volume24h: Type.String({ description: "USDC traded over the 24 hours before the chain's latest block" }),
    priceChange24h: Nullable(
      Type.Number({
        description:
          "Percent change over the 24 hours before the chain's latest block, 2 decimals: the latest trade's price against the last trade's before the window (the window's first when none is older); null when the token never traded",
      }),
    ),
    high24h: Nullable(Usdc('Highest trade price per token in the 24 hours; null without a trade in them')),
    low24h: Nullable(Usdc('Lowest trade price per token in the 24 hours; null without a trade in them')),
    buys24h: Type.Integer({ minimum: 0, description: 'Buys in the 24 hours' }),
    sells24h: Type.Integer({ minimum: 0, description: 'Sells in the 24 hours' }),
    liquidity: Nullable(
      Usdc(
        "While bonding, the USDC the curve holds for the token; once graduated, both sides of its full-range v4 pool (twice the PoolManager's tokens at `price`; null before a price)",
      ),
    ),
    fdv: Nullable(Usdc('Fully diluted value: `price` times `totalSupply`; null before a price')),
    decimals: Type.Integer({ description: "The token's decimals (18)" }),
    totalSupply: { ...WeiString, description: 'Minted less burned, in base units (10^-decimals tokens)' },
    chainId: Type.Integer({ description: 'The chain the token lives on' }),
    quoteToken: Type.Object(
      {
        address: AddressString,
        symbol: Type.Literal('USDC'),
        decimals: Type.Integer(),
      },
      { description: 'What the token is priced and traded in' },
    ),
    logoUrl: Nullable(Type.String({ description: "The company's logo" })),
    lastTradeAt: Nullable(IsoTimestamp),
    holderCount: Type.Integer({
      minimum: 0,
      description:
        'Addresses other than the zero address holding a positive balance, from the Transfer logs (contracts included)',
    }),
    ageSeconds: Type.Integer({ minimum: 0, description: "Seconds since the launch, by the chain's clock" }),
    graduationProgress: Type.Number({
      minimum: 0,
      maximum: 100,
      description: 'Market cap as a percentage of the graduation threshold (2 decimals); 100 once graduated',
    }),
  },
  { $id: 'TokenMarket' },
);

const TokenListItemBase = Type.Object({
  id: Type.String(),
  name: Type.String(),
  slug: Type.String(),
  tokenStatus: StringEnum(['BONDING', 'GRADUATED'] as const),
  tokenSymbol: Type.String(),
  tokenAddress: AddressOut(),
  bondingCurveAddress: AddressOut(),
  graduationThreshold: Type.Number(),
  graduatedAt: Nullable(IsoTimestamp),
  v4PoolAddress: Nullable(PoolId),
  platformScore: Type.Number(),
  category: OpenEnum(COMPANY_CATEGORIES, "The company's category"),
  publicAt: IsoTimestamp,
});

/** The v1 list item (docs/api/tokens.md) with the market fields: the item of the v1 and the internal token lists. */
export const TokenListItem = Type.Intersect([TokenListItemBase, ref(TokenMarket)], { $id: 'TokenListItem' });

export const Decimal = (description: string) => Type.String({ pattern: '^[0-9]+(\\.[0-9]+)?$', description });
export const Raw = (description: string) =>
  Type.String({ pattern: '^[0-9]+$', description: `Decimal string of an integer in base units: ${description}` });

/** What the token lists and the v1 detail read: a kept answer is kept until one of them changes (read-cache.ts). */
export const TOKEN_LIST_TABLES: readonly WatchedTable[] = [
  'companies',
  'token_trades',
  'token_holder_counts',
  'token_balances',
];

/** The counted totals of the token and trade lists (src/db/page-total.ts), kept per app. */
export const pageTotalsOf = perApp(() => ({ tokens: createPageTotals(), trades: createPageTotals() }));

/**
 * Each company's 24-hour market, read once for all the token list pages of one app that show it while it holds
 * (sharedMarketStats), and the list's pages' rows (sharedTokenPages), both watching the read cache's change feed:
 * set by the family's plugin; unset, a list reads its own.
 */
export const marketsOf = perApp((): { reader?: MarketStatsReader; pages?: TokenPageReader } => ({}));
