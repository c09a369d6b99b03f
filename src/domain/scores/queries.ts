// Reading the rankings: the internal Fortune List from a daily snapshot (by its rank), and the v1 list from the
// companies' live platformScore. Each is one indexed query for the page plus one for the total or the date.
import { and, asc, eq, max, type SQL, sql } from 'drizzle-orm';
import { chainDateForReads } from '../../chain/time.ts';
import type { COMPANY_CATEGORIES, LEAGUES } from '../../constants.ts';
import { rowsOf } from '../../db/client.ts';
import { countEachTime, type PageTotal } from '../../db/page-total.ts';
import { companies } from '../../db/schema/companies.ts';
import { scoreSnapshots } from '../../db/schema/scores.ts';
import { conflict, validationError } from '../../errors.ts';
import { cursorPart, decodeCursor, encodeCursor } from '../../page-cursor.ts';
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
  /** pagination.nextCursor of the page before: the companies after its last one (docs/api/fortune.md "Cursors"). */
  cursor?: string | undefined;
}

/**
 * A v1 Fortune List cursor: the ranking it was cut from (the latest snapshot's date, '' before the first), the
 * filters, and the last item's sort key (score, created_at in microseconds since 1970, exact, and id) and rank.
 */
interface FortuneCursor {
  snapshot: string;
  filters: string;
  score: string;
  createdAt: string;
  id: string;
  rank: number;
}

const fortuneCursorOf = (c: FortuneCursor) =>
  encodeCursor([c.snapshot, c.filters, c.score, c.createdAt, c.id, String(c.rank)]);

function readFortuneCursor(cursor: string): FortuneCursor {
  const [snapshot, filters, score, createdAt, id, rank] = decodeCursor(cursor, 6) as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  if (
    !/^([0-9]{4}-[0-9]{2}-[0-9]{2})?$/.test(snapshot) ||
    !/^[0-9]{1,17}$/.test(createdAt) ||
    !/^[1-9][0-9]{0,8}$/.test(rank)
  ) {
    throw validationError('query.cursor', 'is not a cursor this list gave (pagination.nextCursor)');
  }
  return { snapshot, filters, score: cursorPart.float(score), createdAt, id: cursorPart.id(id), rank: Number(rank) };
}

/** The date of the latest snapshot, '' before the first: the ranking's version (platformScore moves only then). */
const latestSnapshot = sql`(select coalesce(max(snapshot_date)::text, '') from ${scoreSnapshots})`;

/**
 * docs/api/fortune.md GET /api/v1/fortune: companies by platformScore (ties: the older company first, then id), with each
 * one's count of agents not terminated and its latest snapshot (date, covered day, components). The page is cut first (from the companies_fortune_* indexes) and the
 * agents are counted for its rows only, in the same statement; then the total (`total` decides when to count).
 * With a cursor the page starts after the cursor's company (a range of the same index), and only while the ranking
 * is the one the cursor was cut from: a snapshot applied since answers 409 CONFLICT (docs/api/fortune.md "Cursors").
 */
export async function listFortune(deps: Deps, query: FortuneQuery, total: PageTotal = countEachTime) {
  const db = deps.database.db;
  const after = query.cursor === undefined ? undefined : readFortuneCursor(query.cursor);
  const filterKey = `${query.category ?? ''}|${query.league ?? ''}`;
  if (after && after.filters !== filterKey) {
    throw validationError('query.cursor', 'was given by the list under other filters (category, league)');
  }
  const filters: SQL[] = [];
  if (query.category) filters.push(sql`category = ${query.category}`);
  if (query.league) filters.push(sql`league = ${query.league}`);
  if (after) {
    filters.push(
      sql`(platform_score < ${after.score}::float8 or (platform_score = ${after.score}::float8 and (created_at, id) > (timestamptz 'epoch' + ${after.createdAt}::bigint * interval '1 microsecond', ${after.id}::text)))`,
    );
  }
  const where = filters.length ? sql`where ${sql.join(filters, sql` and `)}` : sql``;
  // With a cursor `page` counts pages after it; ranks go on from the cursor's.
  const before = after?.rank ?? 0;
  const offset = (query.page - 1) * query.limit;
  // One more than the page: whether another follows, exactly.
  const read = rowsOf<FortuneRow & { snapshot: string; createdAtKey: string }>(
    await db.execute(sql`
      select p.*, ${latestSnapshot} as snapshot, (
        select count(*)::integer from agents a where a.company_id = p.id and a.status <> 'TERMINATED'
      ) as agents,
        s.snapshot_date::text as "snapshotDate", s.overall, s.treasury_score as "treasuryScore",
        s.trading_score as "tradingScore", s.volume_score as "volumeScore", s.activity_score as "activityScore",
        s.completeness_score as "completenessScore", s.treasury_raw::text as "treasuryRaw",
        s.trading_raw::text as "tradingRaw", s.volume_raw::text as "volumeRaw", s.activity_raw as "activityRaw",
        s.completeness_raw as "completenessRaw", s.referral_boost as "referralBoost"
      from (
        select id, name, slug, category, league, platform_score as "platformScore", token_status as "tokenStatus",
          token_symbol as "tokenSymbol", creator_address as "creatorAddress", logo_url as "logoUrl",
          created_at as "createdAt", (extract(epoch from created_at) * 1000000)::bigint::text as "createdAtKey"
        from ${companies} ${where}
        order by platform_score desc nulls last, created_at asc, id asc
        limit ${query.limit + 1} offset ${offset}
      ) p
      -- The page's companies' own latest snapshot (score_snapshots_company_date_idx): the one their score is from.
      left join lateral (
        select * from ${scoreSnapshots} x where x.company_id = p.id order by x.snapshot_date desc limit 1
      ) s on true
      order by p."platformScore" desc nulls last, p."createdAt" asc, p.id asc`),
  );
  const rows = read.slice(0, query.limit);
  const hasMore = read.length > query.limit;
  if (after) {
    // Read in the page's own statement when it has rows, so the page and the ranking's version agree.
    const snapshot =
      read[0]?.snapshot ??
      rowsOf<{ snapshot: string }>(await db.execute(sql`select ${latestSnapshot} as snapshot`))[0]!.snapshot;
    if (snapshot !== after.snapshot) {
      throw conflict(
        `The ranking changed since this cursor was given: the score snapshot of ${snapshot} moved platformScore. Start again from the first page (without cursor)`,
      );
    }
  }
  const first = before + offset;
  const counted = await total(filterKey, { offset: first, limit: query.limit, rows: rows.length }, async () => {
    const byFilter = [
      ...(query.category ? [sql`category = ${query.category}`] : []),
      ...(query.league ? [sql`league = ${query.league}`] : []),
    ];
    const whereFilter = byFilter.length ? sql`where ${sql.join(byFilter, sql` and `)}` : sql``;
    const [row] = rowsOf<{ total: number }>(
      await db.execute(sql`select count(*)::integer as total from ${companies} ${whereFilter}`),
    );
    return row?.total ?? 0;
  });
  const last = rows.at(-1);
  const nextCursor =
    last && hasMore
      ? fortuneCursorOf({
          snapshot: last.snapshot,
          filters: filterKey,
          score: String(Number(last.platformScore)),
          createdAt: last.createdAtKey,
          id: last.id,
          rank: first + rows.length,
        })
      : null;
  return { items: rows.map((row, i) => fortuneEntry(row, first + i + 1)), total: counted, hasMore, nextCursor };
}
