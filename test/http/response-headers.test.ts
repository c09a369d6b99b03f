// The v1 responses' headers, declared in the OpenAPI document and sent: the request id and the rate-limit fields
// on every answer, ETag and Cache-Control on a JSON read's 200 and 304, Retry-After on 429 and 503; and the
// Cache-Control of each kind of read (docs/api/README.md "Caching").
import { describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/domain/auth/api-keys.ts';
import {
  KEYED_READ_CACHE_CONTROL,
  PUBLIC_READ_CACHE_CONTROL,
  readCacheControlOf,
  SECRET_READ_CACHE_CONTROL,
} from '../../src/http/plugins/cache-control.ts';
import { useTestApp } from '../helpers/app.ts';

type Json = Record<string, any>;
const ADMIN_SECRET = 'admin-secret-for-tests-0123456789';
const t = useTestApp({ env: { ADMIN_SECRET, RATE_LIMIT_MAX: '100000' } });

const RATE_LIMIT = ['RateLimit', 'RateLimit-Policy', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];
const doc = () => t.app.swagger() as Json;

/** The headers the document declares for a route's response, lowercased as they arrive. */
function declared(path: string, method: string, status: number): string[] {
  const response = doc().paths[path][method].responses[String(status)];
  expect(response, `${method} ${path} ${status} documented`).toBeDefined();
  return Object.keys(response.headers ?? {}).map((h) => h.toLowerCase());
}

/** Checks that a response carries every header the document declares for it. */
function carriesDeclared(res: { statusCode: number; headers: Record<string, unknown> }, path: string, method = 'get') {
  const names = declared(path, method, res.statusCode);
  expect(names.length).toBeGreaterThan(0);
  for (const name of names) {
    // Retry-After is declared for 429 and 503 only, which these requests do not reach.
    expect(res.headers[name], `${method} ${path} ${res.statusCode}: ${name}`).toBeDefined();
  }
}

describe('the OpenAPI document', () => {
  it('declares the request id and rate-limit fields on every v1 response, ETag and Cache-Control on JSON reads, Retry-After on 429 and 503', () => {
    const d = doc();
    for (const name of [...RATE_LIMIT, 'X-Request-Id', 'ETag', 'Cache-Control', 'Retry-After']) {
      expect(d.components.headers[name]?.schema, name).toBeDefined();
    }
    let operations = 0;
    for (const [path, item] of Object.entries(d.paths as Record<string, Json>)) {
      if (!path.startsWith('/api/v1/')) continue;
      for (const [method, op] of Object.entries(item)) {
        operations++;
        for (const [status, response] of Object.entries(op.responses as Record<string, Json>)) {
          const where = `${method} ${path} ${status}`;
          const headers = Object.keys(response.headers ?? {});
          for (const name of ['X-Request-Id', ...RATE_LIMIT]) expect(headers, where).toContain(name);
          if (status === '429' || status === '503') expect(headers, where).toContain('Retry-After');
          else expect(headers, where).not.toContain('Retry-After');
          const jsonRead =
            method === 'get' && (status === '304' || (status === '200' && response.content?.['application/json']));
          for (const name of ['ETag', 'Cache-Control']) {
            if (jsonRead) expect(headers, where).toContain(name);
            else expect(headers, where).not.toContain(name);
          }
        }
      }
    }
    expect(operations).toBeGreaterThanOrEqual(6);
    // The list routes' reads and their 304s, by name.
    expect(Object.keys(d.paths['/api/v1/tokens'].get.responses['304'].headers)).toContain('ETag');
    expect(Object.keys(d.paths['/api/v1/fortune'].get.responses['200'].headers)).toContain('Cache-Control');
  });
});

describe('v1 responses', () => {
  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  it('carry what the document declares: 200, 304, 400, 401 and 404', async () => {
    const { key } = await createApiKey(t.database.db, 'headers');
    for (const [url, path] of [
      ['/api/v1/tokens', '/api/v1/tokens'],
      ['/api/v1/fortune', '/api/v1/fortune'],
    ] as const) {
      const ok = await get(url, { 'x-api-key': key });
      expect(ok.statusCode).toBe(200);
      carriesDeclared(ok, path);
      expect(ok.headers['cache-control']).toBe(KEYED_READ_CACHE_CONTROL);
      const notModified = await get(url, { 'x-api-key': key, 'if-none-match': String(ok.headers.etag) });
      expect(notModified.statusCode).toBe(304);
      carriesDeclared(notModified, path);
      expect(notModified.headers['cache-control']).toBe(KEYED_READ_CACHE_CONTROL);
      expect(notModified.headers.etag).toBe(ok.headers.etag);

      const invalid = await get(`${url}?limit=abc`, { 'x-api-key': key });
      expect(invalid.statusCode).toBe(400);
      carriesDeclared(invalid, path);
      // Errors are not cacheable reads.
      expect(invalid.headers['cache-control']).toBeUndefined();
      const unauthorized = await get(url);
      expect(unauthorized.statusCode).toBe(401);
      carriesDeclared(unauthorized, path);
    }
    // The v1 document itself (not among its own paths) is public: any cache may keep it, revalidating.
    const document = await get('/api/v1/openapi.json');
    expect(document.statusCode).toBe(200);
    expect(document.headers['cache-control']).toBe(PUBLIC_READ_CACHE_CONTROL);
    for (const name of ['etag', 'x-request-id', 'ratelimit', 'ratelimit-policy']) {
      expect(document.headers[name], name).toBeDefined();
    }
    const missing = await get('/api/v1/companies/no-such-company/token', { 'x-api-key': key });
    expect(missing.statusCode).toBe(404);
    carriesDeclared(missing, '/api/v1/companies/{slug}/token');
  });
});

describe('Cache-Control by kind of read', () => {
  it('public internal reads: no-cache (any cache, revalidated each time)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/tokens' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe(PUBLIC_READ_CACHE_CONTROL);
    const again = await t.app.inject({
      method: 'GET',
      url: '/api/tokens',
      headers: { 'if-none-match': String(res.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.headers['cache-control']).toBe(PUBLIC_READ_CACHE_CONTROL);
  });

  it('reads behind a secret: no-store', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/admin/api-keys',
      headers: { authorization: `Bearer ${ADMIN_SECRET}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe(SECRET_READ_CACHE_CONTROL);
  });

  it('writes and routes with a policy of their own keep theirs', async () => {
    const nft = await t.app.inject({ method: 'GET', url: '/api/nft/metadata/1' });
    expect(String(nft.headers['cache-control'])).toMatch(/max-age=3600/);
    const write = await t.app.inject({ method: 'POST', url: '/api/admin/api-keys', payload: {} });
    expect(write.headers['cache-control']).toBeUndefined();
  });

  it.each([
    [undefined, PUBLIC_READ_CACHE_CONTROL],
    [[], PUBLIC_READ_CACHE_CONTROL],
    [[{}, { wallet: [] }], SECRET_READ_CACHE_CONTROL],
    [[{ apiKey: [] }], KEYED_READ_CACHE_CONTROL],
    [[{ apiKey: [] }, { apiKeyQuery: [] }], KEYED_READ_CACHE_CONTROL],
    [[{ bearerSecret: [] }], SECRET_READ_CACHE_CONTROL],
    [[{ wallet: [] }], SECRET_READ_CACHE_CONTROL],
  ])('security %j reads as %s', (security, policy) => {
    expect(readCacheControlOf(security)).toBe(policy);
  });
});
