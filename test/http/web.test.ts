// The web app served at / (src/http/web.ts): index.html for the app's own paths, deep links and refreshes
// included, its hashed assets with a long cache, the API's 404 envelope kept for unknown /api paths, and the
// content security policy on every page.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { WEB_DIST } from '../../src/http/web.ts';
import { useTestApp } from '../helpers/app.ts';

const t = useTestApp();
const get = (url: string) => t.app.inject({ method: 'GET', url });

describe('the web app at /', () => {
  it('answers the app for / and for client-side routes on a deep link, never cached', async () => {
    for (const url of ['/', '/companies/acme-co', '/companies/acme-co/token', '/cards/42', '/mint', '/staking?x=1']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<div id="root"></div>');
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    }
  });

  it('serves the built assets with a year-long immutable cache', async () => {
    const assets = readdirSync(path.join(WEB_DIST, 'assets'));
    const script = assets.find((f) => f.startsWith('index-') && f.endsWith('.js'))!;
    const res = await get(`/assets/${script}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get('/')).body).toContain(`/assets/${script}`);
  });

  it('keeps the API envelope for unknown API paths and for other methods', async () => {
    const res = await get('/api/nope');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, error: { code: 'NOT_FOUND', message: 'No route GET /api/nope' } });
    expect((await t.app.inject({ method: 'POST', url: '/companies/x' })).statusCode).toBe(404);
  });
});
