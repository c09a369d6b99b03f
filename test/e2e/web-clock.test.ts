/// <reference lib="dom" />
// One clock, in Chromium against the whole service on loopback, its anvil and a real database: every relative time
// on every page counts from the chain's clock (the service's reading of it, GET /api/chain `now`), never from the
// device's. A CFO buys a token in a decision round; the chain's clock then moves three days on (as after the demo's
// simulated days), and the token page's trade, the agent page's action and last trade, and the company's round all
// say "3 days ago", at 390 and 1440 px, with no console error.
import type { Page } from 'playwright-core';
import { type Address, createTestClient, http } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishEvent } from '../../src/domain/events/store.ts';
import { useTestApp } from '../helpers/app.ts';
import { atBothWidths, browserUnavailable, launchChromium } from '../helpers/browser.ts';
import { signed, staffedCompany } from '../helpers/companies.ts';
import { payloads } from '../helpers/events.ts';
import { tokenTrading } from '../helpers/trading.ts';

// COMPANY_CUSTODY=none: this file is about the path where a company's agents act from their own wallets.
const t = useTestApp({ env: { COMPANY_CUSTODY: 'none', MANUAL_ROUND_COOLDOWN_S: '0' } });
const trading = tokenTrading(t);
const USDC = 1_000_000n;
const THREE_DAYS_S = 3 * 86_400;

let base: string;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
let company: { id: string; slug: string };
let cfo: { id: string; address: Address };
let targetSlug: string;
let roundId: string;
const errors: string[] = [];

describe.skipIf(browserUnavailable)("one clock: the chain's", () => {
  beforeAll(async () => {
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const target = await staffedCompany(t, 2, { name: 'Clock Target Co' });
    await trading.launch(target.id, 'CLK', 2);
    targetSlug = (await t.app.inject(`/api/companies/${target.id}`)).json().data.slug;
    const trader = await staffedCompany(t, 1, { name: 'Clock Trader Co', category: 'SPOT_TRADING' });
    company = { id: trader.id, slug: (await t.app.inject(`/api/companies/${trader.id}`)).json().data.slug };
    cfo = trader.cfo;
    await trading.fund(1, cfo.address, 500n * USDC);
    const directive = await signed(t.app, 1, 'PATCH', `/api/companies/${company.id}`, {
      ceoPrompt: 'Buy 50 USDC of CLK every round.',
    });
    expect(directive.statusCode).toBe(200);
    const round = await signed(t.app, 1, 'POST', `/api/companies/${company.id}/decisions/run`);
    expect(round.statusCode).toBe(201);
    expect(round.json().data.status).toBe('COMPLETE');
    roundId = round.json().data.id;
    await trading.index();

    // The chain's clock moves three days on; the device's does not.
    const test = createTestClient({ mode: 'anvil', transport: http(t.chain.node.rpcUrl) });
    await test.increaseTime({ seconds: THREE_DAYS_S });
    await test.mine({ blocks: 1 });
    // The service reuses a reading of the chain's clock for a few seconds (chainDateForReads): once it has read the
    // new time, every page is opened.
    const ahead = async () => Date.parse((await t.app.inject('/api/chain')).json().data.now) - Date.now();
    for (let i = 0; i < 40 && (await ahead()) < (THREE_DAYS_S - 600) * 1000; i++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
    }

    chromium = await launchChromium();
    const context = await chromium.browser.newContext({ viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    page.setDefaultTimeout(20_000);
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`${page.url()}: ${m.text()}`);
    });
  }, 240_000);

  afterAll(async () => {
    await chromium?.close();
  });

  it("the service names the chain's clock: GET /api/chain `now` is three days ahead of the device", async () => {
    const { data } = (await t.app.inject('/api/chain')).json();
    const ahead = (Date.parse(data.now) - Date.now()) / 1000;
    expect(ahead).toBeGreaterThan(THREE_DAYS_S - 600);
    expect(ahead).toBeLessThan(THREE_DAYS_S + 600);
  });

  it('the token page says the CFO\'s trade was "3 days ago"', async () => {
    await page.goto(`${base}/companies/${targetSlug}/token`);
    await page.getByRole('heading', { name: 'Trades' }).waitFor();
    const row = page.getByRole('row').filter({ hasText: 'buy' }).first();
    await row.waitFor();
    await expect.poll(() => row.locator('time').textContent()).toBe('3 days ago');
    await atBothWidths(page, 'clock-token');
  }, 90_000);

  it('the agent page says the same of its action and its last trade', async () => {
    await page.goto(`${base}/agents/${cfo.id}`);
    await page.getByRole('heading', { name: 'On-chain actions' }).waitFor();
    const action = page.locator('.actions-list li').first();
    await action.waitFor();
    await expect.poll(() => action.locator('time').textContent()).toBe('3 days ago');
    const times = await page.locator('main time').allTextContents();
    expect(times.length).toBeGreaterThan(1);
    for (const text of times) expect(text).toBe('3 days ago');
    await atBothWidths(page, 'clock-agent');
  }, 90_000);

  it("the company's round and the decision page count from the same clock", async () => {
    await page.goto(`${base}/companies/${company.slug}`);
    const round = page.locator(`[data-round="${roundId}"]`);
    await round.waitFor();
    await expect.poll(() => round.locator('time').first().textContent()).toBe('3 days ago');
    await round.getByRole('link', { name: 'The decision and its verification' }).click();
    await expect
      .poll(() => page.getByTestId('decision-date').textContent())
      .toMatch(/^Decided 3 days ago \(.+, the chain's time\)\.$/);
    await atBothWidths(page, 'clock-decision');
    expect(errors).toEqual([]);
  }, 90_000);

  it('the Activity page measures an event the service published against the clock that stamped it', async () => {
    // A platform event is stamped by the database's wall clock when it is published: published now, it happened
    // just now, though the chain's clock runs three days ahead (it read "3 days ago" against the chain's clock).
    await page.goto(`${base}/activity`);
    await page.getByText('Live: the latest events, and new ones as they happen.').waitFor();
    await publishEvent(t.database.db, { type: 'score', companyId: company.id, data: payloads.score });
    const row = page.locator('[data-event="score"]').first();
    await row.waitFor();
    await expect.poll(() => row.locator('time').textContent()).toBe('just now');
    // The CFO's trade, at its block's time on the chain's clock, is still three days old.
    expect(await page.locator('[data-event="trade"] time').first().textContent()).toBe('3 days ago');
    expect(errors).toEqual([]);
  }, 90_000);
});
