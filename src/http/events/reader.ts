// The one reader of the event table in a process. It reads new events in id order when PostgreSQL notifies a
// commit (LISTEN/NOTIFY, so every replica hears every event at once) and every SSE_POLL_INTERVAL_MS regardless,
// the safety net (docs/api/events.md "How events flow"), and hands each batch on.
//
// Ids are taken when a transaction inserts but become visible when it commits, so id 11 may appear after 12. An id
// missing between delivered ones is waited for (gap grace) before later events go out without it; if it commits
// after all (within the late window) it is delivered then, out of order. A rolled-back id never appears.
import {
  SSE_GAP_GRACE_MS,
  SSE_LATE_EVENT_IDS_MAX,
  SSE_LATE_EVENT_WINDOW_MS,
  SSE_POLL_INTERVAL_MS,
  SSE_READ_BATCH,
} from '../../constants.ts';
import type { Database } from '../../db/client.ts';
import {
  EVENTS_CHANNEL,
  latestEventId,
  type PlatformEvent,
  readEvents,
  readEventsByIds,
} from '../../domain/events/store.ts';

export interface ReaderLogger {
  error(obj: object, msg: string): void;
}

export interface EventReaderOptions {
  database: Pick<Database, 'db' | 'listen'>;
  log: ReaderLogger;
  /** Called with each batch, in id order (late events alone, in a batch of their own). */
  onEvents(events: PlatformEvent[]): void;
  pollIntervalMs?: number;
  gapGraceMs?: number;
  lateWindowMs?: number;
  batchSize?: number;
}

export interface EventReader {
  /** Listens, then starts from the newest event: what was published before is only read by a resume. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Every id up to this one has been handed on, or given up as missing. */
  readonly cursor: bigint;
  /** Ids given up as missing that may still commit (and then be handed on late). */
  missingIds(): bigint[];
  /**
   * The resume point of a stream that has `id`: the id below the oldest id still missing under it, or
   * `id` itself when none is. A client resuming from it gets every id that commits late again or for the first time;
   * what it already had comes again too, and it drops those by the event's own id.
   */
  lowWater(id: bigint): bigint;
}

export function createEventReader(options: EventReaderOptions): EventReader {
  const { db } = options.database;
  const pollIntervalMs = options.pollIntervalMs ?? SSE_POLL_INTERVAL_MS;
  const gapGraceMs = options.gapGraceMs ?? SSE_GAP_GRACE_MS;
  const lateWindowMs = options.lateWindowMs ?? SSE_LATE_EVENT_WINDOW_MS;
  const batchSize = options.batchSize ?? SSE_READ_BATCH;

  let cursor = 0n;
  /** The cursor at which the current gap was first seen, and when. */
  let gap: { after: bigint; since: number } | undefined;
  /** Missing ids given up on, and until when they may still arrive. */
  const missing = new Map<bigint, number>();
  /** Missing ids whose NOTIFY has been heard: they committed late. */
  const heardLate = new Set<bigint>();
  let checkAllMissing = false;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let pollTimer: NodeJS.Timeout | undefined;
  let gapTimer: NodeJS.Timeout | undefined;
  let unlisten: (() => Promise<void>) | undefined;

  function wake(all = false) {
    if (stopped) return;
    if (all) checkAllMissing = true;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await readOnce();
        } while (again && !stopped);
      } catch (err) {
        if (!stopped) options.log.error({ err }, 'reading platform events failed; the next poll retries');
      } finally {
        running = undefined;
      }
    })();
  }

  function onNotify(payload: string) {
    if (/^[0-9]{1,19}$/.test(payload)) {
      const id = BigInt(payload);
      if (id <= cursor) {
        if (!missing.has(id)) return; // already handed on
        heardLate.add(id);
      }
      return wake();
    }
    // An empty payload: the listener reconnected and may have missed notifications.
    wake(true);
  }

  async function readLate() {
    const now = Date.now();
    for (const [id, until] of missing) if (until <= now) missing.delete(id);
    const ids = checkAllMissing ? [...missing.keys()] : [...heardLate].filter((id) => missing.has(id));
    checkAllMissing = false;
    heardLate.clear();
    if (ids.length === 0) return;
    const late = await readEventsByIds(db, ids);
    if (stopped) return;
    for (const e of late) missing.delete(BigInt(e.id));
    if (late.length > 0) options.onEvents(late);
  }

  async function readOnce() {
    await readLate();
    while (!stopped) {
      const rows = await readEvents(db, { after: cursor, limit: batchSize });
      if (stopped) return;
      const ready: PlatformEvent[] = [];
      let waiting = false;
      for (const event of rows) {
        const id = BigInt(event.id);
        if (id !== cursor + 1n) {
          if (gap?.after !== cursor) gap = { after: cursor, since: Date.now() };
          const waited = Date.now() - gap.since;
          if (waited < gapGraceMs) {
            waiting = true;
            recheckIn(gapGraceMs - waited);
            break;
          }
          const until = Date.now() + lateWindowMs;
          for (let m = cursor + 1n; m < id && missing.size < SSE_LATE_EVENT_IDS_MAX; m++) missing.set(m, until);
        }
        ready.push(event);
        cursor = id;
      }
      if (ready.length > 0) options.onEvents(ready);
      if (waiting || rows.length < batchSize) return;
    }
  }

  function recheckIn(ms: number) {
    if (gapTimer) return;
    gapTimer = setTimeout(() => {
      gapTimer = undefined;
      wake();
    }, ms + 5);
    gapTimer.unref();
  }

  return {
    async start() {
      // Listen first: an event committed in between is then both notified and above the cursor.
      unlisten = await options.database.listen(EVENTS_CHANNEL, onNotify);
      try {
        cursor = await latestEventId(db);
      } catch (err) {
        await unlisten();
        throw err;
      }
      pollTimer = setInterval(() => wake(true), pollIntervalMs);
      pollTimer.unref();
    },
    async stop() {
      stopped = true;
      clearInterval(pollTimer);
      clearTimeout(gapTimer);
      await unlisten?.().catch(() => {});
      await running;
    },
    get cursor() {
      return cursor;
    },
    missingIds: () => [...missing.keys()],
    lowWater(id) {
      let low = id;
      for (const m of missing.keys()) if (m <= low) low = m - 1n;
      return low;
    },
  };
}
