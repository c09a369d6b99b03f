/// <reference lib="dom" />
// A new company's owner in Chromium, at 390 and 1440 px with axe: the company page lists what to do next (fund it,
// launch its token, set its directive, prove its treasury) and each step is done from the page: USDC sent into the
// company's Safe from the owner's wallet, some taken out again (the service builds the Safe transaction, the
// owner's wallet signs and executes it), the directive saved, the token launched with a link to it. A creation cut
// off before its C-suite was deployed shows "Finish setting up" on the create page and the company page, and the
// button finishes it.
import type { Page } from 'playwright-core';
import { type Address, erc20Abi } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { useTestApp } from '../helpers/app.ts';
import { atBothWidths, browserUnavailable, connect, launchChromium } from '../helpers/browser.ts';
import { companyBody, mintCard, signed, staffedCompany } from '../helpers/companies.ts';

const t = useTestApp({ env: { COMPANY_CUSTODY: 'safe' } });
const USDC = 1_000_000n;

let base: string;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
let owned: { id: string; slug: string; safe: Address };
let cut: { id: string; slug: string; name: string };
const errors: string[] = [];

const usdcOf = (address: Address) =>
  t.chain.chain.publicClient.readContract({
    address: t.chain.chain.contracts.usdc!,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [address],
  });
const step = (key: string) => page.locator(`[data-step="${key}"]`);

describe.skipIf(browserUnavailable)('a new company’s next steps', () => {
  beforeAll(async () => {
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const co = await staffedCompany(t, 1, { name: 'Checklist Co' });
    const view = (await t.app.inject(`/api/companies/${co.id}`)).json().data;
    owned = { id: co.id, slug: view.slug, safe: view.custody.safe };
    // A creation cut off after the company was created, before its C-suite was deployed.
    await mintCard(t.chain, 2);
    const created = await signed(t.app, 2, 'POST', '/api/companies', companyBody({ name: 'Cut Off Co' }));
    expect(created.statusCode).toBe(201);
    cut = { id: created.json().data.id, slug: created.json().data.slug, name: 'Cut Off Co' };

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

  it('lists the owner’s next steps, and funds and withdraws from the page', async () => {
    await page.goto(`${base}/companies/${owned.slug}`);
    await connect(page, 1);
    await page.getByRole('heading', { name: 'Next steps' }).waitFor();
    // Its Safe is its proven treasury already; the rest is to do.
    expect(await step('treasury').getAttribute('data-done')).toBe('true');
    for (const key of ['fund', 'launch', 'directive']) expect(await step(key).getAttribute('data-done')).toBe('false');
    await atBothWidths(page, 'setup-checklist');

    await page.getByLabel(/Fund with USDC/).fill('25');
    await page.getByRole('button', { name: 'Fund', exact: true }).click();
    const money = page.getByRole('region', { name: 'Money' });
    await expect
      .poll(() => money.locator('output.notice').textContent(), { timeout: 30_000 })
      .toBe("Sent 25 USDC into the company's Safe.");
    expect(await usdcOf(owned.safe)).toBe(25n * USDC);
    await expect.poll(() => step('fund').getAttribute('data-done'), { timeout: 15_000 }).toBe('true');

    // Bad input is said in words, with no button to press.
    const withdraw = page.getByLabel(/Withdraw USDC from the Safe/);
    await withdraw.fill('2.5.1');
    expect(await money.getByText('Enter a number, such as 12.5.').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Withdraw', exact: true }).isDisabled()).toBe(true);
    const before = await usdcOf(devAccount(1).address);
    await withdraw.fill('10');
    await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
    await expect
      .poll(() => money.locator('output.notice').textContent(), { timeout: 30_000 })
      .toBe("Withdrew 10 USDC from the company's Safe to your wallet.");
    expect(await usdcOf(owned.safe)).toBe(15n * USDC);
    expect((await usdcOf(devAccount(1).address)) - before).toBe(10n * USDC);
    // More than the Safe holds: the service refuses before anything is signed.
    await withdraw.fill('15.000001');
    await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
    await expect
      .poll(() => money.locator('output.notice').textContent(), { timeout: 15_000 })
      .toMatch(/^Withdrawal failed: .*the Safe holds 15 USDC/);
    await atBothWidths(page, 'setup-money');
  }, 180_000);

  it('sets the directive and launches the token from the page, the launch linking to its token', async () => {
    await page.locator('#directive-form textarea').fill('Grow steadily.');
    await page.getByRole('button', { name: 'Save directive' }).click();
    await expect.poll(() => step('directive').getAttribute('data-done'), { timeout: 15_000 }).toBe('true');
    await page.locator('#launch-form input[name="symbol"]').fill('CHK');
    await page.getByRole('button', { name: 'Launch the token' }).click();
    const open = page.getByRole('link', { name: 'Open $CHK: its chart and trades' });
    await open.waitFor({ timeout: 60_000 });
    // Every step is done: the checklist steps aside.
    await expect.poll(() => page.getByRole('heading', { name: 'Next steps' }).count()).toBe(0);
    await open.click();
    await page.waitForURL(`**/companies/${owned.slug}/token`);
    await page.getByRole('heading', { name: 'Trades' }).waitFor();
    // The company's portfolio is its Safe's: the 15 USDC left there, not the agents' empty wallets.
    await page.goto(`${base}/companies/${owned.slug}`);
    const totals = page.getByTestId('company-totals');
    await expect
      .poll(() => totals.textContent(), { timeout: 20_000 })
      .toMatch(
        /^The company's Safe holds 15(\.0+)? USDC[^;]*\. In all, 15(\.0+)? USDC if its company tokens were sold now/,
      );
    expect(await totals.textContent()).not.toMatch(/agents' wallets/);
  }, 180_000);

  it('offers "Finish setting up" for an interrupted creation, on the create page and the company page', async () => {
    // Another owner, in a browser context of their own (the first wallet is remembered in the first).
    const context = await chromium.browser.newContext({ viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    page.setDefaultTimeout(20_000);
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`${page.url()}: ${m.text()}`);
    });
    await page.goto(`${base}/create`);
    await connect(page, 2);
    const finish = page.getByRole('button', { name: `Finish setting up ${cut.name}` });
    await finish.waitFor();
    await atBothWidths(page, 'setup-create-unfinished');
    await page.goto(`${base}/companies/${cut.slug}`);
    await page.getByRole('heading', { name: 'Finish setting up' }).waitFor();
    await atBothWidths(page, 'setup-company-unfinished');
    await page.getByRole('button', { name: 'Finish setting up', exact: true }).click();
    await expect
      .poll(() => page.getByTestId('company-status').textContent(), { timeout: 120_000 })
      .toBe('Private: staffed and running, no token launched yet');
    await page.getByRole('heading', { name: 'Next steps' }).waitFor();
    const view = (await t.app.inject(`/api/companies/${cut.id}`)).json().data;
    expect(view.agents.filter((a: { status: string }) => a.status === 'ACTIVE')).toHaveLength(7);
    expect(view.custody?.safe).toMatch(/^0x/);
    // The create page has nothing left to finish.
    await page.goto(`${base}/create`);
    await page.getByRole('heading', { name: 'Create a company' }).waitFor();
    await page.waitForTimeout(1_000);
    expect(await page.getByRole('heading', { name: 'Finish setting up' }).count()).toBe(0);
    expect(errors.filter((e) => !e.includes('status of 400'))).toEqual([]);
  }, 240_000);
});
