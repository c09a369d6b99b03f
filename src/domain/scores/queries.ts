// Reading the rankings: the internal Fortune List from a daily snapshot (by its rank), and the v1 list from the
// companies' live platformScore. Each is one indexed query for the page plus one for the total or the date.
import { and, asc, eq, max, type SQL, sql } from 'drizzle-orm';
import { chainDateForReads } from '../../chain/time.ts';
import type { COMPANY_CATEGORIES, LEAGUES } from '../../constants.ts';
import { rowsOf } from '../../db/client.ts';
import { countEachTime, type PageTotal } from '../../db/page-total.ts';
import { companies } from '../../db/schema/companies.ts';
import { scoreSnapshots } from '../../db/schema/scores.ts';
import { validationError } from '../../errors.ts';
import type { Deps as DomainDeps } from '../deps.ts';
import { epochTimestamp, isCalendarDate, nextMidnight, snapshotCovers, utcDateOf } from './dates.ts';
import { type FortuneListEntry, type FortuneRow, fortuneEntry, fortuneListEntry } from './views.ts';

type Category = (typeof COMPANY_CATEGORIES)[number];
type League = (typeof LEAGUES)[number];
type Deps = Pick<DomainDeps, 'database' | 'chain' | 'now'>;

/** `latest` or a date YYYY-MM-DD; whether the date exists is checked by isCalendarDate. */
export const FORTUNE_EPOCH_PATTERN = '^(latest|[0-9]{4}-[0-9]{2}-[0-9]{2})$';

export const NO_EPOCH_DATA_MESSAGE = 'No epoch data yet: the first epoch snapshot runs at midnight UTC';
export const noSnapshotMessage = (date: string) =>
  `No epoch data for ${date}: a snapshot is taken daily at midnight UTC, and none was taken on this date`;

export interface FortuneListQuery {
  limit: number;
  /** `latest` or a UTC date YYYY-MM-DD. */
  epoch: string;
  category?: Category | undefined;
  /** Only this league, ranked 1..n within it. */
  league?: League | undefined;
}

export interface FortuneList {
  epoch: string;
  /** The day the snapshot covers, [epoch - 24 h, epoch): its trades (volume, trading PnL). */
  covers: { from: string; to: string };
  companies: FortuneListEntry[];
  message?: string;
}

/**
 * docs/api/fortune.md GET /api/fortune-list: the entries of one snapshot by rank, with the day it covers. With no snapshot at
 * all, `latest` answers an empty list with the message docs/api/fortune.md gives and `epoch` = the next 00:00 UTC, when the first is
 * taken; a date without a snapshot answers an empty list with a message too, and `epoch` = that date.
 */
export async function getFortuneList(deps: Deps, query: FortuneListQuery): Promise<FortuneList> {
  const db = deps.database.db;
  if (query.epoch !== 'latest' && !isCalendarDate(query.epoch)) {
    throw validationError('query.epoch', 'must be latest or a calendar date YYYY-MM-DD');
  }
  let date = query.epoch;
  if (date === 'latest') {
    const [latest] = await db.select({ date: max(scoreSnapshots.snapshotDate) }).from(scoreSnapshots);
    if (!latest?.date) {
      // The chain's midnight: snapshots follow its clock (its last known time, or the server's, when it does not
      // answer at once: chainDateForReads).
      const now = await chainDateForReads(deps.chain.publicClient, deps.now);
      const next = nextMidnight(now.getTime());
      return {
        epoch: next,
        covers: snapshotCovers(utcDateOf(Date.parse(next))),
        companies: [],
        message: NO_EPOCH_DATA_MESSAGE,
      };
    }
    date = latest.date;
  }
  const where = [eq(scoreSnapshots.snapshotDate, date)];
  if (query.category) where.push(eq(scoreSnapshots.category, query.category));
  if (query.league) where.push(eq(scoreSnapshots.league, query.league));
  // Within a league the ranks are the league's own (score_snapshots_date_[category_]league_rank_idx).
  const rank = query.league ? scoreSnapshots.leagueRank : scoreSnapshots.rank;
  const rows = await db
    .select({
      rank,
      platformRank: scoreSnapshots.rank,
      id: companies.id,
      name: companies.name,
      slug: companies.slug,
      tokenStatus: companies.tokenStatus,
      tokenSymbol: companies.tokenSymbol,
      logoUrl: companies.logoUrl,
      status: companies.status,
      league: scoreSnapshots.league,
      category: companies.category,
      overall: scoreSnapshots.overall,
      treasuryScore: scoreSnapshots.treasuryScore,
      tradingScore: scoreSnapshots.tradingScore,
      volumeScore: scoreSnapshots.volumeScore,
      activityScore: scoreSnapshots.activityScore,
      completenessScore: scoreSnapshots.completenessScore,
      treasuryRaw: scoreSnapshots.treasuryRaw,
      tradingRaw: scoreSnapshots.tradingRaw,
      volumeRaw: scoreSnapshots.volumeRaw,
      activityRaw: scoreSnapshots.activityRaw,
      completenessRaw: scoreSnapshots.completenessRaw,
      referralBoost: scoreSnapshots.referralBoost,
    })
    .from(scoreSnapshots)
    .innerJoin(companies, eq(companies.id, scoreSnapshots.companyId))
    .where(and(...where))
    .orderBy(asc(rank))
    .limit(query.limit);
  const list: FortuneList = {
    epoch: epochTimestamp(date),
    covers: snapshotCovers(date),
    companies: rows.map(fortuneListEntry),
  };
  // An empty page under a category filter is a fact about the category, unless the date has no snapshot at all.
  if (rows.length === 0 && query.epoch !== 'latest') {
    const [any] = await db
      .select({ one: sql<number>`1` })
      .from(scoreSnapshots)
      .where(eq(scoreSnapshots.snapshotDate, date))
      .limit(1);
    if (!any) list.message = noSnapshotMessage(date);
  }
  return list;
}

export interface FortuneQuery {
  page: number;
  limit: number;
  category?: Category | undefined;
  league?: League | undefined;
}

/**
 * docs/api/fortune.md GET /api/v1/fortune: companies by platformScore (ties: the older company first, then id), with each
 * one's count of agents not terminated. The page is cut first (from the companies_fortune_* indexes) and the
 * agents are counted for its rows only, in the same statement; then the total (`total` decides when to count).
 */
export async function listFortune(deps: Deps, query: FortuneQuery, total: PageTotal = countEachTime) {
  const db = deps.database.db;
  const filters: SQL[] = [];
  if (query.category) filters.push(sql`category = ${query.category}`);
  if (query.league) filters.push(sql`league = ${query.league}`);
  const where = filters.length ? sql`where ${sql.join(filters, sql` and `)}` : sql``;
  const offset = (query.page - 1) * query.limit;
  const rows = rowsOf<FortuneRow>(
    await db.execute(sql`
      select p.*, (
        select count(*)::integer from agents a where a.company_id = p.id and a.status <> 'TERMINATED'
      ) as agents
      from (
        select id, name, slug, category, league, platform_score as "platformScore", token_status as "tokenStatus",
          token_symbol as "tokenSymbol", creator_address as "creatorAddress", logo_url as "logoUrl",
          created_at as "createdAt"
        from ${companies} ${where}
        order by platform_score desc nulls last, created_at asc, id asc
        limit ${query.limit} offset ${offset}
      ) p
      order by p."platformScore" desc nulls last, p."createdAt" asc, p.id asc`),
  );
  const key = `${query.category ?? ''}|${query.league ?? ''}`;
  const counted = await total(key, { offset, limit: query.limit, rows: rows.length }, async () => {
    const [row] = rowsOf<{ total: number }>(
      await db.execute(sql`select count(*)::integer as total from ${companies} ${where}`),
    );
    return row?.total ?? 0;
  });
  return { items: rows.map((row, i) => fortuneEntry(row, offset + i + 1)), total: counted };
}
