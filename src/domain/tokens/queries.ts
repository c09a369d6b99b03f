// Reading company tokens: the public status with its price read on-chain, the v1 detail and list (database only:
// the list's price and market cap are what the indexer recorded, its 24-hour volumes one shared read), and trade
// volume.
import { and, count, desc, eq, gte, inArray, ne, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Address } from 'viem';
import { launcherAddress, readMarket } from '../../chain/contracts/launcher.ts';
import { chainDateForReads, READ_CLOCK_REUSE_MS } from '../../chain/time.ts';
import type { WatchedTable } from '../../db/changes.ts';
import { rowsOf, type Tx } from '../../db/client.ts';
import { countEachTime, type PageTotal } from '../../db/page-total.ts';
import { preparedOn } from '../../db/prepared.ts';
import { companies } from '../../db/schema/companies.ts';
import { tokenBalances, tokenHolderCounts, tokenTrades } from '../../db/schema/tokens.ts';
import { notFound } from '../../errors.ts';
import { cursorPart, decodeCursor, encodeCursor } from '../../page-cursor.ts';
import { isLinkedWallet } from '../companies/linked.ts';
import { type CompanyRow, requireCompany } from '../companies/queries.ts';
import type { Deps as DomainDeps } from '../deps.ts';

import { keptUntilChange, type MarketStatsReader, marketStatsOf, NO_TRADES, type TradeChanges } from './market.ts';
import { type MarketContext, tokenDetailView, tokenListItem, tokenStatusView } from './views.ts';

type Deps = Pick<DomainDeps, 'chain' | 'database'>;

/** docs/api/tokens.md GET /api/companies/{id}/token: price and market cap from the launcher (the v4 pool once graduated). */
export async function getTokenStatus(deps: Deps, idOrSlug: string, at?: bigint) {
  return tokenStatusOf(deps, await requireCompany(deps.database.db, idOrSlug), at);
}

/** A company's token status as the routes show it, the price read on-chain once launched (at block `at`, or the latest). */
export async function tokenStatusOf(deps: Pick<Deps, 'chain'>, company: CompanyRow, at?: bigint) {
  if (company.tokenStatus === 'PRE_PUBLIC') return tokenStatusView(company, undefined);
  return tokenStatusView(company, await readMarket(deps.chain, company.tokenAddress as Address, at));
}

export interface TradeStats {
  trades: number;
  buys: number;
  /** USDC base units. */
  volume: bigint;
}

/**
 * Each of `companyIds`' token trades since `since`: how many, how many buys, and their USDC volume; a company with
 * none is absent. One grouped read of token_trades_company_time_idx, a range per company.
 */
export async function tokenTradeStatsOf(
  db: Tx,
  companyIds: readonly string[],
  since: Date,
): Promise<Map<string, TradeStats>> {
  if (companyIds.length === 0) return new Map();
  const rows = await db
    .select({
      companyId: tokenTrades.companyId,
      trades: sql<number>`count(*)::int`,
      buys: sql<number>`count(*) filter (where ${tokenTrades.side} = 'buy')::int`,
      volume: sql<string>`sum(${tokenTrades.usdcAmount})::text`,
    })
    .from(tokenTrades)
    .where(and(inArray(tokenTrades.companyId, [...companyIds]), gte(tokenTrades.blockTime, since)))
    .groupBy(tokenTrades.companyId);
  return new Map(rows.map((r) => [r.companyId, { trades: r.trades, buys: r.buys, volume: BigInt(r.volume) }]));
}

/** A company's token trades since `since`: how many, how many buys, and their USDC volume (base units). */
export async function tokenTradeStats(db: Tx, companyId: string, since: Date): Promise<TradeStats> {
  return (await tokenTradeStatsOf(db, [companyId], since)).get(companyId) ?? { trades: 0, buys: 0, volume: 0n };
}

export interface TokenMover {
  /** The token's company. */
  companyId: string;
  symbol: string;
  /** The token's address ('' before launch). */
  address: string;
  status: string;
  /** When the token's launch was mined. */
  publicAt: Date | null;
  /** USDC base units per whole token: the first and the last trade's price in the window. */
  firstPrice: bigint;
  lastPrice: bigint;
  /** Counted volume: each trader's trades netted (volume.ts), the issuing company's linked wallets left out. */
  volume: bigint;
  trades: number;
  /** Distinct traders in the window, the issuing company's linked wallets left out. */
  traders: number;
}

/**
 * The platform's most traded tokens since `since` (the engine's market read and scan_platform_tokens): ranked by
 * volume counted as the score counts it (scores/volume.ts), so a token's own company cannot put it on top: the
 * issuing company's linked wallets (creator, treasuries, agents) do not count, and each other trader counts the net
 * change of their position, so a round trip counts nothing. Per token also its trades and outside traders, and the
 * price of its first and last trade in the window (every trade's), at most `limit`, by volume. One range of
 * token_trades_time_idx.
 */
export async function tokenMovers(db: Tx, since: Date, limit: number): Promise<TokenMover[]> {
  const rows = rowsOf<{
    company_id: string;
    symbol: string | null;
    address: string | null;
    status: string;
    public_at: Date | string | null;
    volume: string;
    trades: number;
    traders: number;
    first: string | null;
    last: string | null;
  }>(
    await db.execute(sql`
      with window_trades as (
        select company_id, lower(trader) as trader, side, usdc_amount, token_amount, block_number, log_index
        from token_trades where block_time >= ${since.toISOString()}::timestamptz
      ),
      positions as (
        select company_id, trader, count(*) as trades,
          coalesce(sum(token_amount) filter (where side = 'buy'), 0) as bought,
          coalesce(sum(usdc_amount) filter (where side = 'buy'), 0) as paid,
          coalesce(sum(token_amount) filter (where side = 'sell'), 0) as sold,
          coalesce(sum(usdc_amount) filter (where side = 'sell'), 0) as received
        from window_trades w
        where not ${isLinkedWallet('w.trader', 'w.company_id')}
        group by company_id, trader
      ),
      ranked as (
        select company_id, count(*)::int as traders, sum(trades)::int as trades,
          sum(case
            when bought > sold then div((bought - sold) * paid, bought)
            when sold > bought then div((sold - bought) * received, sold)
            else 0
          end) as volume
        from positions group by company_id
      ),
      top as (
        select r.* from ranked r order by r.volume desc, r.company_id limit ${limit}
      )
      select top.company_id, c.token_symbol as symbol, c.token_address as address, c.token_status as status, c.token_public_at as public_at,
        top.volume::text as volume, top.trades, top.traders,
        (select trunc(w.usdc_amount * ${10n ** 18n}::numeric / nullif(w.token_amount, 0))::text from window_trades w
          where w.company_id = top.company_id order by w.block_number, w.log_index limit 1) as first,
        (select trunc(w.usdc_amount * ${10n ** 18n}::numeric / nullif(w.token_amount, 0))::text from window_trades w
          where w.company_id = top.company_id order by w.block_number desc, w.log_index desc limit 1) as last
      from top join companies c on c.id = top.company_id
      order by top.volume desc, top.company_id`),
  );
  return rows.map((r) => ({
    companyId: r.company_id,
    symbol: r.symbol ?? '',
    address: r.address ?? '',
    status: r.status,
    publicAt: r.public_at === null ? null : new Date(r.public_at),
    firstPrice: BigInt(r.first ?? '0'),
    lastPrice: BigInt(r.last ?? '0'),
    volume: BigInt(r.volume),
    trades: r.trades,
    traders: r.traders,
  }));
}

/** The balances of the v4 PoolManager (the graduated pools' tokens), joined by token. */
const poolBalances = alias(tokenBalances, 'pool_balances');
/** The columns of the market fields beside the company's (views.ts TokenMarketRow). */
const marketColumns = {
  holders: tokenHolderCounts.holders,
  supply: tokenHolderCounts.supply,
  poolTokens: poolBalances.balance,
};

/**
 * docs/api/tokens.md GET /api/v1/companies/{slug}/token, with price, market cap and the market fields; 404 without a
 * token. `slug` is the company's id or slug (as every v1 path); the id wins, as in requireCompany.
 */
export async function getTokenDetail(deps: Deps, slug: string) {
  const db = deps.database.db;
  const [row] = await db
    .select({ company: companies, ...marketColumns })
    .from(companies)
    .leftJoin(tokenHolderCounts, eq(tokenHolderCounts.tokenAddress, companies.tokenAddress))
    .leftJoin(
      poolBalances,
      and(eq(poolBalances.tokenAddress, companies.tokenAddress), eq(poolBalances.holder, poolManagerOf(deps))),
    )
    .where(or(eq(companies.id, slug), eq(companies.slug, slug)))
    .orderBy(sql`${companies.id} = ${slug} desc`)
    .limit(1);
  if (!row) throw notFound(`Company ${slug} not found`);
  const { company, ...market } = row;
  if (company.tokenStatus === 'PRE_PUBLIC') throw notFound(`Company ${slug} has not launched a token yet`);
  const context = await marketContext(deps, [company.id]);
  return tokenDetailView({ ...company, ...market }, launcherAddress(deps.chain), context(company.id));
}

/** The PoolManager's address as token_balances holds it (checksummed); a placeholder matching nothing without one. */
const poolManagerOf = (deps: Pick<Deps, 'chain'>) => deps.chain.contracts.poolManager ?? '-';

/**
 * The chain, its clock and each company's trades over the 24 hours before it: one grouped read for all of
 * `companyIds` (market.ts), whatever their number.
 */
async function marketContext(deps: Deps, companyIds: readonly string[], read: MarketStatsReader = marketStatsOf) {
  const now = await volumeWindowEnd(deps);
  const stats = await read(deps.database.db, companyIds, new Date(now.getTime() - DAY_MS));
  const base = {
    chainId: deps.chain.publicClient.chain?.id ?? 0,
    usdc: deps.chain.contracts.usdc ?? '',
    now: now.getTime(),
  };
  return (companyId: string): MarketContext => ({ ...base, stats: stats.get(companyId) ?? NO_TRADES });
}

export interface TokenListQuery {
  page: number;
  limit: number;
  status?: 'BONDING' | 'GRADUATED' | undefined;
  /** pagination.nextCursor of the page before: the items after its last one, whatever was launched since. */
  cursor?: string | undefined;
}

const tokenListWhere = (byStatus: boolean) =>
  byStatus ? eq(companies.tokenStatus, sql.placeholder('status')) : ne(companies.tokenStatus, 'PRE_PUBLIC');

/** Items after a cursor's (publicAt, id), in the list's order (newest first): a range of the same index. */
const afterCursor = sql`(${companies.tokenPublicAt}, ${companies.id}) < (${sql.placeholder('afterTime')}::timestamptz, ${sql.placeholder('afterId')}::text)`;

function tokenPageStatement(db: Tx, byStatus: boolean, byCursor: boolean) {
  return preparedOn(db, `tokens_page_${Number(byStatus)}_${Number(byCursor)}`, (name) =>
    db
      .select({
        id: companies.id,
        name: companies.name,
        slug: companies.slug,
        tokenStatus: companies.tokenStatus,
        tokenSymbol: companies.tokenSymbol,
        tokenAddress: companies.tokenAddress,
        tokenGraduationThreshold: companies.tokenGraduationThreshold,
        tokenGraduatedAt: companies.tokenGraduatedAt,
        tokenPoolId: companies.tokenPoolId,
        platformScore: companies.platformScore,
        category: companies.category,
        tokenPublicAt: companies.tokenPublicAt,
        tokenPrice: companies.tokenPrice,
        tokenMarketCap: companies.tokenMarketCap,
        tokenCurveUsdc: companies.tokenCurveUsdc,
        logoUrl: companies.logoUrl,
        ...marketColumns,
      })
      .from(companies)
      .leftJoin(tokenHolderCounts, eq(tokenHolderCounts.tokenAddress, companies.tokenAddress))
      .leftJoin(
        poolBalances,
        and(
          eq(poolBalances.tokenAddress, companies.tokenAddress),
          eq(poolBalances.holder, sql.placeholder('poolManager')),
        ),
      )
      .where(byCursor ? and(tokenListWhere(byStatus), afterCursor) : tokenListWhere(byStatus))
      .orderBy(desc(companies.tokenPublicAt), desc(companies.id))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare(name),
  );
}

function tokenCountStatement(db: Tx, byStatus: boolean) {
  return preparedOn(db, `tokens_count_${Number(byStatus)}`, (name) =>
    db.select({ total: count() }).from(companies).where(tokenListWhere(byStatus)).prepare(name),
  );
}

/** A page of the token list's rows, one more than its limit (whether another follows). */
type TokenPageRows = Awaited<ReturnType<ReturnType<typeof tokenPageStatement>['execute']>>;

/** Reads a page's rows (`read`, the page's statement) for the page's normalized query `key`, or shares a read of them. */
export type TokenPageReader = (key: string, read: () => Promise<TokenPageRows>) => Promise<TokenPageRows>;

const readEachTime: TokenPageReader = (_key, read) => read();

/** The tables a page's rows are read from (tokenPageStatement): a change to one of them reads the pages again. */
export const TOKEN_PAGE_TABLES: readonly WatchedTable[] = ['companies', 'token_holder_counts', 'token_balances'];

/**
 * The token list's pages' rows shared by the list's reads until one of the tables they come from changes
 * (`changes`, of TOKEN_PAGE_TABLES: the read cache's change feed). The rows hold no time: a page's 24-hour market
 * and its tokens' ages are built on them by each read, so a kept answer whose clock moved (the read cache keeps it
 * VOLUMES_REUSE_MS) is built again without asking the database for the same rows. At most `maxPages` are kept (then
 * all are dropped). A read that fails is not kept.
 */
export function sharedTokenPages(changes: TradeChanges, maxPages = 2_000): TokenPageReader {
  const current = keptUntilChange<string, Promise<TokenPageRows>>(changes, maxPages);
  return (key, read) => {
    const pages = current();
    let rows = pages.get(key);
    if (rows === undefined) {
      const reading = read();
      rows = reading;
      pages.set(key, reading);
      reading.catch(() => {
        if (pages.get(key) === reading) pages.delete(key);
      });
    }
    return rows;
  };
}

/**
 * docs/api/tokens.md GET /api/v1/tokens: launched tokens, newest launch first (ties by id), from the token list indexes; the
 * page, then its total (`total` decides when to count).
 */
export async function listTokens(
  deps: Deps,
  query: TokenListQuery,
  total: PageTotal = countEachTime,
  markets: MarketStatsReader = marketStatsOf,
  pages: TokenPageReader = readEachTime,
) {
  const db = deps.database.db;
  const byStatus = query.status !== undefined;
  const key = query.cursor === undefined ? undefined : decodeCursor(query.cursor, 2);
  const after = key && [cursorPart.instant(key[0]!), cursorPart.id(key[1]!)];
  // With a cursor the page starts after it; `page` then counts pages from there.
  const offset = (query.page - 1) * query.limit;
  const params = {
    status: query.status,
    // One more than the page: whether another follows, exactly.
    limit: query.limit + 1,
    offset,
    poolManager: poolManagerOf(deps),
    afterTime: after?.[0],
    afterId: after?.[1],
  };
  const pageKey = `${query.page}|${query.limit}|${query.status ?? ''}|${query.cursor ?? ''}`;
  const read = await pages(pageKey, () => tokenPageStatement(db, byStatus, after !== undefined).execute(params));
  const rows = read.slice(0, query.limit);
  const hasMore = read.length > query.limit;
  const facts = { offset, limit: query.limit, rows: rows.length, afterCursor: after !== undefined };
  const counted = await total(query.status ?? '', facts, async () => {
    const [row] = await tokenCountStatement(db, byStatus).execute(params);
    return row?.total ?? 0;
  });
  const launcher = launcherAddress(deps.chain);
  // The 24-hour market of the page's companies only: its cost is the page's trades of the day, not the platform's
  // (every company's day of trades took 1.5 s at 100,000 companies).
  const context = await marketContext(
    deps,
    rows.map((r) => r.id),
    markets,
  );
  const last = rows.at(-1);
  // The next page's cursor is the last item's sort key.
  const nextCursor = last && hasMore ? encodeCursor([last.tokenPublicAt!.toISOString(), last.id]) : null;
  return { items: rows.map((r) => tokenListItem(r, launcher, context(r.id))), total: counted, hasMore, nextCursor };
}

const DAY_MS = 86_400_000;
/** How long the chain's clock for the 24-hour window is reused (and the v1 list's pages kept, routes/tokens/list.ts). */
export const VOLUMES_REUSE_MS = READ_CLOCK_REUSE_MS;

/**
 * The end of the 24-hour window: the chain's clock, read at most once per VOLUMES_REUSE_MS per process so a list page
 * costs no RPC of its own, and never waited on when the node does not answer (chainDateForReads: the last known
 * time then, the server's with none).
 */
function volumeWindowEnd(deps: Deps): Promise<Date> {
  return chainDateForReads(deps.chain.publicClient);
}
