/// <reference lib="dom" />
// The money screens in a real browser (Chromium, playwright-core) against the whole service, its anvil and a real
// database, at phone and desktop widths: a buy across graduation with its impact warning and explicit confirmation,
// whose tokens received are checked on-chain against the quote on screen; a buy and a mint with too little USDC,
// refused as sentences with nothing sent; a Max sale that empties the position; the form's field rules; staking and
// harvesting with amounts in their tokens' symbols. Every one of these screens is checked by axe-core.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { MockUSDCAbi, TokenLauncherAbi } from '@ai-economy/shared/abis';
import type { Page } from 'playwright-core';
import { type Address, erc20Abi, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { followStream } from '../../src/chain/streams.ts';
import { companyTokens } from '../../src/domain/tokens/company-tokens.stream.ts';
import { hasEntryPoint } from '../../web/src/permit.ts';
import { useTestApp } from '../helpers/app.ts';
import { accessible, atBothWidths, browserUnavailable, connect, launchChromium } from '../helpers/browser.ts';
import { anvilTestClient } from '../helpers/chain.ts';
import { staffedCompany } from '../helpers/companies.ts';
import { tokenTrading } from '../helpers/trading.ts';

const t = useTestApp();
const trading = tokenTrading(t);
const DOCS = path.resolve(import.meta.dirname, '../../docs/images');
/**
 * With the launcher's permit entry points a trade is one transaction (the wallet signs a permit, no approval is
 * sent); contracts without them, or a USDC without EIP-2612 permit, need the approval of exactly the amount first.
 */
const TRANSACTIONS_PER_BUY =
  hasEntryPoint(TokenLauncherAbi, 'buyWithPermit') && hasEntryPoint(MockUSDCAbi, 'permit') ? 1 : 2;
const TRANSACTIONS_PER_SELL = hasEntryPoint(TokenLauncherAbi, 'sellWithPermit') ? 1 : 2;

let base: string;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let stopIndexer: () => Promise<void>;
let token: Address;
/** The company's id, which its pages take as well as its slug. */
let slug: string;

const nonceOf = (account: number) =>
  t.chain.chain.publicClient.getTransactionCount({ address: devAccount(account).address });

/** A fresh browser page at `width`, dev account `account` connected on `url`. */
async function open(url: string, account: number, width: 390 | 1440) {
  const context = await chromium.browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  page.on('console', (m) => {
    if (process.env.WEB_DEBUG) console.log('browser:', m.type(), m.text());
  });
  await page.goto(`${base}${url}`);
  await connect(page, account);
  return { page, close: () => context.close() };
}

/** The trade form's quote: expected and minimum output in base units, once it is on screen. */
async function quoteOf(page: Page) {
  const quote = page.locator('[data-quote-out]');
  await quote.waitFor();
  return {
    out: BigInt((await quote.getAttribute('data-quote-out'))!),
    min: BigInt((await page.getByTestId('quote-min').getAttribute('data-min'))!),
  };
}

describe.skipIf(browserUnavailable)('the money screens in Chromium', () => {
  beforeAll(async () => {
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const follower = followStream(t.container, companyTokens, { confirmations: 0 })!;
    follower.start(200);
    stopIndexer = () => follower.stop();
    const company = await staffedCompany(t, 1, { name: 'Trade Screen Co' });
    slug = company.id;
    token = await trading.launch(company.id, 'TRADE', 1);
    chromium = await launchChromium();
  }, 90_000);

  afterAll(async () => {
    await stopIndexer?.();
    await chromium?.close();
  });

  it('checks each field as it is typed, and switching to Sell resets the form', async () => {
    const { page, close } = await open(`/companies/${slug}/token`, 2, 1440);
    try {
      const amount = page.getByLabel('USDC to spend');
      await amount.fill('0.0000001');
      await page.getByText('USDC has 6 decimals: the smallest amount is 0.000001 USDC.').waitFor();
      await amount.fill('abc');
      await page.getByText('Enter a number, such as 12.5.').waitFor();
      // The locale's other decimal separator is read too.
      await amount.fill('12,5');
      await quoteOf(page);
      for (const slippage of ['80', '-5', 'abc']) {
        await page.getByLabel('Slippage (%)').fill(slippage);
        await page.getByText('Slippage is a percentage from 0.05 to 50.').waitFor();
        expect(await page.getByRole('button', { name: 'Buy TRADE', exact: true }).isDisabled()).toBe(true);
      }
      await page.getByLabel('Slippage (%)').fill('8');
      await page.getByText('Above 5%: you may get much less than the quote.').waitFor();
      await page.getByLabel('Slippage (%)').fill('1');
      for (const deadline of ['abc', '0', '61']) {
        await page.getByLabel('Deadline (minutes)').fill(deadline);
        await page.getByText('The deadline is a whole number of minutes from 1 to 60.').waitFor();
        expect(await page.getByRole('button', { name: 'Buy TRADE', exact: true }).isDisabled()).toBe(true);
      }
      await page.getByLabel('Deadline (minutes)').fill('10');
      await accessible(page, 'trade-fields');
      await page.getByRole('button', { name: 'Sell', exact: true }).click();
      expect(await page.getByLabel('TRADE to sell').inputValue()).toBe('');
      expect(await page.locator('[data-quote-out]').count()).toBe(0);
    } finally {
      await close();
    }
  }, 60_000);

  it('buys across graduation: the route, the impact warning, the confirmation, and the quote is what it gets', async () => {
    // The curve all but 300 USDC full, by another trader.
    const curve = await t.chain.chain.publicClient.readContract({
      address: t.chain.chain.contracts.tokenLauncher!,
      abi: TokenLauncherAbi,
      functionName: 'curveOf',
      args: [token],
    });
    await trading.buy(
      3,
      token,
      ((curve.graduationVirtualUsdc - curve.virtualUsdc - parseUnits('300', 6)) * 101n) / 100n,
    );

    const { page, close } = await open(`/companies/${slug}/token`, 2, 390);
    try {
      await page.getByLabel('USDC to spend').fill('2000');
      const quote = await quoteOf(page);
      expect(await page.getByTestId('quote-route').textContent()).toBe('Bonding curve, then the new Uniswap v4 pool');
      await page
        .getByTestId('graduation')
        .getByText(/This buy completes the bonding curve and graduates TRADE/)
        .waitFor();
      await page
        .getByTestId('impact-warning')
        .getByText(/High price impact: you pay [\d.]+% more/)
        .waitFor();
      const buy = page.getByRole('button', { name: 'Buy TRADE', exact: true });
      expect(await buy.isDisabled()).toBe(true);
      await atBothWidths(page, 'trade-graduation-quote');
      if (process.env.UPDATE_DOCS_SCREENSHOTS) {
        mkdirSync(DOCS, { recursive: true });
        await page
          .locator('section[aria-labelledby="trade-h"]')
          .screenshot({ path: path.join(DOCS, 'trade-quote.png') });
      }

      await page.getByRole('checkbox', { name: /I accept that this trade moves the price/ }).check();
      const before = await trading.balanceOf(2, token);
      const nonce = await nonceOf(2);
      await buy.click();
      await page.getByText(/^Bought [\d,.]+ TRADE for 2,000 USDC\.$/).waitFor({ timeout: 60_000 });
      const received = (await trading.balanceOf(2, token)) - before;
      // Within the stated slippage of the quote; nothing else traded in between, so exactly the quote.
      expect(received).toBeGreaterThanOrEqual(quote.min);
      expect(received).toBe(quote.out);
      // One transaction with a permit (no approval sent).
      expect((await nonceOf(2)) - nonce).toBe(TRANSACTIONS_PER_BUY);
      await page.locator('[data-toast="mined"]').first().waitFor();
      await page.getByText('trades in its Uniswap v4 pool').waitFor();
      await accessible(page, 'trade-bought');
    } finally {
      await close();
    }
  }, 120_000);

  it('a buy and a mint with too little USDC: a sentence, and nothing sent', async () => {
    // Account 6 gives all its USDC away.
    const wallet = t.chain.wallet(6);
    const usdc = t.chain.chain.contracts.usdc! as Address;
    const all = await trading.usdcOf(devAccount(6).address);
    await trading.send(
      wallet.writeContract({
        address: usdc,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [devAccount(9).address, all],
      }),
    );
    const nonce = await nonceOf(6);
    const { page, close } = await open(`/companies/${slug}/token`, 6, 390);
    try {
      await page.getByTestId('balance').getByText('0 USDC').waitFor();
      await page.getByLabel('USDC to spend').fill('10');
      await page.getByText('You have 0 USDC; this buy needs 10 USDC.').waitFor();
      expect(await page.getByRole('button', { name: 'Buy TRADE', exact: true }).isDisabled()).toBe(true);
      await atBothWidths(page, 'trade-no-usdc');

      // The mint page lets the button be pressed: the simulation refuses it before the wallet is asked anything.
      await page.getByRole('link', { name: 'Mint', exact: true }).click();
      await page.getByTestId('usdc-balance').getByText('0 USDC').waitFor();
      await page.getByRole('button', { name: 'Mint 1' }).click();
      await page.getByText('You have 0 USDC; this mint needs 100 USDC.').waitFor();
      await accessible(page, 'mint-no-usdc');
      expect(await nonceOf(6)).toBe(nonce);
      expect(await page.locator('[data-toast]').count()).toBe(0);
    } finally {
      await close();
    }
  }, 60_000);

  it('a Max sale empties the position', async () => {
    const { page, close } = await open(`/companies/${slug}/token`, 2, 1440);
    try {
      await page.getByRole('heading', { name: 'Your position' }).waitFor();
      await page.getByRole('button', { name: 'Sell', exact: true }).click();
      const held = await trading.balanceOf(2, token);
      expect(held).toBeGreaterThan(0n);
      // More than the wallet holds is refused in the form.
      await page.getByLabel('TRADE to sell').fill('100000000');
      await page.getByText(/^You hold [\d,.]+ TRADE\.$/).waitFor();
      await page.getByRole('button', { name: 'Max' }).click();
      await quoteOf(page);
      const confirm = page.getByRole('checkbox', { name: /I accept that this trade moves the price/ });
      if (await confirm.isVisible()) await confirm.check();
      await accessible(page, 'trade-max-sell');
      const nonce = await nonceOf(2);
      await page.getByRole('button', { name: 'Sell TRADE', exact: true }).click();
      await page.getByText(/^Sold [\d,.]+ TRADE for [\d,.]+ USDC\.$/).waitFor({ timeout: 60_000 });
      expect(await trading.balanceOf(2, token)).toBe(0n);
      expect((await nonceOf(2)) - nonce).toBe(TRANSACTIONS_PER_SELL);
      await expect.poll(() => page.getByTestId('held').textContent(), { timeout: 15_000 }).toBe('0 TRADE');
    } finally {
      await close();
    }
  }, 90_000);

  it('stakes and harvests, each amount with its symbol', async () => {
    const { page, close } = await open('/staking', 4, 1440);
    try {
      await page.getByRole('heading', { name: 'Your position' }).waitFor();
      await page.getByLabel('Amount of AIE').fill('250');
      await page.getByRole('button', { name: 'Stake', exact: true }).click();
      await page.locator('output.notice').getByText('Staked 250 AIE.').waitFor({ timeout: 60_000 });
      await expect.poll(() => page.getByTestId('staked').textContent()).toBe('250 AIE');
      // An hour of emission accrues.
      const node = anvilTestClient(t.chain.node.rpcUrl);
      await node.increaseTime({ seconds: 3_600 });
      await node.mine({ blocks: 1 });
      await page.reload();
      // The dev account chosen is remembered: the reload reconnects it.
      await page.getByText('Dev 4 ·').waitFor();
      await expect.poll(() => page.getByTestId('pending').textContent()).toMatch(/^[\d,.]+ AIEM$/);
      await page.getByRole('button', { name: 'Harvest' }).click();
      const harvested = await page
        .locator('output.notice')
        .getByText(/^Harvested [\d,.]+ AIEM\.$/)
        .textContent();
      expect(Number(/[\d,.]+/.exec(harvested!)![0].replace(/,/g, ''))).toBeGreaterThan(0);
      await expect.poll(() => page.getByTestId('wallet-emission').textContent()).not.toBe('0 AIEM');
      expect(await page.getByTestId('wallet-primary').textContent()).toMatch(/^[\d,.]+ AIE$/);
      await atBothWidths(page, 'staking-harvested');
    } finally {
      await close();
    }
  }, 90_000);
});
