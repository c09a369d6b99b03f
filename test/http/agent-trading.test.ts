// Agents that act, through the real service on anvil: a funded agent wallet buys a company token in a decision
// round (the built-in model following its owner's prompt), the trade is mined and indexed, the portfolio shows the
// position at average cost with its PnL, a later sale at a profit moves the next snapshot's trading score, and the
// creator takes the funds back to the treasury. The limits, refusals and prompt injections have their own file
// (test/attacks/agent-limits.test.ts).

import { TokenLauncherAbi } from '@ai-economy/shared/abis';
import { eq } from 'drizzle-orm';
import { type Address, erc20Abi, formatUnits, parseUnits } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { agentActions } from '../../src/db/schema/agents.ts';
import { chainTxs } from '../../src/db/schema/chain.ts';
import { scoreSnapshots } from '../../src/db/schema/scores.ts';
import { takeScoreSnapshot } from '../../src/domain/scores/snapshot.ts';
import { runAgentAction } from '../../src/domain/trading/actions.ts';
import { useTestApp } from '../helpers/app.ts';
import { signed, staffedCompany } from '../helpers/companies.ts';
import { finalizeScored } from '../helpers/scores.ts';
import { tokenTrading } from '../helpers/trading.ts';

// COMPANY_CUSTODY=none: this file is about the path where a company's agents act from their own wallets.
const t = useTestApp({ env: { COMPANY_CUSTODY: 'none', MANUAL_ROUND_COOLDOWN_S: '0' } });
const trading = tokenTrading(t);
const USDC = 1_000_000n;
const TREASURY = '0x00000000000000000000000000000000000bA5e1' as Address;

let target: Address;
let companyId: string;
let cfo: { id: string; address: Address };

const tokenOf = (token: Address, address: Address) =>
  t.chain.chain.publicClient.readContract({
    address: token,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [address],
  });

const directive = (body: Record<string, unknown>) => signed(t.app, 1, 'PATCH', `/api/companies/${companyId}`, body);
const runRound = async () => {
  const res = await signed(t.app, 1, 'POST', `/api/companies/${companyId}/decisions/run`);
  expect(res.statusCode).toBe(201);
  return res.json().data as { id: string; status: string; actionsExecuted: string[] };
};
const portfolio = async () => (await t.app.inject({ method: 'GET', url: `/api/agents/${cfo.id}/portfolio` })).json();

beforeAll(async () => {
  const targetCo = await staffedCompany(t, 2, { name: 'Target Token Co' });
  target = await trading.launch(targetCo.id, 'TGT', 2);
  const trader = await staffedCompany(t, 1, {
    name: 'Directed Trader Co',
    category: 'SPOT_TRADING',
    treasuryAddress: TREASURY,
  });
  companyId = trader.id;
  cfo = trader.cfo;
  expect((await directive({ ceoPrompt: 'Buy 50 USDC of TGT every round.' })).statusCode).toBe(200);
});

describe('an agent that trades', () => {
  let buyHash: string;

  it('shows the agent wallet empty before it is funded, and a round does not offer it a buy', async () => {
    const empty = await portfolio();
    expect(empty.data).toMatchObject({ agentId: cfo.id, role: 'CFO', address: cfo.address, positions: [] });
    expect(empty.data.balances.usdc).toBe('0');
    const round = await runRound();
    // A wallet with nothing to spend is not given the trading tools, so nothing is bought and the round completes.
    // (A model that decides a buy all the same is refused in code: test/attacks/agent-limits.test.ts.)
    expect(round.actionsExecuted.filter((a: string) => a.startsWith('CFO buy_token'))).toEqual([]);
    expect(round.status).toBe('COMPLETE');
  });

  it('buys in a round once funded: the transaction is mined, its hash is in actionsExecuted, gas is sponsored', async () => {
    await trading.fund(1, cfo.address, 1_000n * USDC);
    const round = await runRound();
    expect(round.status).toBe('COMPLETE');
    const line = round.actionsExecuted.find((a) => a.startsWith('CFO buy_token:'))!;
    expect(line).toMatch(/bought about [\d.]+ TGT for 50 USDC \(at least [\d.]+\), tx 0x[0-9a-f]{64}$/);
    buyHash = line.slice(-66);
    const receipt = await t.chain.chain.publicClient.getTransactionReceipt({ hash: buyHash as `0x${string}` });
    expect(receipt.status).toBe('success');
    expect(receipt.from.toLowerCase()).toBe(cfo.address.toLowerCase());
    expect(await trading.usdcOf(cfo.address)).toBe(950n * USDC);
    // The platform topped the wallet's gas up, and the company's day counts the agent's transactions.
    const [topUp] = await t.database.db
      .select()
      .from(chainTxs)
      .where(eq(chainTxs.key, `agent-gas:agent:${round.id}:0`));
    expect(topUp).toMatchObject({ status: 'MINED', chargedTo: [companyId] });
    const [tx] = await t.database.db.select().from(chainTxs).where(eq(chainTxs.hash, buyHash));
    expect(tx).toMatchObject({ status: 'MINED', chargedTo: [companyId] });
    const [action] = await t.database.db.select().from(agentActions).where(eq(agentActions.txHash, buyHash));
    expect(action).toMatchObject({ tool: 'buy_token', notionalUsdc: 50n * USDC, status: 'MINED', agentId: cfo.id });
  });

  it('shows the position at its cost and its PnL once indexed, and the company view sums its agents', async () => {
    await trading.index();
    const view = (await portfolio()).data;
    expect(view.positions).toHaveLength(1);
    const position = view.positions[0];
    expect(position).toMatchObject({ token: target, symbol: 'TGT', costUsdc: '50', realizedPnlUsdc: '0' });
    expect(BigInt(parseUnits(position.balance, 18))).toBe(await tokenOf(target, cfo.address));
    expect(position.quantity).toBe(position.balance);
    // Bought on the curve and valued at the price after the buy: worth more than its cost less the 1% fee.
    expect(Number(position.unrealizedPnlUsdc)).toBeGreaterThan(-1);
    // The exit value is what selling the whole balance returns now (the launcher's own quote), below the mark value
    // (the sale's fee and its price impact), and the exit's unrealised PnL is counted from it.
    const quoted = await t.chain.chain.publicClient.readContract({
      address: t.chain.chain.contracts.tokenLauncher!,
      abi: TokenLauncherAbi,
      functionName: 'quoteSell',
      args: [target, parseUnits(position.balance, 18)],
    });
    expect(position.exitValueUsdc).toBe(formatUnits(quoted, 6));
    expect(quoted).toBeLessThan(parseUnits(position.valueUsdc, 6));
    expect(parseUnits(position.exitUnrealizedPnlUsdc, 6)).toBe(quoted - 50n * USDC);
    expect(view.totals.exitValueUsdc).toBe(formatUnits(950n * USDC + quoted, 6));
    expect(view.balances.usdc).toBe('950');
    expect(BigInt(view.balances.nativeWei)).toBeGreaterThan(0n);
    const company = (await t.app.inject({ method: 'GET', url: `/api/companies/${companyId}/portfolio` })).json().data;
    expect(company.agents.map((a: { agentId: string }) => a.agentId)).toContain(cfo.id);
    expect(company.totals).toEqual(view.totals);
  });

  it('realises a profit on a sale after others bought, and the next snapshot scores it', async () => {
    const day = await trading.startTradingDay();
    await trading.buy(3, target, 2_000n * USDC);
    expect((await directive({ ceoPrompt: 'Sell all TGT now.' })).statusCode).toBe(200);
    const round = await runRound();
    expect(round.actionsExecuted).toContainEqual(expect.stringMatching(/^CFO sell_token: sold [\d.]+ TGT for about/));
    expect(await tokenOf(target, cfo.address)).toBe(0n);
    await trading.index();
    const view = (await portfolio()).data;
    const realized = parseUnits(view.positions[0].realizedPnlUsdc, 6);
    expect(realized).toBeGreaterThan(0n);
    expect(view.positions[0]).toMatchObject({ balance: '0', quantity: '0', costUsdc: '0' });
    // The snapshot of the day after: the company's trading raw is its agents' realised PnL of the day.
    // The day's blocks finalized: a snapshot reads no block above the finalized one.
    await finalizeScored(t);
    await takeScoreSnapshot(t.container, t.database.db, day);
    const [snap] = await t.database.db
      .select()
      .from(scoreSnapshots)
      .where(eq(scoreSnapshots.companyId, companyId))
      .then((rows) => rows.filter((r) => r.snapshotDate === day));
    expect(snap!.tradingRaw).toBe(realized);
    expect(snap!.tradingScore).toBeGreaterThan(0);
  });

  it('withdraws everything to the treasury, for the creator only, and again after the agent is terminated', async () => {
    const other = await signed(t.app, 2, 'POST', `/api/agents/${cfo.id}/withdraw`);
    expect(other.statusCode).toBe(403);
    const before = await trading.usdcOf(TREASURY);
    const res = await signed(t.app, 1, 'POST', `/api/agents/${cfo.id}/withdraw`);
    expect(res.statusCode).toBe(200);
    const held = await trading.usdcOf(cfo.address);
    expect(held).toBe(0n);
    const sent = parseUnits(res.json().data.transfers.find((x: { asset: string }) => x.asset === 'USDC').amount, 6);
    expect((await trading.usdcOf(TREASURY)) - before).toBe(sent);
    expect(sent).toBeGreaterThan(950n * USDC);
    // Nothing left: a second call sends nothing.
    expect((await signed(t.app, 1, 'POST', `/api/agents/${cfo.id}/withdraw`)).json().data.transfers).toEqual([]);

    // A terminated agent's funds can still be taken back.
    expect((await signed(t.app, 1, 'DELETE', `/api/agents/${cfo.id}`)).statusCode).toBe(200);
    await trading.fund(3, cfo.address, 7n * USDC);
    const again = await signed(t.app, 1, 'POST', `/api/agents/${cfo.id}/withdraw`);
    expect(again.statusCode).toBe(200);
    expect(again.json().data.transfers).toMatchObject([{ asset: 'USDC', amount: '7' }]);
    expect(await trading.usdcOf(cfo.address)).toBe(0n);
  });

  it('answers 400 when the company has no treasury to withdraw to', async () => {
    const bare = await staffedCompany(t, 4, { name: 'No Treasury Co' });
    const res = await signed(t.app, 4, 'POST', `/api/agents/${bare.cfo.id}/withdraw`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/no treasury address/);
  });
});

describe('staking by an agent', () => {
  it('stakes the primary token and harvests the emission (a DEFI_YIELD company following the built-in strategy)', async () => {
    const yieldCo = await staffedCompany(t, 5, {
      name: 'Yield Farm Co',
      category: 'DEFI_YIELD',
      // A treasury belongs to one company.
      treasuryAddress: '0x00000000000000000000000000000000000ba5e2',
    });
    const agentCfo = yieldCo.cfo;
    const primary = t.chain.chain.contracts.primaryToken!;
    await trading.send(
      t.chain.wallet(5).writeContract({
        address: primary,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [agentCfo.address, 400n * 10n ** 18n],
      }),
    );
    const run = async () =>
      (await signed(t.app, 5, 'POST', `/api/companies/${yieldCo.id}/decisions/run`)).json().data.actionsExecuted;
    expect(await run()).toContainEqual(
      expect.stringMatching(/^CFO stake_primary: staked 100 of the primary token, tx/),
    );
    const view = (await t.app.inject({ method: 'GET', url: `/api/agents/${agentCfo.id}/portfolio` })).json().data;
    expect(view.balances).toMatchObject({ staked: '100', primary: '300' });
    // Time passes on the chain: the stake earns, and the next round harvests it (and stakes a quarter more).
    await trading.startTradingDay();
    const second = await run();
    expect(second).toContainEqual(expect.stringMatching(/^CFO stake_primary: staked 75 of the primary token/));
    expect(second).toContainEqual(expect.stringMatching(/^CFO harvest_emission: harvested about [\d.]+ /));
    const after = (await t.app.inject({ method: 'GET', url: `/api/agents/${agentCfo.id}/portfolio` })).json().data;
    expect(Number(after.balances.emission)).toBeGreaterThan(0);
    // Unstaking: all of it, and then nothing is left to unstake.
    const unstake = (key: string) =>
      runAgentAction(t.container, {
        company: { id: yieldCo.id, toolkitConfig: null },
        role: 'CFO',
        tool: 'unstake_primary',
        args: { amount: 'all' },
        key,
        roundId: null,
      });
    expect(await unstake('unstake-test:1')).toMatch(/^unstaked 175 of the primary token, tx 0x/);
    await expect(unstake('unstake-test:2')).rejects.toThrow(/nothing to unstake: the amount is 0/);
  });
});
