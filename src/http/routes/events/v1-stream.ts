// GET /api/v1/events (registered by v1.ts; docs/api/events.md): the keyed platform event stream (open while no key
// exists), capped per key or address; with `after`, the backfill's JSON pages instead.
import { Type } from 'typebox';
import { EVENTS_PAGE_DEFAULT, EVENTS_PAGE_MAX } from '../../../constants.ts';
import { CURSOR_MAX_LENGTH, CURSOR_PATTERN } from '../../../page-cursor.ts';
import { requireApiKey } from '../../auth/index.ts';
import { Meta, Pagination, v1Errors } from '../../schemas/common.ts';
import { PlatformEventSchema } from '../../schemas/events.ts';
import type { App, RouteOptions } from '../../types.ts';
import { EventId, EventStreamResponse, EventsQuery, streamRoute } from './stream.ts';

/** GET /api/v1/events: the stream's query, and the backfill's (`after`, `cursor`, `limit`). */
export const V1EventsQuery = Type.Object({
  ...EventsQuery.properties,
  after: Type.Optional(
    EventId(
      'Backfill: answer the events kept (EVENT_BACKFILL_RETENTION_MS, default 2 days) after this id as JSON pages (application/json) instead of a stream; `0` for every event held. 410 EVENTS_EXPIRED when events after it were deleted by the retention',
    ),
  ),
  cursor: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: CURSOR_MAX_LENGTH,
      pattern: CURSOR_PATTERN,
      description:
        "Backfill: `pagination.nextCursor` of the page before (with the same `after` and filters): the events after that page's last one",
    }),
  ),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: EVENTS_PAGE_MAX,
      description: `Backfill: events a page holds at most (default ${EVENTS_PAGE_DEFAULT})`,
    }),
  ),
});

/**
 * GET /api/v1/events' 200: the stream, or with `after` a backfill page (the v1 list envelope; `pagination.total`
 * counts the events after `after` that match the filters, up to the newest settled one).
 */
export const V1EventsResponse = {
  description: `${EventStreamResponse.description}. With \`after\`: a JSON page of the retained events after it, oldest first, in the v1 list envelope`,
  content: {
    ...EventStreamResponse.content,
    'application/json': {
      schema: Type.Object({ data: Type.Array(PlatformEventSchema), pagination: Pagination, meta: Meta }),
    },
  },
};

export default async function eventRoutes(app: App, { deps }: RouteOptions) {
  streamRoute(app, deps, {
    url: '/events',
    preValidation: requireApiKey(deps, { allowQuery: true, openWhenUnconfigured: true }),
    summary: 'The platform event stream (Server-Sent Events), filtered by company and type, resumable',
    description:
      'Without `after`: the stream (text/event-stream) of the last EVENT_RETENTION_MS (default 1 hour). A resume (`Last-Event-ID` or `lastEventId`) from an id with later events of its filters (`types`, `companies`) older than that answers 410 EVENTS_EXPIRED before the stream starts, pointing to the backfill with the `after` to read from. With `after`: the events kept for EVENT_BACKFILL_RETENTION_MS (default 2 days) as JSON pages, oldest first, in the v1 list envelope; 410 EVENTS_EXPIRED when events after it were deleted, naming the oldest event held (docs/api/events.md "Backfill")',
    security: [{ apiKey: [] }, { apiKeyQuery: [] }, {}],
    query: V1EventsQuery,
    response: V1EventsResponse,
    errors: v1Errors,
    client: (request) => (request.apiKeyId ? `key:${request.apiKeyId}` : `ip:${request.ip}`),
    v1: true,
  });
}
