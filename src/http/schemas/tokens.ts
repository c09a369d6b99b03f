// Schemas of the company-token routes (docs/api/tokens.md "Token status (public view)", "Token (v1 detail view)",
// "Token (v1 list item)").
import { Type } from 'typebox';
import {
  AGENTS_PAGE_SIZE_DEFAULT,
  AGENTS_PAGE_SIZE_MAX,
  COMPANY_CATEGORIES,
  TOKEN_NAME_MAX,
  TOKEN_SYMBOL_PATTERN,
  V1_PAGE_SIZE_DEFAULT,
  V1_PAGE_SIZE_MAX,
} from '../../constants.ts';
import { IsoTimestamp, internalOk, Nullable, PageQuery, Pagination, StringEnum, v1List, v1Ok } from './common.ts';

const UsdcString = Type.String({
  pattern: '^[0-9]+\\.[0-9]{1,6}$|^[0-9]+$',
  description: 'USDC with up to 6 decimals',
});
const PoolId = Type.String({ description: 'The Uniswap v4 pool id (bytes32 hex) inside the PoolManager' });

export const LaunchTokenBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: TOKEN_NAME_MAX, description: `1-${TOKEN_NAME_MAX} characters` }),
    symbol: Type.String({ pattern: TOKEN_SYMBOL_PATTERN, description: '2-10 characters, A-Z and 0-9' }),
  },
  { additionalProperties: false },
);

const PrePublicToken = Type.Object({
  slug: Type.String(),
  status: Type.Literal('PRE_PUBLIC'),
  tokenAddress: Type.Null(),
  tokenSymbol: Type.Null(),
  price: Type.Null(),
  marketCap: Type.Null(),
  graduationProgress: Type.Literal(0),
  graduatedAt: Type.Null(),
  v4PoolAddress: Type.Null(),
});

const LaunchedToken = Type.Object({
  slug: Type.String(),
  name: Type.String(),
  status: StringEnum(['BONDING', 'GRADUATED'] as const),
  tokenAddress: Type.String(),
  tokenSymbol: Type.String(),
  price: UsdcString,
  marketCap: UsdcString,
  graduationThreshold: Type.Number({ description: 'USD (USDC)' }),
  graduationProgress: Type.Number({ minimum: 0, maximum: 100 }),
  graduated: Type.Boolean(),
  graduatedAt: Nullable(IsoTimestamp),
  v4PoolAddress: Nullable(PoolId),
});

export const TokenStatusResponse = internalOk(Type.Union([PrePublicToken, LaunchedToken]));

export const TokenDetail = Type.Object({
  companyId: Type.String(),
  name: Type.String(),
  slug: Type.String(),
  tokenStatus: StringEnum(['BONDING', 'GRADUATED'] as const),
  tokenSymbol: Type.String(),
  tokenAddress: Type.String(),
  bondingCurve: Type.Object({
    address: Type.String({ description: 'The token launcher, which holds every curve' }),
    graduationThreshold: Type.Number(),
    graduated: Type.Boolean(),
    graduatedAt: Nullable(IsoTimestamp),
  }),
  v4Pool: Type.Object({ address: Nullable(PoolId) }),
  launchTxHash: Type.String(),
  publicAt: IsoTimestamp,
});

export const TokenDetailResponse = v1Ok(TokenDetail);

export const TokenListItem = Type.Object({
  id: Type.String(),
  name: Type.String(),
  slug: Type.String(),
  tokenStatus: StringEnum(['BONDING', 'GRADUATED'] as const),
  tokenSymbol: Type.String(),
  tokenAddress: Type.String(),
  bondingCurveAddress: Type.String(),
  graduationThreshold: Type.Number(),
  graduatedAt: Nullable(IsoTimestamp),
  v4PoolAddress: Nullable(PoolId),
  platformScore: Type.Number(),
  category: StringEnum(COMPANY_CATEGORIES),
  publicAt: IsoTimestamp,
  price: Nullable(
    Type.String({
      description:
        'USDC per token after its latest indexed trade (the curve, or the v4 pool once graduated); null before its first trade',
    }),
  ),
  marketCap: Nullable(Type.String({ description: '`price` times the 1,000,000-token supply, in USDC' })),
  volume24h: Type.String({ description: "USDC traded over the 24 hours before the chain's latest block" }),
});

export const TokenListResponse = v1List(TokenListItem);

export const TokenListQuery = Type.Object(
  {
    ...PageQuery(V1_PAGE_SIZE_DEFAULT, V1_PAGE_SIZE_MAX),
    status: Type.Optional(StringEnum(['BONDING', 'GRADUATED'] as const)),
  },
  { additionalProperties: false },
);

export const SlugParams = Type.Object({
  slug: Type.String({ minLength: 1, maxLength: 64, description: 'Company slug' }),
});

const Decimal = (description: string) => Type.String({ pattern: '^[0-9]+(\\.[0-9]+)?$', description });

export const CandlesQuery = Type.Object({
  interval: StringEnum(['1m', '1h', '1d'] as const, { description: 'Candle width: 1 minute, 1 hour or 1 day' }),
  limit: Type.Integer({ minimum: 1, maximum: 1_000, default: 300, description: 'The last this many candles' }),
});
export const CandlesResponse = internalOk(
  Type.Object({
    companyId: Type.String(),
    interval: Type.String(),
    candles: Type.Array(
      Type.Object({
        time: Type.Integer({ description: "The candle's start, unix seconds (UTC)" }),
        open: Decimal('USDC per token'),
        high: Decimal('USDC per token'),
        low: Decimal('USDC per token'),
        close: Decimal('USDC per token'),
        volumeUsdc: Decimal('USDC traded'),
        trades: Type.Integer(),
      }),
      { description: 'Oldest first; only intervals that hold a trade' },
    ),
  }),
);

export const TradesQuery = Type.Object(PageQuery(AGENTS_PAGE_SIZE_DEFAULT, AGENTS_PAGE_SIZE_MAX));
export const TradesResponse = internalOk(
  Type.Object({
    trades: Type.Array(
      Type.Object({
        txHash: Type.String(),
        logIndex: Type.Integer(),
        time: IsoTimestamp,
        side: StringEnum(['buy', 'sell'] as const),
        trader: Type.String(),
        usdcAmount: Decimal('USDC paid or received'),
        tokenAmount: Decimal('Tokens bought or sold'),
        price: Decimal('USDC per token of this trade'),
        venue: StringEnum(['CURVE', 'POOL'] as const),
      }),
    ),
    pagination: Pagination,
  }),
);

export const PositionResponse = internalOk(
  Type.Object({
    companyId: Type.String(),
    wallet: Type.String({ description: 'Checksummed' }),
    quantity: Decimal(
      'Tokens bought and not yet sold (what the cost covers); tokens received by transfer have no cost',
    ),
    costUsdc: Decimal('USDC paid for quantity'),
    averageCostUsdc: Decimal('USDC per whole token: costUsdc / quantity, 0 when nothing is held'),
    realizedPnlUsdc: Type.String({
      pattern: '^-?[0-9]+(\\.[0-9]+)?$',
      description: "What the wallet's sales made against the average cost (negative for a loss)",
    }),
  }),
);
