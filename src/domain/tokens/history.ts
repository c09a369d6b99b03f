// A token's history for its page: candles of its indexed trades by interval, and its trades, newest first. Both
// read one range of token_trades_company_time_idx; prices are USDC per whole token, from each trade's amounts.
import { and, asc, desc, eq, gte, lt, lte, type SQL, sql } from 'drizzle-orm';
import { type Address, formatUnits, getAddress } from 'viem';
import { COMPANY_TOKEN_DECIMALS, USDC_DECIMALS } from '../../constants.ts';
import { rowsOf, type Tx } from '../../db/client.ts';
import { countEachTime, type PageTotal } from '../../db/page-total.ts';
import { chainCursors } from '../../db/schema/chain.ts';
import { companies } from '../../db/schema/companies.ts';
import { tokenTrades } from '../../db/schema/tokens.ts';
import { validationError } from '../../errors.ts';
import { decodeCursor, encodeCursor } from '../../page-cursor.ts';
import { requireCompany } from '../companies/queries.ts';
import { companyTokens } from './company-tokens.stream.ts';
import { EXACT_PRICE_DECIMALS, EXACT_SCALE, exactPrice, executionPrice } from './prices.ts';

export const CANDLE_INTERVALS = {
  '1m': 60,
  '5m': 300,
  '15m': 900,
  '1h': 3_600,
  '4h': 14_400,
  '1d': 86_400,
} as const;
export type CandleInterval = keyof typeof CANDLE_INTERVALS;

const usdc = (v: bigint) => formatUnits(v, USDC_DECIMALS);

/** Which candles: the latest `limit` (before `to`), or the first `limit` from `from` (unix seconds, UTC). */
export interface CandleRange {
  limit: number;
  /** The first candle's start at or after this (rounded up to the interval); then oldest `limit` from there. */
  from?: number | undefined;
  /** Only candles that start before this. */
  to?: number | undefined;
}

/**
 * The company token's candles of `interval` that hold a trade, oldest first: open, high, low and close of the
 * trades' prices, their USDC volume and count. `time` is the bucket's start in unix seconds. Without `from`, the
 * last `limit` before `to` (`previousTo` pages back); with it, the first `limit` from there (`nextFrom` pages on).
 */
export async function tokenCandles(db: Tx, idOrSlug: string, interval: CandleInterval, range: CandleRange) {
  const company = await requireCompany(db, idOrSlug);
  const seconds = CANDLE_INTERVALS[interval];
  const up = (t: number) => Math.ceil(t / seconds) * seconds;
  const forward = range.from !== undefined;
  const bounds: SQL[] = [];
  if (range.from !== undefined) bounds.push(sql`and block_time >= to_timestamp(${up(range.from)})`);
  if (range.to !== undefined) bounds.push(sql`and block_time < to_timestamp(${up(range.to)})`);
  const rows = rowsOf<{
    bucket: string;
    open: string;
    high: string;
    low: string;
    close: string;
    volume: string;
    trades: number;
  }>(
    await db.execute(sql`
      select bucket::text,
        (array_agg(price order by block_number, log_index))[1]::text as open,
        max(price)::text as high, min(price)::text as low,
        (array_agg(price order by block_number desc, log_index desc))[1]::text as close,
        sum(usdc_amount)::text as volume, count(*)::int as trades
      from (
        select floor(extract(epoch from block_time) / ${seconds})::bigint * ${seconds} as bucket, block_number,
          log_index, usdc_amount, trunc(usdc_amount * ${EXACT_SCALE}::numeric / nullif(token_amount, 0)) as price
        from token_trades
        where company_id = ${company.id} and token_amount > 0 ${sql.join(bounds, sql` `)}
      ) t
      group by bucket
      order by bucket ${forward ? sql`asc` : sql`desc`}
      limit ${range.limit + 1}`),
  );
  const more = rows.length > range.limit;
  const kept = rows.slice(0, range.limit);
  if (!forward) kept.reverse();
  const candles = kept.map((r) => {
    const [open, high, low, close] = [r.open, r.high, r.low, r.close].map(BigInt) as [bigint, bigint, bigint, bigint];
    const legacy = (v: bigint) => usdc(v / 10n ** BigInt(EXACT_PRICE_DECIMALS - USDC_DECIMALS));
    const exact = (v: bigint) => formatUnits(v, EXACT_PRICE_DECIMALS);
    return {
      time: Number(r.bucket),
      open: legacy(open),
      high: legacy(high),
      low: legacy(low),
      close: legacy(close),
      openExact: exact(open),
      highExact: exact(high),
      lowExact: exact(low),
      closeExact: exact(close),
      volumeUsdc: usdc(BigInt(r.volume)),
      volumeUsdcRaw: r.volume,
      trades: r.trades,
    };
  });
  return {
    companyId: company.id,
    interval,
    intervalSeconds: seconds,
    candles,
    nextFrom: forward && more ? candles.at(-1)!.time + seconds : null,
    previousTo: !forward && more ? candles[0]!.time : null,
  };
}

/**
 * The block at or below which the token stream's trades are final: the chain's finalized block when the stream last
 * applied a batch (docs/indexer.md#reorgs), read from the database, no chain call. Null before it ran.
 */
async function finalizedTradeBlock(db: Tx): Promise<bigint | null> {
  const [row] = await db
    .select({ finalized: chainCursors.finalized })
    .from(chainCursors)
    .where(eq(chainCursors.name, companyTokens.name));
  return row?.finalized ?? null;
}

/** Query of a trades list: filters, order and paging (docs/api/tokens.md "Trades"). */
export interface TradeQuery {
  /** One company's token (its id or slug); every token when absent. */
  company?: string | undefined;
  /** Only this wallet's trades. */
  trader?: string | undefined;
  /** Block time at or after this instant (ISO). */
  since?: string | undefined;
  /** Block time before this instant (ISO). */
  until?: string | undefined;
  /** Blocks at or above. */
  fromBlock?: number | undefined;
  /** Blocks at or below. */
  toBlock?: number | undefined;
  /** Chain order (block, then log index): `desc` newest first (the default), `asc` oldest first. */
  order?: 'asc' | 'desc' | undefined;
  page: number;
  limit: number;
  /** pagination.nextCursor of the page before. */
  cursor?: string | undefined;
}

const INT8_MAX = 2n ** 63n - 1n;
const INT4_MAX = 2n ** 31n - 1n;

/**
 * A block number (bigint column) or a log index (integer column) in a cursor: a decimal integer without sign or
 * leading zero that its column can hold, so a hand-made cursor is a 400 and never the database's overflow.
 */
const cursorPart = (s: string, max = INT8_MAX) => {
  if (!/^(0|[1-9][0-9]{0,18})$/.test(s) || BigInt(s) > max)
    throw validationError('query.cursor', 'is not a cursor this list gave (pagination.nextCursor)');
  return s;
};

/** A trade row of the REST lists (docs/api/tokens.md "Trades"), from the row and its company. */
function tradeRow(
  t: typeof tokenTrades.$inferSelect,
  company: { slug: string; symbol: string | null },
  finalized: bigint | null,
) {
  return {
    txHash: t.txHash,
    transactionHash: t.txHash,
    logIndex: t.logIndex,
    blockNumber: Number(t.blockNumber),
    blockHash: t.blockHash,
    finalized: finalized !== null && t.blockNumber <= finalized,
    time: t.blockTime.toISOString(),
    blockTime: t.blockTime.toISOString(),
    companyId: t.companyId,
    companySlug: company.slug,
    tokenSymbol: company.symbol,
    tokenAddress: getAddress(t.tokenAddress),
    side: t.side as 'buy' | 'sell',
    trader: t.trader,
    usdcAmount: usdc(t.usdcAmount),
    usdcAmountRaw: t.usdcAmount.toString(),
    usdcAmountDecimal: usdc(t.usdcAmount),
    tokenAmount: formatUnits(t.tokenAmount, COMPANY_TOKEN_DECIMALS),
    amount: t.tokenAmount.toString(),
    price: usdc(executionPrice(t.usdcAmount, t.tokenAmount)),
    priceExact: exactPrice(t.usdcAmount, t.tokenAmount),
    priceRaw: executionPrice(t.usdcAmount, t.tokenAmount).toString(),
    priceDecimal: usdc(executionPrice(t.usdcAmount, t.tokenAmount)),
    venue: t.venue as 'CURVE' | 'POOL',
  };
}

/**
 * Trades in chain order (block, then log index), newest or oldest first, of one company token or all of them,
 * filtered by trader, block time and block number; paged by `page` and by cursor (the last row's block and log
 * index: no repeat and no gap while trades are indexed). `total` counts every trade the filters select.
 * One range of token_trades_company_block_idx, token_trades_block_idx or token_trades_trader_block_idx.
 */
export async function tradeList(db: Tx, query: TradeQuery, totals: PageTotal = countEachTime) {
  const order = query.order ?? 'desc';
  const company = query.company === undefined ? undefined : await requireCompany(db, query.company);
  const filters: SQL[] = [];
  if (company) filters.push(eq(tokenTrades.companyId, company.id));
  if (query.trader) filters.push(eq(tokenTrades.trader, getAddress(query.trader as Address)));
  if (query.since !== undefined) filters.push(gte(tokenTrades.blockTime, new Date(query.since)));
  if (query.until !== undefined) filters.push(lt(tokenTrades.blockTime, new Date(query.until)));
  if (query.fromBlock !== undefined) filters.push(gte(tokenTrades.blockNumber, BigInt(query.fromBlock)));
  if (query.toBlock !== undefined) filters.push(lte(tokenTrades.blockNumber, BigInt(query.toBlock)));
  const where = [...filters];
  if (query.cursor !== undefined) {
    const [dir, block, log] = decodeCursor(query.cursor, 3) as [string, string, string];
    if (dir !== order[0]) throw validationError('query.cursor', `was given for order=${dir === 'a' ? 'asc' : 'desc'}`);
    const logIndex = cursorPart(log, INT4_MAX);
    const after = sql`(${tokenTrades.blockNumber}, ${tokenTrades.logIndex})`;
    where.push(
      order === 'desc'
        ? sql`${after} < (${cursorPart(block)}::bigint, ${logIndex}::int)`
        : sql`${after} > (${cursorPart(block)}::bigint, ${logIndex}::int)`,
    );
  }
  const by = order === 'desc' ? desc : asc;
  const offset = (query.page - 1) * query.limit;
  const [rows, finalized] = await Promise.all([
    db
      .select({ trade: tokenTrades, company: { slug: companies.slug, symbol: companies.tokenSymbol } })
      .from(tokenTrades)
      .innerJoin(companies, eq(companies.id, tokenTrades.companyId))
      .where(and(...where))
      .orderBy(by(tokenTrades.blockNumber), by(tokenTrades.logIndex))
      .limit(query.limit + 1)
      .offset(offset),
    finalizedTradeBlock(db),
  ]);
  const hasMore = rows.length > query.limit;
  const page = rows.slice(0, query.limit);
  const key = JSON.stringify([
    company?.id,
    query.trader?.toLowerCase(),
    query.since,
    query.until,
    query.fromBlock,
    query.toBlock,
  ]);
  const total = await totals(
    key,
    { offset, limit: query.limit, rows: page.length, afterCursor: query.cursor !== undefined },
    async () => {
      const [count] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(tokenTrades)
        .where(and(...filters));
      return count?.n ?? 0;
    },
  );
  const last = page.at(-1)?.trade;
  const nextCursor =
    last && hasMore ? encodeCursor([order[0]!, last.blockNumber.toString(), String(last.logIndex)]) : null;
  return {
    companyId: company?.id,
    items: page.map((r) => tradeRow(r.trade, r.company, finalized)),
    pagination: { page: query.page, limit: query.limit, total, hasMore, nextCursor },
  };
}

/**
 * The company token's trades, newest first in chain order (block, then log index: the candles' order), paged;
 * `total` counts them all. Each says where it is on the chain and whether its block is finalized.
 */
export async function tokenTradePage(db: Tx, idOrSlug: string, query: Omit<TradeQuery, 'company'>) {
  const { items, pagination } = await tradeList(db, { ...query, company: idOrSlug });
  return { trades: items, pagination };
}

/**
 * A wallet's last `limit` trades across every company token, newest first, each with its token and the realised
 * PnL of the wallet's sales up to it (every trade counted, not only the ones returned): what a PnL chart over time
 * plots. One range of token_trades_trader_time_idx.
 */
export async function walletTrades(db: Tx, wallet: Address, limit: number) {
  const rows = await db
    .select({
      trade: tokenTrades,
      company: { id: companies.id, slug: companies.slug, name: companies.name, symbol: companies.tokenSymbol },
      cumulative: sql<string>`sum(coalesce(${tokenTrades.realizedPnl}, 0)) over (order by ${tokenTrades.blockTime}, ${tokenTrades.blockNumber}, ${tokenTrades.logIndex} rows unbounded preceding)`,
    })
    .from(tokenTrades)
    .innerJoin(companies, eq(companies.id, tokenTrades.companyId))
    .where(eq(tokenTrades.trader, getAddress(wallet)))
    .orderBy(desc(tokenTrades.blockTime), desc(tokenTrades.blockNumber), desc(tokenTrades.logIndex))
    .limit(limit);
  return {
    wallet: getAddress(wallet),
    trades: rows.map(({ trade: t, company, cumulative }) => ({
      txHash: t.txHash,
      logIndex: t.logIndex,
      time: t.blockTime.toISOString(),
      blockNumber: Number(t.blockNumber),
      company,
      side: t.side as 'buy' | 'sell',
      usdcAmount: usdc(t.usdcAmount),
      tokenAmount: formatUnits(t.tokenAmount, COMPANY_TOKEN_DECIMALS),
      price: usdc(executionPrice(t.usdcAmount, t.tokenAmount)),
      venue: t.venue as 'CURVE' | 'POOL',
      realizedPnlUsdc: t.realizedPnl === null ? null : usdc(t.realizedPnl),
      cumulativeRealizedPnlUsdc: usdc(BigInt(cumulative)),
    })),
  };
}
