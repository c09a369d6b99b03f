// The read routes' bodies, serialized once per change and kept in this process until a table they were read from
// changes (src/db/changes.ts: a trigger NOTIFYs the table's name, every replica hears it at commit).
//
// Why an answer is never older than its request: before looking, a request waits until every change committed
// before it arrived is known here (ChangeFeed.caughtUp: one round trip on the listening connection, shared by the
// requests that arrive meanwhile). A kept body, or a read still running, serves it when none of its tables changed
// after the feed position taken before that read began; otherwise it reads again. So a write, on this replica or
// another, shows in the next read that starts after the write's response. While the feed cannot say (not
// listening, connection lost), nothing is kept or served from memory, and identical requests asked together share
// one read (coalesce.ts).
//
// Bodies are kept up to READ_CACHE_MAX_MB in all (config), least recently used first out (a list through the entries
// in the order of their last use, see keep). A body also carries its weak ETag, so a 304 costs a comparison; a v1 body's ETag
// is that of its content without the response's timestamp.
import { type ChangeFeed, createChangeFeed, type WatchedTable } from '../db/changes.ts';
import type { Database } from '../db/client.ts';
import { createCoalescer } from './coalesce.ts';
import { JSON_TYPE, nextCursorOf, STAMP_PLACEHOLDER, type StampedBody, stampable, stamped } from './envelope.ts';
import { ifNoneMatchHits, weakEtagOf } from './plugins/etag.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The next page's cursor of the kept body this request was answered with (null: the last page). */
    keptNextCursor?: string | null;
  }
}

interface Body {
  body: string;
  etag: string;
  /** A v1 body cut around its timestamp. */
  v1: StampedBody | undefined;
  /** Its `pagination.nextCursor`, found once (envelope.ts linkNextPage uses it rather than search every answer). */
  next: string | null;
}

interface Entry extends Body {
  /** The feed position before the read began. */
  position: number;
  /** performance.now() after which the body is read again whatever changed (routes with a time-bound part). */
  expires: number;
  bytes: number;
  /** Its neighbours in the order of last use (the least recently used is the list's head). */
  older: Entry | undefined;
  newer: Entry | undefined;
  /** Its key in `entries`. */
  key: string;
}

interface Loading {
  position: number;
  expires: number;
  promise: Promise<Body>;
}

/** What sending a body needs of a reply (any route's typed reply has it). */
export interface JsonReply<R> {
  request: {
    headers: { 'if-none-match'?: string | undefined; 'cache-control'?: string | undefined };
    keptNextCursor?: string | null;
  };
  serialize(payload: unknown): unknown;
  header(name: string, value: string): unknown;
  code(status: number): { send(): R };
  type(contentType: string): { send(body: string | Buffer): R };
}

export interface CachedReadOptions {
  /** Every table the read depends on; each must be one of WATCHED_TABLES. */
  tables: readonly WatchedTable[];
  /** Read again after this long even without a change (a figure over a moving time window). */
  maxAgeMs?: number;
}

export interface CachedReads {
  /** Answers the body `build` makes, serialized with the route's serializer (`key`: the route's normalized input). */
  send<R>(reply: JsonReply<R>, key: string, build: () => Promise<unknown>): Promise<R>;
  /** The same for a v1 body: `build` puts the timestamp it is given in `meta`; every response gets its own time. */
  sendV1<R>(reply: JsonReply<R>, key: string, build: (timestamp: string) => Promise<unknown>): Promise<R>;
  /**
   * Answers 304 when a body of `key` is kept, still current, and its ETag is one the request's If-None-Match names;
   * undefined otherwise (nothing sent, nothing read).
   */
  notModified<R>(reply: JsonReply<R>, key: string): Promise<{ sent: R } | undefined>;
}

/** Where the changes of some tables stand, for a value kept beside the cache (sharedMarketStats). */
export interface TableChanges {
  /** The feed's position now: take it before reading. */
  position(): number;
  /** Whether one of the tables changed after `position`, or the feed could not say at the last request. */
  changedSince(position: number): boolean;
}

export interface ReadCache {
  /** The cached reads of one route (`name` keeps its keys apart from other routes'). */
  route(name: string, options: CachedReadOptions): CachedReads;
  /** The change feed of `tables`, as the cached reads see it (a request's reads come after its round trip). */
  changesOf(tables: readonly WatchedTable[]): TableChanges;
  /** Bodies kept now, and their bytes. */
  size(): { entries: number; bytes: number };
  stop(): Promise<void>;
}

export function createReadCache(
  database: Pick<Database, 'listen' | 'caughtUp'>,
  { maxBytes, feed = createChangeFeed(database) }: { maxBytes: number; feed?: ChangeFeed },
): ReadCache {
  const entries = new Map<string, Entry>();
  let bytes = 0;
  // Requests that arrive while a round trip runs wait for the next one, which answers them all (coalesce.ts).
  const fences = createCoalescer();
  // Whether the last round trip could say what changed: while it cannot, nothing kept beside the cache is trusted.
  let trusted = false;
  const caughtUp = () =>
    fences('caught-up', async () => {
      trusted = await feed.caughtUp();
      return trusted;
    });

  // The entries in the order of their last use, a list through the entries themselves: a hit moves its entry to
  // the newest end by four pointer writes and changes no Map. (Moving each hit to the back of the Map, a delete and a
  // set of its key, cost V8 24 µs a hit once the Map held 10,000 entries, 156 µs at 100,000. The second-chance
  // order used instead, a mark on each hit, kept an entry marked minutes ago over one read a second ago: once the
  // cache was full, a route's bodies read once were dropped before older routes' that were not read again, and a
  // route asked over thousands of paths in turn missed on every request.)
  let oldest: Entry | undefined;
  let newest: Entry | undefined;
  const unlink = (e: Entry) => {
    if (e.older) e.older.newer = e.newer;
    else oldest = e.newer;
    if (e.newer) e.newer.older = e.older;
    else newest = e.older;
    e.older = undefined;
    e.newer = undefined;
  };
  const append = (e: Entry) => {
    e.older = newest;
    e.newer = undefined;
    if (newest) newest.newer = e;
    else oldest = e;
    newest = e;
  };
  /** Marks a kept entry (one just read from `entries`) as the most recently used. */
  const touch = (e: Entry) => {
    if (newest === e) return;
    unlink(e);
    append(e);
  };

  const keep = (key: string, entry: Entry) => {
    const old = entries.get(key);
    if (old !== undefined) {
      bytes -= old.bytes;
      entries.delete(key);
      unlink(old);
    }
    if (entry.bytes > maxBytes) return;
    entries.set(key, entry);
    append(entry);
    bytes += entry.bytes;
    // Over budget: the least recently used go first.
    while (bytes > maxBytes && oldest !== undefined && oldest !== entry) {
      const out = oldest;
      unlink(out);
      entries.delete(out.key);
      bytes -= out.bytes;
    }
  };

  function route(name: string, { tables, maxAgeMs = Number.POSITIVE_INFINITY }: CachedReadOptions): CachedReads {
    const loading = new Map<string, Loading>();
    const uncached = createCoalescer();
    const current = (at: { position: number; expires: number }) =>
      !feed.changedSince(tables, at.position) && performance.now() < at.expires;

    const bodyFrom = (body: string, v1: boolean): Body => ({
      // A v1 body is sent from its stamped parts only.
      body: v1 ? '' : body,
      etag: weakEtagOf(body),
      v1: v1 ? stampable(body) : undefined,
      next: nextCursorOf(body) ?? null,
    });

    async function bodyOf(key: string, v1: boolean, make: () => Promise<string>): Promise<Body> {
      if (!(await caughtUp())) return uncached(key, async () => bodyFrom(await make(), v1));
      const fullKey = `${name}\u0000${key}`;
      const hit = entries.get(fullKey);
      if (hit !== undefined && current(hit)) {
        touch(hit);
        return hit;
      }
      const running = loading.get(key);
      if (running !== undefined && current(running)) return running.promise;
      const position = feed.position();
      const expires = performance.now() + maxAgeMs;
      const promise = make().then((body) => {
        // A byte a character (JSON of ASCII text, which V8 keeps one byte a character; other text takes up to twice
        // that), and the entry's own fields.
        const entry: Entry = {
          ...bodyFrom(body, v1),
          position,
          expires,
          bytes: body.length + 200,
          older: undefined,
          newer: undefined,
          key: fullKey,
        };
        if (current(entry)) keep(fullKey, entry);
        return entry;
      });
      const load = { position, expires, promise };
      loading.set(key, load);
      const done = () => {
        if (loading.get(key) === load) loading.delete(key);
      };
      promise.then(done, done);
      return promise;
    }

    function answer<R>(reply: JsonReply<R>, { body, etag, v1, next }: Body): R {
      reply.header('etag', etag);
      if (ifNoneMatchHits(reply.request.headers['if-none-match'], etag)) return reply.code(304).send();
      reply.request.keptNextCursor = next;
      return reply.type(JSON_TYPE).send(v1 ? stamped(v1) : body);
    }

    return {
      async send(reply, key, build) {
        return answer(reply, await bodyOf(key, false, async () => reply.serialize(await build()) as string));
      },
      async notModified(reply, key) {
        if (!(await caughtUp())) return undefined;
        const hit = entries.get(`${name}\u0000${key}`);
        if (hit === undefined || !current(hit)) return undefined;
        if (!ifNoneMatchHits(reply.request.headers['if-none-match'], hit.etag)) return undefined;
        touch(hit);
        reply.header('etag', hit.etag);
        return { sent: reply.code(304).send() };
      },
      async sendV1(reply, key, build) {
        return answer(
          reply,
          await bodyOf(key, true, async () => reply.serialize(await build(STAMP_PLACEHOLDER)) as string),
        );
      },
    };
  }

  return {
    route,
    changesOf: (tables) => ({
      position: () => feed.position(),
      changedSince: (position) => !trusted || feed.changedSince(tables, position),
    }),
    size: () => ({ entries: entries.size, bytes }),
    stop: () => feed.stop(),
  };
}
