// A token's market over the last 24 hours of the chain's clock, from its indexed trades, for the token board and the
// v1 lists (docs/api/tokens.md "Market fields"): trades, buys and sells, USDC volume, high, low, the price 24 hours
// ago and now, and the time of the last trade. Prices are trade execution prices (USDC paid or received per whole
// token), as the candles show them.
import { sql } from 'drizzle-orm';
import { rowsOf, type Tx } from '../../db/client.ts';
import { tokenTrades } from '../../db/schema/tokens.ts';

export interface MarketStats {
  trades: number;
  buys: number;
  sells: number;
  /** USDC base units. */
  volume: bigint;
  /** Highest and lowest execution price in the window, USDC base units per whole token; null without a trade in it. */
  high: bigint | null;
  low: bigint | null;
  /** The last trade's price before the window, else the window's first: what the change is measured from. */
  open: bigint | null;
  /** The latest trade's price (in the window or before it); null when the token never traded. */
  close: bigint | null;
  lastTradeAt: Date | null;
}

export const NO_TRADES: MarketStats = {
  trades: 0,
  buys: 0,
  sells: 0,
  volume: 0n,
  high: null,
  low: null,
  open: null,
  close: null,
  lastTradeAt: null,
};

const bigOrNull = (v: string | null) => (v === null ? null : BigInt(v));

/**
 * The market of each of `companyIds` over [since, now]: one statement, each company a range of
 * token_trades_company_time_idx for the window and one index probe for the trade before it.
 */
export async function marketStatsOf(
  db: Tx,
  companyIds: readonly string[],
  since: Date,
): Promise<Map<string, MarketStats>> {
  if (companyIds.length === 0) return new Map();
  const t = tokenTrades;
  const price = sql`trunc(${t.usdcAmount} * ${10n ** 18n}::numeric / nullif(${t.tokenAmount}, 0))`;
  const rows = rowsOf<{
    id: string;
    trades: number;
    buys: number;
    volume: string | null;
    high: string | null;
    low: string | null;
    first_price: string | null;
    last_price: string | null;
    last_time: Date | string | null;
    before_price: string | null;
    before_time: Date | string | null;
  }>(
    await db.execute(sql`
      select c.id, w.trades, w.buys, w.volume, w.high, w.low, w.first_price, w.last_price, w.last_time,
        b.price as before_price, b.block_time as before_time
      from unnest(string_to_array(${companyIds.join(',')}::text, ',')) as c (id)
      cross join lateral (
        select count(*)::int as trades,
          (count(*) filter (where ${t.side} = 'buy'))::int as buys,
          sum(${t.usdcAmount})::text as volume,
          max(${price})::text as high,
          min(${price})::text as low,
          (array_agg(${price} order by ${t.blockNumber}, ${t.logIndex}))[1]::text as first_price,
          (array_agg(${price} order by ${t.blockNumber} desc, ${t.logIndex} desc))[1]::text as last_price,
          max(${t.blockTime}) as last_time
        from ${t} where ${t.companyId} = c.id and ${t.blockTime} >= ${since.toISOString()}::timestamptz
      ) w
      left join lateral (
        select ${price}::text as price, ${t.blockTime} as block_time
        from ${t} where ${t.companyId} = c.id and ${t.blockTime} < ${since.toISOString()}::timestamptz
        order by ${t.blockTime} desc, ${t.blockNumber} desc, ${t.logIndex} desc
        limit 1
      ) b on true`),
  );
  const stats = new Map<string, MarketStats>();
  for (const r of rows) {
    const before = bigOrNull(r.before_price);
    const last = r.last_time ?? r.before_time;
    stats.set(r.id, {
      trades: r.trades,
      buys: r.buys,
      sells: r.trades - r.buys,
      volume: BigInt(r.volume ?? '0'),
      high: bigOrNull(r.high),
      low: bigOrNull(r.low),
      open: before ?? bigOrNull(r.first_price),
      close: bigOrNull(r.last_price) ?? before,
      lastTradeAt: last === null ? null : new Date(last),
    });
  }
  return stats;
}

/** The change from `open` to `close` in percent, 2 decimals, rounded toward zero; null without both. */
export function priceChangePercent(stats: Pick<MarketStats, 'open' | 'close'>): number | null {
  if (stats.open === null || stats.close === null || stats.open === 0n) return null;
  return Number(((stats.close - stats.open) * 10_000n) / stats.open) / 100;
}
