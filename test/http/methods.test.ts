// A wrong method on a path a route takes answers 405 with `Allow` (RFC 9110 §15.5.6), in the envelope of the path's
// family, so a client can tell "not this way" from "not here"; a path no route takes stays 404.
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/domain/auth/api-keys.ts';
import { useTestApp } from '../helpers/app.ts';

const t = useTestApp();
let key: string;

beforeAll(async () => {
  key = (await createApiKey(t.database.db, 'methods')).key;
});

describe('a wrong method', () => {
  it('on a v1 path answers 405 METHOD_NOT_ALLOWED with Allow, in the v1 envelope', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: '/api/v1/tokens?limit=5', headers: { 'x-api-key': key } });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(res.json()).toMatchObject({
      error: { code: 'METHOD_NOT_ALLOWED', message: '/api/v1/tokens does not take DELETE; it takes GET, HEAD' },
      meta: { timestamp: expect.any(String) },
    });
    // A path with parameters, matched as its route matches it.
    const company = await t.app.inject({ method: 'PUT', url: '/api/v1/companies/acme', headers: { 'x-api-key': key } });
    expect(company.statusCode).toBe(405);
    expect(company.headers.allow).toContain('GET');
  });

  it('on an internal path answers 405 naming every method its routes take, in the internal envelope', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: '/api/companies/acme' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, PATCH');
    expect(res.json()).toMatchObject({ success: false, error: { code: 'METHOD_NOT_ALLOWED' } });
  });

  it('on an NFT path answers 405 in the bare envelope', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/nft/metadata/1' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(res.json()).toEqual({ error: expect.stringContaining('does not take POST') });
  });

  it('leaves a path no route takes at 404, and a right method untouched', async () => {
    expect((await t.app.inject({ method: 'DELETE', url: '/api/v1/nothing-here' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/nothing-here' })).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/v1/tokens', headers: { 'x-api-key': key } })).statusCode,
    ).toBe(200);
    // A CORS preflight is the CORS plugin's, not a wrong method.
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/tokens',
      headers: { origin: 'https://example.com', 'access-control-request-method': 'GET' },
    });
    expect(preflight.statusCode).toBe(204);
  });
});
