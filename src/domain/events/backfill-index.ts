// What the events' backfill keeps in this process between requests (docs/api/events.md "Backfill"), so that a page
// costs neither a count(*) for its `total` nor a serialization of its events:
//
// - The settled ids of every type (ids at or below the reader's low-water mark, which never change: an event is never
//   updated, a reorg publishes a `rollback` event instead of deleting any, and a late commit below the low-water mark
//   is what the stream itself never delivers). The index reads each settled id once, in id order, as the low-water
//   mark moves, and counts a range by two binary searches per type: the exact `total` of a filter by type.
// - The serialized bytes of full pages. A full page (more matching events follow it, all settled) holds the first
//   `limit` matching events after its `from`, which stay the same until the retention deletes some of them. The
//   retention deletes only ids at or below its horizon (purgedThrough), so a page kept is served only while its
//   `from` is at or above the horizon the request checked: a purge that reaches a page drops it.
import { sql } from 'drizzle-orm';
import { EVENT_TYPES, type EventType } from '../../constants.ts';
import { rowsOf, type Tx } from '../../db/client.ts';
import { platformEvents } from '../../db/schema/events.ts';

/** Rows read per statement while the index catches up (the first read takes every event held). */
const LOAD_BATCH = 50_000;

export interface EventIdIndex {
  /** Reads the settled ids up to `upTo` not read yet (one read at a time, shared by the requests that wait). */
  catchUp(db: Tx, upTo: bigint): Promise<void>;
  /** The events in (after, upTo] of these types (all when absent); upTo at most what catchUp reached. */
  count(after: bigint, upTo: bigint, types?: readonly EventType[]): number;
  /** Forgets the ids at or below the retention's horizon (they are deleted). */
  forgetThrough(purgedThrough: bigint): void;
  /** The highest id read so far, and the ids held. */
  readonly indexedTo: bigint;
  readonly size: number;
}

/** The index of position of the first id greater than `id` in an ascending array. */
function upperBound(ids: number[], id: number): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ids[mid]! <= id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function createEventIdIndex(): EventIdIndex {
  // Ids below 2^53 (a bigserial grows by one an event): exact as numbers, and 8 bytes each.
  const byType = new Map<string, number[]>(EVENT_TYPES.map((t) => [t, []]));
  let indexedTo = 0n;
  let loading: Promise<void> | undefined;
  let size = 0;

  async function load(db: Tx, from: bigint, upTo: bigint) {
    let after = from;
    for (;;) {
      const rows = rowsOf<{ id: string; type: string }>(
        await db.execute(sql`
          select id::text as id, type from ${platformEvents}
          where ${platformEvents.id} > ${after} and ${platformEvents.id} <= ${upTo}
          order by ${platformEvents.id} limit ${LOAD_BATCH}`),
      );
      for (const row of rows) {
        let ids = byType.get(row.type);
        if (ids === undefined) {
          ids = [];
          byType.set(row.type, ids);
        }
        ids.push(Number(row.id));
      }
      size += rows.length;
      if (rows.length < LOAD_BATCH) break;
      after = BigInt(rows[rows.length - 1]!.id);
      indexedTo = after;
    }
    indexedTo = upTo;
  }

  return {
    async catchUp(db, upTo) {
      while (indexedTo < upTo) {
        if (loading !== undefined) {
          await loading;
          continue;
        }
        const done = () => {
          loading = undefined;
        };
        loading = load(db, indexedTo, upTo);
        loading.then(done, done);
        await loading;
      }
    },
    count(after, upTo, types) {
      if (upTo > indexedTo) throw new Error(`the event index holds ids up to ${indexedTo}, not ${upTo}`);
      if (upTo <= after) return 0;
      const lo = Number(after);
      const hi = Number(upTo);
      let n = 0;
      for (const type of types ?? byType.keys()) {
        const ids = byType.get(type);
        if (ids !== undefined) n += upperBound(ids, hi) - upperBound(ids, lo);
      }
      return n;
    },
    forgetThrough(purgedThrough) {
      const through = Number(purgedThrough);
      for (const [type, ids] of byType) {
        const cut = upperBound(ids, through);
        // A copy of what is left, once a tenth of the array is dead: the copies cost the ids held, amortized.
        if (cut > 0 && cut * 10 >= ids.length) {
          byType.set(type, ids.slice(cut));
          size -= cut;
        }
      }
    },
    get indexedTo() {
      return indexedTo;
    },
    get size() {
      return size;
    },
  };
}

/** A kept full page: its serialized body cut around `total` and `meta.timestamp`, and the tag of its events. */
export interface KeptPage {
  /** The page starts after this id (its `after`, or its cursor's id). */
  from: bigint;
  /**
   * The serialized body's bytes up to the total's digits, between them and the timestamp's quotes, after those:
   * bytes, so each answer is one copy of them, not a string joined, flattened and encoded again.
   */
  head: Buffer;
  middle: Buffer;
  tail: Buffer;
  /** The next page's cursor (`pagination.nextCursor`), for the answer's `Link` header. */
  next: string | undefined;
  /** A hash of the body's events and cursor (the total and timestamp left out). */
  tag: string;
  bytes: number;
}

export interface PageStore {
  get(key: string, purgedThrough: bigint): KeptPage | undefined;
  set(key: string, page: KeptPage): void;
  readonly bytes: number;
}

/** Full pages kept up to `maxBytes`, the least recently kept or served going first. */
export function createPageStore(maxBytes: number): PageStore {
  const pages = new Map<string, KeptPage>();
  let bytes = 0;
  const drop = (key: string, page: KeptPage) => {
    pages.delete(key);
    bytes -= page.bytes;
  };
  return {
    get(key, purgedThrough) {
      const page = pages.get(key);
      if (page === undefined) return undefined;
      if (page.from < purgedThrough) {
        // The retention may have deleted some of its events: read again.
        drop(key, page);
        return undefined;
      }
      return page;
    },
    set(key, page) {
      const old = pages.get(key);
      if (old !== undefined) drop(key, old);
      if (page.bytes > maxBytes) return;
      pages.set(key, page);
      bytes += page.bytes;
      for (const [oldest, p] of pages) {
        if (bytes <= maxBytes) break;
        drop(oldest, p);
      }
    },
    get bytes() {
      return bytes;
    },
  };
}
