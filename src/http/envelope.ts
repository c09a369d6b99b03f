// Success envelopes (docs/api/README.md "Envelopes"): internal `{ success, data }`, v1 `{ data, meta }` with `pagination` on lists.

export const ok = <T>(data: T) => ({ success: true as const, data });

/** The content type Fastify gives a serialized JSON body; bodies serialized ahead are sent with it. */
export const JSON_TYPE = 'application/json; charset=utf-8';

export const meta = (timestamp = new Date().toISOString()) => ({ timestamp });

export const v1Body = <T>(data: T) => ({ data, meta: meta() });

/** The `pagination` (docs/api/README.md "Envelopes") of a page of a list of `total`. */
export const pageOf = (page: number, limit: number, total: number) => ({
  page,
  limit,
  total,
  hasMore: page * limit < total,
});

export function v1Page<T>(data: T[], page: number, limit: number, total: number, timestamp?: string) {
  return { data, pagination: pageOf(page, limit, total), meta: meta(timestamp) };
}

/** A v1 page of a list that pages by cursor too: `hasMore` known exactly, and the next page's cursor. */
export function v1CursorPage<T>(
  data: T[],
  at: { page: number; limit: number; total: number; hasMore: boolean; nextCursor: string | null },
  timestamp?: string,
) {
  const { page, limit, total, hasMore, nextCursor } = at;
  return { data, pagination: { page, limit, total, hasMore, nextCursor }, meta: meta(timestamp) };
}

/**
 * An onSend hook of a list that pages by cursor: the RFC 8288 `Link` header (rel="next") from the body's
 * `pagination.nextCursor`, so a body the read cache serves again carries it too. The link is the request's own URL
 * with `cursor` set to the next page's and `page` dropped (a cursor counts from itself).
 */
export function linkNextPage(
  request: { url: string },
  reply: { header(name: string, value: string): unknown; getHeader(name: string): unknown },
  payload: unknown,
  done: (err: null, payload: unknown) => void,
) {
  const match = typeof payload === 'string' ? /"nextCursor":"([A-Za-z0-9_-]+)"/.exec(payload) : null;
  if (match) {
    const next = new URL(request.url, 'http://placeholder');
    next.searchParams.delete('page');
    next.searchParams.set('cursor', match[1]!);
    // After any link already there (a deprecation notice, src/http/plugins/deprecation.ts).
    const prior = reply.getHeader('link');
    const link = `<${next.pathname}${next.search}>; rel="next"`;
    reply.header('link', prior ? `${String(prior)}, ${link}` : link);
  }
  done(null, payload);
}

/**
 * A v1 body serialized once and sent to many requests, each with its own `meta.timestamp`: the body is serialized
 * with STAMP_PLACEHOLDER as the timestamp and cut around it (the last one: `meta` is the last member of a v1 body).
 */
export interface StampedBody {
  head: string;
  tail: string;
}

export const STAMP_PLACEHOLDER = '1970-01-01T00:00:00.000Z';
const STAMP_FIELD = `"timestamp":"${STAMP_PLACEHOLDER}"`;

export function stampable(serialized: string): StampedBody {
  const at = serialized.lastIndexOf(STAMP_FIELD);
  if (at === -1) throw new Error('stampable: the body has no meta.timestamp placeholder');
  return { head: serialized.slice(0, at + '"timestamp":'.length), tail: serialized.slice(at + STAMP_FIELD.length) };
}

/** The body with the time of this response as `meta.timestamp`. */
export const stamped = (body: StampedBody) => `${body.head}"${new Date().toISOString()}"${body.tail}`;
