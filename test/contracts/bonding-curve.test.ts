// The bonding curve's TypeScript (packages/shared/src/curve.ts, which the web app's quote uses) against the deployed
// TokenLauncher and its BondingCurve library: over seeded random graduation thresholds (100 USDC to 1 billion),
// curve fees (0 to 2%), curve states and amounts, every launch, quote, trade and graduating split the launcher makes
// is the one the TypeScript computes, to the unit. The sequence is the same every run (xorshift32, fixed seed); a
// failure names the token, the step and the amount.

import { MockUSDCAbi } from '@ai-economy/shared/abis';
import {
  buySplit,
  curveBuy,
  curveMarketCap,
  curvePrice,
  curveSell,
  curveSellQuote,
  feeOn,
  INITIAL_VIRTUAL_TOKENS,
  launchedCurve,
  type Reserves,
} from '@ai-economy/shared/curve';
import { describe, expect, it } from 'vitest';
import { usdc } from './fixture.ts';
import { keyOf, useTokenChain } from './token-fixture.ts';

const f = useTokenChain();

const TOKENS = 10;
const STEPS = 8;
const QUOTES = 12;

// xorshift32, fixed seed: the same curves, fees and amounts every run.
let seed = 0x6d2b79f5;
function rand32(): number {
  seed ^= seed << 13;
  seed >>>= 0;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  seed >>>= 0;
  return seed;
}
const randBits = (bits: number): bigint => {
  let x = 0n;
  for (let b = 0; b < bits; b += 32) x = (x << 32n) | BigInt(rand32());
  return x & ((1n << BigInt(bits)) - 1n);
};
/** An amount in [lo, hi], spread over its orders of magnitude (as many 1-digit amounts as 20-digit ones). */
function spread(lo: bigint, hi: bigint): bigint {
  if (hi <= lo) return lo;
  const bits = 1 + (rand32() % hi.toString(2).length);
  const x = randBits(bits) | (1n << BigInt(bits - 1));
  return x >= lo && x <= hi ? x : lo + (x % (hi - lo + 1n));
}

const reservesOf = (c: { k: bigint; virtualUsdc: bigint; virtualTokens: bigint }): Reserves => ({
  k: c.k,
  virtualUsdc: c.virtualUsdc,
  virtualTokens: c.virtualTokens,
});

describe('the curve in TypeScript is the curve of the launcher', () => {
  it('quotes, trades, launches and graduating splits, over seeded random curves, fees and amounts', async () => {
    const trader = 1;
    let checked = 0;
    for (let n = 0; n < TOKENS; n++) {
      // Thresholds spread from the launcher's least (100 USDC) to its most (1 billion USDC); fees from 0 to 2%.
      const threshold = spread(usdc(100), 10n ** 15n);
      const bps = BigInt(rand32() % 201);
      await f.write(0, f.launcherCall('setCurveFee', [Number(bps)]));
      const { token } = await f.launch({ key: keyOf(`curve-${n}`), threshold });
      const at = (what: string) => `token ${n} (threshold ${threshold}, fee ${bps} bps): ${what}`;

      // The launch: the curve opens where launchedCurve says, at the price it gives.
      const opened = launchedCurve(threshold);
      const c0 = await f.curveOf(token);
      expect(
        { ...reservesOf(c0), graduationVirtualUsdc: c0.graduationVirtualUsdc, realUsdc: c0.realUsdc },
        at('launch'),
      ).toEqual({ ...reservesOf(opened), graduationVirtualUsdc: opened.graduationVirtualUsdc, realUsdc: 0n });
      const supply = await f.totalSupply(token);
      expect(await f.priceOf(token), at('price at launch')).toEqual({
        price: curvePrice(opened.virtualUsdc, opened.virtualTokens),
        marketCap: curveMarketCap(opened.virtualUsdc, opened.virtualTokens, supply),
      });

      await f.send(
        f.wallet(0).writeContract({
          address: f.usdcToken,
          abi: MockUSDCAbi,
          functionName: 'mint',
          args: [f.addr(trader), threshold * 2n],
        }),
      );
      await f.ready(trader, token);

      for (let step = 0; step < STEPS; step++) {
        const c = await f.curveOf(token);
        const reserves = reservesOf(c);
        const needed = c.graduationVirtualUsdc - c.virtualUsdc;
        const completing = needed + feeOn(needed, bps);
        const sold = INITIAL_VIRTUAL_TOKENS - c.virtualTokens;

        // Quotes of buys that stay on the curve (the edges included) and of sales up to half again what it sold
        // (past what the curve holds: quoteSell caps the payout).
        const buys = [1n, completing - 1n, ...Array.from({ length: QUOTES }, () => spread(1n, completing - 1n))];
        const sells = [1n, sold, ...Array.from({ length: QUOTES }, () => spread(1n, sold + sold / 2n + 1n))];
        const [buyQuotes, sellQuotes] = await Promise.all([
          Promise.all(buys.map((a) => f.quoteBuy(token, a))),
          Promise.all(sells.map((a) => f.quoteSell(token, a))),
        ]);
        for (const [i, a] of buys.entries()) {
          const expected = curveBuy(reserves, buySplit(a, needed, bps).curveIn).tokensOut;
          expect(buyQuotes[i], at(`step ${step}, quoteBuy(${a})`)).toBe(expected);
        }
        for (const [i, a] of sells.entries()) {
          const expected = curveSellQuote({ ...reserves, realUsdc: c.realUsdc }, bps, a);
          expect(sellQuotes[i], at(`step ${step}, quoteSell(${a})`)).toBe(expected);
        }
        checked += buys.length + sells.length;

        // A trade: a buy that stays on the curve, or a sale of part of what the trader holds. The launcher's
        // CurveTrade log and its curve afterwards are what the TypeScript computes.
        const held = await f.tokensOf(token, f.addr(trader));
        const selling = held > 0n && rand32() % 3 === 0;
        if (selling) {
          const amount = spread(1n, held);
          const sale = curveSell(reserves, amount);
          const fee = feeOn(sale.gross, bps);
          if (sale.gross <= fee) continue; // refused as LauncherZeroOutput (token-launcher.curve.test.ts)
          const receipt = await f.sell(trader, token, amount);
          const [trade] = f.launcherEvents(receipt).filter((e) => e.eventName === 'CurveTrade');
          expect(trade?.args, at(`step ${step}, sell(${amount})`)).toMatchObject({
            isBuy: false,
            usdcAmount: sale.gross - fee,
            tokenAmount: amount,
            virtualUsdc: sale.virtualUsdc,
            virtualTokens: sale.virtualTokens,
            fee,
          });
        } else {
          const amount = spread(1n, completing - 1n);
          const { curveIn, fee } = buySplit(amount, needed, bps);
          const bought = curveBuy(reserves, curveIn);
          if (bought.tokensOut === 0n) continue; // refused as LauncherZeroOutput
          const receipt = await f.buy(trader, token, amount);
          const [trade] = f.launcherEvents(receipt).filter((e) => e.eventName === 'CurveTrade');
          expect(trade?.args, at(`step ${step}, buy(${amount})`)).toMatchObject({
            isBuy: true,
            usdcAmount: curveIn + fee,
            tokenAmount: bought.tokensOut,
            virtualUsdc: bought.virtualUsdc,
            virtualTokens: bought.virtualTokens,
            fee,
          });
        }
        const after = await f.curveOf(token);
        expect(after.realUsdc, at(`step ${step}, the USDC the curve holds`)).toBe(
          after.virtualUsdc - opened.initialVirtualUsdc,
        );
        expect(await f.priceOf(token), at(`step ${step}, price`)).toEqual({
          price: curvePrice(after.virtualUsdc, after.virtualTokens),
          marketCap: curveMarketCap(after.virtualUsdc, after.virtualTokens, supply),
        });
      }

      // The graduating buy: more than the curve needs; the curve takes exactly what completes it and its fee.
      const c = await f.curveOf(token);
      const needed = c.graduationVirtualUsdc - c.virtualUsdc;
      const amount = needed + feeOn(needed, bps) + spread(1n, needed);
      const split = buySplit(amount, needed, bps);
      expect(split, at('graduating split')).toEqual({ curveIn: needed, fee: feeOn(needed, bps) });
      const receipt = await f.buy(trader, token, amount);
      const [trade] = f.launcherEvents(receipt).filter((e) => e.eventName === 'CurveTrade');
      expect(trade?.args, at(`graduating buy(${amount})`)).toMatchObject({
        isBuy: true,
        usdcAmount: split.curveIn + split.fee,
        tokenAmount: curveBuy(reservesOf(c), split.curveIn).tokensOut,
        virtualUsdc: c.graduationVirtualUsdc,
        fee: split.fee,
      });
      expect(await f.graduated(token), at('graduated')).toBe(true);
    }
    // Every token's quotes were checked at every step.
    expect(checked).toBe(TOKENS * STEPS * 2 * (QUOTES + 2));
  });
});
