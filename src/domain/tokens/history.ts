// A token's history for its page: candles of its indexed trades by interval, and its trades, newest first. Both
// read one range of token_trades_company_time_idx; prices are USDC per whole token, from each trade's amounts.
import { desc, eq, sql } from 'drizzle-orm';
import { type Address, formatUnits, getAddress } from 'viem';
import { COMPANY_TOKEN_DECIMALS, USDC_DECIMALS } from '../../constants.ts';
import { rowsOf, type Tx } from '../../db/client.ts';
import { chainCursors } from '../../db/schema/chain.ts';
import { companies } from '../../db/schema/companies.ts';
import { tokenTrades } from '../../db/schema/tokens.ts';
import { requireCompany } from '../companies/queries.ts';
import { executionPrice } from './apply.ts';
import { companyTokens } from './company-tokens.stream.ts';

export const CANDLE_INTERVALS = { '1m': 60, '1h': 3_600, '1d': 86_400 } as const;
export type CandleInterval = keyof typeof CANDLE_INTERVALS;

const usdc = (v: bigint) => formatUnits(v, USDC_DECIMALS);

/**
 * The company token's last `limit` candles of `interval` that hold a trade, oldest first: open, high, low and
 * close of the trades' prices, their USDC volume and count. `time` is the bucket's start in unix seconds.
 */
export async function tokenCandles(db: Tx, idOrSlug: string, interval: CandleInterval, limit: number) {
  const company = await requireCompany(db, idOrSlug);
  const seconds = CANDLE_INTERVALS[interval];
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
          log_index, usdc_amount, trunc(usdc_amount * ${10n ** 18n}::numeric / nullif(token_amount, 0)) as price
        from token_trades
        where company_id = ${company.id} and token_amount > 0
      ) t
      group by bucket
      order by bucket desc
      limit ${limit}`),
  );
  return {
    companyId: company.id,
    interval,
    candles: rows.reverse().map((r) => ({
      time: Number(r.bucket),
      open: usdc(BigInt(r.open)),
      high: usdc(BigInt(r.high)),
      low: usdc(BigInt(r.low)),
      close: usdc(BigInt(r.close)),
      volumeUsdc: usdc(BigInt(r.volume)),
      trades: r.trades,
    })),
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

/**
 * The company token's trades, newest first in chain order (block, then log index: the candles' order), paged;
 * `total` counts them all. Each says where it is on the chain and whether its block is finalized.
 */
export async function tokenTradePage(db: Tx, idOrSlug: string, page: number, limit: number) {
  const company = await requireCompany(db, idOrSlug);
  const [rows, [count], finalized] = await Promise.all([
    db
      .select()
      .from(tokenTrades)
      .where(eq(tokenTrades.companyId, company.id))
      .orderBy(desc(tokenTrades.blockNumber), desc(tokenTrades.logIndex))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: sql<number>`count(*)::int` }).from(tokenTrades).where(eq(tokenTrades.companyId, company.id)),
    finalizedTradeBlock(db),
  ]);
  const total = count?.n ?? 0;
  return {
    trades: rows.map((t) => ({
      txHash: t.txHash,
      transactionHash: t.txHash,
      logIndex: t.logIndex,
      blockNumber: Number(t.blockNumber),
      blockHash: t.blockHash,
      finalized: finalized !== null && t.blockNumber <= finalized,
      time: t.blockTime.toISOString(),
      side: t.side as 'buy' | 'sell',
      trader: t.trader,
      usdcAmount: usdc(t.usdcAmount),
      tokenAmount: formatUnits(t.tokenAmount, COMPANY_TOKEN_DECIMALS),
      price: usdc(executionPrice(t.usdcAmount, t.tokenAmount)),
      venue: t.venue as 'CURVE' | 'POOL',
    })),
    pagination: { page, limit, total, hasMore: page * limit < total },
  };
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
