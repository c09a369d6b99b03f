// The web app served at / (src/http/plugins/web.ts): index.html for the app's own paths, deep links and refreshes
// included, its hashed assets with a long cache, the API's 404 envelope kept for unknown /api paths, and the
// content security policy on every page.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { API_CONTENT_SECURITY_POLICY } from '../../src/http/plugins/security-headers.ts';
import { WEB_DIST } from '../../src/http/plugins/web.ts';
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
      // The app shell: the header and a skeleton, painted before the code arrives (docs/web.md).
      expect(res.body).toContain('<div id="root">');
      expect(res.body).toContain('<header class="top">');
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    }
  });

  it("answers the app with 404 for a path that is none of its pages, which it shows as 'Page not found'", async () => {
    for (const url of ['/no/such/page', '/companies', '/companies/acme-co/token/x', '/fortunes', '/mint/1?x=1']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('<div id="root">');
    }
    // The router declares its pages by WEB_PAGES alone, so the service's 404 and the app's pages cannot drift apart.
    const router = readFileSync(path.join(WEB_DIST, '../src/router.tsx'), 'utf8');
    const declared = [...router.matchAll(/createRoute\(\{[^}]*?path: ([^,\n]+),/g)].map((m) => m[1]);
    expect(declared.length).toBe(router.split('createRoute(').length - 1);
    expect(declared.every((p) => p?.startsWith('WEB_PAGES.'))).toBe(true);
    // The app's icon is declared, so a browser asks for it and not for /favicon.ico, which is no page.
    expect((await get('/')).body).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml" />');
    const icon = await get('/favicon.svg');
    expect([icon.statusCode, icon.headers['content-type']]).toEqual([200, 'image/svg+xml']);
    expect((await get('/favicon.ico')).statusCode).toBe(404);
    // Each page's pattern, with a trailing slash too, is 200.
    for (const url of [
      '/fortune/',
      '/decisions/r1',
      '/agents/a1',
      '/create',
      '/rewards?company=1',
      '/account',
      '/activity',
    ]) {
      expect((await get(url)).statusCode, url).toBe(200);
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

  it('sends the scripts and styles compressed to a browser that accepts it, and whole to one that does not', async () => {
    const assets = readdirSync(path.join(WEB_DIST, 'assets'));
    // The stylesheet is inlined into the page, and also served as a file (a page cached before a deployment).
    for (const name of [assets.find((f) => /^index-.*\.js$/.test(f))!, assets.find((f) => f.endsWith('.css'))!]) {
      const original = readFileSync(path.join(WEB_DIST, 'assets', name));
      const url = `/assets/${name}`;
      const br = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(br.statusCode, name).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.vary).toMatch(/accept-encoding/i);
      expect(br.headers['content-type']).toMatch(name.endsWith('.js') ? /javascript/ : /text\/css/);
      expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(brotliDecompressSync(br.rawPayload).equals(original)).toBe(true);
      if (name.endsWith('.js')) expect(br.rawPayload.length).toBeLessThan(original.length / 2);
      const gz = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.rawPayload).equals(original)).toBe(true);
      const plain = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.rawPayload.equals(original)).toBe(true);
    }
  });

  it('inlines the stylesheet into the page, allowed by its hash alone, and sends the page compressed', async () => {
    const res = await get('/');
    const styles = [...res.body.matchAll(/<style>([^<]*)<\/style>/g)].map((m) => m[1]!);
    expect(styles).toHaveLength(1);
    expect(res.body).not.toMatch(/<link rel="stylesheet"/);
    const css = readdirSync(path.join(WEB_DIST, 'assets')).find((f) => f.endsWith('.css'))!;
    expect(styles[0]).toBe(readFileSync(path.join(WEB_DIST, 'assets', css), 'utf8'));
    const hash = createHash('sha256').update(styles[0]!).digest('base64');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(new RegExp(`(^|;\\s*)style-src 'self' 'sha256-${hash.replace(/[+/]/g, '\\$&')}'(;|$)`));
    expect(csp).not.toContain('unsafe-inline');
    // Every other answer keeps the policy without the hash: the app's files that policy, the API's answers their own.
    expect(String((await get(`/assets/${css}`)).headers['content-security-policy'])).toMatch(/style-src 'self'(;|$)/);
    expect((await get('/api/health')).headers['content-security-policy']).toBe(API_CONTENT_SECURITY_POLICY);
    // Compressed for a browser that accepts it, the same page.
    const br = await t.app.inject({ method: 'GET', url: '/mint', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['content-security-policy']).toBe(csp);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(res.body);
    const gz = await t.app.inject({ method: 'GET', url: '/mint', headers: { 'accept-encoding': 'gzip' } });
    expect(gunzipSync(gz.rawPayload).toString()).toBe(res.body);
  });

  it('keeps the API envelope for unknown API paths and for other methods', async () => {
    const res = await get('/api/nope');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, error: { code: 'NOT_FOUND', message: 'No route GET /api/nope' } });
    expect((await t.app.inject({ method: 'POST', url: '/companies/x' })).statusCode).toBe(404);
  });
});
