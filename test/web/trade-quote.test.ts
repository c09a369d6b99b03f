// The trade form's quote (web/src/trade/quote.ts and chain-reads.ts) against the chain that executes the trade: on
// a real anvil with the platform's launcher, each quoted trade is then made, and what the chain did (tokens or USDC
// received, the curve's part and fee in its CurveTrade log, the graduation) equals what the quote said, for a curve
// buy, a buy that completes the curve and buys the rest in the new pool, a pool buy and a pool sale.

import { TokenLauncherAbi } from '@ai-economy/shared/abis';
import { type Address, type PublicClient, parseEventLogs, parseUnits } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { readQuote, type TradeContracts } from '../../web/src/trade/chain-reads.ts';
import { buyQuote, CurveReserveError, type CurveState, minimumOut, sellQuote } from '../../web/src/trade/quote.ts';
import { useTestApp } from '../helpers/app.ts';
import { staffedCompany } from '../helpers/companies.ts';
import { tokenTrading } from '../helpers/trading.ts';

const t = useTestApp();
const trading = tokenTrading(t);
const usdc = (n: string) => parseUnits(n, 6);
let contracts: TradeContracts;
let client: PublicClient;

beforeAll(async () => {
  const co = await staffedCompany(t, 1, { name: 'Quote Co' });
  const token = await trading.launch(co.id, 'QUOTE', 1);
  client = t.chain.chain.publicClient as PublicClient;
  contracts = {
    launcher: t.chain.chain.contracts.tokenLauncher! as Address,
    usdc: t.chain.chain.contracts.usdc! as Address,
    token,
  };
});

const curveTradeOf = (logs: Parameters<typeof parseEventLogs>[0]['logs']) =>
  parseEventLogs({ abi: TokenLauncherAbi, logs, eventName: 'CurveTrade' })[0]?.args;

describe('the quote is what the chain does', () => {
  it('a curve buy: its tokens, its curve part and its fee', async () => {
    const q = await readQuote(client, contracts, 'buy', usdc('100'));
    expect(q).toMatchObject({ route: 'curve', graduates: false, poolUsdc: 0n, poolFeeUsdc: 0n });
    // 1% of the curve part, rounded up, on top of it.
    expect(q.curveUsdc + q.curveFeeUsdc).toBe(usdc('100'));
    // The curve takes what 1% on top leaves (TokenLauncher's _curveBuySplit); the fee is the rest.
    expect(q.curveUsdc).toBe((usdc('100') * 10_000n) / 10_100n);
    const before = await trading.balanceOf(2, contracts.token);
    const receipt = await trading.buy(2, contracts.token, usdc('100'));
    expect((await trading.balanceOf(2, contracts.token)) - before).toBe(q.out);
    expect(curveTradeOf(receipt.logs)).toMatchObject({
      usdcAmount: usdc('100'),
      tokenAmount: q.out,
      fee: q.curveFeeUsdc,
    });
    // Small against the curve: its own price is close to the current one.
    expect(q.impactBps).toBeLessThan(500);
  });

  it('a buy that completes the curve: the curve part graduates the token, the rest buys in the new pool', async () => {
    // All of the curve but 300 USDC first.
    const curve = await client.readContract({
      address: contracts.launcher,
      abi: TokenLauncherAbi,
      functionName: 'curveOf',
      args: [contracts.token],
    });
    await trading.buy(
      3,
      contracts.token,
      ((curve.graduationVirtualUsdc - curve.virtualUsdc - usdc('300')) * 101n) / 100n,
    );
    const q = await readQuote(client, contracts, 'buy', usdc('2000'));
    expect(q).toMatchObject({ route: 'curve-then-pool', graduates: true });
    expect(q.poolUsdc).toBe(usdc('2000') - q.curveUsdc - q.curveFeeUsdc);
    expect(q.poolUsdc).toBeGreaterThan(0n);
    expect(q.poolFeeUsdc).toBe((q.poolUsdc * 250n) / 10_000n);
    expect(q.impactBps).toBeGreaterThan(1500);

    const before = await trading.balanceOf(4, contracts.token);
    const receipt = await trading.buy(4, contracts.token, usdc('2000'));
    const received = (await trading.balanceOf(4, contracts.token)) - before;
    expect(received).toBe(q.out);
    expect(received).toBeGreaterThanOrEqual(minimumOut(q.out, 10_000n));
    const curveTrade = curveTradeOf(receipt.logs)!;
    expect(curveTrade.usdcAmount).toBe(q.curveUsdc + q.curveFeeUsdc);
    expect(curveTrade.fee).toBe(q.curveFeeUsdc);
    expect(parseEventLogs({ abi: TokenLauncherAbi, logs: receipt.logs, eventName: 'Graduated' })).toHaveLength(1);
  });

  it('a pool buy and a pool sale after graduation', async () => {
    const buy = await readQuote(client, contracts, 'buy', usdc('50'));
    expect(buy).toMatchObject({
      route: 'pool',
      graduates: false,
      curveUsdc: 0n,
      curveFeeUsdc: 0n,
      poolUsdc: usdc('50'),
    });
    const before = await trading.balanceOf(5, contracts.token);
    await trading.buy(5, contracts.token, usdc('50'));
    const bought = (await trading.balanceOf(5, contracts.token)) - before;
    expect(bought).toBe(buy.out);

    const sale = await readQuote(client, contracts, 'sell', bought);
    expect(sale).toMatchObject({ route: 'pool', curveFeeUsdc: 0n });
    const usdcBefore = await trading.usdcOf(devAccount(5).address);
    await trading.sell(5, contracts.token, bought);
    expect((await trading.usdcOf(devAccount(5).address)) - usdcBefore).toBe(sale.out);
    // A round trip pays the hook twice: about 5% lost.
    expect(Number(sale.out) / 50e6).toBeGreaterThan(0.94);
    expect(Number(sale.out) / 50e6).toBeLessThan(0.96);
  });
});

describe('the quote of a curve sale larger than the curve holds', () => {
  it('is refused, where quoteSell would only cap the payout', () => {
    const curve: CurveState = {
      k: 10n ** 30n,
      virtualUsdc: 10n ** 9n,
      realUsdc: 10n ** 6n,
      virtualTokens: 10n ** 21n,
      graduationVirtualUsdc: 2n * 10n ** 9n,
      graduated: false,
    };
    expect(() => sellQuote(curve, 100n, 10n ** 6n, 10n ** 20n, 10n ** 6n)).toThrow(CurveReserveError);
    // A buy of nothing gives nothing and moves nothing.
    expect(buyQuote(curve, 100n, 10n ** 6n, 0n, 0n)).toMatchObject({ out: 0n, impactBps: 0, averagePrice: 0n });
  });
});
