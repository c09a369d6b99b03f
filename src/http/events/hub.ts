// The fan-out of platform events to open streams: one reader per process, streams indexed by company (and the
// set of those that want every company), each event's frame built once and written to every stream it matches.
// Also the connection caps (admission.ts), resuming after Last-Event-ID without gap or repeat (even
// from a replica whose reader lags behind it), the heartbeat, and dropping a
// client that does not read.
import {
  type EventType,
  SSE_CLIENT_BUFFER_MAX_BYTES,
  SSE_DRAIN_TIMEOUT_MS,
  SSE_HEARTBEAT_TICK_MAX_MS,
  SSE_READ_BATCH,
  SSE_RETRY_MS,
} from '../../constants.ts';
import type { Database } from '../../db/client.ts';
import { PLATFORM_WIDE_TYPE, type PlatformEvent, readEvents } from '../../domain/events/store.ts';
import {
  type Admission,
  type AdmissionLimits,
  type AdmitLimits,
  createAdmissions,
  type SlotRecord,
} from './admission.ts';
import { connectedFrame, eventFrame, PING_FRAME } from './frames.ts';
import { createEventReader, type EventReader } from './reader.ts';

export type { Admission, AdmitLimits } from './admission.ts';

/** Where a stream's bytes go: the HTTP response, seen only through what the hub needs. */
export interface EventSink {
  write(chunk: Buffer): void;
  /** Bytes written but not yet handed to the network. */
  readonly buffered: number;
  cork(): void;
  uncork(): void;
  /** Ends the stream in order (shutdown). */
  end(): void;
  /** Closes the connection at once (a client that does not read). */
  destroy(): void;
  /** Resolves true once `buffered` is at most `bytes`, false on close or after `timeoutMs`. */
  drainedTo(bytes: number, timeoutMs: number): Promise<boolean>;
}

export interface HubLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface EventHubOptions extends AdmissionLimits {
  database: Pick<Database, 'db' | 'listen'>;
  log: HubLogger;
  /** 0: no heartbeat. */
  heartbeatMs: number;
  pollIntervalMs?: number;
  gapGraceMs?: number;
  batchSize?: number;
  clientBufferMaxBytes?: number;
  drainTimeoutMs?: number;
}

export interface StreamRequest {
  sink: EventSink;
  /** Only events of these companies; every company when absent. */
  companyIds?: ReadonlySet<string> | undefined;
  /** Only events of these types; every type when absent. */
  types?: ReadonlySet<EventType> | undefined;
  /** Resume: first send the retained events after this id. */
  lastEventId?: bigint | undefined;
  /** Resume no further back than events published at or after this time (a keyless stream's shorter backlog). */
  backlogSince?: Date | undefined;
}

export interface StreamHandle {
  /** Forgets the stream; call it when the connection closes. */
  close(): void;
}

export interface EventHub {
  /** Starts the reader (once; later calls wait for the first). */
  start(): Promise<void>;
  /** Ends every stream and stops reading. */
  stop(): Promise<void>;
  /** Takes a slot for `client` (an API key or an address) under the caps of its kind, or throws 429 RATE_LIMITED. */
  admit(client: string, limits?: AdmitLimits): Admission;
  /** Gives back a slot that did not become a stream. */
  release(admission: Admission): void;
  /** Opens a stream on an admitted slot: the connected message, any backlog, then live events. */
  open(admission: Admission, request: StreamRequest): StreamHandle;
  /** Ends these streams in order (an app closing), or all. */
  end(handles?: Iterable<StreamHandle>): void;
  stats(): { streams: number; slots: number; clients: number; companies: number; cursor: string };
  /** The reader, for tests that need to wait on it. */
  readonly reader: EventReader;
}

interface Stream extends StreamHandle {
  admission: SlotRecord;
  sink: EventSink;
  companyIds: ReadonlySet<string> | undefined;
  types: ReadonlySet<EventType> | undefined;
  backlogSince: Date | undefined;
  /**
   * A resumed stream's Last-Event-ID: live events at or below it are never sent to it. The client has them already,
   * and this process's reader may lag behind the replica the client came from, so they can still arrive live.
   */
  resumedAfter: bigint | undefined;
  lastWriteAt: number;
  /** Live frames held while the backlog is being sent. */
  held: Buffer[] | undefined;
  heldBytes: number;
  corked: boolean;
  open: boolean;
}

export function createEventHub(options: EventHubOptions): EventHub {
  const { db } = options.database;
  const log = options.log;
  const bufferMax = options.clientBufferMaxBytes ?? SSE_CLIENT_BUFFER_MAX_BYTES;
  const batchSize = options.batchSize ?? SSE_READ_BATCH;
  const drainTimeoutMs = options.drainTimeoutMs ?? SSE_DRAIN_TIMEOUT_MS;

  const streams = new Set<Stream>();
  const everyCompany = new Set<Stream>();
  const byCompany = new Map<string, Set<Stream>>();
  const admissions = createAdmissions(options);

  const reader = createEventReader({
    database: options.database,
    log,
    onEvents: deliver,
    ...(options.pollIntervalMs ? { pollIntervalMs: options.pollIntervalMs } : {}),
    ...(options.gapGraceMs !== undefined ? { gapGraceMs: options.gapGraceMs } : {}),
    batchSize,
  });
  let starting: Promise<void> | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let stopped = false;

  function deliver(events: PlatformEvent[]) {
    const now = Date.now();
    const touched: Stream[] = [];
    let eventId = 0n;
    const offer = (s: Stream, type: EventType, frame: Buffer) => {
      if (!s.open || (s.types && !s.types.has(type))) return;
      if (s.resumedAfter !== undefined && eventId <= s.resumedAfter) return;
      if (s.held) {
        s.held.push(frame);
        s.heldBytes += frame.length;
        if (s.heldBytes > bufferMax) drop(s, 'too many new events while its backlog was being sent');
        return;
      }
      if (s.sink.buffered > bufferMax) return drop(s, 'client does not read fast enough');
      if (!s.corked) {
        // Corked for the batch: one write to the socket per stream, however many events match.
        s.corked = true;
        s.sink.cork();
        touched.push(s);
      }
      s.sink.write(frame);
      s.lastWriteAt = now;
    };
    for (const event of events) {
      eventId = BigInt(event.id);
      const frame = eventFrame(event, reader.lowWater(eventId));
      if (event.type === PLATFORM_WIDE_TYPE) {
        for (const s of streams) offer(s, event.type, frame);
        continue;
      }
      for (const s of everyCompany) offer(s, event.type, frame);
      const some = byCompany.get(event.companyId);
      if (some) for (const s of some) offer(s, event.type, frame);
    }
    for (const s of touched) {
      s.corked = false;
      s.sink.uncork();
    }
  }

  function unregister(s: Stream) {
    if (!s.open) return false;
    s.open = false;
    streams.delete(s);
    if (s.companyIds) {
      for (const id of s.companyIds) {
        const set = byCompany.get(id);
        set?.delete(s);
        if (set?.size === 0) byCompany.delete(id);
      }
    } else {
      everyCompany.delete(s);
    }
    s.held = undefined;
    admissions.release(s.admission);
    return true;
  }

  function drop(s: Stream, reason: string) {
    if (!unregister(s)) return;
    log.warn({ client: s.admission.client, buffered: s.sink.buffered, reason }, 'event stream dropped');
    s.sink.destroy();
  }

  async function replay(s: Stream, after: bigint) {
    // Taken in the same tick as the stream joined the fan-out: events up to the cursor come from the table, later
    // ones (and late arrivals of the missing ids, left out here) from the fan-out, held until the backlog is out.
    const upTo = reader.cursor;
    const excludeIds = reader.missingIds();
    const companyIds = s.companyIds ? [...s.companyIds] : undefined;
    const types = s.types ? [...s.types] : undefined;
    let from = after;
    try {
      while (s.open) {
        const events = await readEvents(db, {
          after: from,
          upTo,
          companyIds,
          types,
          excludeIds,
          since: s.backlogSince,
          limit: batchSize,
        });
        if (!s.open) return;
        if (events.length > 0) {
          s.sink.cork();
          for (const event of events) s.sink.write(eventFrame(event, reader.lowWater(BigInt(event.id))));
          s.sink.uncork();
          s.lastWriteAt = Date.now();
          from = BigInt(events[events.length - 1]!.id);
        }
        if (s.sink.buffered > bufferMax && !(await s.sink.drainedTo(bufferMax / 2, drainTimeoutMs))) {
          return drop(s, 'client did not take its backlog');
        }
        if (events.length < batchSize) break;
      }
      if (!s.open) return;
      const held = s.held ?? [];
      s.held = undefined;
      if (held.length > 0) {
        s.sink.cork();
        for (const frame of held) s.sink.write(frame);
        s.sink.uncork();
        s.lastWriteAt = Date.now();
      }
    } catch (err) {
      log.error({ err }, 'reading the backlog of a resumed event stream failed');
      drop(s, 'backlog read failed');
    }
  }

  function beat() {
    const now = Date.now();
    for (const s of streams) {
      if (s.held || now - s.lastWriteAt < options.heartbeatMs) continue;
      if (s.sink.buffered > bufferMax) {
        drop(s, 'client does not read fast enough');
        continue;
      }
      s.sink.write(PING_FRAME);
      s.lastWriteAt = now;
    }
  }

  const hub: EventHub = {
    reader,
    start() {
      if (stopped) return Promise.reject(new Error('the event hub is stopped'));
      starting ??= reader.start().then(
        () => {
          if (options.heartbeatMs > 0) {
            // A stream silent for a full period gets a ping, looked for every tick (a thirtieth of the period, at
            // most a second): pings come a period after the last write, late by at most one tick.
            const tick = Math.min(SSE_HEARTBEAT_TICK_MAX_MS, Math.ceil(options.heartbeatMs / 30));
            heartbeat = setInterval(beat, tick);
            heartbeat.unref();
          }
        },
        (err) => {
          starting = undefined; // the next stream tries again
          throw err;
        },
      );
      return starting;
    },

    async stop() {
      stopped = true;
      clearInterval(heartbeat);
      hub.end();
      await starting?.catch(() => {});
      await reader.stop();
    },

    admit: (client, limits) => admissions.admit(client, limits),

    release(admission) {
      admissions.release(admission as SlotRecord);
    },

    open(admission, request) {
      const slot = admission as SlotRecord;
      if (slot.released) throw new Error('this admission was released');
      const s: Stream = {
        admission: slot,
        sink: request.sink,
        companyIds: request.companyIds,
        types: request.types,
        backlogSince: request.backlogSince,
        resumedAfter: request.lastEventId,
        lastWriteAt: Date.now(),
        held: request.lastEventId !== undefined ? [] : undefined,
        heldBytes: 0,
        corked: false,
        open: true,
        close: () => {
          unregister(s);
        },
      };
      if (stopped) {
        admissions.release(slot);
        s.open = false;
        request.sink.end();
        return s;
      }
      streams.add(s);
      if (s.companyIds) {
        for (const id of s.companyIds) {
          const set = byCompany.get(id) ?? new Set<Stream>();
          byCompany.set(id, set);
          set.add(s);
        }
      } else {
        everyCompany.add(s);
      }
      // A resumed stream keeps its resume point until the backlog has been sent; a new one is caught up to the
      // reader's cursor, since every later event reaches it live.
      s.sink.write(
        connectedFrame(new Date().toISOString(), request.lastEventId ?? reader.lowWater(reader.cursor), SSE_RETRY_MS),
      );
      if (request.lastEventId !== undefined) void replay(s, request.lastEventId);
      return s;
    },

    end(handles) {
      for (const h of [...(handles ?? streams)]) {
        const s = h as Stream;
        if (unregister(s)) s.sink.end();
      }
    },

    stats: () => ({
      streams: streams.size,
      ...admissions.stats(),
      companies: byCompany.size,
      cursor: String(reader.cursor),
    }),
  };
  return hub;
}
