// TokenLauncher, graduation into the Uniswap v4 pool: the buy that graduates (just below, exact, oversized), the
// accounting of the move into the pool, price continuity, graduating only once, trading through the launcher
// afterwards with the hook's 2.5% fee, the guards that still apply, and the gas of the main calls. Every test runs
// twice: with the company token as the pool's currency0 and as its currency1 (the token address follows from the
// company key). The pool's protections are in token-launcher.pool.test.ts.

import { MockUSDCAbi } from '@ai-economy/shared/abis';
import { type Address, type Hex, maxUint256 } from 'viem';
import { describe, expect, it } from 'vitest';
import { usdc } from './fixture.ts';
import {
  ceilDiv,
  G,
  hookFee,
  MAX_TICK,
  MIN_TICK,
  poolIdOf,
  type Side,
  SUPPLY,
  sqrtFloor,
  useTokenChain,
} from './token-fixture.ts';

// The exact curve model of this file has no fee: the curve fee (1% by default) is tested in
// token-launcher.fee.test.ts.
const f = useTokenChain({ curveFeeBps: 0 });

/** |a - b| <= b / 10,000 (0.01%). */
const within001 = (a: bigint, b: bigint) => (a > b ? a - b : b - a) * 10_000n <= b;
/** The pool's starting sqrt price from the curve's final reserves, as the launcher computes it. */
function graduationSqrtPrice(side: Side, v: bigint, t: bigint) {
  return sqrtFloor(side === 'token0' ? (v << 192n) / t : (t << 192n) / v);
}

// ---------------------------------------------------------------- graduation

describe.each(['token0', 'token1'] as const)('graduation, company token as %s', (side) => {
  it('a buy to just below the threshold does not graduate; the last raw unit does, and the price carries on', async () => {
    const token = await f.launchSide(side);
    await f.ready(1, token);
    const c = await f.curveOf(token);
    await f.buy(1, token, c.graduationVirtualUsdc - c.virtualUsdc - 1n);
    expect(await f.graduated(token)).toBe(false);
    const below = await f.curveOf(token);
    expect(below.graduated).toBe(false);
    expect(below.virtualUsdc).toBe(c.graduationVirtualUsdc - 1n);
    const before = await f.priceOf(token);
    expect(before.marketCap).toBeLessThan(G);
    expect(within001(before.marketCap, G)).toBe(true);

    const receipt = await f.buy(1, token, 1n);
    expect(f.launcherEvents(receipt).map((e) => e.eventName)).toEqual(['CurveTrade', 'Graduated']);
    expect(f.hookEvents(receipt)).toEqual([]);
    expect(await f.graduated(token)).toBe(true);
    const after = await f.priceOf(token);
    // continuity: the pool opens at the curve's last price, 0.01 USDC a token. The market cap (1e10 units) agrees
    // to a few units; the per-token price has only 4 significant digits here (9999 -> 10000), so it can show no
    // more than one unit of rounding.
    expect(within001(after.marketCap, before.marketCap)).toBe(true);
    expect(after.marketCap - before.marketCap).toBeLessThanOrEqual(5n);
    expect(after.price - before.price).toBeGreaterThanOrEqual(0n);
    expect(after.price - before.price).toBeLessThanOrEqual(1n);
    expect(within001(after.marketCap, G)).toBe(true);
  });

  it('the exact graduating buy creates the pool and accounts for every unit', async () => {
    const token = await f.launchSide(side);
    await f.ready(1, token);
    const c = await f.curveOf(token);
    const needed = c.graduationVirtualUsdc - c.virtualUsdc;
    const finalTokens = ceilDiv(c.k, c.graduationVirtualUsdc);
    const curveTokens = c.virtualTokens - finalTokens;
    expect(await f.quoteBuy(token, needed)).toBe(curveTokens);
    const recipientUsdc = await f.usdcOf(f.addr(0));

    const receipt = await f.buy(1, token, needed, curveTokens);
    expect(await f.tokensOf(token, f.addr(1))).toBe(curveTokens);
    const [trade, grad] = f.launcherEvents(receipt);
    expect(trade?.eventName).toBe('CurveTrade');
    expect(trade?.args).toMatchObject({ usdcAmount: needed, tokenAmount: curveTokens });
    expect(grad?.eventName).toBe('Graduated');
    const g = grad!.args as {
      token: Address;
      poolId: Hex;
      sqrtPriceX96: bigint;
      liquidity: bigint;
      usdcToPool: bigint;
      tokensToPool: bigint;
      usdcToFees: bigint;
      tokensBurned: bigint;
    };

    // the pool: key, id, price, liquidity
    const key = await f.poolKeyOf(token);
    expect(key).toEqual({
      currency0: side === 'token0' ? token : f.usdcToken,
      currency1: side === 'token0' ? f.usdcToken : token,
      fee: 0,
      tickSpacing: 60,
      hooks: f.feeHook(),
    });
    expect(g.token).toBe(token);
    expect(g.poolId).toBe(poolIdOf(key));
    expect((await f.curveOf(token)).poolId).toBe(g.poolId);
    expect(g.sqrtPriceX96).toBe(graduationSqrtPrice(side, c.graduationVirtualUsdc, finalTokens));
    expect(await f.poolState(g.poolId)).toEqual({ sqrtPriceX96: g.sqrtPriceX96, liquidity: g.liquidity });
    const pm = f.managerEvents(receipt);
    expect(pm.map((e) => e.eventName)).toEqual(['Initialize', 'ModifyLiquidity']);
    expect(pm[0]?.args).toMatchObject({ id: g.poolId, ...key, sqrtPriceX96: g.sqrtPriceX96 });
    expect(pm[1]?.args).toEqual({
      id: g.poolId,
      sender: f.launcher(),
      tickLower: MIN_TICK,
      tickUpper: MAX_TICK,
      liquidityDelta: g.liquidity,
      salt: `0x${'0'.repeat(64)}`,
    });

    // every unit: the USDC the curve raised and the tokens the launcher held
    expect(g.usdcToPool + g.usdcToFees).toBe(needed);
    expect(g.tokensToPool + g.tokensBurned).toBe(SUPPLY - curveTokens);
    expect(await f.tokensOf(token, f.launcher())).toBe(0n);
    // the dust stays here as accrued fees (this file's curve fee is 0, so they are the dust alone), sent to nobody
    const accrued = await f.curveFeesAccrued();
    expect(accrued).toBe(g.usdcToFees);
    expect(await f.usdcOf(f.launcher())).toBe(accrued);
    expect(await f.totalSupply(token)).toBe(SUPPLY - g.tokensBurned);
    expect(await f.tokensOf(token, f.poolManager())).toBe(g.tokensToPool);
    expect(await f.usdcOf(f.poolManager())).toBe(g.usdcToPool);
    expect(await f.usdcOf(f.addr(0))).toBe(recipientUsdc);
    // the curve's reserves are balanced at its last price, so almost nothing is left over: a unit or two of USDC
    // and a few million wei (a trillionth of a token at most) of tokens
    expect(g.usdcToFees).toBeLessThanOrEqual(2n);
    expect(g.tokensBurned).toBeLessThan(10n ** 12n);
    // about a third of the supply and of G go into the pool
    expect(within001(g.tokensToPool * 3n, SUPPLY)).toBe(true);
    expect(within001(g.usdcToPool * 3n, G)).toBe(true);
    // the curve is frozen at its last state and holds nothing
    expect(await f.curveOf(token)).toMatchObject({
      virtualUsdc: c.graduationVirtualUsdc,
      virtualTokens: finalTokens,
      realUsdc: 0n,
      graduated: true,
    });
  });

  it('an oversized buy graduates and spends the rest in the new pool, exactly as quoted', async () => {
    const token = await f.launchSide(side);
    await f.ready(1, token);
    const c = await f.curveOf(token);
    const needed = c.graduationVirtualUsdc - c.virtualUsdc;
    const curveTokens = c.virtualTokens - ceilDiv(c.k, c.graduationVirtualUsdc);
    // large enough to move the pool's price across several tick-bitmap words
    const extra = usdc(25_000) + 123n;
    const quote = await f.quoteBuy(token, needed + extra);
    const recipientTokens = await f.feesAccrued(token);

    const receipt = await f.buy(1, token, needed + extra, quote);
    expect(await f.tokensOf(token, f.addr(1))).toBe(quote);
    expect(f.launcherEvents(receipt).map((e) => e.eventName)).toEqual(['CurveTrade', 'Graduated']);
    expect(f.launcherEvents(receipt)[0]?.args).toMatchObject({ usdcAmount: needed, tokenAmount: curveTokens });
    const trades = f.hookEvents(receipt).filter((e) => e.eventName === 'PoolTrade');
    expect(trades).toHaveLength(1);
    const t = trades[0]!.args as { tokenAmount: bigint; fee: bigint };
    expect(trades[0]?.args).toMatchObject({
      token,
      trader: f.addr(1),
      isBuy: true,
      usdcAmount: extra,
      tokenAmount: quote - curveTokens,
      feeInUsdc: false,
    });
    expect(t.fee).toBe(hookFee(t.tokenAmount + t.fee));
    expect((await f.feesAccrued(token)) - recipientTokens).toBe(t.fee);
    // the buyer's USDC all went in: the curve's part and the pool's part
    expect(await f.usdcOf(f.addr(1))).toBe(usdc(1_000_000) - needed - extra);
  });

  it('graduates once: later buys go to the pool, and nothing graduates again', async () => {
    const { token } = await f.launchAndGraduate(side);
    const curve = await f.curveOf(token);
    for (const amount of [usdc(5), usdc(20_000)]) {
      const receipt = await f.buy(1, token, amount);
      expect(f.launcherEvents(receipt)).toEqual([]);
      // the swap, and the hook's fee kept as an ERC-6909 claim (the PoolManager's Transfer from 0 to the hook)
      expect(f.managerEvents(receipt).map((e) => e.eventName)).toEqual(['Swap', 'Transfer']);
      expect(f.hookEvents(receipt).map((e) => e.eventName)).toEqual(['PoolTrade']);
    }
    expect(await f.curveOf(token)).toEqual(curve);
    expect(await f.graduated(token)).toBe(true);
  });
});

// ---------------------------------------------------------------- trading after graduation

describe.each(['token0', 'token1'] as const)('after graduation, company token as %s', (side) => {
  it('buys and sells through the launcher pay exactly the quotes and exactly 2.5% in fee claims', async () => {
    const { token, receipt: gradReceipt } = await f.launchAndGraduate(side);
    const { poolId, liquidity } = f.launcherEvents(gradReceipt)[1]!.args as { poolId: Hex; liquidity: bigint };
    await f.ready(2, token);
    const steps: [boolean, bigint][] = [
      [true, usdc(100)],
      [false, 10n ** 21n],
      [true, usdc(40_000)], // crosses tick-bitmap words
      [false, 10n ** 18n + 7n],
      [true, 3n],
      [false, 0n], // everything trader 2 holds
    ];
    let price = await f.priceOf(token);
    for (const [isBuy, size] of steps) {
      const amount = isBuy || size > 0n ? size : await f.tokensOf(token, f.addr(2));
      const quote = isBuy ? await f.quoteBuy(token, amount) : await f.quoteSell(token, amount);
      const [usdcBefore, tokensBefore, feeUsdc, feeTokens] = await Promise.all([
        f.usdcOf(f.addr(2)),
        f.tokensOf(token, f.addr(2)),
        f.feesAccrued(f.usdcToken),
        f.feesAccrued(token),
      ]);
      const receipt = isBuy ? await f.buy(2, token, amount, quote) : await f.sell(2, token, amount, quote);
      const [usdcAfter, tokensAfter, feeUsdcAfter, feeTokensAfter] = await Promise.all([
        f.usdcOf(f.addr(2)),
        f.tokensOf(token, f.addr(2)),
        f.feesAccrued(f.usdcToken),
        f.feesAccrued(token),
      ]);
      expect(usdcAfter - usdcBefore).toBe(isBuy ? -amount : quote);
      expect(tokensAfter - tokensBefore).toBe(isBuy ? quote : -amount);
      const [trade] = f.hookEvents(receipt);
      const fee = (trade?.args as { fee: bigint }).fee;
      expect(trade?.args).toEqual({
        token,
        trader: f.addr(2),
        isBuy,
        usdcAmount: isBuy ? amount : quote,
        tokenAmount: isBuy ? quote : amount,
        fee,
        feeInUsdc: !isBuy,
      });
      // The pool's price after the swap is in the PoolManager's Swap log of the pool, just before the trade's log
      // (the hook no longer reads slot0 for it; the indexer takes the price from there).
      const swaps = f.managerEvents(receipt).filter((e) => e.eventName === 'Swap');
      expect(swaps).toHaveLength(1);
      expect(swaps[0]!.args).toMatchObject({ id: poolId, sqrtPriceX96: (await f.poolState(poolId)).sqrtPriceX96 });
      expect(swaps[0]!.logIndex).toBeLessThan(trade!.logIndex);
      // 2.5% of the swap's output (its unspecified currency), for the fee recipient, as the hook's claims in that
      // currency
      expect(fee).toBe(hookFee(quote + fee));
      expect(fee).toBeGreaterThan(0n);
      expect(feeUsdcAfter - feeUsdc).toBe(isBuy ? 0n : fee);
      expect(feeTokensAfter - feeTokens).toBe(isBuy ? fee : 0n);
      // the price moves the right way, and the pool's liquidity never changes
      const next = await f.priceOf(token);
      if (isBuy) expect(next.marketCap).toBeGreaterThan(price.marketCap);
      else expect(next.marketCap).toBeLessThan(price.marketCap);
      price = next;
      expect((await f.poolState(poolId)).liquidity).toBe(liquidity);
    }
    // the launcher holds nothing but the graduation's dust, accrued for the fee recipient
    expect(await f.usdcOf(f.launcher())).toBe(await f.curveFeesAccrued());
    expect(await f.tokensOf(token, f.launcher())).toBe(0n);
  });

  it('a buy bigger than the whole pool stops at the edge of the position, returns the unspent USDC, as quoted', async () => {
    const { token } = await f.launchAndGraduate(side);
    const huge = 10n ** 36n; // 1e30 USDC: far past what the full-range position holds
    await f.send(
      f
        .wallet(0)
        .writeContract({ address: f.usdcToken, abi: MockUSDCAbi, functionName: 'mint', args: [f.addr(2), huge] }),
    );
    await f.ready(2, token);
    const inPool = await f.tokensOf(token, f.poolManager());
    const quote = await f.quoteBuy(token, huge);
    const before = await f.usdcOf(f.addr(2));
    const receipt = await f.buy(2, token, huge, quote);
    expect(await f.tokensOf(token, f.addr(2))).toBe(quote);
    const paid = before - (await f.usdcOf(f.addr(2)));
    expect(paid).toBeLessThan(huge);
    const [trade] = f.hookEvents(receipt);
    const fee = (trade?.args as { fee: bigint }).fee;
    expect(trade?.args).toMatchObject({ trader: f.addr(2), isBuy: true, usdcAmount: paid, tokenAmount: quote });
    // the pool gave up every token it had but the rounding of its ~100 steps (a few dozen wei): the buyer's part
    // and the fee
    expect(inPool - quote - fee).toBeGreaterThanOrEqual(0n);
    expect(inPool - quote - fee).toBeLessThan(1_000n);
    expect(await f.usdcOf(f.launcher())).toBe(await f.curveFeesAccrued());
  });

  it("curve-phase limits no longer apply, the launcher's own guards still do", async () => {
    const { token } = await f.launchAndGraduate(side);
    const curve = await f.curveOf(token);
    expect(curve.realUsdc).toBe(0n);
    await f.ready(2, token);
    // far past what the curve could ever take, and a sale the empty curve could not pay
    await f.buy(2, token, usdc(60_000));
    const held = await f.tokensOf(token, f.addr(2));
    await f.sell(2, token, held / 2n);
    expect(await f.curveOf(token)).toEqual(curve);
    const q = await f.quoteBuy(token, usdc(10));
    await f.tracedRevert(2, f.launcherCall('buy', [token, usdc(10), q + 1n, maxUint256]), 'LauncherSlippage', [
      q,
      q + 1n,
    ]);
    const s = await f.quoteSell(token, 10n ** 20n);
    await f.tracedRevert(2, f.launcherCall('sell', [token, 10n ** 20n, s + 1n, maxUint256]), 'LauncherSlippage', [
      s,
      s + 1n,
    ]);
    await f.tracedRevert(2, f.launcherCall('buy', [token, 0n, 0n, maxUint256]), 'LauncherZeroAmount', []);
    await f.tracedRevert(2, f.launcherCall('sell', [token, 0n, 0n, maxUint256]), 'LauncherZeroAmount', []);
    expect(await f.quoteSell(token, 1n)).toBe(0n);
    await f.tracedRevert(2, f.launcherCall('sell', [token, 1n, 0n, maxUint256]), 'LauncherZeroOutput', []);
    const now = (await f.client.getBlock()).timestamp;
    await f.client.setNextBlockTimestamp({ timestamp: now + 50n });
    await f.tracedRevert(2, f.launcherCall('buy', [token, usdc(1), 0n, now + 49n]), 'LauncherDeadlinePassed', [
      now + 49n,
      now + 50n,
    ]);
  });
});

// ---------------------------------------------------------------- gas
