/// <reference lib="dom" />
// The web app's live updates in Chromium once an API key exists: the pages use the public, read-only stream
// GET /api/events, so none logs an error (the keyed /api/v1/events would answer 401 to a page without a key),
// and an event published on the platform reaches the activity feed live.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/domain/auth/api-keys.ts';
import { publishEvent } from '../../src/domain/events/store.ts';
import { useTestApp } from '../helpers/app.ts';
import { browserUnavailable, launchChromium } from '../helpers/browser.ts';
import { insertCompany, payloads } from '../helpers/events.ts';

const t = useTestApp();
let base: string;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
const errors: string[] = [];
const streams: string[] = [];

describe.skipIf(browserUnavailable)('the web app with API keys configured, in Chromium', () => {
  beforeAll(async () => {
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    await createApiKey(t.database.db, 'integrator');
    t.container.apiKeys.clear();
    chromium = await launchChromium();
    page = await (await chromium.browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    page.setDefaultTimeout(15_000);
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`${page.url()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
    page.on('request', (r) => {
      if (r.url().includes('/events')) streams.push(new URL(r.url()).pathname);
    });
  }, 60_000);

  afterAll(async () => {
    await chromium?.close();
  });

  it('opens the public stream, logs no error on any page, and shows an event live', async () => {
    // The keyed stream refuses a keyless client now: what the pages would have met.
    expect((await fetch(`${base}/api/v1/events`)).status).toBe(401);
    const acme = await insertCompany(t.database.db, 'acme');
    await page.goto(`${base}/activity`);
    await page.getByText('Live: the latest events, and new ones as they happen.').waitFor();
    await publishEvent(t.database.db, { type: 'trade', companyId: acme.id, data: payloads.trade });
    await page.getByText(/Bought 2 \$ACME at 0\.012345 USDC/).waitFor();
    // A score names its company; a long directive is cut at a word, with an ellipsis.
    await publishEvent(t.database.db, { type: 'score', companyId: acme.id, data: payloads.score });
    await page.getByText('acme: score 71.5, rank 3', { exact: true }).waitFor();
    const directive = `${'Accumulate steadily '.repeat(7)}and never chase a pump.`;
    await publishEvent(t.database.db, {
      type: 'decision',
      companyId: acme.id,
      data: { ...payloads.decision, directive },
    });
    await expect
      .poll(() => page.locator('[data-event="decision"] a').first().textContent())
      .toBe(`Decision round 3: ${'Accumulate steadily '.repeat(7).trim()}…`);
    // Every page, each opened afresh (the app starts its stream again): none asks for the keyed stream.
    const pages = [
      '/',
      '/fortune',
      '/mint',
      '/create',
      '/staking',
      '/rewards',
      '/account',
      '/companies/acme',
      '/cards/1',
      '/nope',
    ];
    for (const url of pages) {
      const before = streams.length;
      await page.goto(`${base}${url}`);
      await page.locator('main h1').waitFor();
      await expect.poll(() => streams.length, { message: url }).toBeGreaterThan(before);
      await page.waitForLoadState('networkidle', { timeout: 2_000 }).catch(() => {});
    }
    expect(streams.length).toBeGreaterThan(0);
    // The public stream, and the public read of the recent past the Activity page opens on: never the keyed routes.
    expect([...new Set(streams)].sort()).toEqual(['/api/events', '/api/events/recent']);
    // The one line is the unknown path's own status, which Chrome reports for the document (the service answers it
    // 404, with the app saying "Page not found"): no error of any page.
    expect(errors).toEqual([
      `${base}/nope: Failed to load resource: the server responded with a status of 404 (Not Found)`,
    ]);
  }, 120_000);
});
