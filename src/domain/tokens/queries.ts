// Reading company tokens: the public status with its price read on-chain, the v1 detail and list (database only:
// the list's price and market cap are what the indexer recorded, its 24-hour volumes one shared read), and trade
// volume.
import { and, count, desc, eq, gte, inArray, ne, sql } from 'drizzle-orm';
import type { Address } from 'viem';
import { launcherAddress, readMarket } from '../../chain/contracts/launcher.ts';
import { chainDate } from '../../chain/time.ts';
import type { Tx } from '../../db/client.ts';
import { countEachTime, type PageTotal } from '../../db/page-total.ts';
import { preparedOn } from '../../db/prepared.ts';
import { companies } from '../../db/schema/companies.ts';
import { tokenTrades } from '../../db/schema/tokens.ts';
import { notFound } from '../../errors.ts';
import { type CompanyRow, requireCompany } from '../companies/queries.ts';
import type { Deps as DomainDeps } from '../deps.ts';

import { tokenDetailView, tokenListItem, tokenStatusView } from './views.ts';

type Deps = Pick<DomainDeps, 'chain' | 'database'>;

/** docs/api/tokens.md GET /api/companies/{id}/token: price and market cap from the launcher (the v4 pool once graduated). */
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
  /** USDC base units per whole token: the first and the last trade's price in the window. */
  firstPrice: bigint;
  lastPrice: bigint;
  volume: bigint;
  trades: number;
}

/**
 * The platform's most traded tokens since `since` (the engine's market read): per token its volume, trades, and
 * the price of its first and last trade in the window, by volume, at most `limit`. One range of token_trades_time_idx.
 */
export async function tokenMovers(db: Tx, since: Date, limit: number): Promise<TokenMover[]> {
  const price = sql`${tokenTrades.usdcAmount} * ${10n ** 18n}::numeric / nullif(${tokenTrades.tokenAmount}, 0)`;
  const rows = await db
    .select({
      symbol: companies.tokenSymbol,
      status: companies.tokenStatus,
      volume: sql<string>`sum(${tokenTrades.usdcAmount})::text`,
      trades: sql<number>`count(*)::int`,
      first: sql<string>`trunc((array_agg(${price} order by ${tokenTrades.blockNumber}, ${tokenTrades.logIndex}))[1])::text`,
      last: sql<string>`trunc((array_agg(${price} order by ${tokenTrades.blockNumber} desc, ${tokenTrades.logIndex} desc))[1])::text`,
    })
    .from(tokenTrades)
    .innerJoin(companies, eq(companies.id, tokenTrades.companyId))
    .where(gte(tokenTrades.blockTime, since))
    .groupBy(companies.id)
    .orderBy(desc(sql`sum(${tokenTrades.usdcAmount})`), companies.id)
    .limit(limit);
  return rows.map((r) => ({
    symbol: r.symbol ?? '',
    status: r.status,
    firstPrice: BigInt(r.first ?? '0'),
    lastPrice: BigInt(r.last ?? '0'),
    volume: BigInt(r.volume),
    trades: r.trades,
  }));
}

/** docs/api/tokens.md GET /api/v1/companies/{slug}/token; 404 while the company has no token. */
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
 * docs/api/tokens.md GET /api/v1/tokens: launched tokens, newest launch first (ties by id), from the token list indexes; the
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
