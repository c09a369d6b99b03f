// The backfill of the event stream (docs/api/events.md "Backfill"): the same retained events as JSON pages, in id
// order after a given id, with the stream's filters. A page never reaches past the reader's low-water mark, so an
// id that commits late (below an id already visible) is never skipped: a client that reads the last page and then
// opens the stream after the last id it got misses nothing and repeats nothing.
import { and, count, gt, lte } from 'drizzle-orm';
import type { EventType } from '../../constants.ts';
import type { Tx } from '../../db/client.ts';
import type { PageTotal } from '../../db/page-total.ts';
import { platformEvents } from '../../db/schema/events.ts';
import { validationError } from '../../errors.ts';
import { decodeCursor, encodeCursor } from '../../page-cursor.ts';
import type { EventIdIndex } from './backfill-index.ts';
import { eventFilterConditions, type PlatformEvent, readEvents } from './store.ts';

export interface BackfillQuery {
  /** Events after this id. */
  after: bigint;
  /** `pagination.nextCursor` of the page before: the events after that page's last one. */
  cursor?: string | undefined;
  companyIds?: readonly string[] | undefined;
  types?: readonly EventType[] | undefined;
  limit: number;
  /** The highest id a page may hold: the reader's low-water mark (every id at or below it is settled). */
  upTo: bigint;
}

export interface BackfillPage {
  items: PlatformEvent[];
  total: number;
  hasMore: boolean;
  nextCursor: string | null;
}

/** The id a cursor holds: one decimal event id, as nextCursor gave it. */
function cursorId(cursor: string): bigint {
  const [id] = decodeCursor(cursor, 1);
  if (!/^(0|[1-9][0-9]{0,17})$/.test(id!)) {
    throw validationError('query.cursor', 'is not a cursor this list gave (pagination.nextCursor)');
  }
  return BigInt(id!);
}

/** The id a page starts after: its cursor's, or `after` on a first page. */
export const backfillFrom = (query: Pick<BackfillQuery, 'after' | 'cursor'>): bigint =>
  query.cursor === undefined ? query.after : cursorId(query.cursor);

/**
 * The page's `total`: the events in (after, upTo] that match the filters. Exact from the index of settled ids when
 * the filter is by type alone (no count at all); counted otherwise (`totals` keeps a count a short while).
 */
export async function backfillTotal(
  db: Tx,
  query: BackfillQuery,
  rows: number,
  totals: PageTotal,
  index?: EventIdIndex,
): Promise<number> {
  if (index !== undefined && query.companyIds === undefined) {
    await index.catchUp(db, query.upTo);
    return index.count(query.after, query.upTo, query.types);
  }
  const key = `${query.after}|${query.types?.join(',') ?? ''}|${query.companyIds?.join(',') ?? ''}`;
  return totals(key, { offset: 0, limit: query.limit, rows, afterCursor: query.cursor !== undefined }, async () => {
    const [row] = await db
      .select({ n: count() })
      .from(platformEvents)
      .where(
        and(gt(platformEvents.id, query.after), lte(platformEvents.id, query.upTo), ...eventFilterConditions(query)),
      );
    return Number(row?.n ?? 0);
  });
}

export async function backfillPage(
  db: Tx,
  query: BackfillQuery,
  totals: PageTotal,
  index?: EventIdIndex,
): Promise<BackfillPage> {
  const from = backfillFrom(query);
  const filter = { companyIds: query.companyIds, types: query.types };
  const rows =
    from >= query.upTo
      ? []
      : await readEvents(db, { after: from, upTo: query.upTo, ...filter, limit: query.limit + 1 });
  const hasMore = rows.length > query.limit;
  const items = hasMore ? rows.slice(0, query.limit) : rows;
  const total = await backfillTotal(db, query, items.length, totals, index);
  return {
    items,
    total,
    hasMore,
    nextCursor: hasMore ? encodeCursor([items[items.length - 1]!.id]) : null,
  };
}
