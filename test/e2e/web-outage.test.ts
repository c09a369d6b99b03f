/// <reference lib="dom" />
// After an outage, in Chromium: the service (an app on the file's chain and database, on a fixed loopback port) stops
// while a token page and the Fortune List are open, and starts again on the same port. The pages keep what they
// showed, say in words that it is not up to date, and recover on their own (no reload, no click) once the service
// answers again, at 390 and 1440 px. While it is away the browser may log only the refused connections.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, useTestApp } from '../helpers/app.ts';
import { atBothWidths, browserUnavailable, launchChromium } from '../helpers/browser.ts';
import { staffedCompany } from '../helpers/companies.ts';
import { tokenTrading } from '../helpers/trading.ts';

const t = useTestApp();
const trading = tokenTrading(t);
const USDC = 1_000_000n;

let service: TestApp;
let port: number;
let base: string;
let slug: string;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let token: Page;
let fortune: Page;
const errors: string[] = [];

async function startOnPort() {
  const app = await startTestApp({ database: t.database, chain: t.chain });
  await app.app.listen({ port, host: '127.0.0.1' });
  return app;
}

describe.skipIf(browserUnavailable)('after an outage', () => {
  beforeAll(async () => {
    const company = await staffedCompany(t, 2, { name: 'Outage Co' });
    const address = await trading.launch(company.id, 'OUT', 2);
    await trading.buy(3, address, 100n * USDC);
    await trading.index();
    slug = (await t.app.inject(`/api/companies/${company.id}`)).json().data.slug;
    service = await startTestApp({ database: t.database, chain: t.chain });
    base = await service.app.listen({ port: 0, host: '127.0.0.1' });
    port = Number(new URL(base).port);
    chromium = await launchChromium();
    const context = await chromium.browser.newContext({ viewport: { width: 1440, height: 900 } });
    token = await context.newPage();
    fortune = await context.newPage();
    for (const p of [token, fortune]) {
      p.setDefaultTimeout(20_000);
      p.on('console', (m) => {
        if (m.type() === 'error') errors.push(`${p.url()}: ${m.text()}`);
      });
    }
  }, 240_000);

  afterAll(async () => {
    await chromium?.close();
    await service?.close();
  });

  it('keeps the token page and the Fortune List, marks them stale in words, and recovers on its own', async () => {
    await token.goto(`${base}/companies/${slug}/token`);
    const row = token.locator('tr[data-trade]').first();
    await row.waitFor();
    await fortune.goto(`${base}/fortune`);
    await fortune.getByRole('heading', { level: 1 }).waitFor();
    await fortune.locator('main table, main .empty').first().waitFor();

    // The service stops.
    await service.close();
    const stale = token.locator('[data-stale]').first();
    await stale.waitFor({ timeout: 45_000 });
    expect(await stale.textContent()).toMatch(
      /^Not up to date: the service cannot be reached, so the .+ shown (is|are) as read at .+\. This updates on its own when the service is back\.$/,
    );
    // What was shown stays: the price, the trade, no error box in its place.
    await row.waitFor();
    await token.getByTestId('price').waitFor();
    expect(await token.getByRole('alert').count()).toBe(0);
    await atBothWidths(token, 'outage-token');
    await fortune.locator('[data-stale]').first().waitFor({ timeout: 45_000 });
    expect(await fortune.getByRole('alert').count()).toBe(0);
    // What the list showed stays (here: no snapshot yet), not an error box.
    expect(await fortune.locator('main table, main .empty').count()).toBeGreaterThan(0);
    expect(await fortune.locator('main').textContent()).toContain('How the score is made');

    // The service starts again where it was: both pages recover without a click.
    service = await startOnPort();
    await expect.poll(() => token.locator('[data-stale]').count(), { timeout: 45_000, interval: 500 }).toBe(0);
    await expect.poll(() => fortune.locator('[data-stale]').count(), { timeout: 45_000, interval: 500 }).toBe(0);
    await row.waitFor();
    await atBothWidths(token, 'outage-token-back');
    // Only the outage's own failures were logged: refused and reset connections, and the 503 a closing server
    // answers to a request that arrives while it drains (Fastify's return503OnClosing; the console names the page,
    // not the request).
    expect(
      errors.filter(
        (e) => !/ERR_CONNECTION_REFUSED|ERR_EMPTY_RESPONSE|ERR_CONNECTION_RESET|api\/events|status of 503/.test(e),
      ),
    ).toEqual([]);
  }, 180_000);
});
