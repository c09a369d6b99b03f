/// <reference lib="dom" />
// The web app's pages about what agents do and what a wallet owns, in Chromium against the whole service on
// loopback, its anvil and a real database: a company whose CFO buys and sells in decision rounds (the built-in model
// following its owner's directive), its decisions with their reasons and outcomes, a decision's page with its
// verification (the hash recomputed in the browser, the anchoring transaction and block), an agent's page (its
// identity, balances in units, positions, PnL over time and actions), each checked by axe at 390 and 1440 px.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { StakingAbi } from '@ai-economy/shared/abis';
import type { BrowserContext, Page } from 'playwright-core';
import { type Address, createTestClient, erc20Abi, http, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distributeEpoch } from '../../src/domain/epochs/distribute.ts';
import { takeScoreSnapshot } from '../../src/domain/scores/snapshot.ts';
import { useTestApp } from '../helpers/app.ts';
import { accessible, atBothWidths, browserUnavailable, connect, launchChromium } from '../helpers/browser.ts';
import { mintCard, signed, staffedCompany } from '../helpers/companies.ts';
import { finalizeScored } from '../helpers/scores.ts';
import { tokenTrading } from '../helpers/trading.ts';

// COMPANY_CUSTODY=none: this file is about the path where a company's agents act from their own wallets.
const t = useTestApp({ env: { COMPANY_CUSTODY: 'none', MANUAL_ROUND_COOLDOWN_S: '0' } });
const trading = tokenTrading(t);
const USDC = 1_000_000n;
const TREASURY = '0x00000000000000000000000000000000000bA5e1' as Address;

let base: string;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let context: BrowserContext;
let page: Page;
let company: { id: string; slug: string };
let cfo: { id: string; address: Address };
let buyRound: string;
let snapshotDay: string;
let targetSlug: string;
let tokenAddress: Address;

const directive = (ceoPrompt: string) => signed(t.app, 1, 'PATCH', `/api/companies/${company.id}`, { ceoPrompt });
async function runRound() {
  const res = await signed(t.app, 1, 'POST', `/api/companies/${company.id}/decisions/run`);
  expect(res.statusCode).toBe(201);
  return res.json().data as { id: string; status: string; anchoredTxHash: string | null };
}

const DOCS = path.resolve(import.meta.dirname, '../../docs/images');

/** With UPDATE_DOCS_SCREENSHOTS=1, the page at `width` as docs/web.md shows it. */
async function docsShot(p: Page, name: string, width: number) {
  if (!process.env.UPDATE_DOCS_SCREENSHOTS) return;
  mkdirSync(DOCS, { recursive: true });
  await p.setViewportSize({ width, height: 900 });
  await p.waitForTimeout(150);
  await p.screenshot({ path: path.join(DOCS, `${name}.png`), fullPage: true });
  await p.setViewportSize({ width: 1440, height: 900 });
}

/** No page logs an error. */
function consoleErrors(p: Page) {
  const errors: string[] = [];
  p.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${p.url()}: ${m.text()}`);
  });
  return errors;
}

describe.skipIf(browserUnavailable)('decisions, agents and accounts in Chromium', () => {
  let errors: string[];

  beforeAll(async () => {
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    // A target company with a token, and a trading company whose CFO buys it, then sells it at a profit.
    const target = await staffedCompany(t, 2, { name: 'Target Token Co' });
    const token = await trading.launch(target.id, 'TGT', 2);
    targetSlug = (await t.app.inject(`/api/companies/${target.id}`)).json().data.slug;
    const trader = await staffedCompany(t, 1, {
      name: 'Directed Trader Co',
      category: 'SPOT_TRADING',
      treasuryAddress: TREASURY,
    });
    company = { id: trader.id, slug: (await t.app.inject(`/api/companies/${trader.id}`)).json().data.slug };
    cfo = trader.cfo;
    await trading.fund(1, cfo.address, 1_000n * USDC);
    expect((await directive('Buy 50 USDC of TGT every round.')).statusCode).toBe(200);
    const bought = await runRound();
    expect(bought).toMatchObject({ status: 'COMPLETE', anchoredTxHash: expect.stringMatching(/^0x/) });
    buyRound = bought.id;
    snapshotDay = await trading.startTradingDay();
    tokenAddress = token;
    await trading.buy(3, token, 2_000n * USDC);
    // An agent is offered a sale of what its indexed positions hold.
    await trading.index();
    expect((await directive('Sell all TGT now.')).statusCode).toBe(200);
    expect((await runRound()).status).toBe('COMPLETE');
    await trading.index();
    // The service reuses its reading of the chain's clock for a few seconds (READ_CLOCK_REUSE_MS): the pages count
    // from the moved clock once the service reads it.
    const moved = await t.chain.chain.publicClient.getBlock({ blockTag: 'latest' });
    const servedNow = async () => Date.parse((await t.app.inject('/api/chain')).json().data.now);
    for (let i = 0; i < 150 && (await servedNow()) < Number(moved.timestamp) * 1000; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await servedNow()).toBeGreaterThanOrEqual(Number(moved.timestamp) * 1000);

    chromium = await launchChromium();
    context = await chromium.browser.newContext({ viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    errors = consoleErrors(page);
  }, 240_000);

  afterAll(async () => {
    await chromium?.close();
  });

  it("shows each decision's directive, its actions with their reasons and outcomes, and the models that answered", async () => {
    await page.goto(`${base}/companies/${company.slug}`);
    await page.getByRole('heading', { name: 'Decisions' }).waitFor();
    const round = page.locator(`[data-round="${buyRound}"]`);
    await round.getByText('CEO directive: Buy 50 USDC of TGT every round.').waitFor();
    const buy = round
      .getByRole('list', { name: /Actions of cycle/ })
      .getByRole('listitem')
      .first();
    expect(await buy.getAttribute('data-outcome')).toBe('done');
    expect(await buy.textContent()).toMatch(
      /^CFO: Buy TGT with 50 USDCReason: .+Done bought about [\d.]+ TGT for 50 USDC/,
    );
    await round.getByText('Phases and models').click();
    await round
      .getByText(/answered by the built-in model/)
      .first()
      .waitFor();
    // One clock: the buy round was dated by the chain before its clock moved to the next trading day, so against
    // the chain's clock it is hours old (against the device's clock it read "just now", being in its future).
    expect(await round.locator('time').first().textContent()).toMatch(/hr\.? ago|yesterday|days? ago/);
    // The company's portfolio: the CFO sold at a profit.
    await expect.poll(() => page.getByTestId('company-totals').textContent()).toMatch(/realised PnL \+[\d,.]+ USDC/);
    await atBothWidths(page, 'company-decisions');
  }, 90_000);

  it('opens a decision: its reasons, and its verification in words (hash recomputed, transaction and block)', async () => {
    await page
      .locator(`[data-round="${buyRound}"]`)
      .getByRole('link', { name: 'The decision and its verification' })
      .click();
    await page.getByRole('heading', { name: /^Directed Trader Co: decision of cycle \d+$/ }).waitFor();
    // The directive's own block: the CEO's reasoning, shown too, may quote it.
    await page
      .getByRole('region', { name: "The CEO's directive" })
      .locator('blockquote', { hasText: 'Buy 50 USDC of TGT every round.' })
      .waitFor();
    await page.getByTestId('ceo-reasoning').waitFor();
    // Its date, on the chain's clock, as the company's timeline counts it.
    expect(await page.getByTestId('decision-date').textContent()).toMatch(
      /^Decided (\d+ hr\.? ago|yesterday|\d+ days ago) \(.+, the chain's time\)\.$/,
    );
    const recomputed = page.getByTestId('hash-recomputed');
    expect(await recomputed.getAttribute('data-matches')).toBe('true');
    await recomputed.getByText('It matches the hash the platform stored.').waitFor();
    const anchoring = page.getByTestId('anchoring');
    await anchoring.waitFor();
    expect(await anchoring.getAttribute('data-verified')).toBe('true');
    expect(await anchoring.textContent()).toMatch(
      /written by transaction 0x[0-9a-f]{4}…[0-9a-f]{4}Copy in block [\d,]+\. Verified\./,
    );
    await page.getByText(/What “verified” means:/).waitFor();
    await atBothWidths(page, 'decision');
    await docsShot(page, 'decision', 1440);
  }, 90_000);

  it('opens an agent from its company: identity, balances in units, positions, PnL over time and actions', async () => {
    await page.goto(`${base}/companies/${company.slug}`);
    await page.locator(`a[href="/agents/${cfo.id}"]`).click();
    await page.getByRole('heading', { level: 1, name: /CFO/ }).waitFor();
    await page.getByText(/^The CFO of Directed Trader Co/).waitFor();
    await page.getByText(/^Agent #\d+ in the identity registry/).waitFor();
    const balances = page.getByTestId('agent-balances');
    await balances.waitFor();
    expect(await balances.textContent()).toMatch(/USDC[\d,.]+ USDC/);
    expect(await balances.textContent()).not.toMatch(/nativeWei|\d{12,}/);
    await page.getByRole('img', { name: /Realised PnL after each of 2 trades, now [\d,.]+ USDC/ }).waitFor();
    await page.getByText(/Bought TGT for 50 USDC · mined/).waitFor();
    await page.getByText(/^Sold TGT/).waitFor();
    // The identity opens a page, not raw JSON; the raw file stays one link away for machines.
    expect(await page.getByRole('link', { name: 'registration.json' }).getAttribute('href')).toBe(
      `/api/agents/${encodeURIComponent(cfo.id)}/registration.json`,
    );
    await atBothWidths(page, 'agent');
    await docsShot(page, 'agent', 390);
    expect(errors).toEqual([]);
  }, 90_000);
  it('shows the account of the connected wallet after mint, create, stake and claim, one click from the wallet menu', async () => {
    // Dev account 1 created Directed Trader Co with its first card; it mints a second (unused), stakes 100 of the
    // primary token, buys a little TGT, and its company earns a reward in epoch 0, finalized once the chain moves on.
    await mintCard(t.chain, 1);
    const c = t.chain.chain.contracts;
    await trading.send(
      t.chain.wallet(1).writeContract({
        address: c.primaryToken!,
        abi: erc20Abi,
        functionName: 'approve',
        args: [c.staking!, parseEther('100')],
      }),
    );
    await trading.send(
      t.chain.wallet(1).writeContract({
        address: c.staking!,
        abi: StakingAbi,
        functionName: 'deposit',
        args: [0n, parseEther('100')],
        gas: 1_000_000n,
      }),
    );
    await trading.buy(1, tokenAddress, 10n * USDC);
    await trading.index();
    // The day's blocks finalized: a snapshot reads no block above the finalized one.
    await finalizeScored(t);
    await takeScoreSnapshot(t.container, t.database.db, snapshotDay);
    const testClient = createTestClient({ mode: 'anvil', transport: http(t.chain.node.rpcUrl) });
    await testClient.increaseTime({ seconds: 8 * 86_400 });
    await testClient.mine({ blocks: 1 });
    expect((await distributeEpoch(t.container)).status).toBe('finalized');

    await page.goto(`${base}/`);
    await connect(page, 1);
    await page.getByRole('link', { name: /Your account/ }).click();
    await page.getByRole('heading', { name: 'Your account', level: 1 }).waitFor();
    const cards = page.getByTestId('account-cards');
    await cards.getByRole('link', { name: 'Directed Trader Co' }).waitFor();
    await cards.getByText('unused: create a company').waitFor();
    await page.getByTestId('account-companies').getByRole('link', { name: 'Directed Trader Co' }).waitFor();
    expect(await page.getByTestId('account-stake').textContent()).toMatch(/^100 AIE staked .* to harvest/);
    const rewards = page.getByTestId('account-rewards');
    await rewards.getByText(/^Directed Trader Co: [\d,.]+ AIE to claim/).waitFor();
    await page
      .getByRole('region', { name: 'Recent trades' })
      .getByText(/^Bought [\d,.]+ \$TGT$/)
      .waitFor();
    await atBothWidths(page, 'account');
    await docsShot(page, 'account', 1440);

    // Claimed from the company's rewards, the account says so.
    await rewards.getByRole('link', { name: 'Its rewards' }).click();
    await page.getByRole('button', { name: 'Claim' }).first().click();
    await page.getByText(/^Claimed [\d,.]+ AIE to the treasury\.$/).waitFor({ timeout: 30_000 });
    await page.goBack();
    await rewards.getByText('Directed Trader Co: nothing to claim (1 epoch claimed)').waitFor();
    expect(errors).toEqual([]);
  }, 120_000);
  it('never goes blank: a page that cannot load offline says so and recovers online; unminted, missing and unknown pages lead on', async () => {
    const fresh = await chromium.browser.newContext({ viewport: { width: 390, height: 800 } });
    try {
      const p = await fresh.newPage();
      await p.goto(`${base}/`);
      await p.getByRole('heading', { name: 'Token board' }).waitFor();
      // The same document throughout: no reload.
      await p.evaluate(() => {
        (window as unknown as { marker: number }).marker = 42;
      });
      await fresh.setOffline(true);
      // The activity page's code was never loaded: offline, it cannot be.
      await p.evaluate(() => document.querySelector<HTMLElement>('nav a[href="/activity"]')!.click());
      await p
        .getByRole('alert')
        .getByText(/This page could not be loaded/)
        .waitFor();
      await p.getByRole('link', { name: 'Fortune List' }).first().waitFor();
      await fresh.setOffline(false);
      await p.getByRole('heading', { name: 'Live activity' }).waitFor();
      expect(await p.evaluate(() => (window as unknown as { marker: number }).marker)).toBe(42);

      // A card nobody minted is not shown as a card.
      await p.goto(`${base}/cards/9999`);
      await p.getByRole('heading', { name: 'Card #9999 is not minted yet' }).waitFor();
      await accessible(p, 'card-not-minted');
      // A company that does not exist: trying again cannot help; the way home is offered.
      await p.goto(`${base}/companies/no-such-company`);
      await p.getByRole('alert').getByText('Company no-such-company not found').waitFor();
      expect(await p.getByRole('button', { name: 'Try again' }).count()).toBe(0);
      await p.getByRole('alert').getByRole('link', { name: 'Go to the home page' }).click();
      await p.getByRole('heading', { name: 'Token board' }).waitFor();

      // The creator saves a directive: the company turns human-directed on the page, without a reload.
      await p.goto(`${base}/companies/${targetSlug}`);
      await connect(p, 2);
      const league = p.locator('dt:text-is("League") + dd');
      expect(await league.textContent()).toBe('Machine');
      await p.getByLabel(/CEO directive/).fill('Hold the course.');
      await p.getByRole('button', { name: 'Save directive' }).click();
      await expect.poll(() => league.textContent(), { timeout: 15_000 }).toBe('Human (directed by its owner)');
    } finally {
      await fresh.close();
    }
  }, 90_000);
  it('keyboard and habits: the wallet menu closes with Escape and outside, focus and title follow the page, a compact phone header, a hint without a wallet extension', async () => {
    const fresh = await chromium.browser.newContext({ viewport: { width: 390, height: 800 } });
    try {
      const p = await fresh.newPage();
      await p.goto(`${base}/`);
      await p.getByRole('heading', { name: 'Token board' }).waitFor();
      expect(await p.title()).toBe('Token board · ai-economy');
      // The header of a phone: the brand, the wallet and the navigation on two lines.
      const header = await p.locator('header.top').boundingBox();
      expect(header!.height).toBeLessThan(100);
      await accessible(p, 'home-390');

      const button = p.getByRole('button', { name: 'Connect wallet' });
      await button.focus();
      await p.keyboard.press('Enter');
      await p.getByRole('menu').waitFor();
      await p.keyboard.press('Escape');
      expect(await p.getByRole('menu').count()).toBe(0);
      expect(await button.evaluate((b) => b === document.activeElement)).toBe(true);
      await button.click();
      await p.getByRole('menu').waitFor();
      await p.locator('main').click({ position: { x: 5, y: 5 } });
      expect(await p.getByRole('menu').count()).toBe(0);
      // No extension in this browser: the menu says how to get one.
      await button.click();
      await p.getByRole('menuitem', { name: 'Browser wallet' }).click();
      await p.getByText(/No browser wallet was found: install a wallet extension/).waitFor();
      await p.keyboard.press('Escape');

      // Navigating by keyboard: focus lands on the new page's heading, and the title names it.
      await p.locator('nav a[href="/mint"]').focus();
      await p.keyboard.press('Enter');
      await p.getByRole('heading', { name: 'Mint an access card' }).waitFor();
      await expect.poll(() => p.evaluate(() => document.activeElement?.textContent)).toBe('Mint an access card');
      expect(await p.title()).toBe('Mint an access card · ai-economy');
    } finally {
      await fresh.close();
    }
  }, 60_000);
});
