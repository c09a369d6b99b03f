/// <reference lib="dom" />
// Every page alive, in Chromium against the whole service on loopback, its anvil and a real database: what a page
// shows that can change follows the event stream, without a reload. The Activity page opens on the recent past (the
// events before it was opened) and names a trading agent "Spot Sprinters' CFO", not its address; a decision round
// with a trade moves the company's portfolio and PnL and the agent page's actions and positions where they stand; a
// trade made elsewhere moves the trade form's balance of the wallet that made it (a second tab).

import { TokenLauncherAbi } from '@ai-economy/shared/abis';
import { formatUnits, parseUnits } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.ts';
import { atBothWidths, browserUnavailable } from '../helpers/browser.ts';
import { signed, staffedCompany } from '../helpers/companies.ts';
import { tokenTrading } from '../helpers/trading.ts';
import { useWebApp } from '../helpers/web.ts';

// COMPANY_CUSTODY=none: this file follows an agent's own wallet (its positions, its name on a trade row); the
// custody path, where the company's Safe trades, is test/http/custody-trading.test.ts's.
const t = useTestApp({ env: { COMPANY_CUSTODY: 'none', MANUAL_ROUND_COOLDOWN_S: '0' } });
const web = useWebApp(t);
const trading = tokenTrading(t);

let trader: { id: string; cfo: { id: string; address: `0x${string}` } };
let targetId: string;
let token: `0x${string}`;

async function round() {
  const res = await signed(t.app, 1, 'POST', `/api/companies/${trader.id}/decisions/run`);
  expect(res.statusCode).toBe(201);
  expect(res.json().data.status).toBe('COMPLETE');
}

describe.skipIf(browserUnavailable)('every page alive', () => {
  beforeAll(async () => {
    const target = await staffedCompany(t, 2, { name: 'Alive Target Co' });
    targetId = target.id;
    token = await trading.launch(target.id, 'ALV', 2);
    await trading.index();
    trader = await staffedCompany(t, 1, { name: 'Spot Sprinters', category: 'SPOT_TRADING' });
    await trading.fund(1, trader.cfo.address, parseUnits('500', 6));
    const directive = await signed(t.app, 1, 'PATCH', `/api/companies/${trader.id}`, {
      ceoPrompt: 'Buy 20 USDC of ALV every round.',
    });
    expect(directive.statusCode).toBe(200);
    web.followTrades();
    // The recent past the Activity page opens on: a round whose CFO bought.
    await round();
  }, 240_000);

  it('Activity opens on the recent past and names the agent that traded', async () => {
    const { page, errors, close } = await web.open('/activity');
    try {
      const trade = page.locator('[data-event="trade"]').filter({ hasText: 'Bought' }).first();
      await trade.waitFor();
      await expect.poll(() => trade.textContent()).toMatch(/\$ALV .* by Spot Sprinters' CFO$/);
      await expect(trade.getByRole('link', { name: "Spot Sprinters' CFO" }).getAttribute('href')).resolves.toBe(
        `/agents/${trader.cfo.id}`,
      );
      expect(await page.locator('[data-event="decision"]').count()).toBeGreaterThan(0);
      expect(await page.getByText(trader.cfo.address.slice(0, 6)).count()).toBe(0);
      await atBothWidths(page, 'alive-activity');
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  }, 90_000);

  it("a round moves the company's portfolio and the agent's actions and positions where they stand", async () => {
    const company = await web.open(`/companies/${trader.id}`);
    const agent = await web.open(`/agents/${trader.cfo.id}`);
    try {
      const totals = company.page.getByTestId('company-totals');
      await totals.waitFor();
      const heldBefore = await company.page
        .getByRole('table', { name: /Positions/ })
        .locator('tbody td')
        .nth(1)
        .textContent();
      const actions = agent.page.locator('.actions-list li');
      await actions.first().waitFor();
      expect(await actions.count()).toBe(1);
      const agentHeld = agent.page
        .getByRole('table', { name: /Positions/ })
        .locator('tbody td')
        .nth(1);
      const agentHeldBefore = await agentHeld.textContent();

      await round();
      // No reload: the decision and trade events refetch what both pages show.
      await expect.poll(() => actions.count(), { timeout: 20_000 }).toBe(2);
      await expect.poll(() => agentHeld.textContent(), { timeout: 20_000 }).not.toBe(agentHeldBefore);
      await expect
        .poll(
          () =>
            company.page
              .getByRole('table', { name: /Positions/ })
              .locator('tbody td')
              .nth(1)
              .textContent(),
          { timeout: 20_000 },
        )
        .not.toBe(heldBefore);
      await atBothWidths(company.page, 'alive-company');
      expect([...company.errors, ...agent.errors]).toEqual([]);
    } finally {
      await company.close();
      await agent.close();
    }
  }, 120_000);

  it("a trade made in another tab moves the trade form's balance", async () => {
    const { page, errors, close } = await web.open(`/companies/${targetId}/token`, { account: 3 });
    try {
      const balance = page.getByTestId('balance');
      await balance.waitFor();
      const before = await balance.textContent();
      await trading.buy(3, token, parseUnits('25', 6));
      await expect.poll(() => balance.textContent(), { timeout: 20_000 }).not.toBe(before);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  }, 90_000);

  it('the token page names its traders and says what is left to graduation; the board ticks with the latest trades', async () => {
    const { page, errors, close } = await web.open(`/companies/${targetId}/token`);
    try {
      // The CFO's buy, named as the company's agent and linked to it.
      const named = page.getByRole('row').getByRole('link', { name: "Spot Sprinters' CFO" }).first();
      await named.waitFor();
      expect(await named.getAttribute('href')).toBe(`/agents/${trader.cfo.id}`);
      const left = page.getByTestId('to-graduation');
      await left.waitFor();
      const curve = await t.chain.chain.publicClient.readContract({
        address: t.chain.chain.contracts.tokenLauncher!,
        abi: TokenLauncherAbi,
        functionName: 'curveOf',
        args: [token],
      });
      const feeBps = BigInt(
        await t.chain.chain.publicClient.readContract({
          address: t.chain.chain.contracts.tokenLauncher!,
          abi: TokenLauncherAbi,
          functionName: 'curveFeeBps',
        }),
      );
      const needed = curve.graduationVirtualUsdc - curve.virtualUsdc;
      expect(BigInt((await left.getAttribute('data-usdc'))!)).toBe(needed + (needed * feeBps + 9_999n) / 10_000n);
      expect(await left.textContent()).toMatch(/^[\d,]+ USDC to graduation: /);
      await atBothWidths(page, 'alive-token-names');
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
    const board = await web.open('/');
    try {
      const ticker = board.page.getByRole('region', { name: 'Latest trades' });
      await ticker.getByText("Spot Sprinters' CFO").first().waitFor();
      // A new trade joins the ticker live, first.
      await trading.buy(5, token, parseUnits('7', 6));
      await expect
        .poll(() => ticker.locator('li').first().textContent(), { timeout: 20_000 })
        .toMatch(/^Buy \$ALV 7(\.00)? USDC by 0x/);
      await atBothWidths(board.page, 'alive-board-ticker');
      expect(board.errors).toEqual([]);
    } finally {
      await board.close();
    }
  }, 120_000);

  it("a position's exit value: what selling it all returns, the Sell-Max quote, and the PnL counted from it", async () => {
    // A large buy moves the price far: its mark value is well above what selling it back returns.
    await trading.buy(4, token, parseUnits('3000', 6));
    const held = await trading.balanceOf(4, token);
    const { page, errors, close } = await web.open(`/companies/${targetId}/token`, { account: 4 });
    try {
      const exit = page.getByTestId('exit-value');
      await expect.poll(() => exit.getAttribute('data-exit'), { timeout: 20_000 }).not.toBeNull();
      const quoted = await t.chain.chain.publicClient.readContract({
        address: t.chain.chain.contracts.tokenLauncher!,
        abi: TokenLauncherAbi,
        functionName: 'quoteSell',
        args: [token, held],
      });
      expect(BigInt((await exit.getAttribute('data-exit'))!)).toBe(quoted);
      await expect.poll(() => exit.textContent()).toMatch(/% below the value at the price: fees and price impact\)$/);
      // The form's Sell Max quotes the same USDC.
      await page.getByRole('button', { name: 'Sell', exact: true }).click();
      await page.getByRole('button', { name: 'Max' }).click();
      await expect
        .poll(async () => (await page.locator('[data-quote-out]').getAttribute('data-quote-out')) ?? '')
        .toBe(quoted.toString());
      // The unrealised PnL is the exit value less the cost (3,000 USDC), below the one at the price.
      const pnl = (await page.getByTestId('unrealized').textContent())!.replace(/[^0-9.\-−]/g, '').replace('−', '-');
      const expected = Number(formatUnits(quoted - parseUnits('3000', 6), 6));
      expect(Math.abs(Number(pnl) - expected)).toBeLessThan(0.01);
      await atBothWidths(page, 'alive-exit-value');
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
    // The company's portfolio carries the same figure for its agents: the exit column beside the value at the price.
    const company = await web.open(`/companies/${trader.id}`);
    try {
      const cell = company.page.locator('td[data-col="exit"]').first();
      await expect.poll(() => cell.textContent(), { timeout: 20_000 }).toMatch(/^[\d,.]+ USDC$/);
      await company.page
        .getByTestId('company-totals')
        .getByText(/if their company tokens were sold now/)
        .waitFor();
    } finally {
      await company.close();
    }
  }, 120_000);
});
