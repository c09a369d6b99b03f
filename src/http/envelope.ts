// Success envelopes (docs/api/README.md "Envelopes"): internal `{ success, data }`, v1 `{ data, meta }` with `pagination` on lists.

export const ok = <T>(data: T) => ({ success: true as const, data });

/** The content type Fastify gives a serialized JSON body; bodies serialized ahead are sent with it. */
export const JSON_TYPE = 'application/json; charset=utf-8';

export const meta = (timestamp = new Date().toISOString()) => ({ timestamp });

export const v1Body = <T>(data: T) => ({ data, meta: meta() });

/** A v1 page of a list that pages by cursor too: `hasMore` known exactly, and the next page's cursor. */
export function v1CursorPage<T>(
  data: T[],
  at: { page: number; limit: number; total: number; hasMore: boolean; nextCursor: string | null },
  timestamp?: string,
) {
  const { page, limit, total, hasMore, nextCursor } = at;
  return { data, pagination: { page, limit, total, hasMore, nextCursor }, meta: meta(timestamp) };
}

/** A cursor as the lists encode it (base64url). */
const CURSOR = /^[A-Za-z0-9_-]+$/;
const NEXT_CURSOR_KEY = '"nextCursor":';

/**
 * The body's `pagination.nextCursor`, or undefined when it is null or absent. Searched from the end: `pagination`
 * follows `data` in every list's body, so the envelope's is the last one and is found within its last few hundred
 * bytes (a regular expression from the start scanned the whole page, 34 KB for a backfill page, on every request).
 */
export function nextCursorOf(payload: string): string | undefined {
  const at = payload.lastIndexOf(NEXT_CURSOR_KEY);
  if (at === -1) return undefined;
  const start = at + NEXT_CURSOR_KEY.length + 1;
  if (payload.charCodeAt(start - 1) !== 34 /* " */) return undefined;
  const end = payload.indexOf('"', start);
  const cursor = end === -1 ? '' : payload.slice(start, end);
  return CURSOR.test(cursor) ? cursor : undefined;
}

/** The next page's link of a request URL and a cursor, as built last: a poll or a kept page asks the same again. */
const nextLinks = new Map<string, string>();
const NEXT_LINKS_MAX = 10_000;

function nextLinkOf(url: string, cursor: string): string {
  const key = `${cursor} ${url}`;
  let link = nextLinks.get(key);
  if (link === undefined) {
    const next = new URL(url, 'http://placeholder');
    next.searchParams.delete('page');
    next.searchParams.set('cursor', cursor);
    link = `<${next.pathname}${next.search}>; rel="next"`;
    if (nextLinks.size >= NEXT_LINKS_MAX) nextLinks.clear();
    nextLinks.set(key, link);
  }
  return link;
}

/**
 * An onSend hook of a list that pages by cursor: the RFC 8288 `Link` header (rel="next") from the body's
 * `pagination.nextCursor`, so a body the read cache serves again carries it too. The link is the request's own URL
 * with `cursor` set to the next page's and `page` dropped (a cursor counts from itself).
 */
export function linkNextPage(
  request: { url: string; keptNextCursor?: string | null },
  reply: { header(name: string, value: string): unknown; getHeader(name: string): unknown },
  payload: unknown,
  done: (err: null, payload: unknown) => void,
) {
  // A body the read cache kept comes with its cursor, found once when it was kept: a 15 KB answer is not searched
  // (and, stamped with its own time, first flattened into one string) on every request.
  const kept = request.keptNextCursor;
  const cursor =
    kept !== undefined ? (kept ?? undefined) : typeof payload === 'string' ? nextCursorOf(payload) : undefined;
  if (cursor !== undefined) linkNext(request, reply, cursor);
  done(null, payload);
}

/** Adds the `Link` (rel="next") to the page after `cursor`, after any link already there (a deprecation notice). */
export function linkNext(
  request: { url: string },
  reply: { header(name: string, value: string): unknown; getHeader(name: string): unknown },
  cursor: string,
) {
  const link = nextLinkOf(request.url, cursor);
  const prior = reply.getHeader('link');
  reply.header('link', prior ? `${String(prior)}, ${link}` : link);
}

/**
 * A v1 body serialized once and sent to many requests, each with its own `meta.timestamp`: the body is serialized
 * with STAMP_PLACEHOLDER as the timestamp and cut around it (the last one: `meta` is the last member of a v1 body).
 * The two parts are kept as bytes: an answer is then one copy of them around its time, where a string made of three
 * was flattened into a new string, then encoded again, on every request (the garbage collector's largest share).
 */
export interface StampedBody {
  head: Buffer;
  tail: Buffer;
}

export const STAMP_PLACEHOLDER = '1970-01-01T00:00:00.000Z';
const STAMP_FIELD = `"timestamp":"${STAMP_PLACEHOLDER}"`;

export function stampable(serialized: string): StampedBody {
  const at = serialized.lastIndexOf(STAMP_FIELD);
  if (at === -1) throw new Error('stampable: the body has no meta.timestamp placeholder');
  return {
    head: Buffer.from(serialized.slice(0, at + '"timestamp":'.length)),
    tail: Buffer.from(serialized.slice(at + STAMP_FIELD.length)),
  };
}

/**
 * An answer's bytes made at most once a millisecond: `of` (a kept body) and `extra` (what else the answer holds, a
 * total) with this millisecond's time give the bytes made for them last, when those are the ones asked again. A body
 * asked many times a millisecond (a list every bot polls) is then copied once for them all, where each answer made
 * its own copy (for a body over 4 KB, a buffer outside Node's pool, and the garbage collector's work). Only the answer
 * made last is held, so a kept body's memory stays its own (the read cache counts it so).
 */
export function lastAnswer(): (of: object, extra: string, make: (time: string) => Buffer) => Buffer {
  let last: { of: object; extra: string; time: string; bytes: Buffer } | undefined;
  return (of, extra, make) => {
    const time = new Date().toISOString();
    if (last !== undefined && last.of === of && last.time === time && last.extra === extra) return last.bytes;
    const bytes = make(time);
    last = { of, extra, time, bytes };
    return bytes;
  };
}

const stampedLast = lastAnswer();

/** The body with the time of this response as `meta.timestamp`. */
export const stamped = (body: StampedBody): Buffer =>
  stampedLast(body, '', (time) => Buffer.concat([body.head, Buffer.from(`"${time}"`, 'latin1'), body.tail]));
