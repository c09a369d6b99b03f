// Cache-Control on the JSON reads (docs/api/README.md "Caching"): every 200 and 304 of a GET whose route sets none
// of its own gets one, chosen by who may read it (the route's OpenAPI `security`):
// - public reads (no credentials): `no-cache`: any cache may keep the answer but must revalidate it each time, which
//   the weak ETag (etag.ts) makes a 304 when nothing changed; the data moves with every trade, so no age is given;
// - reads with an API key (the v1 routes): `private, max-age=0, must-revalidate`: only the client's own cache keeps
//   them, as a shared cache would hand them to callers without a key; revalidated each time, the same way;
// - reads with any other credentials (the admin and scheduler secrets, a wallet signature): `no-store`.
// Routes with a policy of their own (the NFT documents, an agent's registration file, the event stream, the web
// app's files) keep it. Errors get none.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

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
    const bySchema = new WeakMap<object, string>();
    // A callback hook: no promise per request. After etag.ts's, so its 304s are seen as such.
    app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done) => {
      if (request.method !== 'GET' && request.method !== 'HEAD') return done(null, payload);
      const status = reply.statusCode;
      if (status !== 200 && status !== 304) return done(null, payload);
      // A policy of the route's own, set on the reply or (static files) on the raw response.
      if (reply.getHeader('cache-control') !== undefined || reply.raw.hasHeader('cache-control')) {
        return done(null, payload);
      }
      if (!request.routeOptions.url?.startsWith('/api/')) return done(null, payload);
      if (status === 200 && !String(reply.getHeader('content-type') ?? '').startsWith('application/json')) {
        return done(null, payload);
      }
      const schema = request.routeOptions.schema as { security?: Record<string, unknown>[] } | undefined;
      let policy = PUBLIC_READ_CACHE_CONTROL;
      if (schema) {
        policy = bySchema.get(schema) ?? readCacheControlOf(schema.security);
        bySchema.set(schema, policy);
      }
      reply.header('cache-control', policy);
      done(null, payload);
    });
  },
  { name: 'cache-control' },
);
