// The platform's agents as exit liquidity. The built-in SPOT_TRADING CFO bought the platform's top
// "mover", and two trades with a rising price were enough: a token was launched, its creator bought 1 then 200 USDC,
// and a demo company's CFO bought 54.69 USDC of it, into which the creator then sold. After its stop-loss sold, the
// CFO bought the same token again. Now every buy of every model passes the buy rules (docs/api/agents.md "Buy
// rules"): the pump gets no agent buy, a token with a real market does, and a stop-loss is not followed by a re-buy
// inside the cool-off.
import { and, eq } from 'drizzle-orm';
import { type Address, erc20Abi, parseEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { chainDate } from '../../src/chain/time.ts';
import { agentActions } from '../../src/db/schema/agents.ts';
import { tokenMovers } from '../../src/domain/tokens/queries.ts';
import { runAgentAction } from '../../src/domain/trading/actions.ts';
import { useTestApp } from '../helpers/app.ts';
import { anvilTestClient } from '../helpers/chain.ts';
import { signed, staffedCompany } from '../helpers/companies.ts';
import { tokenTrading } from '../helpers/trading.ts';

// COMPANY_CUSTODY=none: this file is about the path where a company's agents act from their own wallets.
const t = useTestApp({ env: { COMPANY_CUSTODY: 'none', MANUAL_ROUND_COOLDOWN_S: '0' } });
const trading = tokenTrading(t);
const USDC = 1_000_000n;
const HOUR = 3_600;

type Co = Awaited<ReturnType<typeof staffedCompany>>;
let cfoCo: Co;
let pump: Address;

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
const buysOf = async (co: Co, token: Address) =>
  t.database.db
    .select()
    .from(agentActions)
    .where(
      and(eq(agentActions.companyId, co.id), eq(agentActions.tool, 'buy_token'), eq(agentActions.tokenAddress, token)),
    );
const held = (token: Address, who: Address) =>
  t.chain.chain.publicClient.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [who] });

/** `n` fresh wallets with gas and `usdc` each, as n different people. */
async function people(n: number, usdc: bigint) {
  const accounts = Array.from({ length: n }, () => privateKeyToAccount(generatePrivateKey()));
  for (const a of accounts) {
    await testClient().setBalance({ address: a.address, value: parseEther('1') });
    await trading.fund(1, a.address, usdc);
  }
  return accounts;
}

beforeAll(async () => {
  cfoCo = await staffedCompany(t, 1, { name: 'Momentum Co', category: 'SPOT_TRADING' });
  await trading.fund(1, cfoCo.cfo.address, 100n * USDC);
});

describe('the pump: launch, then the creator buys 1 and 200 USDC', () => {
  it('gets no agent buy, and its own trades do not make it a mover', async () => {
    const attacker = await staffedCompany(t, 3, { name: 'Pump Co' });
    pump = await trading.launch(attacker.id, 'PUMP', 3);
    await trading.fund(1, devAccount(3).address, 201n * USDC);
    await trading.buy(3, pump, 1n * USDC);
    await trading.buy(3, pump, 200n * USDC);
    await trading.index();

    const r = await round(cfoCo);
    expect(r.status).toBe('COMPLETE');
    expect(await buysOf(cfoCo, pump)).toEqual([]);
    expect(await held(pump, cfoCo.cfo.address)).toBe(0n);
    expect(await trading.usdcOf(cfoCo.cfo.address)).toBe(100n * USDC);
    const since = new Date((await chainDate(t.chain.chain.publicClient)).getTime() - 86_400_000);
    expect((await tokenMovers(t.database.db, since, 10)).map((m) => m.symbol)).not.toContain('PUMP');
  });

  it('is refused to a model that names it anyway (the rules hold for every model), with the reason', async () => {
    // An unsigned or model-made choice: the directive below is the model's, not the creator's signed text.
    await expect(
      runAgentAction(t.container, {
        company: { id: cfoCo.id, toolkitConfig: null },
        role: 'CFO',
        tool: 'buy_token',
        args: { token: 'PUMP', usdc: '10' },
        key: 'manual:pump:0',
        roundId: null,
      }),
    ).rejects.toThrow(/PUMP is 0 h old; agents buy tokens at least 24 h old/);
  });
});

describe('a token with a real market', () => {
  let real: Address;
  let crowd: Awaited<ReturnType<typeof people>>;

  it('is bought once it is a day old and ten outside traders trade it, within 2% of its liquidity', async () => {
    const issuer = await staffedCompany(t, 4, { name: 'Real Co' });
    real = await trading.launch(issuer.id, 'REAL', 4);
    await later(25 * HOUR);
    crowd = await people(12, 200n * USDC);
    // Nine outside traders: one short of the rule.
    for (const a of crowd.slice(0, 9)) await trading.buy(a, real, 100n * USDC);
    await trading.index();
    const short = await round(cfoCo);
    expect(short.actionsExecuted.join('\n')).not.toMatch(/bought about .* REAL/);
    expect(await buysOf(cfoCo, real)).toEqual([]);

    await trading.buy(crowd[9]!, real, 100n * USDC);
    await trading.index();
    const r = await round(cfoCo);
    // 100 USDC * 25% / 2 = 12.5 USDC, under 2% of the ~1,000 USDC in the curve.
    expect(r.actionsExecuted).toContainEqual(
      expect.stringMatching(/^CFO buy_token: bought about [\d.]+ REAL for 12.5 USDC/),
    );
    expect(await held(real, cfoCo.cfo.address)).toBeGreaterThan(0n);
  });

  it('lets a company tighten the rules but not loosen them (400 just outside the bounds, 200 just inside)', async () => {
    const patch = (buyRules: Record<string, number>) =>
      signed(t.app, cfoCo.account, 'PATCH', `/api/companies/${cfoCo.id}`, { toolkitConfig: { buyRules } });
    for (const [rule, loose, strictest] of [
      ['minTokenAgeHours', 23, 8_760],
      ['minDistinctTraders', 9, 10_000],
      ['stopLossCooldownHours', 23, 8_760],
    ] as const) {
      expect((await patch({ [rule]: loose })).statusCode, rule).toBe(400);
      expect((await patch({ [rule]: loose + 1 })).statusCode, rule).toBe(200);
      expect((await patch({ [rule]: strictest })).statusCode, rule).toBe(200);
      expect((await patch({ [rule]: strictest + 1 })).statusCode, rule).toBe(400);
    }
    expect((await patch({ maxLiquidityBps: 201 })).statusCode).toBe(400);
    expect((await patch({ maxLiquidityBps: 200 })).statusCode).toBe(200);
    expect((await patch({ maxLiquidityBps: 1 })).statusCode).toBe(200);
    expect((await patch({ maxLiquidityBps: 0 })).statusCode).toBe(400);
    // A tighter rule of the company's own refuses what the platform's allows.
    await expect(
      runAgentAction(t.container, {
        company: { id: cfoCo.id, toolkitConfig: { buyRules: { minDistinctTraders: 11 } } },
        role: 'CFO',
        tool: 'buy_token',
        args: { token: 'REAL', usdc: '1' },
        key: 'manual:real:tight',
        roundId: null,
      }),
    ).rejects.toThrow(
      /REAL had 10 distinct traders in 24 h besides its own company's wallets; agents buy tokens with at least 11/,
    );
    expect(
      (await signed(t.app, cfoCo.account, 'PATCH', `/api/companies/${cfoCo.id}`, { toolkitConfig: null })).statusCode,
    ).toBe(200);
  });

  it('refuses a buy over 2% of the liquidity', async () => {
    await expect(
      runAgentAction(t.container, {
        company: { id: cfoCo.id, toolkitConfig: null },
        role: 'CFO',
        tool: 'buy_token',
        args: { token: 'REAL', usdc: '21' },
        key: 'manual:real:0',
        roundId: null,
      }),
    ).rejects.toThrow(/a buy of 21 USDC is over 2% of the [\d.]+ USDC behind REAL/);
  });

  it('after a stop-loss, is not bought again inside the cool-off', async () => {
    // The crowd sells: REAL falls more than 10% under the CFO's cost, and its stop-loss sells.
    for (const a of crowd.slice(0, 8)) await trading.sell(a, real, await trading.balanceOf(a, real));
    await trading.index();
    const stop = await round(cfoCo);
    expect(stop.actionsExecuted).toContainEqual(expect.stringMatching(/^CFO sell_token: sold [\d.]+ REAL/));
    expect(await held(real, cfoCo.cfo.address)).toBe(0n);
    await trading.index();

    // REAL rises again on new outside buyers: momentum would buy it.
    const more = await people(3, 200n * USDC);
    for (const a of [...more, ...crowd.slice(10)]) await trading.buy(a, real, 150n * USDC);
    await trading.index();
    const before = (await buysOf(cfoCo, real)).length;
    await later(2 * HOUR);
    const inside = await round(cfoCo);
    expect(inside.actionsExecuted.join('\n')).not.toMatch(/bought about .* REAL/);
    await expect(
      runAgentAction(t.container, {
        company: { id: cfoCo.id, toolkitConfig: null },
        role: 'CFO',
        tool: 'buy_token',
        args: { token: 'REAL', usdc: '5' },
        key: 'manual:real:1',
        roundId: null,
      }),
    ).rejects.toThrow(/sold REAL at a loss at .*; no buying it again for 24 h after a stop-loss/);
    expect((await buysOf(cfoCo, real)).length).toBe(before);
  });
});
