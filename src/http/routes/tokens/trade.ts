// A trade of a company token as the trades lists answer it, and the v1 lists' filters, order and cursor.
import { Type } from 'typebox';
import { AGENTS_PAGE_SIZE_DEFAULT, AGENTS_PAGE_SIZE_MAX } from '../../../constants.ts';
import {
  AddressOut,
  AddressString,
  CursorQuery,
  IsoTimestamp,
  Nullable,
  PageQuery,
  Pagination,
  StringEnum,
} from '../../schemas/common.ts';
import { Decimal, Raw } from './market.ts';

const TxHash = Type.String({ pattern: '^0x[0-9a-f]{64}$', description: 'Transaction hash (lower case)' });

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

/** The key of a kept v1 trades page: every filter, the order and the cursor. */
export const tradeKey = (q: Record<string, unknown>) =>
  ['company', 'page', 'limit', 'cursor', 'order', 'trader', 'since', 'until', 'fromBlock', 'toBlock']
    .map((k) => String(q[k] ?? ''))
    .join('|');
