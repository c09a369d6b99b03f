/// <reference lib="dom" />
// What is sent is what was shown, in Chromium against the whole service, its anvil and a real
// database: the trade form's quote is read again on each trade of the token the stream announces; and when another
// wallet trades between the quote on screen and the click (the indexer held, so the stream says nothing), the click
// sends nothing and shows "Price updated" with the new figures, which must be accepted first. The two runs the issue
// measured: another wallet's 500 USDC buy (a lower minimum), and another wallet graduating the token (the route moves
// from the curve to the pool), and a buy by another wallet while this one signs the permit (after the check on click,
// caught by the simulation before sending). Each ends in the accept step, and the accepted minimum is what the chain
// then honours.

import { TokenLauncherAbi } from '@ai-economy/shared/abis';
import type { Page } from 'playwright-core';
import { formatUnits, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { followStream } from '../../src/chain/streams.ts';
import { companyTokens } from '../../src/domain/tokens/company-tokens.stream.ts';
import { useTestApp } from '../helpers/app.ts';
import { atBothWidths, browserUnavailable, connect, launchChromium } from '../helpers/browser.ts';
import { staffedCompany } from '../helpers/companies.ts';
import { tokenTrading } from '../helpers/trading.ts';

const t = useTestApp();
const trading = tokenTrading(t);
const usdc = (n: string) => parseUnits(n, 6);

let base: string;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let stopIndexer: (() => Promise<void>) | undefined;

/** The token indexer, which feeds the stream's trade events (it resumes where it stopped). */
function startIndexer() {
  const follower = followStream(t.container, companyTokens, { confirmations: 0 })!;
  follower.start(200);
  stopIndexer = async () => {
    await follower.stop();
    stopIndexer = undefined;
  };
}

const nonceOf = (account: number) =>
  t.chain.chain.publicClient.getTransactionCount({ address: devAccount(account).address });

async function open(url: string, account: number, width: 390 | 1440) {
  const context = await chromium.browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors = consoleErrors(page);
  await page.goto(`${base}${url}`);
  await connect(page, account);
  return { page, errors, close: () => context.close() };
}

/** What the page logs as an error, and its uncaught exceptions: none is expected. */
function consoleErrors(page: Page) {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return errors;
}

async function shownQuote(page: Page) {
  const quote = page.locator('[data-quote-out]');
  await quote.waitFor();
  return {
    out: BigInt((await quote.getAttribute('data-quote-out'))!),
    min: BigInt((await page.getByTestId('quote-min').getAttribute('data-min'))!),
    route: await page.getByTestId('quote-route').textContent(),
  };
}

async function launched(name: string, symbol: string) {
  const company = await staffedCompany(t, 1, { name });
  const token = await trading.launch(company.id, symbol, 1);
  await trading.index();
  return { slug: company.id, token };
}

describe.skipIf(browserUnavailable)('the quote on screen is what is sent', () => {
  beforeAll(async () => {
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    chromium = await launchChromium();
  }, 90_000);

  afterAll(async () => {
    await stopIndexer?.();
    await chromium?.close();
  });

  it('reads the quote again on each trade of the token, without a click', async () => {
    const { slug, token } = await launched('Live Quote Co', 'LIVEQ');
    startIndexer();
    const { page, errors, close } = await open(`/companies/${slug}/token`, 2, 1440);
    try {
      await page.getByLabel('USDC to spend').fill('100');
      const before = await shownQuote(page);
      await trading.buy(3, token, usdc('500'));
      // The stream's trade event makes the form read the quote again: 100 USDC now buys fewer tokens.
      await expect
        .poll(async () => BigInt((await page.locator('[data-quote-out]').getAttribute('data-quote-out'))!), {
          timeout: 15_000,
        })
        .toBeLessThan(before.out);
      expect(errors).toEqual([]);
    } finally {
      await close();
      await stopIndexer?.();
    }
  }, 90_000);

  it('a confirmed high impact covers that impact only: a sale that raises it clears the box and disables Buy', async () => {
    const { slug, token } = await launched('Impact Confirm Co', 'IMPCT');
    const curve = await t.chain.chain.publicClient.readContract({
      address: t.chain.chain.contracts.tokenLauncher!,
      abi: TokenLauncherAbi,
      functionName: 'curveOf',
      args: [token],
    });
    const gap = curve.graduationVirtualUsdc - curve.virtualUsdc;
    await trading.buy(3, token, (gap * 20n) / 100n);
    startIndexer();
    const { page, errors, close } = await open(`/companies/${slug}/token`, 2, 390);
    try {
      // A buy of 40% of what is left to graduation: above 15% impact, so it asks for a confirmation.
      await page.getByLabel('USDC to spend').fill(formatUnits((gap * 40n) / 100n, 6));
      const before = await shownQuote(page);
      const confirm = page.getByRole('checkbox', { name: /I accept that this trade moves the price/ });
      await confirm.check();
      const buy = page.getByRole('button', { name: 'Buy IMPCT', exact: true });
      expect(await buy.isEnabled()).toBe(true);
      // Another wallet sells: the curve holds less USDC, so the same buy moves the price further. The stream's trade
      // event reads the quote again, with a higher impact than the one accepted.
      await trading.sell(3, token, await trading.balanceOf(3, token));
      await expect
        .poll(async () => BigInt((await page.locator('[data-quote-out]').getAttribute('data-quote-out'))!), {
          timeout: 15_000,
        })
        .toBeGreaterThan(before.out);
      expect(await confirm.isChecked()).toBe(false);
      expect(await buy.isDisabled()).toBe(true);
      await atBothWidths(page, 'trade-impact-confirm-cleared');
      // Accepting the new impact sends the trade at the minimum now on screen.
      await confirm.check();
      const shown = await shownQuote(page);
      const held = await trading.balanceOf(2, token);
      await buy.click();
      await page.getByText(/^Bought [\d,.]+ IMPCT for [\d,.]+ USDC\.$/).waitFor({ timeout: 60_000 });
      expect((await trading.balanceOf(2, token)) - held).toBeGreaterThanOrEqual(shown.min);
      expect(errors).toEqual([]);
    } finally {
      await close();
      await stopIndexer?.();
    }
  }, 120_000);

  it("another wallet's 500 USDC buy before the click: Price updated, accepted, then the accepted minimum", async () => {
    const { slug, token } = await launched('Stale Buy Co', 'RWAX');
    const { page, errors, close } = await open(`/companies/${slug}/token`, 2, 390);
    try {
      await page.getByLabel('USDC to spend').fill('100');
      const shown = await shownQuote(page);
      // Held indexer: the stream says nothing, the screen keeps the old quote, as a slow stream would.
      await trading.buy(3, token, usdc('500'));
      const nonce = await nonceOf(2);
      const buy = page.getByRole('button', { name: 'Buy RWAX', exact: true });
      await buy.click();
      const updated = page.getByTestId('price-updated');
      await updated.getByRole('heading', { name: 'Price updated' }).waitFor();
      await updated.getByText('Others traded since you looked: this trade now gives less.', { exact: false }).waitFor();
      const newMin = BigInt((await updated.getByTestId('updated-min').getAttribute('data-min'))!);
      expect(newMin).toBeLessThan(shown.min);
      // Nothing was sent, and the trade waits for the acceptance.
      expect(await nonceOf(2)).toBe(nonce);
      expect(await buy.isDisabled()).toBe(true);
      await atBothWidths(page, 'trade-price-updated');

      await updated.getByRole('button', { name: 'Accept new price' }).click();
      expect(await page.getByTestId('price-updated').count()).toBe(0);
      const accepted = await shownQuote(page);
      expect(accepted.min).toBe(newMin);
      const before = await trading.balanceOf(2, token);
      await buy.click();
      await page.getByText(/^Bought [\d,.]+ RWAX for 100 USDC\.$/).waitFor({ timeout: 60_000 });
      expect((await trading.balanceOf(2, token)) - before).toBe(accepted.out);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  }, 120_000);

  it('another wallet buys while the wallet is asked to sign: the simulation catches it, and Price updated asks again', async () => {
    const { slug, token } = await launched('Signing Race Co', 'SIGNR');
    const context = await chromium.browser.newContext({ viewport: { width: 390, height: 900 } });
    // The first permit signature waits for another wallet's 500 USDC buy: the price moves after the click's fresh
    // quote and before the trade is sent, the one gap the check on click cannot see.
    let raced = false;
    const node = new URL(t.chain.node.rpcUrl).origin;
    await context.route(
      (url) => url.origin === node,
      async (route) => {
        const body = route.request().postDataJSON() as { method?: string } | { method?: string }[] | null;
        const calls = Array.isArray(body) ? body : body ? [body] : [];
        if (!raced && calls.some((c) => c.method === 'eth_signTypedData_v4')) {
          raced = true;
          await trading.buy(3, token, usdc('500'));
        }
        await route.continue();
      },
    );
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const errors = consoleErrors(page);
    try {
      await page.goto(`${base}/companies/${slug}/token`);
      await connect(page, 2);
      await page.getByLabel('USDC to spend').fill('100');
      const shown = await shownQuote(page);
      const nonce = await nonceOf(2);
      const buy = page.getByRole('button', { name: 'Buy SIGNR', exact: true });
      await buy.click();
      const updated = page.getByTestId('price-updated');
      await updated.getByRole('heading', { name: 'Price updated' }).waitFor({ timeout: 45_000 });
      expect(raced).toBe(true);
      await updated.getByText('Others traded since you looked: this trade now gives less.', { exact: false }).waitFor();
      const newMin = BigInt((await updated.getByTestId('updated-min').getAttribute('data-min'))!);
      expect(newMin).toBeLessThan(shown.min);
      // Nothing was sent: the signed permit was never used, and no refusal sentence replaced the accept step.
      expect(await nonceOf(2)).toBe(nonce);
      expect(await page.locator('output.notice.error').count()).toBe(0);
      expect(await buy.isDisabled()).toBe(true);
      await atBothWidths(page, 'trade-price-moved-while-signing');

      await updated.getByRole('button', { name: 'Accept new price' }).click();
      const accepted = await shownQuote(page);
      expect(accepted.min).toBe(newMin);
      const before = await trading.balanceOf(2, token);
      await buy.click();
      await page.getByText(/^Bought [\d,.]+ SIGNR for 100 USDC\.$/).waitFor({ timeout: 60_000 });
      expect((await trading.balanceOf(2, token)) - before).toBe(accepted.out);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it("a sale: another wallet's sale before the click gives less, Price updated, then the accepted minimum", async () => {
    const { slug, token } = await launched('Stale Sale Co', 'STSAL');
    await trading.buy(2, token, usdc('300'));
    await trading.buy(3, token, usdc('300'));
    const { page, errors, close } = await open(`/companies/${slug}/token`, 2, 1440);
    try {
      await page.getByRole('button', { name: 'Sell', exact: true }).click();
      const held = await trading.balanceOf(2, token);
      await page.getByLabel('STSAL to sell').fill(formatUnits(held / 2n, 18));
      const shown = await shownQuote(page);
      // Another wallet sells first: the curve gives less USDC for the same tokens.
      await trading.sell(3, token, await trading.balanceOf(3, token));
      const nonce = await nonceOf(2);
      const sell = page.getByRole('button', { name: 'Sell STSAL', exact: true });
      await sell.click();
      const updated = page.getByTestId('price-updated');
      await updated.getByText('Others traded since you looked: this trade now gives less.', { exact: false }).waitFor();
      const newMin = BigInt((await updated.getByTestId('updated-min').getAttribute('data-min'))!);
      expect(newMin).toBeLessThan(shown.min);
      await updated
        .getByText(/USDC \(was [\d,.]+ USDC\)/)
        .first()
        .waitFor();
      expect(await nonceOf(2)).toBe(nonce);
      await atBothWidths(page, 'trade-price-updated-sale');
      await updated.getByRole('button', { name: 'Accept new price' }).click();
      const accepted = await shownQuote(page);
      expect(accepted.min).toBe(newMin);
      const before = await trading.usdcOf(devAccount(2).address);
      await sell.click();
      await page.getByText(/^Sold [\d,.]+ STSAL for [\d,.]+ USDC\.$/).waitFor({ timeout: 60_000 });
      expect((await trading.usdcOf(devAccount(2).address)) - before).toBe(accepted.out);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  }, 120_000);

  it('another wallet graduates the token before the click: the route changed, and the buy waits for Accept', async () => {
    const { slug, token } = await launched('Stale Route Co', 'SPRNT');
    const { page, errors, close } = await open(`/companies/${slug}/token`, 2, 1440);
    try {
      await page.getByLabel('USDC to spend').fill('100');
      const shown = await shownQuote(page);
      expect(shown.route).toBe('Bonding curve');
      const curve = await t.chain.chain.publicClient.readContract({
        address: t.chain.chain.contracts.tokenLauncher!,
        abi: TokenLauncherAbi,
        functionName: 'curveOf',
        args: [token],
      });
      // Another wallet completes the curve: the token graduates into its pool.
      await trading.buy(3, token, ((curve.graduationVirtualUsdc - curve.virtualUsdc) * 102n) / 100n);
      const nonce = await nonceOf(2);
      await page.getByRole('button', { name: 'Buy SPRNT', exact: true }).click();
      const updated = page.getByTestId('price-updated');
      await updated
        .getByText(
          /^The route changed since you looked: the trade now goes through the Uniswap v4 pool\. Nothing was sent\./,
        )
        .waitFor();
      await updated.getByText('Uniswap v4 pool', { exact: false }).first().waitFor();
      await updated.getByText('(was Bonding curve)').waitFor();
      expect(await nonceOf(2)).toBe(nonce);
      await atBothWidths(page, 'trade-route-changed');
      await updated.getByRole('button', { name: 'Accept new price' }).click();
      const accepted = await shownQuote(page);
      expect(accepted.route).toBe('Uniswap v4 pool');
      const confirm = page.getByRole('checkbox', { name: /I accept that this trade moves the price/ });
      if (await confirm.isVisible()) await confirm.check();
      const before = await trading.balanceOf(2, token);
      await page.getByRole('button', { name: 'Buy SPRNT', exact: true }).click();
      await page.getByText(/^Bought [\d,.]+ SPRNT for 100 USDC\.$/).waitFor({ timeout: 60_000 });
      expect((await trading.balanceOf(2, token)) - before).toBeGreaterThanOrEqual(accepted.min);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  }, 120_000);
});
