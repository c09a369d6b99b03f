// A company with custody (COMPANY_CUSTODY=safe) acts through its Safe: a decision round's buy, sale, stake and unstake
// are the agent key's calls to the company's Roles module (execTransactionWithRole), the Safe pays and receives, the
// agent's own wallet holds nothing, the company's portfolio is the Safe's, and a buy past what the module allows is
// refused in code, with a sentence, before anything is signed. The model is the fake OpenAI-compatible server.

import { RolesAbi } from '@ai-economy/shared/abis';
import { and, eq, like } from 'drizzle-orm';
import {
  type Address,
  decodeFunctionData,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  parseTransaction,
  parseUnits,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { DAILY_NOTIONAL_KEY, ROLE_OF } from '../../src/chain/custody-scopes.ts';
import { agentActions } from '../../src/db/schema/agents.ts';
import { chainTxs } from '../../src/db/schema/chain.ts';
import { companies } from '../../src/db/schema/companies.ts';
import { gasToday } from '../../src/domain/costs/gas-budget.ts';
import { startTestApp, type TestApp, useTestApp } from '../helpers/app.ts';
import { signed, staffedCompany } from '../helpers/companies.ts';
import { type FakeLlm, type FakeLlmRequest, startFakeLlm, systemText } from '../helpers/fake-llm.ts';
import { holderSignedExec } from '../helpers/safe.ts';
import { tokenTrading } from '../helpers/trading.ts';

const ENV = { COMPANY_CUSTODY: 'safe', MANUAL_ROUND_COOLDOWN_S: '0' };
const t = useTestApp({ env: ENV });
const trading = tokenTrading(t);
const USDC = 1_000_000n;
const TOKEN = 10n ** 18n;

let fake: FakeLlm;
let remote: TestApp;
let target: Address;
let co: Awaited<ReturnType<typeof staffedCompany>>;
let custody: { safe: Address; roles: Address; owner: Address };

const read = () => t.chain.chain.publicClient;
const balanceOf = (token: Address, holder: Address) =>
  read().readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [holder] });

/** The CFO decides `action` (the extraction phase's answer); every other phase answers plainly. */
function decide(tool: string, args: Record<string, string>) {
  fake.setDefault((request: FakeLlmRequest) => {
    const system = systemText(request);
    if (/^You are the (CFO|CTO|CMO|COO|CSO|CISO|CRO) of/.test(system)) return { content: '{"proposals":[]}' };
    if (system.startsWith('Extract the CEO'))
      return {
        content: JSON.stringify({ directive: 'Trade.', actions: [{ role: 'CFO', tool, args, rationale: 'decided' }] }),
      };
    return { content: 'Directive: trade.' };
  });
}

async function round() {
  const res = await signed(remote.app, co.account, 'POST', `/api/companies/${co.id}/decisions/run`);
  expect(res.statusCode).toBe(201);
  const data = res.json().data as { id: string; status: string; actionsExecuted: string[] };
  expect(data.status).toBe('COMPLETE');
  return data;
}
const lineOf = (r: { actionsExecuted: string[] }, tool: string) =>
  r.actionsExecuted.find((l) => l.startsWith(`CFO ${tool}:`))!;
const hashOf = (line: string) => line.slice(-66) as Hex;
const actionsOf = () => t.database.db.select().from(agentActions).where(eq(agentActions.companyId, co.id));

/** The transaction `hash` is the CFO key's call to the company's Roles module as `role`, to `to`. */
async function expectThroughModule(hash: Hex, role: 'trade' | 'stake', to: Address) {
  const tx = await read().getTransaction({ hash });
  expect(tx.from.toLowerCase()).toBe(co.cfo.address.toLowerCase());
  expect(tx.to!.toLowerCase()).toBe(custody.roles.toLowerCase());
  const { functionName, args } = decodeFunctionData({ abi: RolesAbi, data: tx.input });
  expect(functionName).toBe('execTransactionWithRole');
  const [target, value, , operation, roleKey, shouldRevert] = args as [Address, bigint, Hex, number, Hex, boolean];
  expect({ target: target.toLowerCase(), value, operation, roleKey, shouldRevert }).toEqual({
    target: to.toLowerCase(),
    value: 0n,
    operation: 0,
    roleKey: ROLE_OF[role],
    shouldRevert: true,
  });
  expect((await read().getTransactionReceipt({ hash })).status).toBe('success');
}

beforeAll(async () => {
  const targetCo = await staffedCompany(t, 2, { name: 'Safe Target Co' });
  target = await trading.launch(targetCo.id, 'SAF', 2);
  co = await staffedCompany(t, 1, { name: 'Safe Trader Co', category: 'SPOT_TRADING' });
  const [row] = await t.database.db.select().from(companies).where(eq(companies.id, co.id));
  custody = {
    safe: row!.safeAddress as Address,
    roles: row!.rolesModuleAddress as Address,
    owner: row!.safeOwnerAddress as Address,
  };
  expect(custody.safe).toMatch(/^0x[0-9a-fA-F]{40}$/);
  // Money in: a USDC transfer to the company's Safe.
  await trading.fund(1, custody.safe, 1_000n * USDC);
  // The creator's signed directive names the token, so the buy rules leave the young token to the owner's call.
  const patch = await signed(t.app, 1, 'PATCH', `/api/companies/${co.id}`, { ceoPrompt: 'You may trade SAF.' });
  expect(patch.statusCode).toBe(200);
  fake = await startFakeLlm();
  remote = await startTestApp({
    database: t.database,
    chain: t.chain,
    env: { ...ENV, LLM_BASE_URL: fake.url, LLM_API_KEY: 'sk-test', LLM_MAX_RETRIES: '0' },
  });
}, 240_000);

afterAll(async () => {
  await remote?.close();
  await fake?.close();
});

describe('a company whose agents act through its Safe', () => {
  it('buys through the Roles module: the Safe pays and holds the tokens, the agent wallet holds nothing', async () => {
    const gasBefore = (await gasToday(t.container, t.database.db, co.id)).gasUsed;
    decide('buy_token', { token: 'SAF', usdc: '50' });
    const r = await round();
    const line = lineOf(r, 'buy_token');
    expect(line).toMatch(/^CFO buy_token: bought about [\d.]+ SAF for 50 USDC \(at least [\d.]+\), tx 0x[0-9a-f]{64}$/);
    await expectThroughModule(hashOf(line), 'trade', t.chain.chain.contracts.tokenLauncher!);
    // The USDC approval went the same way: the Safe approved the launcher.
    const [approval] = await t.database.db
      .select()
      .from(chainTxs)
      .where(eq(chainTxs.key, `agent:${r.id}:0:approve`));
    expect(approval).toMatchObject({ status: 'MINED', chargedTo: [co.id] });
    await expectThroughModule(approval!.hash as Hex, 'trade', t.chain.chain.contracts.usdc!);

    expect(await trading.usdcOf(custody.safe)).toBe(950n * USDC);
    expect(await balanceOf(target, custody.safe)).toBeGreaterThan(0n);
    expect(await trading.usdcOf(co.cfo.address)).toBe(0n);
    expect(await balanceOf(target, co.cfo.address)).toBe(0n);
    // The trade records the agent that made it; its gas, the module's included, is the company's.
    const [action] = (await actionsOf()).filter((a) => a.txHash === hashOf(line));
    expect(action).toMatchObject({ tool: 'buy_token', agentId: co.cfo.id, notionalUsdc: 50n * USDC, status: 'MINED' });
    const used = (await read().getTransactionReceipt({ hash: hashOf(line) })).gasUsed;
    expect((await gasToday(t.container, t.database.db, co.id)).gasUsed - gasBefore).toBeGreaterThan(used);
  });

  it("admits a buy against the module's gas (450,000), not a direct buy's (400,000): room for the latter only refuses it", async () => {
    const used = (await gasToday(t.container, t.database.db, co.id)).gasUsed;
    const poor = await startTestApp({
      database: t.database,
      chain: t.chain,
      env: {
        ...ENV,
        LLM_BASE_URL: fake.url,
        LLM_API_KEY: 'sk-test',
        LLM_MAX_RETRIES: '0',
        COMPANY_GAS_BUDGET: String(used + 449_999n),
      },
    });
    try {
      decide('buy_token', { token: 'SAF', usdc: '5' });
      const safeUsdc = await trading.usdcOf(custody.safe);
      const res = await signed(poor.app, co.account, 'POST', `/api/companies/${co.id}/decisions/run`);
      expect(res.statusCode, res.body).toBe(201);
      const text = JSON.stringify(res.json().data);
      expect(text).toMatch(/buy_token needs about 450000 more/);
      expect(await trading.usdcOf(custody.safe)).toBe(safeUsdc);
    } finally {
      await poor.close();
    }
  });

  it('shows the position in the company portfolio as the Safe’s, once indexed', async () => {
    await trading.index();
    const view = (await t.app.inject({ method: 'GET', url: `/api/companies/${co.id}/portfolio` })).json().data;
    expect(view.safe.address.toLowerCase()).toBe(custody.safe.toLowerCase());
    expect(view.safe.balances.usdc).toBe('950');
    expect(view.safe.positions).toMatchObject([{ token: target, symbol: 'SAF', costUsdc: '50' }]);
    expect(parseUnits(view.safe.positions[0].balance, 18)).toBe(await balanceOf(target, custody.safe));
    // The agents' own wallets hold nothing; the company's totals are the Safe's.
    expect(view.agents.every((a: { positions: unknown[] }) => a.positions.length === 0)).toBe(true);
    expect(view.totals).toEqual(view.safe.totals);
  });

  it('refuses in code, with a sentence, a buy past what the module’s daily allowance holds; just inside it buys', async () => {
    // The holder lowers the allowance on-chain (a Safe transaction they sign): 10 USDC left today.
    const now = (await read().getBlock()).timestamp;
    const [refill, maxRefill, period] = await read().readContract({
      address: custody.roles,
      abi: RolesAbi,
      functionName: 'allowances',
      args: [DAILY_NOTIONAL_KEY],
    });
    const exec = await holderSignedExec(t.chain.chain, custody, devAccount(1), {
      to: custody.roles,
      data: encodeFunctionData({
        abi: RolesAbi,
        functionName: 'setAllowance',
        args: [DAILY_NOTIONAL_KEY, 10n * USDC, maxRefill, refill, period, now - (now % 86_400n)],
      }),
    });
    await trading.send(t.chain.wallet(1).sendTransaction({ to: custody.safe, data: exec }));

    const before = (await actionsOf()).length;
    const txsBefore = await read().getTransactionCount({ address: co.cfo.address });
    decide('buy_token', { token: 'SAF', usdc: '10.000001' });
    const over = await round();
    expect(lineOf(over, 'buy_token')).toBe(
      "CFO buy_token: refused: over the company's on-chain daily allowance: 10 USDC left today on its Roles module, this trade is 10.000001",
    );
    expect((await actionsOf()).length).toBe(before);
    expect(await read().getTransactionCount({ address: co.cfo.address })).toBe(txsBefore);

    decide('buy_token', { token: 'SAF', usdc: '10' });
    const inside = await round();
    expect(lineOf(inside, 'buy_token')).toMatch(/^CFO buy_token: bought about [\d.]+ SAF for 10 USDC/);
    expect(await trading.usdcOf(custody.safe)).toBe(940n * USDC);
  });

  it('sells what the Safe holds, the proceeds to the Safe (the launcher approved by LauncherApprover)', async () => {
    const usdcBefore = await trading.usdcOf(custody.safe);
    decide('sell_token', { token: 'SAF', amount: 'all' });
    const r = await round();
    const line = lineOf(r, 'sell_token');
    expect(line).toMatch(/^CFO sell_token: sold [\d.]+ SAF for about/);
    await expectThroughModule(hashOf(line), 'trade', t.chain.chain.contracts.tokenLauncher!);
    expect(await balanceOf(target, custody.safe)).toBe(0n);
    expect(await trading.usdcOf(custody.safe)).toBeGreaterThan(usdcBefore);
    expect(await trading.usdcOf(co.cfo.address)).toBe(0n);
  });

  it('refuses a sale of more than the Safe holds, naming the Safe', async () => {
    decide('sell_token', { token: 'SAF', amount: '1' });
    expect(lineOf(await round(), 'sell_token')).toBe(
      "CFO sell_token: refused: cannot sell 1 SAF: the company's Safe holds 0",
    );
  });

  it('stakes and unstakes the Safe’s primary tokens through the staking role', async () => {
    const primary = t.chain.chain.contracts.primaryToken!;
    const staking = t.chain.chain.contracts.staking!;
    await trading.send(
      t.chain.wallet(1).writeContract({
        address: primary,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [custody.safe, 400n * TOKEN],
      }),
    );
    decide('stake_primary', { amount: '100' });
    const staked = lineOf(await round(), 'stake_primary');
    expect(staked).toMatch(/^CFO stake_primary: staked 100 of the primary token, tx/);
    await expectThroughModule(hashOf(staked), 'stake', staking);
    expect(await balanceOf(primary, custody.safe)).toBe(300n * TOKEN);

    decide('unstake_primary', { amount: '100' });
    const unstaked = lineOf(await round(), 'unstake_primary');
    expect(unstaked).toMatch(/^CFO unstake_primary: unstaked 100 of the primary token, tx/);
    await expectThroughModule(hashOf(unstaked), 'stake', staking);
    expect(await balanceOf(primary, custody.safe)).toBe(400n * TOKEN);
    expect(await balanceOf(primary, co.cfo.address)).toBe(0n);
    const sent = await t.database.db
      .select()
      .from(chainTxs)
      .where(and(like(chainTxs.key, 'agent:%'), eq(chainTxs.fromAddress, co.cfo.address)));
    // Everything the agent key signed for the company went to its Roles module: nothing to a token or contract direct.
    expect(sent.length).toBeGreaterThanOrEqual(6);
    expect(new Set(sent.map((tx) => parseTransaction(tx.rawTx as Hex).to?.toLowerCase()))).toEqual(
      new Set([custody.roles.toLowerCase()]),
    );
  });
});
