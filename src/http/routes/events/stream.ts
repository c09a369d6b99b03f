// The event stream's route (docs/api/events.md "Protocol"), as both its operations register it (v1-stream.ts,
// public-stream.ts): the route checks the key (v1) and the query, takes a slot under the connection caps, then hands
// the response to the event hub, which writes the stream; the v1 stream with `after` answers a backfill page instead.
// Registered by hand: route() has no streamed answer.
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import { type Static, type TSchema, Type } from 'typebox';
import { EVENT_TYPES, EVENTS_PAGE_DEFAULT, SSE_FILTER_COMPANIES_MAX, SSE_FILTER_RAW_MAX } from '../../../constants.ts';
import { createPageTotals } from '../../../db/page-total.ts';
import { backfillFrom, backfillPage, backfillTotal } from '../../../domain/events/backfill.ts';
import { createEventIdIndex, createPageStore } from '../../../domain/events/backfill-index.ts';
import {
  EVENT_ID_PATTERN,
  parseCompanyRefs,
  parseEventTypes,
  parseLastEventId,
  resolveCompanyRefs,
} from '../../../domain/events/filters.ts';
import { checkHorizon, checkStreamResumable, eventHorizon } from '../../../domain/events/store.ts';
import { validationError } from '../../../errors.ts';
import { createCoalescer } from '../../coalesce.ts';
import { linkNextPage, STAMP_PLACEHOLDER, v1CursorPage } from '../../envelope.ts';
import type { EventSink, StreamHandle } from '../../events/hub.ts';
import { PlatformEventSchema } from '../../schemas/events.ts';
import type { App, RouteOptions } from '../../types.ts';
import { BACKFILL_PAGES_MAX_BYTES, keptPage, sendKept, TOTAL_PLACEHOLDER } from './kept-pages.ts';

export const EventId = (description: string) => Type.String({ pattern: EVENT_ID_PATTERN, description });

/** The stream's filters and resume point (the v1 stream's query adds the backfill's). */
export const EventsQuery = Type.Object({
  companies: Type.Optional(
    Type.String({
      maxLength: SSE_FILTER_RAW_MAX,
      description: `Comma-separated company slugs or ids (at most ${SSE_FILTER_COMPANIES_MAX}); every one must name a company. All companies when absent`,
    }),
  ),
  types: Type.Optional(
    Type.String({
      maxLength: SSE_FILTER_RAW_MAX,
      description: `Comma-separated event types: ${EVENT_TYPES.join(', ')}. All types when absent`,
    }),
  ),
  api_key: Type.Optional(Type.String({ description: 'The API key, for clients that cannot send x-api-key' })),
  lastEventId: Type.Optional(
    EventId('Resume after this event id, for EventSource clients that cannot send Last-Event-ID'),
  ),
});

export const EventsHeaders = Type.Object({
  'last-event-id': Type.Optional(
    EventId('Resume after this event id: the retained events after it are sent first, then live ones'),
  ),
});

export const EventStreamResponse = {
  description:
    'A text/event-stream: first `retry: 3000`, `id: <resume id>` and `event: connected` with `data: {"type":"connected","timestamp"}`, then each platform event as `id: <id>`, `event: <type>`, `data: <JSON PlatformEvent>` and a blank line; a `: ping` comment after SSE_HEARTBEAT_MS (30 s) of silence',
  content: { 'text/event-stream': { schema: PlatformEventSchema } },
};

/** The stream's response headers (docs/api/events.md "Protocol"). */
const STREAM_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

export interface StreamRouteOptions {
  /** The stream's path where its family is registered. */
  url: string;
  query: TSchema;
  /** The route's 200 (the stream, or the stream and the backfill's page). */
  response: Record<string, unknown>;
  description?: string;
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
   * The v1 stream: a resume from an id with later events of its filters outside the stream's window answers 410 EVENTS_EXPIRED
   * before the stream starts, and `after` answers a backfill page instead of a stream.
   */
  v1?: boolean;
}

export function streamRoute(app: App, deps: RouteOptions['deps'], options: StreamRouteOptions) {
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
    options.url,
    {
      ...(options.preValidation ? { preValidation: options.preValidation } : {}),
      ...(options.v1 ? { onSend: linkNextPage } : {}),
      schema: {
        tags: ['events'],
        summary: options.summary,
        ...(options.description ? { description: options.description } : {}),
        security: options.security,
        querystring: options.query,
        headers: EventsHeaders,
        response: { 200: options.response, ...options.errors },
      },
    },
    async (request, reply) => {
      const query = request.query as Static<typeof EventsQuery> & { after?: string; cursor?: string; limit?: number };
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
      const companyIds = companyRefs ? await resolveCompanyRefs(db, companyRefs) : undefined;
      if (options.v1 && lastEventId !== undefined) {
        const path = request.headers['last-event-id'] !== undefined ? 'headers.last-event-id' : 'query.lastEventId';
        await checkStreamResumable(
          db,
          lastEventId,
          path,
          { retentionMs, backfillRetentionMs, now },
          { types: types ? [...types] : undefined, companyIds: companyIds ? [...companyIds] : undefined },
        );
      }
      const admission = hub.admit(options.client(request), {
        perClient: options.perClientCap,
        keyless: options.keyless,
      });
      try {
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
