// Reading company tokens: the public status with its price read on-chain, the v1 detail and list (database only:
// the list's price and market cap are what the indexer recorded, its 24-hour volumes one shared read), and trade
// volume.
import { and, count, desc, eq, gte, inArray, ne, sql } from 'drizzle-orm';
import type { Address } from 'viem';
import { launcherAddress, readMarket } from '../../chain/contracts/launcher.ts';
import { chainDate } from '../../chain/time.ts';
import { rowsOf, type Tx } from '../../db/client.ts';
import { countEachTime, type PageTotal } from '../../db/page-total.ts';
import { preparedOn } from '../../db/prepared.ts';
import { companies } from '../../db/schema/companies.ts';
import { tokenTrades } from '../../db/schema/tokens.ts';
import { notFound } from '../../errors.ts';
import { type CompanyRow, requireCompany } from '../companies/queries.ts';
import type { Deps as DomainDeps } from '../deps.ts';
import { isLinkedWallet } from '../scores/linked.ts';

import { tokenDetailView, tokenListItem, tokenStatusView } from './views.ts';

type Deps = Pick<DomainDeps, 'chain' | 'database'>;

/** SPEC.md GET /api/companies/{id}/token: price and market cap from the launcher (the v4 pool once graduated). */
export async function getTokenStatus(deps: Deps, idOrSlug: string) {
  return tokenStatusOf(deps, await requireCompany(deps.database.db, idOrSlug));
}

/** A company's token status as the routes show it, the price read on-chain once launched. */
export async function tokenStatusOf(deps: Pick<Deps, 'chain'>, company: CompanyRow) {
  if (company.tokenStatus === 'PRE_PUBLIC') return tokenStatusView(company, undefined);
  return tokenStatusView(company, await readMarket(deps.chain, company.tokenAddress as Address));
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
  symbol: string;
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
    symbol: string | null;
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
      select c.token_symbol as symbol, c.token_status as status, c.token_public_at as public_at,
        top.volume::text as volume, top.trades, top.traders,
        (select trunc(w.usdc_amount * ${10n ** 18n}::numeric / nullif(w.token_amount, 0))::text from window_trades w
          where w.company_id = top.company_id order by w.block_number, w.log_index limit 1) as first,
        (select trunc(w.usdc_amount * ${10n ** 18n}::numeric / nullif(w.token_amount, 0))::text from window_trades w
          where w.company_id = top.company_id order by w.block_number desc, w.log_index desc limit 1) as last
      from top join companies c on c.id = top.company_id
      order by top.volume desc, top.company_id`),
  );
  return rows.map((r) => ({
    symbol: r.symbol ?? '',
    status: r.status,
    publicAt: r.public_at === null ? null : new Date(r.public_at),
    firstPrice: BigInt(r.first ?? '0'),
    lastPrice: BigInt(r.last ?? '0'),
    volume: BigInt(r.volume),
    trades: r.trades,
    traders: r.traders,
  }));
}

/** SPEC.md GET /api/v1/companies/{slug}/token; 404 while the company has no token. */
export async function getTokenDetail(deps: Deps, slug: string) {
  const [company] = await deps.database.db.select().from(companies).where(eq(companies.slug, slug)).limit(1);
  if (!company) throw notFound(`Company ${slug} not found`);
  if (company.tokenStatus === 'PRE_PUBLIC') throw notFound(`Company ${slug} has not launched a token yet`);
  return tokenDetailView(company, launcherAddress(deps.chain));
}

export interface TokenListQuery {
  page: number;
  limit: number;
  status?: 'BONDING' | 'GRADUATED' | undefined;
}

const tokenListWhere = (byStatus: boolean) =>
  byStatus ? eq(companies.tokenStatus, sql.placeholder('status')) : ne(companies.tokenStatus, 'PRE_PUBLIC');

function tokenPageStatement(db: Tx, byStatus: boolean) {
  return preparedOn(db, `tokens_page_${Number(byStatus)}`, (name) =>
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
      })
      .from(companies)
      .where(tokenListWhere(byStatus))
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

/**
 * SPEC.md GET /api/v1/tokens: launched tokens, newest launch first (ties by id), from the token list indexes; the
 * page, then its total (`total` decides when to count).
 */
export async function listTokens(deps: Deps, query: TokenListQuery, total: PageTotal = countEachTime) {
  const db = deps.database.db;
  const byStatus = query.status !== undefined;
  const offset = (query.page - 1) * query.limit;
  const params = { status: query.status, limit: query.limit, offset };
  const rows = await tokenPageStatement(db, byStatus).execute(params);
  const counted = await total(query.status ?? '', { offset, limit: query.limit, rows: rows.length }, async () => {
    const [row] = await tokenCountStatement(db, byStatus).execute(params);
    return row?.total ?? 0;
  });
  const launcher = launcherAddress(deps.chain);
  // The 24-hour volume of the page's companies only: its cost is the page's trades of the day, not the platform's
  // (every company's day of trades took 1.5 s at 100,000 companies).
  const since = new Date((await volumeWindowEnd(deps)).getTime() - DAY_MS);
  const stats = await tokenTradeStatsOf(
    db,
    rows.map((r) => r.id),
    since,
  );
  return { items: rows.map((r) => tokenListItem(r, launcher, stats.get(r.id)?.volume ?? 0n)), total: counted };
}

const DAY_MS = 86_400_000;
/** How long the chain's clock for the 24-hour window is reused (and the v1 list's pages kept, routes/tokens.ts). */
export const VOLUMES_REUSE_MS = 5_000;
const windowEnds = new WeakMap<object, { at: number; end: Promise<Date> }>();

/**
 * The end of the 24-hour window: the chain's clock (its latest block; the server's when the chain is down), read at
 * most once per VOLUMES_REUSE_MS per process, so a list page costs no RPC of its own.
 */
function volumeWindowEnd(deps: Deps): Promise<Date> {
  let state = windowEnds.get(deps.database);
  if (state === undefined || Date.now() - state.at >= VOLUMES_REUSE_MS) {
    state = { at: Date.now(), end: chainDate(deps.chain.publicClient).catch(() => new Date()) };
    windowEnds.set(deps.database, state);
  }
  return state.end;
}
