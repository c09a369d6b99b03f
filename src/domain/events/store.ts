// The platform event store: publishEvent, which every area calls inside its own transaction, and the reads of
// the stream. An event and its NOTIFY become visible together when that transaction commits, or never.
import { and, asc, desc, eq, gt, gte, inArray, lt, lte, notInArray, or, type SQL, sql } from 'drizzle-orm';
import { EVENT_TYPES, type EventType } from '../../constants.ts';
import { rowsOf, type Tx } from '../../db/client.ts';
import { companies } from '../../db/schema/companies.ts';
import { platformEventPurges, platformEvents } from '../../db/schema/events.ts';
import { AppError } from '../../errors.ts';

/**
 * The type of the events that concern the whole platform (snapshots, epochs): they pass every company filter. Their
 * `companyId` is still set (the event log needs one), to the company the publishing area names.
 */
export const PLATFORM_WIDE_TYPE: EventType = 'season';

/** The NOTIFY channel; its payload is the new event's id. */
export const EVENTS_CHANNEL = 'platform_events';

/** A platform event (docs/api/events.md "Protocol"). */
export interface PlatformEvent {
  /** Decimal string of the sequence id. */
  id: string;
  type: EventType;
  companyId: string;
  /**
   * The slug of that company, joined when the events are read (one join per batch, none per event at fan-out); null
   * only when no company has that id.
   */
  companySlug: string | null;
  data: Record<string, unknown>;
  /** ISO 8601 UTC: the time of the publishing transaction. */
  timestamp: string;
}

export interface NewPlatformEvent {
  type: EventType;
  companyId: string;
  /** JSON only: big integers as decimal strings (docs/api/events.md "Payloads"). */
  data: Record<string, unknown>;
}

/**
 * Records an event in the caller's transaction and notifies the stream readers of every replica, which hear of it
 * when the transaction commits. Call it as the last step of the transaction: the id is taken now, and the
 * readers hold back later ids (for SSE_GAP_GRACE_MS) until this one commits or is rolled back.
 */
export async function publishEvent(tx: Tx, event: NewPlatformEvent): Promise<PlatformEvent> {
  const [published] = await publishEvents(tx, [event]);
  return published!;
}

/** publishEvent for several events, in order, in one statement. */
export async function publishEvents(tx: Tx, events: readonly NewPlatformEvent[]): Promise<PlatformEvent[]> {
  if (events.length === 0) return [];
  for (const event of events) checkEvent(event);
  const values = sql.join(
    events.map((e, i) => sql`(${i}::integer, ${e.type}::text, ${e.companyId}::text, ${JSON.stringify(e.data)}::jsonb)`),
    sql`, `,
  );
  // One statement: the inserts and the notifications are atomic even when `tx` is not a transaction. Ids follow
  // the order of `events` (rows are inserted in the order of the ordered select).
  const rows = rowsOf<EventRow>(
    await tx.execute(sql`
      with e as (
        insert into ${platformEvents} (type, company_id, data)
        select v.type, v.company_id, v.data from (values ${values}) as v (ord, type, company_id, data) order by v.ord
        returning id, type, company_id, data, timestamp
      )
      select e.id::text as id, e.type, e.company_id as "companyId", c.slug as "companySlug", e.data, e.timestamp,
        pg_notify(${EVENTS_CHANNEL}, e.id::text)
      from e left join ${companies} c on c.id = e.company_id order by e.id`),
  );
  return rows.map(toPlatformEvent);
}

/**
 * publishEvents for events the database makes from its own rows, in one statement: `rows` yields `ord`, `type`,
 * `company_id` and `data` (jsonb) and may itself be a data-modifying statement with RETURNING (it runs in the
 * statement's WITH, so its change and the events commit together). For many events from rows the database holds
 * (the score snapshot's one per changed company), where sending each to the process and back would cost more than
 * the statement. The caller answers for the types (one of EVENT_TYPES) and the payloads. Returns how many.
 */
export async function publishEventsFrom(tx: Tx, rows: SQL): Promise<number> {
  const [row] = rowsOf<{ published: number }>(
    await tx.execute(sql`
      with src as (${rows}),
      e as (
        insert into ${platformEvents} (type, company_id, data)
        select type, company_id, data from src order by ord
        returning id
      )
      select count(*)::integer as published from (select pg_notify(${EVENTS_CHANNEL}, e.id::text) from e) n`),
  );
  return row?.published ?? 0;
}

function checkEvent(event: NewPlatformEvent) {
  if (!(EVENT_TYPES as readonly string[]).includes(event.type)) {
    throw new Error(`unknown event type "${event.type}": expected one of ${EVENT_TYPES.join(', ')}`);
  }
  if (typeof event.companyId !== 'string' || event.companyId === '') throw new Error('an event needs a companyId');
  if (event.data === null || typeof event.data !== 'object' || Array.isArray(event.data)) {
    throw new Error('event data must be a JSON object');
  }
}

interface EventRow {
  id: string | bigint;
  type: string;
  companyId: string;
  companySlug: string | null;
  data: unknown;
  timestamp: Date | string;
}

function toPlatformEvent(row: EventRow): PlatformEvent {
  const data = typeof row.data === 'string' ? JSON.parse(row.data) : row.data;
  return {
    id: String(row.id),
    type: row.type as EventType,
    companyId: row.companyId,
    companySlug: row.companySlug ?? null,
    data: data as Record<string, unknown>,
    timestamp: new Date(row.timestamp).toISOString(),
  };
}

const columns = {
  id: platformEvents.id,
  type: platformEvents.type,
  companyId: platformEvents.companyId,
  companySlug: companies.slug,
  data: platformEvents.data,
  timestamp: platformEvents.timestamp,
};

/** The companies' slugs beside the events (companies' primary key, one lookup per row read). */
const withSlug = eq(companies.id, platformEvents.companyId);

export interface EventRange {
  /** Events after this id. */
  after: bigint;
  /** And at most this id. */
  upTo?: bigint | undefined;
  /** Only these companies (and the season events, which concern every company); all when absent. */
  companyIds?: readonly string[] | undefined;
  /** Only these types; all when absent. */
  types?: readonly EventType[] | undefined;
  /** Ids to leave out. */
  excludeIds?: readonly bigint[] | undefined;
  /** Only events published at or after this time. */
  since?: Date | undefined;
  limit: number;
}

/** What a stream (or a backfill) is sent: its companies' events and its types' (EventRange), all when absent. */
export type EventFilters = Pick<EventRange, 'companyIds' | 'types'>;

/** EventFilters as conditions on platform_events: a company filter lets the season events through too. */
export function eventFilterConditions(filters: EventFilters): SQL[] {
  const where: SQL[] = [];
  if (filters.companyIds) {
    where.push(
      or(inArray(platformEvents.companyId, [...filters.companyIds]), eq(platformEvents.type, PLATFORM_WIDE_TYPE))!,
    );
  }
  if (filters.types) where.push(inArray(platformEvents.type, [...filters.types]));
  return where;
}

/** Events in id order within a range: the reader's next batch, or a resuming stream's backlog. */
export async function readEvents(db: Tx, range: EventRange): Promise<PlatformEvent[]> {
  const where = [gt(platformEvents.id, range.after), ...eventFilterConditions(range)];
  if (range.upTo !== undefined) where.push(lte(platformEvents.id, range.upTo));
  if (range.excludeIds?.length) where.push(notInArray(platformEvents.id, [...range.excludeIds]));
  if (range.since) where.push(gte(platformEvents.timestamp, range.since));
  const rows = await db
    .select(columns)
    .from(platformEvents)
    .leftJoin(companies, withSlug)
    .where(and(...where))
    .orderBy(asc(platformEvents.id))
    .limit(range.limit);
  return rows.map(toPlatformEvent);
}

/** The newest `limit` events held, newest first (the web app's activity feed opens on them). */
export async function readRecentEvents(db: Tx, limit: number): Promise<PlatformEvent[]> {
  const rows = await db
    .select(columns)
    .from(platformEvents)
    .leftJoin(companies, withSlug)
    .orderBy(desc(platformEvents.id))
    .limit(limit);
  return rows.map(toPlatformEvent);
}

/** The events of these ids that exist, in id order. */
export async function readEventsByIds(db: Tx, ids: readonly bigint[]): Promise<PlatformEvent[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select(columns)
    .from(platformEvents)
    .leftJoin(companies, withSlug)
    .where(inArray(platformEvents.id, [...ids]))
    .orderBy(asc(platformEvents.id));
  return rows.map(toPlatformEvent);
}

/** The highest event id, 0 when there is none. */
export async function latestEventId(db: Tx): Promise<bigint> {
  const [row] = rowsOf<{ id: string | null }>(await db.execute(sql`select max(id)::text as id from ${platformEvents}`));
  return BigInt(row?.id ?? 0);
}

/**
 * Deletes the events published before `cutoff` (the retention job) and records the highest id deleted, in one
 * statement: a resume from below it is then told that events were lost (expiredResume). Returns how many.
 */
export async function purgeExpiredEvents(tx: Tx, cutoff: Date): Promise<number> {
  // Counted, not returned: a busy hour may hold many rows. A data-modifying WITH runs whether or not it is read.
  const [row] = rowsOf<{ purged: number }>(
    await tx.execute(sql`
      with d as (
        delete from ${platformEvents} where ${platformEvents.timestamp} < ${cutoff.toISOString()}::timestamptz
        returning id
      ),
      mark as (
        insert into ${platformEventPurges} (id, purged_through, purged_at)
        select 1, max(d.id), now() from d having count(*) > 0
        on conflict (id) do update
          set purged_through = greatest(${platformEventPurges.purgedThrough}, excluded.purged_through),
              purged_at = excluded.purged_at
      )
      select count(*)::integer as purged from d`),
  );
  return row?.purged ?? 0;
}

/** What retention left: the highest id ever purged (0: none), and the oldest event still held (none: null). */
export async function eventHorizon(db: Tx): Promise<{ purgedThrough: bigint; oldestHeld: bigint | null }> {
  const [row] = rowsOf<{ purged: string | null; oldest: string | null }>(
    await db.execute(sql`
      select (select purged_through::text from ${platformEventPurges} where id = 1) as purged,
             (select min(id)::text from ${platformEvents}) as oldest`),
  );
  return {
    purgedThrough: BigInt(row?.purged ?? 0),
    oldestHeld: row?.oldest == null ? null : BigInt(row.oldest),
  };
}

/**
 * 410 EVENTS_EXPIRED when events after `after` were purged by the backfill's retention (docs/api/events.md "Resume"):
 * the answer names the oldest event still held and the id to continue after, instead of a read that skips them.
 * `path` names the parameter that gave `after`; `backfillRetentionMs` (EVENT_BACKFILL_RETENTION_MS) is said in the
 * message.
 */
export async function checkResumable(db: Tx, after: bigint, path: string, backfillRetentionMs: number): Promise<void> {
  await resumableThrough(db, after, path, backfillRetentionMs);
}

/** checkResumable, answering the retention's horizon (the highest id ever purged, 0 when none) when it passes. */
export async function resumableThrough(
  db: Tx,
  after: bigint,
  path: string,
  backfillRetentionMs: number,
): Promise<bigint> {
  return checkHorizon(await eventHorizon(db), after, path, backfillRetentionMs);
}

/** resumableThrough on a horizon read already (one read shared by the requests that arrived before it began). */
export function checkHorizon(
  { purgedThrough, oldestHeld }: { purgedThrough: bigint; oldestHeld: bigint | null },
  after: bigint,
  path: string,
  backfillRetentionMs: number,
): bigint {
  if (after >= purgedThrough) return purgedThrough;
  const held = oldestHeld === null ? 'no event is held now' : `the oldest event held is ${oldestHeld}`;
  throw new AppError(
    'EVENTS_EXPIRED',
    `Events after ${after} are no longer kept (EVENT_BACKFILL_RETENTION_MS is ${backfillRetentionMs} ms, and events up to ${purgedThrough} were deleted): ${held}. Rebuild your state from the REST reads, then continue after ${purgedThrough}`,
    { details: [{ path, message: `expired: ${held}; continue after ${purgedThrough}` }] },
  );
}

/**
 * Whether an event after `after` that the stream's filters (EventFilters) let through was published before
 * `cutoff`: a resume from `after` would have to serve an event older than the stream's window. Events the stream
 * would not send are not missed: a client that resumes after the last event of its own filtered backfill resumes.
 * Walks the ids after `after` (the primary key) and stops at the first old one, so a recent resume reads only the
 * events it is about to be sent, and an old one stops at once.
 */
export async function olderEventAfter(
  db: Tx,
  after: bigint,
  cutoff: Date,
  filters: EventFilters = {},
): Promise<boolean> {
  const [row] = await db
    .select({ id: platformEvents.id })
    .from(platformEvents)
    .where(and(gt(platformEvents.id, after), lt(platformEvents.timestamp, cutoff), ...eventFilterConditions(filters)))
    .orderBy(asc(platformEvents.id))
    .limit(1);
  return row !== undefined;
}

/**
 * The stream's resume check (docs/api/events.md "Resume"): 410 EVENTS_EXPIRED when events after `after` were
 * deleted (checkResumable), or when one the stream would send (its `filters`) is older than the stream's window,
 * EVENT_RETENTION_MS (`retentionMs`) before `now`: the stream serves only its window, and the answer points to the
 * backfill, which still holds those events, with the `after` to read it from.
 */
export async function checkStreamResumable(
  db: Tx,
  after: bigint,
  path: string,
  windows: { retentionMs: number; backfillRetentionMs: number; now: number },
  filters: EventFilters = {},
): Promise<void> {
  await checkResumable(db, after, path, windows.backfillRetentionMs);
  if (!(await olderEventAfter(db, after, new Date(windows.now - windows.retentionMs), filters))) return;
  const backfill = `GET /api/v1/events?after=${after}`;
  throw new AppError(
    'EVENTS_EXPIRED',
    `Events after ${after} are older than the stream serves (EVENT_RETENTION_MS is ${windows.retentionMs} ms): read them from the backfill, ${backfill}, until hasMore is false, then resume the stream after the last event it gave`,
    { details: [{ path, message: `outside the stream's window: read ${backfill}, then resume after its last event` }] },
  );
}
