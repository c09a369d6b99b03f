// Request-rate limits (docs/api/README.md "Rate limits", docs/decisions.md "Requests and errors"), on
// @fastify/rate-limit with a store of our own, in memory or in Redis:
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
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { AppError } from '../../errors.ts';
import { apiKeyFrom } from '../auth/index.ts';
import type { ApiDeps } from '../types.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The name of a route's own rate-limit policy in the RateLimit fields (`health`); `ip` when absent. */
    rateLimitPolicy?: string;
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
  constructor(private readonly children: Map<string, RateLimitStore>) {}

  incr(key: string, callback: IncrCallback, timeWindow: number) {
    const now = Date.now();
    let entry = this.windows.get(key);
    if (entry === undefined || entry.start + timeWindow <= now) entry = { count: 0, start: now };
    entry.count++;
    // Re-inserted: the Map's order is then the least recently used first.
    this.windows.delete(key);
    this.windows.set(key, entry);
    if (this.windows.size > MEMORY_ENTRIES) this.windows.delete(this.windows.keys().next().value!);
    callback(null, { current: entry.count, ttl: entry.start + timeWindow - now });
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

/** `"ip";q=600;w=60`: the policy of a bucket, as RateLimit-Policy states it (draft-ietf-httpapi-ratelimit-headers). */
export const rateLimitPolicy = (name: string, quota: number, windowS: number) => `"${name}";q=${quota};w=${windowS}`;

export default fp<{ deps: ApiDeps }>(
  async (app: FastifyInstance, { deps }) => {
    const { config } = deps;
    const windowMs = config.rateLimitWindowMs;
    const windowS = Math.ceil(windowMs / 1000);
    const children = new Map<string, RateLimitStore>();
    const root: RateLimitStore = deps.redis
      ? new RedisStore(deps.redis, 'aie-rl:', children)
      : new MemoryStore(children);

    /** The bucket: the API key's on a v1 route when the request carries a valid one, else the client address. */
    const bucketOf = async (request: FastifyRequest): Promise<string> => {
      let bucket = request.ip;
      if (request.routeOptions.url?.startsWith('/api/v1/')) {
        const key = apiKeyFrom(request, true);
        if (key !== undefined) {
          try {
            const found = await deps.apiKeys.verify(key);
            request.verifiedApiKey = { key, found };
            if (found) bucket = KEY_BUCKET + found.id;
          } catch {
            // The database did not answer: the address's bucket; the route's own guard answers the outage.
          }
        }
      }
      request.rateLimitBucket = bucket;
      return bucket;
    };

    app.decorateRequest('rateLimitBucket', undefined);
    app.decorateRequest('verifiedApiKey', undefined);
    await app.register(rateLimit, {
      global: true,
      max: (_request, bucket) => (bucket.startsWith(KEY_BUCKET) ? config.apiKeyRateLimitMax : config.rateLimitMax),
      timeWindow: windowMs,
      keyGenerator: bucketOf,
      // The plugin builds the store with `new`: this one, made above, whatever it is given.
      store: function Store() {
        return root;
      } as never,
      // A Redis outage must not take the API down: requests then pass unlimited until it is back.
      skipOnError: true,
      errorResponseBuilder: (_request, context) =>
        new AppError(
          'RATE_LIMITED',
          `Rate limit exceeded: at most ${context.max} requests per ${Math.round(windowMs / 1000)} s; retry after ${context.after}`,
          { headers: { 'retry-after': String(Math.max(1, Math.ceil(context.ttl / 1000))) } },
        ),
    });

    /** The IETF fields, from the x-ratelimit-* ones the plugin set (none on a route it does not limit). */
    const setIetfFields = (request: FastifyRequest, reply: FastifyReply) => {
      const limit = reply.getHeader('x-ratelimit-limit');
      if (limit === undefined) return;
      const bucket = request.rateLimitBucket;
      const policy = bucket?.startsWith(KEY_BUCKET) ? 'key' : (request.routeOptions.config.rateLimitPolicy ?? 'ip');
      const remaining = Number(reply.getHeader('x-ratelimit-remaining') ?? 0);
      const reset = Number(reply.getHeader('x-ratelimit-reset') ?? 0);
      reply.header('ratelimit-policy', rateLimitPolicy(policy, Number(limit), windowS));
      reply.header('ratelimit', `"${policy}";r=${remaining};t=${reset}`);
    };
    // Before the handler too: the event stream writes its head from the reply's headers and sends no payload.
    app.addHook('preHandler', (request, reply, done) => {
      setIetfFields(request, reply);
      done();
    });
    // And on every answer (errors and 429s never reach preHandler), where a 304's request is given back. A callback
    // hook but for a 304 (rare next to the answers it saves), which waits for the refund so the fields show it.
    app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done) => {
      const limit = reply.getHeader('x-ratelimit-limit');
      if (limit === undefined) return done(null, payload);
      const finish = () => {
        setIetfFields(request, reply);
        done(null, payload);
      };
      const bucket = request.rateLimitBucket;
      if (reply.statusCode !== 304 || bucket === undefined) return finish();
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
            () => {
              const remaining = Number(reply.getHeader('x-ratelimit-remaining') ?? 0);
              reply.header('x-ratelimit-remaining', Math.min(Number(limit), remaining + 1));
              finish();
            },
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
