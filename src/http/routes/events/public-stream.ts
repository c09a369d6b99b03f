// GET /api/events (docs/web.md): the platform event stream, public and read-only, for the web app's pages.
import { internalErrors } from '../../schemas/common.ts';
import type { App, RouteOptions } from '../../types.ts';
import { EventStreamResponse, EventsQuery, streamRoute } from './stream.ts';

/**
 * No key ever (so a page never logs a 401 once keys exist), capped per client address by
 * SSE_PUBLIC_MAX_CONNECTIONS_PER_IP and in all by SSE_PUBLIC_MAX_CONNECTIONS (apart from the keyed streams' cap,
 * which anyone could fill otherwise), and resumed at most SSE_PUBLIC_BACKLOG_MS back (and never past the stream's
 * window, EVENT_RETENTION_MS).
 */
export function registerPublicStream(app: App, { deps }: RouteOptions) {
  streamRoute(app, deps, {
    url: '/api/events',
    summary: 'The public, read-only event stream of the web app (no key; per-address connection cap)',
    security: [],
    query: EventsQuery,
    response: EventStreamResponse,
    errors: internalErrors,
    client: (request) => `public:${request.ip}`,
    perClientCap: deps.config.ssePublicMaxConnectionsPerIp,
    keyless: true,
    backlogMs: Math.min(deps.config.ssePublicBacklogMs, deps.config.eventRetentionMs),
  });
}
