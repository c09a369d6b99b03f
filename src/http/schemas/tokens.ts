// Schemas of the company-token routes (docs/api/tokens.md "Token status (public view)", "Token (v1 detail view)",
// "Token (v1 list item)").
import { type Static, type TSchema, Type } from 'typebox';
import {
  AGENTS_PAGE_SIZE_DEFAULT,
  AGENTS_PAGE_SIZE_MAX,
  COMPANY_CATEGORIES,
  TOKEN_NAME_MAX,
  TOKEN_SYMBOL_PATTERN,
  V1_PAGE_SIZE_DEFAULT,
  V1_PAGE_SIZE_MAX,
} from '../../constants.ts';
import {
  AddressString,
  CursorQuery,
  IsoTimestamp,
  internalOk,
  Meta,
  Nullable,
  PageQuery,
  Pagination,
  StringEnum,
  v1Ok,
  WeiString,
} from './common.ts';

const UsdcString = Type.String({
  pattern: '^[0-9]+\\.[0-9]{1,6}$|^[0-9]+$',
  description: 'USDC with up to 6 decimals',
});
const PoolId = Type.String({
  description:
    'The Uniswap v4 pool id (bytes32 hex) inside the PoolManager: v4 pools have no address of their own, so `v4PoolAddress` and `v4Pool.address` hold this id too',
});

const Usdc = (description: string) =>
  Type.String({ pattern: '^[0-9]+\\.[0-9]{1,6}$|^[0-9]+$', description: `${description}; USDC, up to 6 decimals` });

/** A component of the OpenAPI document, referenced by name wherever it is used (one definition of each field). */
const ref = <T extends TSchema>(schema: T) => Type.Unsafe<Static<T>>({ $ref: `${(schema as { $id?: string }).$id}#` });

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

const TokenDetailBase = Type.Object({
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

export const TokenDetail = Type.Intersect([TokenDetailBase, ref(TokenMarket)]);

export const TokenDetailResponse = v1Ok(TokenDetail);

const TokenListItemBase = Type.Object({
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
});

/** The v1 list item (docs/api/tokens.md) with the market fields: the item of the v1 and the internal token lists. */
export const TokenListItem = Type.Intersect([TokenListItemBase, ref(TokenMarket)], { $id: 'TokenListItem' });

export const TokenListResponse = Type.Object({
  data: Type.Array(ref(TokenListItem)),
  pagination: Pagination,
  meta: Meta,
});
export const InternalTokenListResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Array(ref(TokenListItem)),
  pagination: Pagination,
});

export const TokenListQuery = Type.Object({
  ...PageQuery(V1_PAGE_SIZE_DEFAULT, V1_PAGE_SIZE_MAX),
  ...CursorQuery(
    "`pagination.nextCursor` of the page before: the items after that page's last one, whatever was launched since (no repeat, no gap); `page` then counts from it",
  ),
  status: Type.Optional(StringEnum(['BONDING', 'GRADUATED'] as const)),
});

export const SlugParams = Type.Object({
  slug: Type.String({ minLength: 1, maxLength: 64, description: 'Company slug' }),
});

const Decimal = (description: string) => Type.String({ pattern: '^[0-9]+(\\.[0-9]+)?$', description });

export const CandlesQuery = Type.Object({
  interval: StringEnum(['1m', '1h', '1d'] as const, { description: 'Candle width: 1 minute, 1 hour or 1 day' }),
  limit: Type.Integer({ minimum: 1, maximum: 1_000, default: 300, description: 'The last this many candles' }),
});
export const CandlesData = Type.Object({
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
    {
      description:
        'Oldest first; only intervals that hold a trade. Open and close follow chain order (block, then log index), as the trades list does',
    },
  ),
});
export const CandlesResponse = internalOk(CandlesData);
export const V1CandlesResponse = v1Ok(CandlesData);

export const TradesQuery = Type.Object(PageQuery(AGENTS_PAGE_SIZE_DEFAULT, AGENTS_PAGE_SIZE_MAX));
export const TradesData = Type.Object({
  trades: Type.Array(
    Type.Object({
      txHash: Type.String(),
      transactionHash: Type.String({ description: 'The same as txHash' }),
      logIndex: Type.Integer(),
      blockNumber: Type.Integer(),
      blockHash: Nullable(Type.String({ description: 'Null for a trade indexed before block hashes were recorded' })),
      finalized: Type.Boolean({
        description:
          'Its block is at or below the finalized block the indexer last saw; until then a reorg can still remove the trade (docs/indexer.md#reorgs)',
      }),
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
});
export const TradesResponse = internalOk(TradesData);
export const V1TradesResponse = v1Ok(TradesData);

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
