/// <reference lib="dom" />
// Fewer prompts, in Chromium against the whole service on loopback, its anvil and a real database, at 390 and 1440 px
// with axe: every wallet request the page makes (a signature, a transaction) is counted on its way to the node. A
// staker holding a card stakes with its boost in the deposit itself (a signature and one transaction, not a third
// for the boost); a trade with the lasting allowance chosen is an approval of its cap then the trade, and the next
// trade within it is one transaction; without it, each trade is a permit's signature and a transaction; and the
// allowance is said in words and units, and can be removed.
import { erc20Abi, parseUnits } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { useTestApp } from '../helpers/app.ts';
import { atBothWidths, browserUnavailable } from '../helpers/browser.ts';
import { mintCard, staffedCompany } from '../helpers/companies.ts';
import { tokenTrading } from '../helpers/trading.ts';
import { type OpenPage, useWebApp } from '../helpers/web.ts';

const t = useTestApp();
const web = useWebApp(t);
const trading = tokenTrading(t);

const PROMPTS = ['eth_sendTransaction', 'eth_signTypedData_v4'] as const;
type Prompts = Record<(typeof PROMPTS)[number], number>;

/** Counts the wallet requests a page sends to the node (the dev accounts' wallet is the node): what would prompt. */
function countPrompts(opened: OpenPage): { now(): Prompts; reset(): void } {
  const node = new URL(t.chain.node.rpcUrl).origin;
  let counts: Prompts = { eth_sendTransaction: 0, eth_signTypedData_v4: 0 };
  opened.page.on('request', (request) => {
    if (new URL(request.url()).origin !== node || request.method() !== 'POST') return;
    const body = request.postDataJSON() as { method: string } | { method: string }[] | null;
    for (const call of Array.isArray(body) ? body : body ? [body] : []) {
      if ((PROMPTS as readonly string[]).includes(call.method)) counts[call.method as keyof Prompts] += 1;
    }
  });
  return {
    now: () => ({ ...counts }),
    reset: () => {
      counts = { eth_sendTransaction: 0, eth_signTypedData_v4: 0 };
    },
  };
}

let slug: string;
let token: `0x${string}`;
let launcher: `0x${string}`;
let usdc: `0x${string}`;
const allowanceOf = (account: number) =>
  t.chain.chain.publicClient.readContract({
    address: usdc,
    abi: erc20Abi,
    functionName: 'allowance',
    args: [devAccount(account).address, launcher],
  });

describe.skipIf(browserUnavailable)('fewer prompts', () => {
  beforeAll(async () => {
    const company = await staffedCompany(t, 1, { name: 'Prompt Count Co' });
    slug = (await t.app.inject(`/api/companies/${company.id}`)).json().data.slug;
    token = await trading.launch(company.id, 'PRMT', 1);
    await trading.index();
    launcher = t.chain.chain.contracts.tokenLauncher!;
    usdc = t.chain.chain.contracts.usdc!;
    // The staker holds a card and no stake yet.
    await mintCard(t.chain, 5);
  }, 240_000);

  it("a staker with a card stakes with its boost in two prompts: the permit's signature and the deposit", async () => {
    // The wallet's reads from the node (its balances, allowance and cards: the calls that name the access card) are
    // held until after the click, as on a slow node: a stake clicked before they arrive waits for them, and still
    // takes the card's boost.
    const node = new URL(t.chain.node.rpcUrl).origin;
    const card = t.chain.chain.contracts.accessCard!.slice(2).toLowerCase();
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const opened = await web.open('/staking', {
      width: 390,
      account: 5,
      before: (page) =>
        page.route(
          (url) => url.origin === node,
          async (route) => {
            const body = route.request().postDataJSON() as { method: string } | { method: string }[] | null;
            const calls = Array.isArray(body) ? body : body ? [body] : [];
            const reads = calls.filter(
              (c) => c.method === 'eth_call' && JSON.stringify(c).toLowerCase().includes(card),
            );
            if (reads.length > 0) await released;
            await route.continue();
          },
        ),
    });
    const prompts = countPrompts(opened);
    const { page } = opened;
    await page.getByRole('heading', { name: 'Your position' }).waitFor();
    await page.getByLabel('Amount of AIE').fill('100');
    await page.getByRole('button', { name: 'Stake', exact: true }).click();
    await page.waitForTimeout(300);
    release();
    await page.locator('output.notice').getByText('Staked 100 AIE, boosted by your card.').waitFor({ timeout: 60_000 });
    expect(prompts.now()).toEqual({ eth_signTypedData_v4: 1, eth_sendTransaction: 1 });
    await expect
      .poll(() => page.getByTestId('boost').textContent(), { timeout: 15_000 })
      .toMatch(/^(BLACK|GOLD|SILVER) card, x[235]$/);
    // Nothing left to apply: the boost came with the deposit.
    expect(await page.getByRole('button', { name: /^Apply my .* card's boost/ }).count()).toBe(0);
    await atBothWidths(page, 'prompts-staked-boosted');
    expect(opened.errors).toEqual([]);
    await opened.close();
  }, 120_000);

  it('a card bought while the staking page is open boosts the stake without a reload', async () => {
    const opened = await web.open('/staking', { width: 1440, account: 8 });
    const { page } = opened;
    await page.getByTestId('boost').getByText('none (hold an access card to boost)').waitFor();
    // The card arrives after the page read the wallet (bought elsewhere): the page still holds none.
    await mintCard(t.chain, 8);
    await page.getByLabel('Amount of AIE').fill('100');
    await page.getByRole('button', { name: 'Stake', exact: true }).click();
    await page.locator('output.notice').getByText('Staked 100 AIE, boosted by your card.').waitFor({ timeout: 60_000 });
    await expect
      .poll(() => page.getByTestId('boost').textContent(), { timeout: 15_000 })
      .toMatch(/^(BLACK|GOLD|SILVER) card, x[235]$/);
    expect(opened.errors).toEqual([]);
    await opened.close();
  }, 120_000);

  it('a lasting allowance: the first trade an approval and the trade, the next one prompt; removable', async () => {
    const opened = await web.open(`/companies/${slug}/token`, { width: 1440, account: 3 });
    const prompts = countPrompts(opened);
    const { page } = opened;
    const buy = async (usdcAmount: string) => {
      await page.getByLabel('USDC to spend').fill(usdcAmount);
      await page.locator('[data-quote-out]').waitFor();
    };
    await buy('10');
    const offer = page.getByLabel('Allow the launcher to spend up to 1,000 USDC from your wallet until you change it');
    await offer.waitFor();
    await offer.check();
    expect(await page.locator('.allowance').textContent()).toMatch(/later trades take one confirmation each/);
    // The consent is for the side it was given on (a buy's USDC): a switch to Sell and back clears it.
    await page.getByRole('button', { name: 'Sell', exact: true }).click();
    await page.getByRole('button', { name: 'Buy', exact: true }).click();
    await buy('10');
    await offer.waitFor();
    expect(await offer.isChecked()).toBe(false);
    await offer.check();
    await atBothWidths(page, 'prompts-allowance-offer');
    await page.getByRole('button', { name: 'Buy PRMT', exact: true }).click();
    await page
      .locator('output.notice')
      .getByText(/^Bought [\d,.]+ PRMT for 10 USDC\.$/)
      .waitFor({ timeout: 60_000 });
    expect(prompts.now()).toEqual({ eth_signTypedData_v4: 0, eth_sendTransaction: 2 });
    expect(await allowanceOf(3)).toBe(parseUnits('990', 6));

    // The next trade within the allowance: one transaction, no signature, and the page says why.
    prompts.reset();
    await buy('25');
    await expect
      .poll(() => page.getByTestId('allowance').textContent())
      .toMatch(
        /^The launcher may spend up to 990 USDC more from your wallet \(your lasting allowance\): this trade takes one confirmation\./,
      );
    await atBothWidths(page, 'prompts-allowance-covered');
    await page.getByRole('button', { name: 'Buy PRMT', exact: true }).click();
    await page
      .locator('output.notice')
      .getByText(/^Bought [\d,.]+ PRMT for 25 USDC\.$/)
      .waitFor({ timeout: 60_000 });
    expect(prompts.now()).toEqual({ eth_signTypedData_v4: 0, eth_sendTransaction: 1 });
    expect(await allowanceOf(3)).toBe(parseUnits('965', 6));

    // Removed: the allowance is 0 on-chain and the offer is back.
    await buy('5');
    await page.getByRole('button', { name: 'Remove the allowance' }).click();
    await page
      .locator('output.notice')
      .getByText('The launcher may no longer spend your USDC.')
      .waitFor({ timeout: 60_000 });
    expect(await allowanceOf(3)).toBe(0n);
    await buy('6');
    await page.getByLabel(/^Allow the launcher to spend up to 1,000 USDC/).waitFor();
    expect(opened.errors).toEqual([]);
    await opened.close();
  }, 180_000);

  it('an unlimited allowance given elsewhere is said as such, within a phone width, and its trade is one prompt', async () => {
    // The test helper's buy approves the maximum, as many apps do.
    await trading.buy(6, token, parseUnits('5', 6));
    const opened = await web.open(`/companies/${slug}/token`, { width: 390, account: 6 });
    const prompts = countPrompts(opened);
    const { page } = opened;
    await page.getByLabel('USDC to spend').fill('10');
    await page.locator('[data-quote-out]').waitFor();
    await expect
      .poll(() => page.getByTestId('allowance').textContent())
      .toMatch(
        /^The launcher may spend any amount of your USDC \(an unlimited allowance given earlier\): this trade takes one confirmation\./,
      );
    await atBothWidths(page, 'prompts-allowance-unlimited');
    await page.getByRole('button', { name: 'Buy PRMT', exact: true }).click();
    await page
      .locator('output.notice')
      .getByText(/^Bought [\d,.]+ PRMT for 10 USDC\.$/)
      .waitFor({ timeout: 60_000 });
    expect(prompts.now()).toEqual({ eth_signTypedData_v4: 0, eth_sendTransaction: 1 });
    expect(opened.errors).toEqual([]);
    await opened.close();
  }, 120_000);

  it('without the allowance each trade is a signature and one transaction, and leaves no allowance', async () => {
    const opened = await web.open(`/companies/${slug}/token`, { width: 390, account: 4 });
    const prompts = countPrompts(opened);
    const { page } = opened;
    await page.getByLabel('USDC to spend').fill('10');
    await page.locator('[data-quote-out]').waitFor();
    expect(await page.locator('.allowance').textContent()).toMatch(/each trade asks for a signature/);
    await page.getByRole('button', { name: 'Buy PRMT', exact: true }).click();
    await page
      .locator('output.notice')
      .getByText(/^Bought [\d,.]+ PRMT for 10 USDC\.$/)
      .waitFor({ timeout: 60_000 });
    expect(prompts.now()).toEqual({ eth_signTypedData_v4: 1, eth_sendTransaction: 1 });
    expect(await allowanceOf(4)).toBe(0n);
    expect(opened.errors).toEqual([]);
    await opened.close();
  }, 120_000);
});
