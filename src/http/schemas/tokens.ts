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
  AddressOut,
  AddressString,
  CursorQuery,
  Hash32,
  IsoTimestamp,
  internalOk,
  Meta,
  Nullable,
  OpenEnum,
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
  tokenAddress: AddressOut(),
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
  tokenAddress: AddressOut(),
  bondingCurve: Type.Object({
    address: AddressOut('The token launcher, which holds every curve'),
    graduationThreshold: Type.Number(),
    graduated: Type.Boolean(),
    graduatedAt: Nullable(IsoTimestamp),
  }),
  v4Pool: Type.Object({ address: Nullable(PoolId) }),
  launchTxHash: Hash32('The launch transaction'),
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
  slug: Type.String({ minLength: 1, maxLength: 64, description: 'Company id (CUID) or slug' }),
});

const Decimal = (description: string) => Type.String({ pattern: '^[0-9]+(\\.[0-9]+)?$', description });

const Raw = (description: string) =>
  Type.String({ pattern: '^[0-9]+$', description: `Decimal string of an integer in base units: ${description}` });
const TxHash = Type.String({ pattern: '^0x[0-9a-f]{64}$', description: 'Transaction hash (lower case)' });
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
export const CandlesResponse = internalOk(CandlesData);
export const V1CandlesResponse = v1Ok(CandlesData);

export const TradesQuery = Type.Object(PageQuery(AGENTS_PAGE_SIZE_DEFAULT, AGENTS_PAGE_SIZE_MAX));

/** The filters, order and cursor of the v1 trades lists (docs/api/tokens.md "Trades"). */
export const V1TradesQuery = Type.Object({
  ...PageQuery(AGENTS_PAGE_SIZE_DEFAULT, AGENTS_PAGE_SIZE_MAX),
  ...CursorQuery(
    "`pagination.nextCursor` of the page before (same filters and order): the trades after that page's last one in chain order, whatever was indexed since; `page` then counts from it",
  ),
  order: Type.Optional(
    StringEnum(['desc', 'asc'] as const, {
      description: 'Chain order (block, then log index): `desc` newest first (the default), `asc` oldest first',
    }),
  ),
  trader: Type.Optional({ ...AddressString, description: "Only this wallet's trades (an Ethereum address)" }),
  since: Type.Optional({ ...IsoTimestamp, description: 'Only trades whose block time is at or after this instant' }),
  until: Type.Optional({ ...IsoTimestamp, description: 'Only trades whose block time is before this instant' }),
  fromBlock: Type.Optional(
    Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'Only trades in this block or later' }),
  ),
  toBlock: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      description: 'Only trades in this block or earlier',
    }),
  ),
});
export const V1TradeFeedQuery = Type.Object({
  ...V1TradesQuery.properties,
  company: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, description: "Only this company's token: its id or slug" }),
  ),
});

/**
 * A trade of a company token (docs/api/tokens.md "Trades"): decimal amounts (`usdcAmount`, `tokenAmount`,
 * `price`) and, beside them, the stream's base-unit forms (`amount`, `usdcAmountRaw`, `priceRaw`) and names
 * (`blockTime`), and the names both use (`usdcAmountDecimal`, `priceDecimal`): docs/api/README.md "Names and units".
 */
export const Trade = Type.Object({
  txHash: TxHash,
  transactionHash: { ...TxHash, description: 'The same as txHash' },
  logIndex: Type.Integer({ minimum: 0 }),
  blockNumber: Type.Integer({ minimum: 0 }),
  blockHash: Nullable(
    Type.String({
      pattern: '^0x[0-9a-f]{64}$',
      description: 'Null for a trade indexed before block hashes were recorded',
    }),
  ),
  finalized: Type.Boolean({
    description:
      'Its block is at or below the finalized block the indexer last saw; until then a reorg can still remove the trade (docs/indexer.md#reorgs)',
  }),
  time: IsoTimestamp,
  blockTime: Type.Optional({ ...IsoTimestamp, description: 'The same as `time`: the name the event stream uses' }),
  companyId: Type.Optional(Type.String()),
  companySlug: Type.Optional(Type.String()),
  tokenSymbol: Type.Optional(Nullable(Type.String())),
  tokenAddress: Type.Optional({ ...AddressString, description: 'The company token (checksummed)' }),
  side: StringEnum(['buy', 'sell'] as const),
  trader: AddressOut(),
  usdcAmount: Decimal('USDC paid or received'),
  usdcAmountRaw: Type.Optional(Raw("USDC paid or received (6 decimals): the stream's `usdcAmount`")),
  usdcAmountDecimal: Type.Optional(
    Decimal('The same as `usdcAmount`: the name the event stream uses for it (docs/api/README.md "Names and units")'),
  ),
  tokenAmount: Decimal('Tokens bought or sold'),
  amount: Type.Optional(Raw("tokens bought or sold (18 decimals): the stream's `amount`")),
  price: Decimal('USDC per token of this trade, rounded down to 6 decimals'),
  priceExact: Type.Optional(Decimal('USDC per token of this trade, full precision (18 decimals, rounded down)')),
  priceRaw: Type.Optional(Raw("USDC per whole token (6 decimals), rounded down: the stream's `price`")),
  priceDecimal: Type.Optional(
    Decimal('The same as `price`: the name the event stream uses for it (docs/api/README.md "Names and units")'),
  ),
  venue: StringEnum(['CURVE', 'POOL'] as const),
});
export const TradesData = Type.Object({
  trades: Type.Array(Trade),
  pagination: Pagination,
});
export const TradesResponse = internalOk(TradesData);
/**
 * The v1 company trades: `data.trades` and `data.pagination` as before, and the same `pagination` beside `data`, where
 * every other v1 list has it (additive).
 */
export const V1TradesResponse = Type.Object({ data: TradesData, pagination: Pagination, meta: Meta });
export const V1TradeFeedResponse = Type.Object({ data: Type.Array(Trade), pagination: Pagination, meta: Meta });

export const PositionResponse = internalOk(
  Type.Object({
    companyId: Type.String(),
    wallet: AddressOut('Checksummed'),
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

/** The top holders' query: how many, largest first. */
export const HoldersQuery = Type.Object({
  limit: Type.Integer({
    minimum: 1,
    maximum: 100,
    default: 10,
    description: 'How many holders, largest balance first (1-100, default 10)',
  }),
});

export const HoldersResponse = internalOk(
  Type.Object({
    companyId: Type.String(),
    tokenAddress: Nullable({
      ...AddressString,
      description: 'The company token (checksummed); null before its launch',
    }),
    holderCount: Type.Integer({ minimum: 0, description: 'Addresses holding a positive balance' }),
    supply: Decimal('Tokens minted less burned'),
    holders: Type.Array(
      Type.Object({
        address: AddressOut('Checksummed'),
        kind: StringEnum(['curve', 'pool', 'wallet'] as const, {
          description:
            "`curve`: the launcher, holding what the bonding curve has not sold yet; `pool`: the Uniswap v4 PoolManager, holding a graduated pool's tokens; `wallet`: any other address",
        }),
        balance: Decimal('Tokens held'),
        sharePercent: Type.String({
          pattern: '^[0-9]{1,3}\\.[0-9]{2}$',
          description: 'Percent of the supply, 2 decimals, rounded down',
        }),
      }),
    ),
  }),
);
