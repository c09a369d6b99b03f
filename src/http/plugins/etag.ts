// Entity tags on the API's JSON reads: every 200 answer of a GET carries a weak ETag (a hash of its bytes), and a
// request whose If-None-Match names it gets 304 Not Modified with no body. A client (the web app, a dashboard
// polling a list) then re-downloads a body only when it changed. Routes that set their own ETag keep it and answer
// the 304 themselves: the NFT documents (strong tags) and the cached reads (src/http/read-cache.ts, the tag kept with the body).
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/** RFC 9110 If-None-Match: `*` or a list of entity tags, compared weakly (a `W/` prefix is ignored). */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const bare = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);
  for (const part of header.split(',')) {
    const tag = part.trim();
    if (tag === '*' || bare(tag) === bare(etag)) return true;
  }
  return false;
}

/**
 * Fields derived from the clock alone, left out of the tag: a token's `ageSeconds` (the chain's clock less its
 * `publicAt`, which the same body carries) grows every second while the data stays the same, and a tag that followed
 * it would never let a client polling every few seconds get a 304. A weak tag promises an equivalent answer, not
 * the same bytes (RFC 9110 8.8.1), and such an answer is equivalent: its age follows from `publicAt`.
 */
const DERIVED_CLOCKS = /"ageSeconds":\d+/g;
const DERIVED_CLOCK_KEY = '"ageSeconds":';

/** The weak tag of a body: a hash of its bytes, the derived clocks (DERIVED_CLOCKS) left out. */
export function weakEtagOf(body: string | Buffer): string {
  // Inside a JSON string a quote is escaped, so the unescaped key matches only a member's name.
  const tagged = typeof body === 'string' && body.includes(DERIVED_CLOCK_KEY) ? body.replace(DERIVED_CLOCKS, '') : body;
  return `W/"${createHash('sha1').update(tagged).digest('base64url')}"`;
}

/** A weak ETag on every 200 JSON answer of a GET, and 304 to a matching If-None-Match. */
export default fp(
  async (app: FastifyInstance) => {
    // A callback hook: no promise per request.
    app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done) => {
      if ((request.method !== 'GET' && request.method !== 'HEAD') || reply.statusCode !== 200)
        return done(null, payload);
      if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
      if (reply.getHeader('etag') !== undefined) return done(null, payload);
      if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return done(null, payload);
      const etag = weakEtagOf(payload);
      reply.header('etag', etag);
      if (!ifNoneMatchHits(request.headers['if-none-match'], etag)) return done(null, payload);
      reply.code(304);
      reply.removeHeader('content-length');
      done(null, '');
    });
  },
  { name: 'etag' },
);
