// Success envelopes (docs/api/README.md "Envelopes"): internal `{ success, data }`, v1 `{ data, meta }` with `pagination` on lists.

export const ok = <T>(data: T) => ({ success: true as const, data });

/** The content type Fastify gives a serialized JSON body; bodies serialized ahead are sent with it. */
export const JSON_TYPE = 'application/json; charset=utf-8';

export const meta = (timestamp = new Date().toISOString()) => ({ timestamp });

export const v1Body = <T>(data: T) => ({ data, meta: meta() });

export function v1Page<T>(data: T[], page: number, limit: number, total: number, timestamp?: string) {
  return { data, pagination: { page, limit, total, hasMore: page * limit < total }, meta: meta(timestamp) };
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
