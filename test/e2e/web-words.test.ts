/// <reference lib="dom" />
// The web app's words, in Chromium against the whole service on loopback, its anvil and a real database: a company's
// status explained, a new token with no trade not shown as a quarter graduated, an agent's trade naming its token at
// a readable precision, the engine presets, the platform's two tokens and the treasury explained, and a treasury
// change that was not saved never left as "Treasury: done.", at 390 and 1440 px, with no console error.
import type { Page } from 'playwright-core';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.ts';
import { atBothWidths, browserUnavailable, connect, launchChromium } from '../helpers/browser.ts';
import { mintCard, signed, staffedCompany } from '../helpers/companies.ts';
import { tokenTrading } from '../helpers/trading.ts';

// COMPANY_CUSTODY=none: this file is about the path where a company's agents act from their own wallets.
const t = useTestApp({ env: { COMPANY_CUSTODY: 'none', MANUAL_ROUND_COOLDOWN_S: '0' } });
const trading = tokenTrading(t);
const USDC = 1_000_000n;

let base: string;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
let trader: { id: string; slug: string };
let cfo: { id: string; address: Address };
let freshSlug: string;
const errors: string[] = [];

describe.skipIf(browserUnavailable)('words a person reads', () => {
  beforeAll(async () => {
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    // A token nobody traded, and a company whose CFO buys another one.
    const fresh = await staffedCompany(t, 3, { name: 'Untraded Co' });
    await trading.launch(fresh.id, 'NEW', 3);
    freshSlug = (await t.app.inject(`/api/companies/${fresh.id}`)).json().data.slug;
    const target = await staffedCompany(t, 2, { name: 'Words Target Co' });
    await trading.launch(target.id, 'WRD', 2);
    const c = await staffedCompany(t, 1, { name: 'Words Trader Co', category: 'SPOT_TRADING' });
    trader = { id: c.id, slug: (await t.app.inject(`/api/companies/${c.id}`)).json().data.slug };
    cfo = c.cfo;
    await trading.fund(1, cfo.address, 500n * USDC);
    const directive = await signed(t.app, 1, 'PATCH', `/api/companies/${trader.id}`, {
      ceoPrompt: 'Buy 50 USDC of WRD every round.',
    });
    expect(directive.statusCode).toBe(200);
    const round = await signed(t.app, 1, 'POST', `/api/companies/${trader.id}/decisions/run`);
    expect(round.json().data.status).toBe('COMPLETE');
    await trading.index();
    // A second, unused card, so the create page shows its form.
    await mintCard(t.chain, 1);

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

  it('a token with no trade reads "0% · no trade yet", on its page and on the board', async () => {
    await page.goto(`${base}/companies/${freshSlug}/token`);
    await page.getByRole('heading', { name: 'Trades' }).waitFor();
    await page.getByRole('region', { name: 'Trades' }).getByText('No trade yet.').waitFor();
    const bar = page.getByRole('progressbar', { name: 'Graduation progress' });
    await expect.poll(() => bar.textContent()).toBe('0.0% · no trade yet');
    expect(await bar.getAttribute('aria-valuenow')).toBe('0');
    await atBothWidths(page, 'words-untraded-token');
    await page.goto(`${base}/?tab=new`);
    const row = page.locator('tr[data-symbol="NEW"]');
    await row.waitFor();
    expect(await row.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('0');
    // A traded token keeps its progress.
    const traded = page.locator('tr[data-symbol="WRD"]');
    expect(Number(await traded.getByRole('progressbar').getAttribute('aria-valuenow'))).toBeGreaterThan(0);
  }, 90_000);

  it("an agent's trade names its token at a readable precision", async () => {
    await page.goto(`${base}/agents/${cfo.id}`);
    const action = page.locator('.actions-list li').first();
    await action.waitFor();
    await expect.poll(() => action.textContent()).toMatch(/^Bought WRD for 50 USDC · mined/);
    expect(await page.locator('.actions-list').textContent()).not.toMatch(/company token|\d\.\d{7,}/);
    await atBothWidths(page, 'words-agent');
  }, 90_000);

  it('the company says its status; its owner reads the presets and the treasury, and a refused treasury says so', async () => {
    await page.goto(`${base}/companies/${trader.slug}`);
    await expect
      .poll(() => page.getByTestId('company-status').textContent())
      .toBe('Private: staffed and running, no token launched yet');
    await atBothWidths(page, 'words-company');
    await connect(page, 1);
    await page.getByRole('heading', { name: 'Creator controls' }).waitFor();
    const presets = page.locator('#preset-help');
    for (const p of ['BUDGET', 'EFFICIENT', 'BALANCED', 'PREMIUM']) {
      expect(await presets.locator(`dt:text-is("${p}") + dd`).textContent()).toMatch(/models.*USD per agent per round/);
    }
    const treasury = page.getByLabel(/Treasury address \(needed for rewards/);
    // Its own wallet as treasury: saved.
    await treasury.fill(t.chain.wallet(1).account!.address);
    await page.getByRole('button', { name: 'Save treasury' }).click();
    const notice = page.locator('output.notice');
    await expect.poll(() => notice.textContent(), { timeout: 15_000 }).toBe('Treasury: done.');
    // Not an address: refused in words, and the earlier "done" is gone.
    await treasury.fill('0x1234');
    expect(await notice.count()).toBe(0);
    await page.getByRole('button', { name: 'Save treasury' }).click();
    await expect
      .poll(() => notice.textContent())
      .toBe('Treasury not saved: “0x1234” is not an address (0x followed by 40 hexadecimal digits).');
    expect(await notice.getAttribute('data-outcome')).toBe('refused');
    // An address that did not accept the company: the service refuses, and the page says it failed.
    await treasury.fill('0x00000000000000000000000000000000000bA5e1');
    await page.getByRole('button', { name: 'Save treasury' }).click();
    await expect.poll(() => notice.textContent(), { timeout: 15_000 }).toMatch(/^Treasury failed: /);
    expect(await page.getByText('Treasury: done.').count()).toBe(0);
    // The refusal's own request is the one error the console may show.
    const refused = errors.findIndex((e) => e.includes('status of 403'));
    expect(refused).toBeGreaterThanOrEqual(0);
    errors.splice(refused, 1);
    await atBothWidths(page, 'words-company-owner');
  }, 90_000);

  it('the platform tokens explained where they are shown, and the treasury on the create page is not optional', async () => {
    await page.goto(`${base}/staking`);
    await expect
      .poll(() => page.getByTestId('platform-tokens').textContent())
      .toMatch(/^\w+ is the platform's own token: .+\. \w+ is what staking earns/);
    await atBothWidths(page, 'words-staking');
    await page.goto(`${base}/rewards`);
    await expect.poll(() => page.getByTestId('platform-tokens').textContent()).toMatch(/treasury/);
    await page.goto(`${base}/create`);
    await page.getByText(/Treasury address \(needed for rewards/).waitFor();
    expect(await page.locator('main').textContent()).not.toMatch(/Treasury address \(optional/);
    expect(errors).toEqual([]);
  }, 90_000);
});
