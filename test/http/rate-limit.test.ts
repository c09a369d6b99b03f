// Rate limits: past RATE_LIMIT_MAX requests per window a client gets 429 RATE_LIMITED with Retry-After, in the
// route's envelope; on the memory store, and on the Redis store (shared by replicas) when REDIS_URL is set.
import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { createApiKey } from '../../src/domain/auth/api-keys.ts';
import { NOT_MODIFIED_FACTOR } from '../../src/http/plugins/rate-limit.ts';
import type { App } from '../../src/http/types.ts';
import { startTestApp, type TestApp, underV1 } from '../helpers/app.ts';
import { startTestChain, type TestChain } from '../helpers/chain.ts';
import { primaryTestDatabase } from '../helpers/db.ts';
import { rawRequest } from '../helpers/raw-http.ts';

/** The key prefix app.ts gives the Redis store. */
const REDIS_NAMESPACE = 'aie-rl:';

const stores: { name: string; env: Record<string, string> }[] = [
  { name: 'memory', env: {} },
  ...(process.env.REDIS_URL ? [{ name: 'redis', env: { REDIS_URL: process.env.REDIS_URL } }] : []),
];

const v1Probe = (app: App) =>
  underV1(app, (v1App) => {
    v1App.get('/test/ping', async () => ({ data: { pong: true }, meta: { timestamp: new Date().toISOString() } }));
    // The same bytes every time, so its ETag holds and If-None-Match gets 304.
    v1App.get('/test/etag', async () => ({ data: { same: true }, meta: { timestamp: '2026-11-26T00:00:00.000Z' } }));
  });

/**
 * A client address no other test uses, in this file or any other, in this run or an earlier one: counters are
 * keyed by client address, and a Redis server outlives test runs.
 */
const usedIps: string[] = [];
/** The key buckets (`key:<id>`) the tests used, flushed from Redis with the addresses. */
const usedBuckets: string[] = [];
function freshIp(): string {
  const ip = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
  usedIps.push(ip);
  return ip;
}

let chain: TestChain;
let database: Database;

beforeAll(async () => {
  [chain, database] = await Promise.all([startTestChain(), primaryTestDatabase.open()]);
});
afterAll(async () => {
  await database?.close();
  await chain?.stop();
});

describe.each(stores)('rate limit on the $name store', (store) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ database, chain, env: { RATE_LIMIT_MAX: '3', ...store.env }, extraRoutes: v1Probe });
  });
  afterAll(async () => {
    // Flush only this file's keys: other test files may share the Redis server.
    if (t?.container.redis && usedIps.length > 0) {
      await t.container.redis.del(...[...usedIps, ...usedBuckets].map((bucket) => `${REDIS_NAMESPACE}${bucket}`));
    }
    await t?.close();
  });

  const get = (app: App, url: string, remoteAddress: string) => app.inject({ method: 'GET', url, remoteAddress });
  const get2 = (app: App, url: string, remoteAddress: string, headers: Record<string, string>) =>
    app.inject({ method: 'GET', url, remoteAddress, headers });

  it('answers the 4th request of a window with 429 RATE_LIMITED, Retry-After, in the internal envelope', async () => {
    const ip = freshIp();
    for (let i = 1; i <= 3; i++) {
      const res = await get(t.app, '/api/chain', ip);
      expect(res.statusCode, `request ${i}`).toBe(200);
      expect(res.headers['x-ratelimit-remaining']).toBe(String(3 - i));
    }
    const res = await get(t.app, '/api/chain', ip);
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({
      success: false,
      error: {
        code: 'RATE_LIMITED',
        message: expect.stringMatching(/^Rate limit exceeded: at most 3 requests per 60 s/),
      },
    });
    const retryAfter = Number(res.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['x-request-id']).toBeTruthy();
    // Still limited on the next request.
    expect((await get(t.app, '/api/chain', ip)).statusCode).toBe(429);
  });

  it("counts a card document's ready answer once, in the address's bucket, up to a 429 in the bare envelope", async () => {
    // The ready answer (routes/nft/ready.ts) is the server's request listener: asked over loopback, behind a proxy
    // (TRUST_PROXY=1) naming the client, whose address both it and the routes count in.
    const proxied = await startTestApp({
      database,
      chain,
      env: { RATE_LIMIT_MAX: '3', TRUST_PROXY: '1', ...store.env },
    });
    try {
      const base = await proxied.app.listen({ port: 0, host: '127.0.0.1' });
      const ip = freshIp();
      const ask = (path: string) => rawRequest(`${base}${path}`, { headers: { 'x-forwarded-for': ip } });
      // The ready answer, the route itself (a query string), and another route: one bucket.
      const remaining = [];
      for (const url of ['/api/nft/metadata/9', '/api/nft/image/9?via=route', '/api/chain']) {
        const res = await ask(url);
        expect(res.statusCode, url).toBe(200);
        remaining.push(res.headers['x-ratelimit-remaining']);
      }
      expect(remaining).toEqual(['2', '1', '0']);
      for (const url of ['/api/nft/metadata/9', '/api/nft/image/9']) {
        const limited = await ask(url);
        expect(limited.statusCode, url).toBe(429);
        expect(JSON.parse(limited.body.toString())).toEqual({
          error: expect.stringMatching(/^Rate limit exceeded: at most 3 requests per 60 s/),
        });
        expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        expect(limited.headers['x-ratelimit-remaining']).toBe('0');
        expect(limited.headers.ratelimit).toMatch(/^"ip";r=0;t=\d+$/);
        expect(limited.headers['x-request-id']).toBeTruthy();
        expect(limited.headers['content-security-policy']).toBeTruthy();
        expect(limited.headers['access-control-allow-origin']).toBe('*');
      }
      // Another client behind the same proxy has its own budget.
      const other = await rawRequest(`${base}/api/nft/metadata/9`, { headers: { 'x-forwarded-for': freshIp() } });
      expect([other.statusCode, other.headers['x-ratelimit-remaining']]).toEqual([200, '2']);
    } finally {
      await proxied.close();
    }
  });

  it('gives /api/health a budget of its own, apart from the API, and never limits the orchestrator probes', async () => {
    const probes = await startTestApp({
      database,
      chain,
      env: { RATE_LIMIT_MAX: '3', HEALTH_RATE_LIMIT_MAX: '5', ...store.env },
    });
    try {
      const ip = freshIp();
      // Past the API's 3, on its own 5.
      for (let i = 1; i <= 5; i++) expect((await get(probes.app, '/api/health', ip)).statusCode, `${i}`).toBe(200);
      const limited = await get(probes.app, '/api/health', ip);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error.code).toBe('RATE_LIMITED');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // The API's budget is untouched by the health checks.
      expect((await get(probes.app, '/api/chain', ip)).statusCode).toBe(200);
      for (let i = 0; i < 8; i++) {
        expect((await get(probes.app, '/api/live', ip)).statusCode).toBe(200);
        expect((await get(probes.app, '/api/ready', ip)).statusCode).not.toBe(429);
      }
    } finally {
      await probes.close();
    }
  });

  it('answers 429 in the v1 envelope on /api/v1 routes', async () => {
    const ip = freshIp();
    for (let i = 0; i < 3; i++) expect((await get(t.app, '/api/v1/test/ping', ip)).statusCode).toBe(200);
    const res = await get(t.app, '/api/v1/test/ping', ip);
    expect(res.statusCode).toBe(429);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['error', 'meta']);
    expect(body.error.code).toBe('RATE_LIMITED');
    expect(Date.parse(body.meta.timestamp)).not.toBeNaN();
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('counts each client apart', async () => {
    const busy = freshIp();
    for (let i = 0; i < 4; i++) await get(t.app, '/api/chain', busy);
    expect((await get(t.app, '/api/chain', busy)).statusCode).toBe(429);
    expect((await get(t.app, '/api/chain', freshIp())).statusCode).toBe(200);
  });

  it('lets a client in again once its window has passed', async () => {
    const short = await startTestApp({
      database,
      chain,
      env: { RATE_LIMIT_MAX: '2', RATE_LIMIT_WINDOW_MS: '1000', ...store.env },
    });
    try {
      const ip = freshIp();
      expect((await get(short.app, '/api/chain', ip)).statusCode).toBe(200);
      expect((await get(short.app, '/api/chain', ip)).statusCode).toBe(200);
      const limited = await get(short.app, '/api/chain', ip);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error.message).toMatch(/at most 2 requests per 1 s/);
      expect(limited.headers['retry-after']).toBe('1');
      await new Promise((r) => setTimeout(r, 1100));
      expect((await get(short.app, '/api/chain', ip)).statusCode).toBe(200);
    } finally {
      await short.close();
    }
  });

  it('sends the IETF RateLimit fields beside the x-ratelimit ones, consistent with them', async () => {
    const ip = freshIp();
    for (let i = 1; i <= 3; i++) {
      const res = await get(t.app, '/api/chain', ip);
      expect(res.headers['ratelimit-policy']).toBe('"ip";q=3;w=60');
      expect(res.headers['x-ratelimit-limit']).toBe('3');
      const reset = Number(res.headers['x-ratelimit-reset']);
      expect(reset).toBeGreaterThanOrEqual(1);
      expect(reset).toBeLessThanOrEqual(60);
      expect(res.headers.ratelimit).toBe(`"ip";r=${3 - i};t=${reset}`);
    }
    const limited = await get(t.app, '/api/chain', ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['ratelimit-policy']).toBe('"ip";q=3;w=60');
    expect(limited.headers.ratelimit).toMatch(/^"ip";r=0;t=\d+$/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Browsers may read them (CORS).
    const exposed = String(limited.headers['access-control-expose-headers'] ?? '');
    if (exposed) for (const h of ['ratelimit', 'ratelimit-policy', 'retry-after']) expect(exposed).toContain(h);
  });

  it("names /api/health's own budget in its policy", async () => {
    const res = await get(t.app, '/api/health', freshIp());
    expect(res.headers['ratelimit-policy']).toMatch(/^"health";q=\d+;w=60$/);
  });

  describe('per API key on /api/v1', () => {
    let keyA: { id: string; key: string };
    let keyB: { id: string; key: string };
    beforeAll(async () => {
      [keyA, keyB] = await Promise.all([createApiKey(database.db, 'rate A'), createApiKey(database.db, 'rate B')]);
      usedBuckets.push(`key:${keyA.id}`, `key:${keyB.id}`);
    });
    const withKey = (app: App, url: string, ip: string, key: string, headers: Record<string, string> = {}) =>
      app.inject({ method: 'GET', url, remoteAddress: ip, headers: { 'x-api-key': key, ...headers } });

    it('gives two keys from one address a bucket each, apart from the address and the internal routes', async () => {
      const ip = freshIp();
      for (let i = 1; i <= 3; i++) {
        const res = await withKey(t.app, '/api/v1/test/ping', ip, keyA.key);
        expect(res.statusCode, `request ${i}`).toBe(200);
        expect(res.headers['ratelimit-policy']).toBe('"key";q=3;w=60');
        expect(res.headers['x-ratelimit-remaining']).toBe(String(3 - i));
      }
      const limited = await withKey(t.app, '/api/v1/test/ping', ip, keyA.key);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error.code).toBe('RATE_LIMITED');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(limited.headers.ratelimit).toMatch(/^"key";r=0;t=\d+$/);
      // The other key, from the same address: a full budget of its own.
      const other = await withKey(t.app, '/api/v1/test/ping', ip, keyB.key);
      expect(other.statusCode).toBe(200);
      expect(other.headers['x-ratelimit-remaining']).toBe('2');
      // The address itself spent nothing: keyless v1 calls and internal routes count per IP.
      const keyless = await get(t.app, '/api/v1/test/ping', ip);
      expect(keyless.statusCode).toBe(200);
      expect(keyless.headers['ratelimit-policy']).toBe('"ip";q=3;w=60');
      expect(keyless.headers['x-ratelimit-remaining']).toBe('2');
      expect((await get(t.app, '/api/chain', ip)).headers['x-ratelimit-remaining']).toBe('1');
      // A key from another address shares its bucket: the key is limited, not the address.
      const elsewhere = await withKey(t.app, '/api/v1/test/ping', freshIp(), keyA.key);
      expect(elsewhere.statusCode).toBe(429);
    });

    it('counts a key sent to an internal route per address', async () => {
      const ip = freshIp();
      const res = await withKey(t.app, '/api/chain', ip, keyB.key);
      expect(res.headers['ratelimit-policy']).toBe('"ip";q=3;w=60');
    });

    it('counts made-up keys in the address bucket, not a fresh bucket each', async () => {
      const ip = freshIp();
      for (let i = 0; i < 3; i++) {
        const res = await withKey(t.app, '/api/v1/test/ping', ip, `aie_${'x'.repeat(42)}${i}`);
        expect(res.headers['ratelimit-policy']).toBe('"ip";q=3;w=60');
      }
      expect((await withKey(t.app, '/api/v1/test/ping', ip, 'aie_nonsense')).statusCode).toBe(429);
    });

    it('takes its own budget from API_KEY_RATE_LIMIT_MAX', async () => {
      const own = await startTestApp({
        database,
        chain,
        env: { RATE_LIMIT_MAX: '2', API_KEY_RATE_LIMIT_MAX: '4', ...store.env },
        extraRoutes: v1Probe,
      });
      try {
        const key = await createApiKey(database.db, 'rate own');
        usedBuckets.push(`key:${key.id}`);
        const ip = freshIp();
        for (let i = 1; i <= 4; i++) {
          const res = await withKey(own.app, '/api/v1/test/ping', ip, key.key);
          expect(res.statusCode, `request ${i}`).toBe(200);
          expect(res.headers['ratelimit-policy']).toBe('"key";q=4;w=60');
        }
        expect((await withKey(own.app, '/api/v1/test/ping', ip, key.key)).statusCode).toBe(429);
        // The address's budget is RATE_LIMIT_MAX.
        expect((await get(own.app, '/api/chain', ip)).headers['ratelimit-policy']).toBe('"ip";q=2;w=60');
      } finally {
        await own.close();
      }
    });

    it('lets a real v1 route count in the key bucket and still refuse a bad key with 401', async () => {
      const ip = freshIp();
      const res = await withKey(t.app, '/api/v1/tokens', ip, keyB.key);
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-policy']).toBe('"key";q=3;w=60');
      const bad = await withKey(t.app, '/api/v1/tokens', ip, 'aie_nonsense');
      expect(bad.statusCode).toBe(401);
      expect(bad.headers['ratelimit-policy']).toBe('"ip";q=3;w=60');
    });

    it('does not charge 304 Not Modified answers, with a key or without', async () => {
      for (const key of [keyA.key, undefined]) {
        const fresh = key ? await createApiKey(database.db, 'rate 304') : undefined;
        if (fresh) usedBuckets.push(`key:${fresh.id}`);
        const ip = freshIp();
        const send = (headers: Record<string, string> = {}) =>
          fresh
            ? withKey(t.app, '/api/v1/test/etag', ip, fresh.key, headers)
            : get2(t.app, '/api/v1/test/etag', ip, headers);
        const first = await send();
        expect(first.statusCode).toBe(200);
        expect(first.headers['x-ratelimit-remaining']).toBe('2');
        const etag = String(first.headers.etag);
        for (let i = 0; i < 6; i++) {
          const res = await send({ 'if-none-match': etag });
          expect(res.statusCode, `revalidation ${i}`).toBe(304);
          // What the 304 was charged is given back, and the fields say so.
          expect(res.headers['x-ratelimit-remaining']).toBe('2');
          expect(res.headers.ratelimit).toMatch(/;r=2;t=\d+$/);
        }
        // The two requests left are still there, then the limit.
        expect((await send()).statusCode).toBe(200);
        expect((await send()).statusCode).toBe(200);
        expect((await send()).statusCode).toBe(429);
        // A revalidation past the limit is refused too: the limit holds before any work.
        expect((await send({ 'if-none-match': etag })).statusCode).toBe(429);
      }
    });
    it('counts 304s past their own budget (NOT_MODIFIED_FACTOR times the route budget) like any answer', async () => {
      // A 304 still costs its route the work: 1,500 revalidations in 2.2 s ran a JSON-RPC batch each.
      const ip = freshIp();
      const send = (headers: Record<string, string> = {}) => get2(t.app, '/api/v1/test/etag', ip, headers);
      const etag = String((await send()).headers.etag);
      const free = 3 * NOT_MODIFIED_FACTOR;
      for (let i = 0; i < free; i++) {
        const res = await send({ 'if-none-match': etag });
        expect(res.statusCode).toBe(304);
        expect(res.headers['x-ratelimit-remaining'], `revalidation ${i}`).toBe('2');
      }
      // Just outside the 304s' budget: charged.
      const charged = await send({ 'if-none-match': etag });
      expect(charged.statusCode).toBe(304);
      expect(charged.headers['x-ratelimit-remaining']).toBe('1');
      expect((await send({ 'if-none-match': etag })).headers['x-ratelimit-remaining']).toBe('0');
      expect((await send({ 'if-none-match': etag })).statusCode).toBe(429);
    });
  });

  if (store.name === 'redis') {
    it('keeps the counters in Redis, under its namespace, expiring with the window', async () => {
      const ip = freshIp();
      await get(t.app, '/api/chain', ip);
      await get(t.app, '/api/chain', ip);
      const redis = t.container.redis!;
      expect(await redis.get(`${REDIS_NAMESPACE}${ip}`)).toBe('2');
      const ttl = await redis.pttl(`${REDIS_NAMESPACE}${ip}`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
    });

    it('shares one limit between replicas on the same Redis', async () => {
      const replica = await startTestApp({ database, chain, env: { RATE_LIMIT_MAX: '3', ...store.env } });
      try {
        const ip = freshIp();
        expect((await get(t.app, '/api/chain', ip)).statusCode).toBe(200);
        expect((await get(replica.app, '/api/chain', ip)).statusCode).toBe(200);
        expect((await get(t.app, '/api/chain', ip)).statusCode).toBe(200);
        const res = await get(replica.app, '/api/chain', ip);
        expect(res.statusCode).toBe(429);
        expect(res.json().error.code).toBe('RATE_LIMITED');
        expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      } finally {
        await replica.close();
      }
    });

    it('lets requests through, unlimited, while Redis is unreachable', async () => {
      const cut = await startTestApp({ database, chain, env: { RATE_LIMIT_MAX: '1', ...store.env } });
      try {
        cut.container.redis!.disconnect();
        const ip = freshIp();
        for (let i = 0; i < 3; i++) expect((await get(cut.app, '/api/chain', ip)).statusCode).toBe(200);
      } finally {
        await cut.close();
      }
    });
  }
});

describe('behind a proxy (TRUST_PROXY)', () => {
  const ipProbe = (app: App) => {
    app.get('/api/test/ip', async (request) => ({ success: true, data: { ip: request.ip } }));
  };
  const ipOf = async (app: App, remoteAddress: string, forwardedFor?: string) =>
    (
      await app.inject({
        method: 'GET',
        url: '/api/test/ip',
        remoteAddress,
        ...(forwardedFor ? { headers: { 'x-forwarded-for': forwardedFor } } : {}),
      })
    ).json().data.ip;

  it('with one trusted hop, takes the address the proxy appended, not the one the client wrote', async () => {
    const t = await startTestApp({ database, chain, env: { TRUST_PROXY: '1' }, extraRoutes: ipProbe });
    try {
      expect(await ipOf(t.app, '10.0.0.2', '6.6.6.6, 203.0.113.7')).toBe('203.0.113.7');
      expect(await ipOf(t.app, '10.0.0.2', '203.0.113.7')).toBe('203.0.113.7');
      expect(await ipOf(t.app, '10.0.0.2')).toBe('10.0.0.2');
    } finally {
      await t.close();
    }
  });

  it('with a list of proxies, trusts the header only from them', async () => {
    const t = await startTestApp({ database, chain, env: { TRUST_PROXY: '10.0.0.0/8' }, extraRoutes: ipProbe });
    try {
      expect(await ipOf(t.app, '10.0.0.2', '6.6.6.6, 203.0.113.7')).toBe('203.0.113.7');
      // Two proxies of the list in a row are both skipped.
      expect(await ipOf(t.app, '10.0.0.2', '6.6.6.6, 203.0.113.7, 10.9.9.9')).toBe('203.0.113.7');
      // A client talking to the service directly cannot name another address.
      expect(await ipOf(t.app, '198.51.100.9', '6.6.6.6')).toBe('198.51.100.9');
    } finally {
      await t.close();
    }
  });

  it('a client that forges X-Forwarded-For behind one trusted hop is still rate-limited by its real address', async () => {
    const t = await startTestApp({ database, chain, env: { TRUST_PROXY: '1', RATE_LIMIT_MAX: '3' } });
    try {
      const proxy = freshIp();
      const real = `203.0.113.${randomInt(1, 255)}`;
      const other = `198.51.100.${randomInt(1, 255)}`;
      const through = (client: string, forged: string) =>
        t.app.inject({
          method: 'GET',
          url: '/api/chain',
          remoteAddress: proxy,
          // The proxy appends the address it saw to whatever the client sent.
          headers: { 'x-forwarded-for': `${forged}, ${client}` },
        });
      for (let i = 1; i <= 3; i++) expect((await through(real, `6.6.6.${i}`)).statusCode, `request ${i}`).toBe(200);
      const res = await through(real, '6.6.6.4');
      expect(res.statusCode).toBe(429);
      expect(res.json().error.code).toBe('RATE_LIMITED');
      // Another client behind the same proxy has a budget of its own.
      expect((await through(other, '6.6.6.5')).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
