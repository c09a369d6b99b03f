// Request-rate limits (docs/api/README.md "Rate limits", docs/decisions.md "Requests and errors"), on
// a callback hook per route (no promise per request) over a store of our own, in memory or in Redis:
// - a v1 request (`/api/v1/...`) carrying a valid API key counts in that key's bucket (API_KEY_RATE_LIMIT_MAX per
//   window), so two integrators behind one address, and a key used from many addresses, are limited as keys; a v1
//   request without a valid key, and every other route, counts in its client IP's bucket (RATE_LIMIT_MAX);
// - a 304 Not Modified is not charged while the client's 304s stay within their own budget (NOT_MODIFIED_FACTOR
//   times the route's per window): the request is counted when it arrives (the limit must hold before
//   any work) and given back once the answer is a 304, so a client polling with If-None-Match spends its budget only
//   on changes; past the 304s' budget a 304 counts like any answer, since its route did the work;
// - every limited answer carries `x-ratelimit-limit`, `-remaining`, `-reset` and the IETF fields of
//   draft-ietf-httpapi-ratelimit-headers-10: `RateLimit-Policy: "ip";q=600;w=60` and `RateLimit: "ip";r=598;t=42`
//   (the policy named after the bucket: `ip`, `key`, or the route's own such as `health`).
// A store failure (Redis down) lets requests through (skipOnError).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { AppError } from '../../errors.ts';
import { apiKeyFrom } from '../auth/index.ts';
import type { ApiDeps } from '../types.ts';
import { addRouteHook } from './route-hooks.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The name of a route's own rate-limit policy in the RateLimit fields (`health`); `ip` when absent. */
    rateLimitPolicy?: string;
    /** The route's own budget per client, or `false`: not limited. The API's (per address or key) when absent. */
    rateLimit?: false | { max: number; timeWindow: number };
  }
  interface FastifyRequest {
    /** The bucket this request was counted in, to give the count back for a 304. */
    rateLimitBucket?: string;
    /** An API key the rate limiter verified already, so the route's guard does not verify it again. */
    verifiedApiKey?: { key: string; found: { id: string; name: string } | null };
  }
}

/** Buckets of API keys are `key:<id>`; an IP's is the address itself (kept as it was, so counters carry over). */
const KEY_BUCKET = 'key:';
/** The 304s' own budget: how many times the route's budget a client's 304s may take per window before they count. */
export const NOT_MODIFIED_FACTOR = 10;
const NOT_MODIFIED_BUCKET = '304:';
/** Entries the memory store keeps at most (least recently used dropped first). */
const MEMORY_ENTRIES = 100_000;

type IncrCallback = (err: Error | null, result?: { current: number; ttl: number }) => void;
interface RouteInfo {
  method?: string | string[];
  url?: string;
}

/** The counters: fixed windows per key, in memory or in Redis, with a refund for answers that are not charged. */
export interface RateLimitStore {
  incr(key: string, callback: IncrCallback, timeWindow: number, max: number): void;
  child(options: { routeInfo?: RouteInfo }): RateLimitStore;
  /** Gives one request back to `key`'s current window; nothing when the window is gone. */
  refund(key: string): Promise<void>;
}

const routeId = (info: { method?: string | string[] | undefined; url?: string | undefined }) =>
  `${[info.method].flat().join(',')}${info.url ?? ''}`;

class MemoryStore implements RateLimitStore {
  private readonly windows = new Map<string, { count: number; start: number }>();
  /** The key inserted last: the newest in `windows`' order. */
  private lastKey: string | undefined;
  constructor(private readonly children: Map<string, RateLimitStore>) {}

  incr(key: string, callback: IncrCallback, timeWindow: number) {
    const now = Date.now();
    let entry = this.windows.get(key);
    const fresh = entry === undefined || entry.start + timeWindow <= now;
    if (fresh) entry = { count: 0, start: now };
    entry!.count++;
    // Re-inserted: the Map's order is then the least recently used first. The key counted last is at the end
    // already (a client's requests in a row: no delete and set of its key each).
    if (fresh || key !== this.lastKey) {
      this.windows.delete(key);
      this.windows.set(key, entry!);
      this.lastKey = key;
      if (this.windows.size > MEMORY_ENTRIES) this.windows.delete(this.windows.keys().next().value!);
    }
    callback(null, { current: entry!.count, ttl: entry!.start + timeWindow - now });
  }

  child(options: { routeInfo?: RouteInfo }) {
    const store = new MemoryStore(this.children);
    this.children.set(routeId(options.routeInfo ?? {}), store);
    return store;
  }

  async refund(key: string) {
    const entry = this.windows.get(key);
    if (entry && entry.count > 0) entry.count--;
  }
}

// The same fixed window as the plugin's own Redis store: the first request of a window sets its expiry.
const INCR = `
local current = redis.call('INCR', KEYS[1])
local ttl
if current == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
else
  ttl = redis.call('PTTL', KEYS[1])
end
return {current, ttl}`;
// Only a window that still exists is given a request back: a refund never creates a key without an expiry.
const REFUND = `
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if current > 0 then return redis.call('DECR', KEYS[1]) end
return 0`;

class RedisStore implements RateLimitStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly children: Map<string, RateLimitStore>,
  ) {}

  incr(key: string, callback: IncrCallback, timeWindow: number) {
    this.redis.eval(INCR, 1, this.prefix + key, timeWindow).then(
      (result) => {
        const [current, ttl] = result as [number, number];
        callback(null, { current, ttl: ttl > 0 ? ttl : timeWindow });
      },
      (err: Error) => callback(err),
    );
  }

  child(options: { routeInfo?: RouteInfo }) {
    // As the plugin's own store names a route's keys: the namespace, the route, then the client.
    const info = options.routeInfo ?? {};
    const store = new RedisStore(this.redis, `${this.prefix}${routeId(info)}-`, this.children);
    this.children.set(routeId(info), store);
    return store;
  }

  async refund(key: string) {
    await this.redis.eval(REFUND, 1, this.prefix + key);
  }
}

/** What counting one request came to: its bucket, the fields its answer carries, and whether the budget is spent. */
export interface RateCount {
  bucket: string;
  max: number;
  remaining: number;
  /** Seconds until the window ends, as the fields say it. */
  reset: number;
  /** Milliseconds until the window ends (0 when the store did not answer). */
  ttl: number;
  /** The RateLimit-Policy field. */
  policy: string;
  /** The RateLimit field. */
  rateLimit: string;
  exceeded: boolean;
}

/** A budget a bucket is counted against: its policy's name, quota and window, and its RateLimit-Policy field. */
interface Budget {
  max: number;
  timeWindow: number;
  name: string;
  policy: string;
}

/** The policy field states the window in seconds of the API's window (`windowMs`), as it always has. */
const budgetOf = (name: string, max: number, timeWindow: number, windowMs: number): Budget => ({
  max,
  timeWindow,
  name,
  policy: rateLimitPolicy(name, max, Math.ceil(windowMs / 1000)),
});

/** Counts one request in `bucket` and says what it came to. A store failure (Redis down) counts nothing. */
function countIn(store: RateLimitStore, bucket: string, budget: Budget, callback: (count: RateCount) => void) {
  store.incr(
    bucket,
    (err, counted) => {
      const current = err || counted === undefined ? 0 : counted.current;
      const ttl = err || counted === undefined ? 0 : counted.ttl;
      const reset = Math.ceil(ttl / 1000);
      const exceeded = current > budget.max;
      const remaining = exceeded ? 0 : budget.max - current;
      callback({
        bucket,
        max: budget.max,
        remaining,
        reset,
        ttl,
        policy: budget.policy,
        rateLimit: `"${budget.name}";r=${remaining};t=${reset}`,
        exceeded,
      });
    },
    budget.timeWindow,
    budget.max,
  );
}

/** The counters of every limited route, made once per app and shared by the limiter and the ready answers. */
export interface RateLimits {
  root: RateLimitStore;
  children: Map<string, RateLimitStore>;
  /**
   * Counts a request as the limiter of a route with the API's own budget counts it outside v1 (in its address's
   * bucket, the policy `ip`): what a ready answer (routes/nft/ready.ts) counts before it answers alone.
   */
  countByAddress(address: string, callback: (count: RateCount) => void): void;
}

export function createRateLimits(deps: Pick<ApiDeps, 'config' | 'redis'>): RateLimits {
  const { config } = deps;
  const children = new Map<string, RateLimitStore>();
  const root: RateLimitStore = deps.redis ? new RedisStore(deps.redis, 'aie-rl:', children) : new MemoryStore(children);
  const windowMs = config.rateLimitWindowMs;
  const byAddress = budgetOf('ip', config.rateLimitMax, windowMs, windowMs);
  return {
    root,
    children,
    countByAddress: (address, callback) => countIn(root, address, byAddress, callback),
  };
}

/** `"ip";q=600;w=60`: the policy of a bucket, as RateLimit-Policy states it (draft-ietf-httpapi-ratelimit-headers). */
export const rateLimitPolicy = (name: string, quota: number, windowS: number) => `"${name}";q=${quota};w=${windowS}`;

/** How long until a window resets, as the error message says it ("42 seconds", "1 minute"). */
function retryAfterText(ms: number): string {
  const unit = (n: number, name: string) => `${n} ${name}${n === 1 ? '' : 's'}`;
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return unit(Math.round(ms / 1000), 'second');
  if (ms < 3_600_000) return unit(Math.round(ms / 60_000), 'minute');
  return unit(Math.round(ms / 3_600_000), 'hour');
}

type Hook = (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => void;
export default fp<{ deps: ApiDeps; limits: RateLimits }>(
  async (app: FastifyInstance, { deps, limits }) => {
    const { config } = deps;
    const windowMs = config.rateLimitWindowMs;
    const { root, children } = limits;

    app.decorateRequest('rateLimitBucket', undefined);
    app.decorateRequest('verifiedApiKey', undefined);

    /** Sets a count's fields on the answer, and refuses the request with 429 past the budget. */
    const answer = (request: FastifyRequest, reply: FastifyReply, count: RateCount, done: (err?: Error) => void) => {
      request.rateLimitBucket = count.bucket;
      reply.header('x-ratelimit-limit', count.max);
      reply.header('x-ratelimit-remaining', count.remaining);
      reply.header('x-ratelimit-reset', count.reset);
      reply.header('ratelimit-policy', count.policy);
      reply.header('ratelimit', count.rateLimit);
      if (!count.exceeded) return done();
      reply.header('retry-after', count.reset);
      done(
        new AppError(
          'RATE_LIMITED',
          `Rate limit exceeded: at most ${count.max} requests per ${Math.round(windowMs / 1000)} s; retry after ${retryAfterText(count.reset * 1000)}`,
          { headers: { 'retry-after': String(Math.max(1, Math.ceil(count.ttl / 1000))) } },
        ),
      );
    };

    /**
     * The limiter of one route, a callback hook (no promise or microtask per request; the memory store answers at
     * once): counts the request in its bucket, sets the x-ratelimit-* and IETF fields, and refuses it with 429 past
     * the budget. `own`: the route's own budget (`config.rateLimit`), else the address's or the key's.
     */
    const limiterOf = (
      store: RateLimitStore,
      own: { max: number; timeWindow: number } | undefined,
      policyName: string,
      v1Route: boolean,
    ) => {
      const timeWindow = own?.timeWindow ?? windowMs;
      // The two budgets a request of this route can count in, and their RateLimit-Policy, fixed at start.
      const ipMax = own?.max ?? config.rateLimitMax;
      const keyMax = own?.max ?? config.apiKeyRateLimitMax;
      const ipBudget = budgetOf(policyName, ipMax, timeWindow, windowMs);
      const keyBudget = budgetOf('key', keyMax, timeWindow, windowMs);
      const count = (request: FastifyRequest, reply: FastifyReply, bucket: string, done: (err?: Error) => void) => {
        // Counted already by the route's ready answer, which then left the answer to the route (a 429).
        const early = request.raw.rateCount;
        if (early !== undefined && early.bucket === bucket) return answer(request, reply, early, done);
        countIn(store, bucket, bucket.startsWith(KEY_BUCKET) ? keyBudget : ipBudget, (counted) =>
          answer(request, reply, counted, done),
        );
      };
      const limiter: Hook = (request, reply, done) => {
        // The bucket: the API key's on a v1 route when the request carries a valid one, else the client address.
        if (!v1Route) return count(request, reply, request.ip, done);
        const key = apiKeyFrom(request, true);
        if (key === undefined) return count(request, reply, request.ip, done);
        const bucketOfKey = (found: { id: string; name: string } | null) => {
          request.verifiedApiKey = { key, found };
          count(request, reply, found ? KEY_BUCKET + found.id : request.ip, done);
        };
        // A key verified lately answers from the verifier's cache, without a promise.
        const known = deps.apiKeys.cached(key);
        if (known !== undefined) return bucketOfKey(known);
        deps.apiKeys.verify(key).then(bucketOfKey, () =>
          // The database did not answer: the address's bucket; the route's own guard answers the outage.
          count(request, reply, request.ip, done),
        );
      };
      return limiter;
    };

    // Every route registered from here on is limited (as the plugin's global option did), with its own budget when its
    // config gives one (`rateLimit: { max, timeWindow }`), or not at all (`rateLimit: false`).
    app.addHook('onRoute', (route) => {
      const own = route.config?.rateLimit;
      if (own === false) return;
      if (own !== undefined && (typeof own !== 'object' || own === null)) {
        throw new Error('Unknown value for route rate-limit configuration');
      }
      const store = own === undefined ? root : root.child({ routeInfo: route });
      // Whether the route is a v1 one is known here, once: no request's route options are built to ask.
      const limiter = limiterOf(store, own, route.config?.rateLimitPolicy ?? 'ip', route.url.startsWith('/api/v1/'));
      addRouteHook(route, 'onRequest', limiter, 'last');
    });

    // A 304 is given back (after the route's work is done, so here), and the fields then say so. A callback hook but
    // for a 304 (rare next to the answers it saves), which waits for the refund.
    app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done) => {
      const bucket = request.rateLimitBucket;
      if (reply.statusCode !== 304 || bucket === undefined) return done(null, payload);
      const limit = reply.getHeader('x-ratelimit-limit');
      if (limit === undefined) return done(null, payload);
      const finish = (remaining?: number) => {
        if (remaining !== undefined) {
          reply.header('x-ratelimit-remaining', remaining);
          const policy = bucket.startsWith(KEY_BUCKET) ? 'key' : (request.routeOptions.config.rateLimitPolicy ?? 'ip');
          reply.header(
            'ratelimit',
            `"${policy}";r=${remaining};t=${Number(reply.getHeader('x-ratelimit-reset') ?? 0)}`,
          );
        }
        done(null, payload);
      };
      const config = request.routeOptions.config;
      const store = typeof config.rateLimit === 'object' ? children.get(routeId(request.routeOptions)) : root;
      if (store === undefined) return finish();
      // A 304 still cost the route its work: it counts in a budget of its own, NOT_MODIFIED_FACTOR times
      // the route's, and is given back to the main budget only while that one lasts.
      store.incr(
        `${NOT_MODIFIED_BUCKET}${bucket}`,
        (err, counted) => {
          if (err || counted === undefined || counted.current > Number(limit) * NOT_MODIFIED_FACTOR) return finish();
          store.refund(bucket).then(
            () => finish(Math.min(Number(limit), Number(reply.getHeader('x-ratelimit-remaining') ?? 0) + 1)),
            // Redis down: the request stays counted, as every request then passes unlimited anyway.
            () => finish(),
          );
        },
        windowMs,
        Number(limit) * NOT_MODIFIED_FACTOR,
      );
    });
  },
  { name: 'rate-limit' },
);
