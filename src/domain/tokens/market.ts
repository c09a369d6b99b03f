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
  /**
   * The time of the oldest trade in the window; null without one. The figures stay what they are for every later
   * window start up to this time: no trade leaves the window before it does (sharedMarketStats keeps them so).
   */
  firstInWindowAt: Date | null;
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
  firstInWindowAt: null,
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
    first_time: Date | string | null;
    before_price: string | null;
    before_time: Date | string | null;
  }>(
    await db.execute(sql`
      select c.id, w.trades, w.buys, w.volume, w.high, w.low, w.first_price, w.last_price, w.last_time, w.first_time,
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
          max(${t.blockTime}) as last_time,
          min(${t.blockTime}) as first_time
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
      firstInWindowAt: r.first_time === null ? null : new Date(r.first_time),
    });
  }
  return stats;
}

/** Reads the market of `companyIds` over [since, now] (marketStatsOf, or a shared reader of it). */
export type MarketStatsReader = (
  db: Tx,
  companyIds: readonly string[],
  since: Date,
) => Promise<ReadonlyMap<string, MarketStats>>;

/** Where the trades' changes stand: a position taken before a read, and whether trades changed after it. */
export interface TradeChanges {
  position(): number;
  changedSince(position: number): boolean;
}

/**
 * A map of reads kept while `changes` reports none since it began: each call answers the map to use now, a new one
 * once a change came (or once it holds `max` entries). The position is taken before any read kept from then on, so a
 * change committed while one reads is seen as a change.
 */
export function keptUntilChange<K, V>(changes: TradeChanges, max = Number.POSITIVE_INFINITY): () => Map<K, V> {
  let kept = new Map<K, V>();
  let position: number | undefined;
  return () => {
    if (position === undefined || changes.changedSince(position) || kept.size >= max) {
      kept = new Map();
      position = changes.position();
    }
    return kept;
  };
}

/**
 * marketStatsOf shared by the token lists' reads: each company's market is read once and kept while it is what a
 * read would find again, however many list pages show it, at once or one after another: until a trade is indexed
 * (`changes`: the read cache's change feed), or the window's start passes the oldest trade in it (a trade leaves
 * the window, MarketStats.firstInWindowAt). The window moves with the chain's clock, which the lists read every
 * VOLUMES_REUSE_MS; a company's figures change only when a trade enters or leaves it, so moving it alone reads
 * nothing again (it read the page's companies' days of trades every few seconds). A read that fails is not kept.
 */
export function sharedMarketStats(changes: TradeChanges, read: MarketStatsReader = marketStatsOf): MarketStatsReader {
  /** Each company's market: the window start it was read for, and the latest start it still holds for. */
  type Kept = { since: number; until: number; stats: Promise<MarketStats> };
  const current = keptUntilChange<string, Kept>(changes);
  return async (db, companyIds, since) => {
    const markets = current();
    const at = since.getTime();
    const missing = companyIds.filter((id) => {
      const one = markets.get(id);
      return one === undefined || at < one.since || at > one.until;
    });
    if (missing.length > 0) {
      const batch = read(db, missing, since);
      for (const id of missing) {
        // Until its figures are known, a read holds for its own window start only.
        const one: Kept = { since: at, until: at, stats: batch.then((m) => m.get(id) ?? NO_TRADES) };
        markets.set(id, one);
        one.stats.then(
          (stats) => {
            one.until = stats.firstInWindowAt === null ? Number.POSITIVE_INFINITY : stats.firstInWindowAt.getTime();
          },
          () => {
            if (markets.get(id) === one) markets.delete(id);
          },
        );
      }
    }
    const entries = await Promise.all(companyIds.map(async (id) => [id, await markets.get(id)!.stats] as const));
    return new Map(entries);
  };
}

/** The change from `open` to `close` in percent, 2 decimals, rounded toward zero; null without both. */
export function priceChangePercent(stats: Pick<MarketStats, 'open' | 'close'>): number | null {
  if (stats.open === null || stats.close === null || stats.open === 0n) return null;
  return Number(((stats.close - stats.open) * 10_000n) / stats.open) / 100;
}
