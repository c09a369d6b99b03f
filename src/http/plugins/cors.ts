// Every route is callable from browsers (dashboards, marketplaces, dapps): credentials travel in headers, never in
// cookies, so any origin may call. The header lists are given joined: the plugin joins an array again on every
// request.
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export default fp(
  async (app: FastifyInstance) => {
    await app.register(cors, {
      origin: '*',
      methods: 'GET, HEAD, POST, PUT, PATCH, DELETE',
      allowedHeaders:
        'content-type, authorization, x-api-key, x-request-id, last-event-id, if-none-match, idempotency-key',
      exposedHeaders:
        'x-request-id, retry-after, etag, link, deprecation, sunset, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, ratelimit, ratelimit-policy, idempotent-replayed, location, www-authenticate',
      maxAge: 86_400,
    });
  },
  { name: 'cors' },
);
