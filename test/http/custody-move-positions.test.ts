// A company created before custody whose agents hold company tokens moves into its Safe (POST
// /api/companies/{id}/custody): the sweep's transfers, once the token stream indexes them, carry each agent wallet's
// position (its tokens and their cost) to the Safe's, so the company's portfolio shows the tokens in the Safe at their
// cost and its PnL is what it was; the engine's context offers them and a round sells them through the Safe, the sale
// realising PnL against the carried cost. Running the move again, or applying the indexed batch again, carries
// nothing twice.
import { and, eq } from 'drizzle-orm';
import { type Address, erc20Abi, formatUnits, getAddress, type LocalAccount, parseEther, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agents } from '../../src/db/schema/agents.ts';
import { positionCarries, tokenTrades, traderPositions } from '../../src/db/schema/tokens.ts';
import { gatherContext } from '../../src/domain/engine/context.ts';
import { companyTokens } from '../../src/domain/tokens/company-tokens.stream.ts';
import { startTestApp, type TestApp, useTestApp } from '../helpers/app.ts';
import { signed, staffedCompany } from '../helpers/companies.ts';
import { type FakeLlm, type FakeLlmRequest, startFakeLlm, systemText } from '../helpers/fake-llm.ts';
import { tokenTrading } from '../helpers/trading.ts';

const t = useTestApp({ env: { COMPANY_CUSTODY: 'none' } });
const trading = tokenTrading(t);
const USDC = 1_000_000n;
const AFTER_ENV = { COMPANY_CUSTODY: 'safe', MANUAL_ROUND_COOLDOWN_S: '0' };

let fake: FakeLlm;
let after: TestApp;
let target: Address;
let co: Awaited<ReturnType<typeof staffedCompany>>;
let cfo: LocalAccount;
let cmo: LocalAccount;
let safe: Address;
/** The company's portfolio before the move. */
let before: PortfolioBody;
let sweepBlocks: bigint[] = [];

type Totals = Record<'valueUsdc' | 'exitValueUsdc' | 'realizedPnlUsdc' | 'unrealizedPnlUsdc', string>;
type Position = { token: string; symbol: string; balance: string; quantity: string; costUsdc: string } & Record<
  string,
  string
>;
type PortfolioBody = {
  agents: { agentId: string; positions: Position[]; totals: Totals }[];
  safe: { address: string; positions: Position[]; totals: Totals } | null;
  totals: Totals;
};

const read = () => t.chain.chain.publicClient;
const tokenOf = (holder: Address) =>
  read().readContract({ address: target, abi: erc20Abi, functionName: 'balanceOf', args: [holder] });
const portfolio = async (app = t.app): Promise<PortfolioBody> => {
  const res = await app.inject({ method: 'GET', url: `/api/companies/${co.id}/portfolio` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
};
const carries = () => t.database.db.select().from(positionCarries).where(eq(positionCarries.companyId, targetId));
const positionOf = async (trader: Address) =>
  (
    await t.database.db
      .select()
      .from(traderPositions)
      .where(and(eq(traderPositions.trader, trader.toLowerCase()), eq(traderPositions.tokenAddress, target)))
  )[0];
const units = (text: string, decimals = 6) => parseUnits(text, decimals);
let targetId: string;

beforeAll(async () => {
  const owner = await staffedCompany(t, 2, { name: 'Moved Token Co' });
  targetId = owner.id;
  target = await trading.launch(owner.id, 'MOV', 2);
  co = await staffedCompany(t, 1, { name: 'Holding Before Custody Co', category: 'SPOT_TRADING' });
  const team = await t.database.db.select().from(agents).where(eq(agents.companyId, co.id));
  const keyOf = async (role: string) =>
    (await t.container.wallets.accountOf(team.find((a) => a.role === role)!.walletIndex!)) as LocalAccount;
  [cfo, cmo] = await Promise.all([keyOf('CFO'), keyOf('CMO')]);
  // The agents trade from their own wallets, as every company did before custody: the CFO buys and sells some, the
  // CMO buys, each with its own key.
  for (const [agent, usdc] of [
    [cfo, 60n],
    [cmo, 15n],
  ] as const) {
    await trading.send(t.chain.wallet(0).sendTransaction({ to: agent.address, value: parseEther('1') }));
    await trading.fund(1, agent.address, usdc * USDC);
  }
  await trading.buy(cfo, target, 40n * USDC);
  await trading.buy(cmo, target, 10n * USDC);
  await trading.sell(cfo, target, (await tokenOf(cfo.address)) / 3n);
  await trading.index();
  before = await portfolio();

  fake = await startFakeLlm();
  after = await startTestApp({
    database: t.database,
    chain: t.chain,
    env: { ...AFTER_ENV, LLM_BASE_URL: fake.url, LLM_API_KEY: 'sk-test', LLM_MAX_RETRIES: '0' },
  });
}, 240_000);

afterAll(async () => {
  await after?.close();
  await fake?.close();
});

describe('a move into custody carries the agents’ positions to the Safe', () => {
  it('starts with the tokens and their cost on the agent wallets', async () => {
    expect(before.safe).toBeNull();
    const held = before.agents.flatMap((a) => a.positions.filter((p) => p.symbol === 'MOV'));
    expect(held).toHaveLength(2);
    expect(units(before.totals.realizedPnlUsdc)).not.toBe(0n);
  });

  it('sweeps the tokens into the Safe; once indexed the Safe holds the position at its cost and PnL is unchanged', async () => {
    const cfoPosition = (await positionOf(cfo.address))!;
    const cmoPosition = (await positionOf(cmo.address))!;
    const res = await signed(after.app, co.account, 'POST', `/api/companies/${co.id}/custody`);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    safe = data.custody.safe;
    const tokenSweeps = data.swept.flatMap((s: { transfers: { token: string; txHash: string }[] }) =>
      s.transfers.filter((x) => x.token === target),
    );
    expect(tokenSweeps).toHaveLength(2);
    sweepBlocks = await Promise.all(
      tokenSweeps.map(
        async (x: { txHash: `0x${string}` }) => (await read().getTransactionReceipt({ hash: x.txHash })).blockNumber,
      ),
    );
    expect(await tokenOf(safe)).toBe(cfoPosition.quantity + cmoPosition.quantity);
    // Read before the stream has seen the sweep, and kept for the block: the carry, with no block mined, must not be
    // hidden by it.
    const early = await portfolio(after.app);
    expect(early.safe!.positions).toEqual([]);

    await trading.index();
    const rows = await carries();
    expect(rows).toHaveLength(2);
    const safePosition = (await positionOf(safe))!;
    expect(safePosition.quantity).toBe(cfoPosition.quantity + cmoPosition.quantity);
    expect(safePosition.costUsdc).toBe(cfoPosition.costUsdc + cmoPosition.costUsdc);
    expect(safePosition.realizedPnlUsdc).toBe(0n);
    expect(safePosition.openedAt).toEqual(cfoPosition.openedAt);
    // The PnL the CFO's sale realised stays on its wallet; its tokens and their cost left with them.
    expect(await positionOf(cfo.address)).toMatchObject({
      quantity: 0n,
      costUsdc: 0n,
      realizedPnlUsdc: cfoPosition.realizedPnlUsdc,
      openedAt: null,
    });

    const now = await portfolio(after.app);
    expect(now.safe!.address.toLowerCase()).toBe(safe.toLowerCase());
    expect(now.safe!.positions).toMatchObject([
      { token: target, symbol: 'MOV', balance: now.safe!.positions[0]!.quantity },
    ]);
    expect(units(now.safe!.positions[0]!.costUsdc)).toBe(safePosition.costUsdc);
    expect(units(now.safe!.positions[0]!.balance, 18)).toBe(safePosition.quantity);
    // Nothing traded meanwhile: the company is worth what it was and its PnL is what it was (one wallet's value and
    // unrealised PnL now instead of two, each rounded down: at most a base unit apart).
    expect(now.totals.realizedPnlUsdc).toBe(before.totals.realizedPnlUsdc);
    for (const figure of ['valueUsdc', 'unrealizedPnlUsdc'] as const) {
      const drift = units(now.totals[figure]) - units(before.totals[figure]);
      expect(drift >= -1n && drift <= 1n, `${figure}: ${now.totals[figure]} vs ${before.totals[figure]}`).toBe(true);
    }
  });

  it('carries nothing twice: a second move, and the same blocks applied again', async () => {
    const safeBefore = await positionOf(safe);
    const res = await signed(after.app, co.account, 'POST', `/api/companies/${co.id}/custody`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.swept).toEqual([]);
    await trading.index();
    // The token stream reads the sweeps' blocks again and applies them again, as after a crash or a reorg's replay.
    const from = sweepBlocks.reduce((a, b) => (a < b ? a : b));
    const to = sweepBlocks.reduce((a, b) => (a > b ? a : b));
    const { logs, prepared } = await companyTokens.read!(after.container, { from, to });
    expect(
      logs.filter((l) => l.eventName === 'Transfer' && l.args.to.toLowerCase() === safe.toLowerCase()),
    ).toHaveLength(2);
    await t.database.db.transaction((tx) => companyTokens.apply(after.container, tx, logs, prepared, { from, to }));
    expect(await carries()).toHaveLength(2);
    expect(await positionOf(safe)).toEqual(safeBefore);
    expect(await positionOf(cfo.address)).toMatchObject({ quantity: 0n, costUsdc: 0n });
  });

  it('the engine is offered the Safe’s tokens at their cost, and sells them through the Safe', async () => {
    const position = (await positionOf(safe))!;
    const inputs = await gatherContext(after.container, co.id, 1);
    const offered = inputs.context.wallets.find((w) => w.role === 'CFO')!;
    expect(offered.address.toLowerCase()).toBe(safe.toLowerCase());
    expect(offered.positions).toEqual([
      expect.objectContaining({ symbol: 'MOV', costUsdc: formatUnits(position.costUsdc, 6) }),
    ]);

    fake.setDefault((request: FakeLlmRequest) => {
      const system = systemText(request);
      if (/^You are the (CFO|CTO|CMO|COO|CSO|CISO|CRO) of/.test(system)) return { content: '{"proposals":[]}' };
      if (system.startsWith('Extract the CEO'))
        return {
          content: JSON.stringify({
            directive: 'Sell.',
            actions: [{ role: 'CFO', tool: 'sell_token', args: { token: 'MOV', amount: 'all' }, rationale: 'exit' }],
          }),
        };
      return { content: 'Directive: sell.' };
    });
    const res = await signed(after.app, co.account, 'POST', `/api/companies/${co.id}/decisions/run`);
    expect(res.statusCode, res.body).toBe(201);
    const line = (res.json().data.actionsExecuted as string[]).find((l) => l.startsWith('CFO sell_token:'))!;
    expect(line).toMatch(/^CFO sell_token: sold [\d.]+ MOV for about/);
    expect(await tokenOf(safe)).toBe(0n);

    await trading.index();
    const [sale] = await t.database.db
      .select()
      .from(tokenTrades)
      .where(and(eq(tokenTrades.trader, getAddress(safe)), eq(tokenTrades.side, 'sell')));
    // The sale realises its proceeds against the cost the sweep carried, not against nothing.
    expect(sale!.realizedPnl).toBe(sale!.usdcAmount - position.costUsdc);
    expect(await positionOf(safe)).toMatchObject({
      quantity: 0n,
      costUsdc: 0n,
      realizedPnlUsdc: sale!.usdcAmount - position.costUsdc,
    });
    const now = await portfolio(after.app);
    expect(units(now.totals.realizedPnlUsdc)).toBe(units(before.totals.realizedPnlUsdc) + sale!.realizedPnl!);
    expect(units(now.totals.unrealizedPnlUsdc)).toBe(0n);
  });
});
