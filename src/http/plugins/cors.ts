// Every route is callable from browsers (dashboards, marketplaces, dapps): credentials travel in headers, never in
// cookies, so any origin may call. An answer's CORS headers are the same for every request (any origin, the same
// exposed headers), so they are set with the security headers, in the same call (security-headers.ts, app.ts), and
// not by @fastify/cors's hook, which copied its options into a new object on every request. The plugin answers the
// preflights alone: registered in a context of its own, its hook runs only on its `OPTIONS *` route.
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

const EXPOSED_HEADERS =
  'x-request-id, retry-after, etag, link, deprecation, sunset, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, ratelimit, ratelimit-policy, idempotent-replayed, location, www-authenticate';

/** The CORS headers of every answer (what @fastify/cors sets on a request that is not a preflight). */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': EXPOSED_HEADERS,
};

export default fp(
  async (app: FastifyInstance) => {
    await app.register(async (preflights) => {
      await preflights.register(cors, {
        origin: '*',
        methods: 'GET, HEAD, POST, PUT, PATCH, DELETE',
        allowedHeaders:
          'content-type, authorization, x-api-key, x-request-id, last-event-id, if-none-match, idempotency-key',
        exposedHeaders: EXPOSED_HEADERS,
        maxAge: 86_400,
      });
    });
  },
  { name: 'cors' },
);
