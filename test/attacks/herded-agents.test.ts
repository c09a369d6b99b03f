// The platform's agents herded into a pump, across rounds and companies. The 2% liquidity cap was
// checked per buy and per company, and the market rule counted wallets, not money, so every SPOT_TRADING CFO of the
// platform bought a day-old token pumped by one wallet (beside ten throwaway traders of 1 USDC) in every hourly
// round: three honest CFOs of 400 USDC each bought it five rounds running, then the pump sold into them. Now all the
// platform's agents together buy at most 2% of a token's liquidity in 24 h, a company does not buy the same token
// again for 24 h, outside traders count by the money they trade, and a token whose move comes mostly from one wallet
// is no mover for agents (docs/api/agents.md "Buy rules"). Real trades on the launcher's curve, real rounds.

import { AccessCardAbi } from '@ai-economy/shared/abis';
import { and, eq, inArray } from 'drizzle-orm';
import { type Address, parseEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import { agentActions } from '../../src/db/schema/agents.ts';
import { useTestApp } from '../helpers/app.ts';
import { anvilTestClient } from '../helpers/chain.ts';
import { signed, staffedCompany } from '../helpers/companies.ts';
import { tokenTrading } from '../helpers/trading.ts';

// Fifteen rounds and some forty transactions on a real chain: minutes on a loaded machine, not a hang.
// COMPANY_CUSTODY=none: this file is about the path where a company's agents act from their own wallets.
const t = useTestApp({ env: { COMPANY_CUSTODY: 'none', MANUAL_ROUND_COOLDOWN_S: '0' } });
const trading = tokenTrading(t);
const USDC = 1_000_000n;
const HOUR = 3_600;

type Co = Awaited<ReturnType<typeof staffedCompany>>;
const victims: Co[] = [];

const testClient = () => anvilTestClient(t.chain.node.rpcUrl);
async function later(seconds: number) {
  await testClient().increaseTime({ seconds });
  await testClient().mine({ blocks: 1 });
}
async function round(co: Co) {
  const res = await signed(t.app, co.account, 'POST', `/api/companies/${co.id}/decisions/run`);
  expect(res.statusCode).toBe(201);
  return res.json().data as { id: string; status: string; actionsExecuted: string[] };
}
/** `n` fresh wallets with gas and `usdc` each, as n different people (or one person's throwaway wallets). */
async function people(n: number, usdc: bigint) {
  const accounts = Array.from({ length: n }, () => privateKeyToAccount(generatePrivateKey()));
  for (const a of accounts) {
    await testClient().setBalance({ address: a.address, value: parseEther('1') });
    await trading.fund(1, a.address, usdc);
  }
  return accounts;
}
const agentBuys = async (token: Address) =>
  t.database.db
    .select()
    .from(agentActions)
    .where(
      and(
        eq(agentActions.tool, 'buy_token'),
        eq(agentActions.tokenAddress, token),
        inArray(agentActions.status, ['SENT', 'MINED']),
      ),
    );

beforeAll(async () => {
  for (const account of [5, 6, 7]) {
    const co = await staffedCompany(t, account, { name: `Honest Momentum ${account}`, category: 'SPOT_TRADING' });
    await trading.fund(1, co.cfo.address, 400n * USDC);
    victims.push(co);
  }
});

describe('a day-old token pumped by one wallet beside ten throwaway traders', () => {
  it('leaves the attacker with a loss after three honest CFOs ran five hourly rounds', async () => {
    const card = await t.chain.chain.publicClient.readContract({
      address: t.chain.chain.contracts.accessCard!,
      abi: AccessCardAbi,
      functionName: 'mintPrice',
    });
    const attacker = await staffedCompany(t, 2, { name: 'Herd Co' });
    const herd = await trading.launch(attacker.id, 'HERD', 2);
    await later(25 * HOUR);
    const dust = await people(10, 1n * USDC);
    const [pumper] = await people(1, 2_600n * USDC);
    const wallets = [...dust, pumper!];
    const start = await Promise.all(wallets.map((w) => trading.usdcOf(w.address)));
    for (const d of dust) await trading.buy(d, herd, 1n * USDC);
    await trading.buy(pumper!, herd, 2_600n * USDC);
    await trading.index();

    for (let r = 0; r < 5; r++) {
      for (const v of victims) expect((await round(v)).status).toBe('COMPLETE');
      await later(HOUR);
      await trading.index();
    }
    const bought = (await agentBuys(herd)).reduce((sum, a) => sum + a.notionalUsdc, 0n);

    // The pump sells, and so do the throwaway traders.
    for (const w of wallets) {
      const held = await trading.balanceOf(w, herd);
      if (held > 0n) await trading.sell(w, herd, held);
    }
    const end = await Promise.all(wallets.map((w) => trading.usdcOf(w.address)));
    const pnl = end.reduce((sum, e, i) => sum + e - start[i]!, 0n) - card;
    // Before the fix: the CFOs bought 584.52 USDC over the five rounds and the attacker netted about +232 USDC.
    expect(pnl, `the attacker's result, the agents bought ${bought}`).toBeLessThan(0n);
    // All agents together bought at most 2% of the liquidity in the 24 h (here: nothing, it is no market).
    expect(bought).toBeLessThanOrEqual((2_610n * USDC * 2n) / 100n);
  }, 600_000);
});

describe('a token with a real market of many traders', () => {
  it('still gets agent buys, all agents together within 2% of its liquidity in 24 h, once per company', async () => {
    const issuer = await staffedCompany(t, 8, { name: 'Real Market Co' });
    const real = await trading.launch(issuer.id, 'BROAD', 8);
    await later(25 * HOUR);
    const crowd = await people(12, 500n * USDC);
    for (const [i, a] of crowd.entries()) await trading.buy(a, real, BigInt(350 + 10 * i) * USDC);
    await trading.index();
    const executed: string[] = [];
    for (const v of victims) executed.push(...(await round(v)).actionsExecuted);
    const buys = await agentBuys(real);
    expect(executed.join('\n')).toMatch(/CFO buy_token: bought about [\d.]+ BROAD/);
    expect(buys.length).toBeGreaterThan(0);
    // 12 buyers put about 4,860 USDC in the curve: 2% is about 97 USDC for every agent of the platform together.
    const total = buys.reduce((sum, a) => sum + a.notionalUsdc, 0n);
    expect(total).toBeLessThanOrEqual((4_860n * USDC * 2n) / 100n);
    // An hour later the same companies do not buy it again (the cool-off), whatever the market does.
    await later(HOUR);
    for (const a of crowd.slice(0, 3)) await trading.buy(a, real, 100n * USDC);
    await trading.index();
    for (const v of victims) await round(v);
    const again = await agentBuys(real);
    expect(new Set(again.map((b) => b.companyId)).size).toBe(again.length);
  }, 600_000);
});
