// Cache-Control on the JSON reads (docs/api/README.md "Caching"): every 200 and 304 of a GET whose route sets none
// of its own gets one, chosen by who may read it (the route's OpenAPI `security`):
// - public reads (no credentials): `no-cache`: any cache may keep the answer but must revalidate it each time, which
//   the weak ETag (etag.ts) makes a 304 when nothing changed; the data moves with every trade, so no age is given;
// - reads with an API key (the v1 routes): `private, max-age=0, must-revalidate`: only the client's own cache keeps
//   them, as a shared cache would hand them to callers without a key; revalidated each time, the same way;
// - reads with any other credentials (the admin and scheduler secrets, a wallet signature): `no-store`.
// Routes with a policy of their own (the NFT documents, an agent's registration file, the event stream, the web
// app's files) keep it. Errors get none.
import type { FastifyInstance, onSendHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { addRouteHook } from './route-hooks.ts';

export const PUBLIC_READ_CACHE_CONTROL = 'no-cache';
export const KEYED_READ_CACHE_CONTROL = 'private, max-age=0, must-revalidate';
export const SECRET_READ_CACHE_CONTROL = 'no-store';

const API_KEY_SCHEMES = new Set(['apiKey', 'apiKeyQuery']);

/** The policy of a read by its route's security requirements (OpenAPI form: a list of alternatives). */
export function readCacheControlOf(security: readonly Record<string, unknown>[] | undefined): string {
  const schemes = (security ?? []).flatMap((alternative) => Object.keys(alternative));
  // Optional credentials (`{}` beside a scheme) count as credentials: the answer may depend on them.
  if (schemes.length === 0) return PUBLIC_READ_CACHE_CONTROL;
  if (schemes.every((s) => API_KEY_SCHEMES.has(s))) return KEYED_READ_CACHE_CONTROL;
  return SECRET_READ_CACHE_CONTROL;
}

/** The Cache-Control of every JSON read whose route sets none of its own. */
export default fp(
  async (app: FastifyInstance) => {
    // Each API route's own callback hook (route-hooks.ts), with its policy chosen once. A route's own hooks run after
    // the app's, so etag.ts's 304s are seen as such.
    app.addHook('onRoute', (route) => {
      if (!route.url.startsWith('/api/')) return;
      const policy = readCacheControlOf(
        (route.schema as { security?: Record<string, unknown>[] } | undefined)?.security,
      );
      const setPolicy: onSendHookHandler = (request, reply, payload, done) => {
        if (request.method !== 'GET' && request.method !== 'HEAD') return done(null, payload);
        const status = reply.statusCode;
        if (status !== 200 && status !== 304) return done(null, payload);
        // A policy of the route's own, set on the reply or on the raw response.
        if (reply.getHeader('cache-control') !== undefined || reply.raw.hasHeader('cache-control')) {
          return done(null, payload);
        }
        if (status === 200 && !String(reply.getHeader('content-type') ?? '').startsWith('application/json')) {
          return done(null, payload);
        }
        reply.header('cache-control', policy);
        done(null, payload);
      };
      addRouteHook(route, 'onSend', setPolicy, 'last');
    });
  },
  { name: 'cache-control' },
);
