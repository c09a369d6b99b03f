// GET /api/v1/events (registered by v1.ts): the platform event stream (docs/api/events.md), and GET /api/events, its
// public read-only twin for the web app. The route checks the key (v1) and the query, takes a slot under the
// connection caps, then hands the response to the event hub, which writes the stream.
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import { EVENTS_PAGE_DEFAULT, RECENT_EVENTS_MAX } from '../../constants.ts';
import { createPageTotals } from '../../db/page-total.ts';
import { backfillFrom, backfillPage, backfillTotal } from '../../domain/events/backfill.ts';
import { createEventIdIndex, createPageStore, type KeptPage } from '../../domain/events/backfill-index.ts';
import {
  parseCompanyRefs,
  parseEventTypes,
  parseLastEventId,
  resolveCompanyRefs,
} from '../../domain/events/filters.ts';
import { checkHorizon, checkStreamResumable, eventHorizon, readRecentEvents } from '../../domain/events/store.ts';
import { validationError } from '../../errors.ts';
import { requireApiKey } from '../auth/index.ts';
import { createCoalescer } from '../coalesce.ts';
import { JSON_TYPE, linkNextPage, ok, STAMP_PLACEHOLDER, v1CursorPage } from '../envelope.ts';
import type { EventSink, StreamHandle } from '../events/hub.ts';
import { ifNoneMatchHits, weakEtagOf } from '../plugins/etag.ts';
import { internalErrors, v1Errors } from '../schemas/common.ts';
import {
  EventStreamResponse,
  EventsHeaders,
  EventsQuery,
  RecentEventsQuery,
  RecentEventsResponse,
  V1EventsQuery,
  V1EventsResponse,
} from '../schemas/events.ts';
import type { App, RouteOptions } from '../types.ts';

/** The stream's response headers (docs/api/events.md "Protocol"). */
const STREAM_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

/** GET /api/v1/events: the keyed stream (docs/api/events.md; open while no key exists), capped per key or address. */
export default async function eventRoutes(app: App, { deps }: RouteOptions) {
  streamRoute(app, deps, {
    preValidation: requireApiKey(deps, { allowQuery: true, openWhenUnconfigured: true }),
    summary: 'The platform event stream (Server-Sent Events), filtered by company and type, resumable',
    security: [{ apiKey: [] }, { apiKeyQuery: [] }, {}],
    errors: v1Errors,
    client: (request) => (request.apiKeyId ? `key:${request.apiKeyId}` : `ip:${request.ip}`),
    v1: true,
  });
}

/**
 * GET /api/events: the same stream, public and read-only, for the web app's pages (docs/web.md): no key
 * ever (so a page never logs a 401 once keys exist), capped per client address by SSE_PUBLIC_MAX_CONNECTIONS_PER_IP
 * and in all by SSE_PUBLIC_MAX_CONNECTIONS (apart from the keyed streams' cap, which anyone could fill otherwise),
 * and resumed at most SSE_PUBLIC_BACKLOG_MS back (and never past the stream's window, EVENT_RETENTION_MS).
 */
export async function publicEventRoutes(app: App, { deps }: RouteOptions) {
  streamRoute(app, deps, {
    summary: 'The public, read-only event stream of the web app (no key; per-address connection cap)',
    security: [],
    errors: internalErrors,
    client: (request) => `public:${request.ip}`,
    perClientCap: deps.config.ssePublicMaxConnectionsPerIp,
    keyless: true,
    backlogMs: Math.min(deps.config.ssePublicBacklogMs, deps.config.eventRetentionMs),
  });
  // The recent past the activity feed opens on (the stream gives what happens from now on).
  app.get(
    '/events/recent',
    {
      schema: {
        tags: ['events'],
        summary: 'The newest platform events held, newest first (public, read-only)',
        description:
          "What the web app's activity feed opens on before the stream's live events: the newest `limit` events still kept (EVENT_BACKFILL_RETENTION_MS). 400 BAD_REQUEST for a limit outside 1-" +
          String(RECENT_EVENTS_MAX),
        querystring: RecentEventsQuery,
        response: { 200: RecentEventsResponse, ...internalErrors },
      },
    },
    async (request) => ok(await readRecentEvents(deps.database.db, request.query.limit)),
  );
}

interface StreamRouteOptions {
  preValidation?: preValidationAsyncHookHandler;
  summary: string;
  security: Record<string, string[]>[];
  errors: Record<string, unknown>;
  /** Whose slot a stream takes under the per-client cap. */
  client: (request: FastifyRequest) => string;
  perClientCap?: number;
  /** A keyless stream: under the keyless streams' own cap. */
  keyless?: boolean;
  /** How far back a resume goes; the stream's whole window (EVENT_RETENTION_MS) when absent. */
  backlogMs?: number;
  /**
   * The v1 stream: a resume from an id with later events outside the stream's window answers 410 EVENTS_EXPIRED
   * before the stream starts, and `after` answers a backfill page instead of a stream.
   */
  v1?: boolean;
}

function streamRoute(app: App, deps: RouteOptions['deps'], options: StreamRouteOptions) {
  const hub = deps.events;
  const open = new Set<StreamHandle>();
  let closing = false;
  // Streams never end by themselves, and a server closing waits for its connections: end them first.
  app.addHook('preClose', async () => {
    closing = true;
    hub.end(open);
    open.clear();
  });

  const totals = createPageTotals();
  const index = createEventIdIndex();
  const horizons = createCoalescer();
  const fullPages = createPageStore(BACKFILL_PAGES_MAX_BYTES);
  const { eventRetentionMs: retentionMs, eventBackfillRetentionMs: backfillRetentionMs } = deps.config;
  app.get(
    '/events',
    {
      ...(options.preValidation ? { preValidation: options.preValidation } : {}),
      ...(options.v1 ? { onSend: linkNextPage } : {}),
      schema: {
        tags: ['events'],
        summary: options.summary,
        ...(options.v1
          ? {
              description:
                'Without `after`: the stream (text/event-stream) of the last EVENT_RETENTION_MS (default 1 hour). A resume (`Last-Event-ID` or `lastEventId`) from an id with later events older than that answers 410 EVENTS_EXPIRED before the stream starts, pointing to the backfill with the `after` to read from. With `after`: the events kept for EVENT_BACKFILL_RETENTION_MS (default 2 days) as JSON pages, oldest first, in the v1 list envelope; 410 EVENTS_EXPIRED when events after it were deleted, naming the oldest event held (docs/api/events.md "Backfill")',
            }
          : {}),
        security: options.security,
        querystring: options.v1 ? V1EventsQuery : EventsQuery,
        headers: EventsHeaders,
        response: { 200: options.v1 ? V1EventsResponse : EventStreamResponse, ...options.errors },
      },
    },
    async (request, reply) => {
      const query = request.query as typeof request.query & { after?: string; cursor?: string; limit?: number };
      const types = parseEventTypes(query.types);
      const companyRefs = parseCompanyRefs(query.companies);
      const db = deps.database.db;
      if (options.v1 && (query.after !== undefined || query.cursor !== undefined)) {
        if (query.after === undefined) {
          throw validationError('query.after', 'is required with cursor: give the same after as the first page');
        }
        const after = BigInt(query.after);
        // One read of the retention's horizon for the requests that arrived before it began (coalesce.ts): a purge
        // committed before a request arrived is always seen.
        const horizon = await horizons('horizon', () => eventHorizon(db));
        const purgedThrough = checkHorizon(horizon, after, 'query.after', backfillRetentionMs);
        index.forgetThrough(purgedThrough);
        const companyIds = companyRefs ? [...(await resolveCompanyRefs(db, companyRefs))] : undefined;
        await hub.start();
        const limit = query.limit ?? EVENTS_PAGE_DEFAULT;
        // Every id at or below the reader's low-water mark is settled: a page never passes an id that may commit late.
        const upTo = hub.reader.lowWater(hub.reader.cursor);
        const backfill = {
          after,
          cursor: query.cursor,
          companyIds,
          types: types ? [...types] : undefined,
          limit,
          upTo,
        };
        const pageKey = `${backfillFrom(backfill)}|${limit}|${backfill.types?.join(',') ?? ''}|${companyIds?.join(',') ?? ''}`;
        const kept = fullPages.get(pageKey, purgedThrough);
        if (kept !== undefined) {
          sendKept(reply as unknown as FastifyReply, kept, await backfillTotal(db, backfill, limit, totals, index));
          return reply;
        }
        const page = await backfillPage(db, backfill, totals, index);
        const pagination = { page: 1, limit, total: page.total, hasMore: page.hasMore, nextCursor: page.nextCursor };
        reply.type('application/json');
        if (!page.hasMore) {
          // The last page grows with the next event: not kept. (The route's 200 has two forms; this one is
          // serialized with the JSON page's schema.)
          return reply.send(v1CursorPage(page.items, pagination) as never);
        }
        const serialized = reply.serializeInput(
          v1CursorPage(page.items, { ...pagination, total: TOTAL_PLACEHOLDER }, STAMP_PLACEHOLDER),
          '200',
          'application/json',
        ) as string;
        const full = keptPage(backfillFrom(backfill), serialized);
        fullPages.set(pageKey, full);
        sendKept(reply as unknown as FastifyReply, full, page.total);
        return reply;
      }
      const lastEventId = parseLastEventId(request.headers['last-event-id'], query.lastEventId);
      // One clock for the window's check and the backlog's bound: an event the check let pass is served.
      const now = Date.now();
      if (options.v1 && lastEventId !== undefined) {
        const path = request.headers['last-event-id'] !== undefined ? 'headers.last-event-id' : 'query.lastEventId';
        await checkStreamResumable(db, lastEventId, path, { retentionMs, backfillRetentionMs, now });
      }
      const admission = hub.admit(options.client(request), {
        perClient: options.perClientCap,
        keyless: options.keyless,
      });
      let companyIds: Set<string> | undefined;
      try {
        if (companyRefs) companyIds = await resolveCompanyRefs(db, companyRefs);
        await hub.start();
      } catch (err) {
        hub.release(admission);
        throw err;
      }
      const res = reply.raw;
      reply.hijack();
      if (res.destroyed || !res.socket || res.socket.destroyed) {
        hub.release(admission); // the client left while its filters were being resolved
        return;
      }
      // Headers set so far (request id, CORS, rate limit) are kept.
      res.writeHead(200, { ...(reply.getHeaders() as OutgoingHttpHeaders), ...STREAM_HEADERS });
      res.socket?.setNoDelay(true);
      res.socket?.setKeepAlive(true, 60_000);
      const opened = Date.now();
      const backlogSince = new Date(now - (options.backlogMs ?? retentionMs));
      const stream = hub.open(admission, { sink: responseSink(res), companyIds, types, lastEventId, backlogSince });
      open.add(stream);
      res.once('close', () => {
        stream.close();
        open.delete(stream);
        request.log.debug({ streamMs: Date.now() - opened }, 'event stream closed');
      });
      // Opened while the server began to close: end it too, the client reconnects elsewhere.
      if (closing) hub.end([stream]);
    },
  );
}

/** The backfill's full pages kept in a process, in bytes (a page of 100 events is about 34 KB). */
const BACKFILL_PAGES_MAX_BYTES = 128 * 1024 * 1024;
/** The `total` a kept page is serialized with, replaced by each response's. */
const TOTAL_PLACEHOLDER = Number.MAX_SAFE_INTEGER;

/** A full page's body cut around its total and its timestamp (`pagination` follows `data`; `meta` is last). */
function keptPage(from: bigint, serialized: string): KeptPage {
  const totalField = `"total":${TOTAL_PLACEHOLDER}`;
  const stampField = `"timestamp":"${STAMP_PLACEHOLDER}"`;
  const t = serialized.lastIndexOf(totalField);
  const s = serialized.lastIndexOf(stampField);
  if (t === -1 || s < t) throw new Error('a backfill page without its total or timestamp placeholder');
  const head = serialized.slice(0, t + '"total":'.length);
  const middle = serialized.slice(t + totalField.length, s + '"timestamp":'.length);
  const tail = serialized.slice(s + stampField.length);
  const tag = weakEtagOf(head + middle + tail).slice(3, -1);
  return { from, head, middle, tail, tag, bytes: serialized.length + 200 };
}

/** A kept page with this response's total and time; its ETag is the events' tag and the total. */
function sendKept(reply: FastifyReply, page: KeptPage, total: number) {
  const etag = `W/"${page.tag}.${total}"`;
  reply.header('etag', etag);
  if (ifNoneMatchHits(reply.request.headers['if-none-match'], etag)) return reply.code(304).send();
  return reply.type(JSON_TYPE).send(`${page.head}${total}${page.middle}"${new Date().toISOString()}"${page.tail}`);
}

function responseSink(res: ServerResponse): EventSink {
  return {
    write: (chunk) => {
      res.write(chunk);
    },
    get buffered() {
      return res.writableLength;
    },
    cork: () => res.cork(),
    uncork: () => res.uncork(),
    end: () => {
      // The last chunk, then the connection: a keep-alive socket left open would hold the server's close.
      res.end(() => res.socket?.destroySoon());
    },
    destroy: () => {
      res.destroy();
    },
    drainedTo: (bytes, timeoutMs) =>
      new Promise((resolve) => {
        const started = Date.now();
        const check = setInterval(() => {
          if (res.destroyed || Date.now() - started > timeoutMs) finish(false);
          else if (res.writableLength <= bytes) finish(true);
        }, 20);
        const finish = (ok: boolean) => {
          clearInterval(check);
          resolve(ok);
        };
      }),
  };
}
