// The admin routes (Bearer ADMIN_SECRET) through which `npm run cli -- api-keys` manages keys while a service holds
// the embedded database: refused without the secret, and a key made here works on the v1 routes until revoked.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.ts';

const ADMIN_SECRET = 'admin-secret-for-tests-0123456789';
const CRON_SECRET = 'cron-secret-for-tests-0123456789';
const t = useTestApp({ env: { ADMIN_SECRET, CRON_SECRET, API_KEY_CACHE_MS: '0' } });
const as = (secret?: string) => (secret ? { authorization: `Bearer ${secret}` } : {});

describe('admin API keys', () => {
  it('refuses every admin route without the admin secret, with the cron secret, or with a wrong one', async () => {
    for (const [method, url, payload] of [
      ['POST', '/api/admin/api-keys', { name: 'x' }],
      ['GET', '/api/admin/api-keys', undefined],
      ['DELETE', '/api/admin/api-keys/abc', undefined],
    ] as const) {
      for (const secret of [undefined, CRON_SECRET, `${ADMIN_SECRET}x`]) {
        const res = await t.app.inject({ method, url, headers: as(secret), ...(payload ? { payload } : {}) });
        expect(res.statusCode, `${method} ${url} ${secret}`).toBe(401);
        expect(res.json()).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED' } });
      }
    }
  });

  it('creates a key that opens the v1 routes, lists it without the key, and revokes it', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/admin/api-keys',
      headers: as(ADMIN_SECRET),
      payload: { name: 'ops' },
    });
    expect(created.statusCode).toBe(201);
    const { id, key, name, prefix, revokedAt } = created.json().data;
    expect({ name, revokedAt }).toEqual({ name: 'ops', revokedAt: null });
    expect(key.startsWith(prefix)).toBe(true);
    const v1 = () => t.app.inject({ method: 'GET', url: '/api/v1/tokens', headers: { 'x-api-key': key } });
    expect((await v1()).statusCode).toBe(200);

    const listed = await t.app.inject({ method: 'GET', url: '/api/admin/api-keys', headers: as(ADMIN_SECRET) });
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data.map((k: { id: string }) => k.id)).toContain(id);
    expect(listed.body).not.toContain(key);

    const revoked = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/api-keys/${id}`,
      headers: as(ADMIN_SECRET),
    });
    expect(revoked.json()).toEqual({ success: true, data: { id, revoked: true } });
    expect((await v1()).statusCode).toBe(401);
    const again = await t.app.inject({ method: 'DELETE', url: `/api/admin/api-keys/${id}`, headers: as(ADMIN_SECRET) });
    expect(again.statusCode).toBe(404);
  });

  it('refuses a name outside 1-100 characters with 400', async () => {
    for (const name of ['', '   ', 'x'.repeat(101)]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/api-keys',
        headers: as(ADMIN_SECRET),
        payload: { name },
      });
      expect(res.statusCode, JSON.stringify(name)).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/admin/api-keys',
      headers: as(ADMIN_SECRET),
      payload: { name: 'x'.repeat(100) },
    });
    expect(ok.statusCode).toBe(201);
  });
});
