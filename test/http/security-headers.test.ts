// Security headers on every kind of answer (helmet's, set once at start: src/http/plugins/security-headers.ts): nosniff,
// no framing, the content security policy, the resource policy marketplaces need for card images, HSTS only over
// TLS; and the API reference page working in a real Chromium under that policy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_CONTENT_SECURITY_POLICY,
  DOCUMENT_ONLY_HEADERS,
  HSTS_MAX_AGE_S,
} from '../../src/http/plugins/security-headers.ts';
import { startTestApp, type TestApp, useTestApp } from '../helpers/app.ts';
import { browserUnavailable, launchChromium } from '../helpers/browser.ts';

const t = useTestApp({ env: { RATE_LIMIT_MAX: '1000' } });

/** nosniff, no framing, and a policy that runs no inline script: the pages', or the API's that loads nothing at all. */
function expectGuarded(headers: Record<string, unknown>, what: string) {
  expect(headers['x-content-type-options'], what).toBe('nosniff');
  expect(headers['x-frame-options'], what).toBe('DENY');
  const csp = String(headers['content-security-policy']);
  expect(csp, what).toContain("frame-ancestors 'none'");
  if (csp === API_CONTENT_SECURITY_POLICY) {
    expect(csp, what).toContain("default-src 'none'");
  } else {
    expect(csp, what).toContain("default-src 'self'");
    expect(csp, what).toContain("script-src 'self'");
  }
  expect(csp, what).not.toContain('unsafe-inline');
  expect(csp, what).not.toContain('unsafe-eval');
}

describe('security headers', () => {
  it('are on success, error and non-JSON answers alike', async () => {
    const answers: [string, string, number][] = [
      ['GET', '/api/chain', 200],
      ['GET', '/api/openapi.json', 200],
      ['GET', '/api/nft/image/1', 200],
      ['GET', '/api/nft/metadata/0', 400],
      ['GET', '/api/agents?limit=1000', 400],
      ['GET', '/api/companies/nobody', 404],
      ['GET', '/api/no-such-route', 404],
      ['POST', '/api/epochs/claim', 401],
    ];
    for (const [method, url, status] of answers) {
      const res = await t.app.inject({ method: method as 'GET', url });
      expect(res.statusCode, url).toBe(status);
      expectGuarded(res.headers, `${method} ${url}`);
    }
  });

  it("send the document-only headers on pages, and not on the API's answers, which no browser renders", async () => {
    for (const url of ['/', '/companies/some-company', '/api/docs', '/api/docs/static/index.html']) {
      const res = await t.app.inject({ method: 'GET', url });
      // The web app's page (or its 503 where web/ is not built), the reference's page or its redirect to it.
      expect([200, 302, 503], url).toContain(res.statusCode);
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      for (const name of DOCUMENT_ONLY_HEADERS) expect(res.headers[name], `${url} ${name}`).toBeDefined();
      expect(res.headers['referrer-policy'], url).toBe('no-referrer');
      if (url !== '/api/docs')
        expect(String(res.headers['content-security-policy']), url).toContain("default-src 'self'");
    }
    for (const url of ['/api/nft/metadata/1', '/api/nft/image/1', '/api/chain', '/api/no-such-route']) {
      const res = await t.app.inject({ method: 'GET', url });
      expectGuarded(res.headers, url);
      expect(res.headers['content-security-policy'], url).toBe(API_CONTENT_SECURITY_POLICY);
      expect(res.headers['cross-origin-resource-policy'], url).toBe('cross-origin');
      for (const name of DOCUMENT_ONLY_HEADERS) expect(res.headers[name], `${url} ${name}`).toBeUndefined();
    }
  });

  it('let marketplaces show card images from their own origin, and send no HSTS over plain HTTP', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nft/image/1' });
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.headers['strict-transport-security']).toBeUndefined();
    const page = await t.app.inject({ method: 'GET', url: '/' });
    expect(page.headers['strict-transport-security']).toBeUndefined();
    expect(String(page.headers['content-security-policy'])).not.toContain('upgrade-insecure-requests');
  });

  it('are on a 429 too', async () => {
    const limited = await startTestApp({ database: t.database, chain: t.chain, env: { RATE_LIMIT_MAX: '1' } });
    try {
      const ip = '10.77.0.1';
      await limited.app.inject({ method: 'GET', url: '/api/chain', remoteAddress: ip });
      const res = await limited.app.inject({ method: 'GET', url: '/api/chain', remoteAddress: ip });
      expect(res.statusCode).toBe(429);
      expectGuarded(res.headers, '429');
    } finally {
      await limited.close();
    }
  });

  it('send HSTS when the service is served over TLS (an https BASE_URL)', async () => {
    const tls = await startTestApp({
      database: t.database,
      chain: t.chain,
      env: { BASE_URL: 'https://api.example.com' },
    });
    try {
      const res = await tls.app.inject({ method: 'GET', url: '/api/chain' });
      expect(res.headers['strict-transport-security']).toBe(`max-age=${HSTS_MAX_AGE_S}; includeSubDomains`);
      // The pages load their files over TLS only; an API answer loads nothing.
      const page = await tls.app.inject({ method: 'GET', url: '/' });
      expect(page.headers['strict-transport-security']).toBe(`max-age=${HSTS_MAX_AGE_S}; includeSubDomains`);
      expect(String(page.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
    } finally {
      await tls.close();
    }
  });
});

describe.skipIf(browserUnavailable)('the API reference page under the policy, in Chromium', () => {
  let base: string;
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let server: TestApp;
  beforeAll(async () => {
    // A listening app of its own: the browser needs a real socket.
    server = await startTestApp({ database: t.database, chain: t.chain });
    base = await server.app.listen({ port: 0, host: '127.0.0.1' });
    chromium = await launchChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await server?.close();
  });

  it('gives the reference pages the same policy but for inline styles, which Swagger UI injects', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/docs/static/index.html' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('renders the operations with no content-security-policy violation', async () => {
    const page = await chromium.browser.newPage();
    const violations: string[] = [];
    page.on('console', (msg) => {
      if (/Content Security Policy|Refused to/i.test(msg.text())) violations.push(msg.text());
    });
    // Runs in the page before its own scripts: every violation the browser reports reaches the console above.
    await page.addInitScript({
      content: `document.addEventListener('securitypolicyviolation', (e) =>
        console.error('Refused to load ' + e.blockedURI + ' (' + e.violatedDirective + ')'));`,
    });
    const res = await page.goto(`${base}/api/docs`);
    expect(res?.status()).toBe(200);
    // Swagger UI draws one block per operation once its scripts ran and the document loaded.
    await page.locator('.opblock').first().waitFor({ timeout: 15_000 });
    expect(await page.locator('.opblock').count()).toBeGreaterThan(20);
    expect(violations).toEqual([]);
    await page.close();
  });
});
