// TokenLauncher, bonding-curve phase: the curve's exact arithmetic against a bigint model of the contract's formulas
// (quotes, prices, rounding in the curve's favour, round trips, dust), the USDC it holds against the curves' books,
// slippage, deadline and zero-amount guards, and a seeded random sequence of trades by several traders on two tokens
// (one of which graduates) checking the books after every step. Launch and administration are in
// token-launcher.launch.test.ts, graduation in token-launcher.graduation.test.ts.
import { type Address, maxUint256 } from 'viem';
import { describe, expect, it } from 'vitest';
import { usdc } from './fixture.ts';
import { type Curve, ceilDiv, G, initialCurve, keyOf, priceOfCurve, SUPPLY, useTokenChain } from './token-fixture.ts';

// The exact curve model of this file has no fee: the curve fee (1% by default) is tested in
// token-launcher.fee.test.ts.
const f = useTokenChain({ curveFeeBps: 0 });

// ---------------------------------------------------------------- the contract's formulas, in bigint

/** A curve buy that stays below graduation: tokens out and the curve after. */
function modelBuy(c: Curve, usdcIn: bigint): { out: bigint; next: Curve } {
  const v = c.v + usdcIn;
  if (v >= c.gV) throw new Error('the model covers curve-only buys');
  const t = ceilDiv(c.k, v);
  return { out: c.t - t, next: { ...c, v, t, real: c.real + usdcIn } };
}
function modelSell(c: Curve, tokensIn: bigint): { out: bigint; next: Curve } {
  const t = c.t + tokensIn;
  const v = ceilDiv(c.k, t);
  const out = c.v - v;
  return { out, next: { ...c, v, t, real: c.real - out } };
}

// ---------------------------------------------------------------- chain helpers

/** The curve as the model sees it, from curveOf. */
async function chainCurve(token: Address) {
  const s = await f.curveOf(token);
  return { v: s.virtualUsdc, t: s.virtualTokens, k: s.k, real: s.realUsdc, gV: s.graduationVirtualUsdc };
}
const modelView = (c: Curve) => ({ v: c.v, t: c.t, k: c.k, real: c.real, gV: c.gV });

// ---------------------------------------------------------------- curve trades

describe('curve trades', () => {
  it('buys raise the price and sells lower it; every output equals its quote and the model, to the unit', async () => {
    const { token } = await f.launch();
    await f.ready(1, token);
    let model = initialCurve(G);
    let price = await f.priceOf(token);
    let held = 0n;
    for (const amount of [usdc(10), usdc(250), 1n, usdc(1_000) + 7n]) {
      const quote = await f.quoteBuy(token, amount);
      const step = modelBuy(model, amount);
      expect(quote).toBe(step.out);
      const receipt = await f.buy(1, token, amount, quote);
      model = step.next;
      held += step.out;
      expect(await f.tokensOf(token, f.addr(1))).toBe(held);
      expect(await chainCurve(token)).toEqual(modelView(model));
      const [trade] = f.launcherEvents(receipt).filter((e) => e.eventName === 'CurveTrade');
      expect(trade?.args).toEqual({
        token,
        trader: f.addr(1),
        isBuy: true,
        usdcAmount: amount,
        tokenAmount: step.out,
        virtualUsdc: model.v,
        virtualTokens: model.t,
        fee: 0n,
      });
      // the price per whole token has 6 decimals, so the market cap shows small moves the price rounds away
      const next = await f.priceOf(token);
      expect(next).toEqual(priceOfCurve(model));
      expect(next.price).toBeGreaterThanOrEqual(price.price);
      expect(next.marketCap).toBeGreaterThan(price.marketCap);
      price = next;
    }
    for (const amount of [held / 3n, 10n ** 18n, held / 5n + 12_345n]) {
      const quote = await f.quoteSell(token, amount);
      const step = modelSell(model, amount);
      expect(quote).toBe(step.out);
      const before = await f.usdcOf(f.addr(1));
      const receipt = await f.sell(1, token, amount, quote);
      model = step.next;
      expect((await f.usdcOf(f.addr(1))) - before).toBe(step.out);
      expect(await chainCurve(token)).toEqual(modelView(model));
      const [trade] = f.launcherEvents(receipt).filter((e) => e.eventName === 'CurveTrade');
      expect(trade?.args).toMatchObject({ isBuy: false, usdcAmount: step.out, tokenAmount: amount });
      const next = await f.priceOf(token);
      expect(next).toEqual(priceOfCurve(model));
      expect(next.price).toBeLessThanOrEqual(price.price);
      expect(next.marketCap).toBeLessThan(price.marketCap);
      price = next;
    }
  });

  it("holds exactly the sum of the curves' realUsdc, across tokens", async () => {
    const a = (await f.launch({ key: keyOf('a') })).token;
    const b = (await f.launch({ key: keyOf('b'), threshold: usdc(50_000) })).token;
    await f.ready(1, a);
    await f.ready(2, b);
    await f.ready(2, a);
    const check = async () => {
      const [ca, cb] = await Promise.all([f.curveOf(a), f.curveOf(b)]);
      expect(await f.usdcOf(f.launcher())).toBe(ca.realUsdc + cb.realUsdc);
      expect(ca.realUsdc).toBe(ca.virtualUsdc - initialCurve(G).v0);
      expect(cb.realUsdc).toBe(cb.virtualUsdc - initialCurve(usdc(50_000)).v0);
    };
    await f.buy(1, a, usdc(1_234));
    await check();
    await f.buy(2, b, usdc(9_999) + 1n);
    await check();
    await f.buy(2, a, 3n);
    await f.sell(2, b, (await f.tokensOf(b, f.addr(2))) / 2n);
    await check();
    await f.sell(1, a, await f.tokensOf(a, f.addr(1)));
    await check();
  });

  it('selling everything back restores the initial reserves and never pays out more than was paid in', async () => {
    const { token } = await f.launch();
    const initial = await chainCurve(token);
    const traders = [1, 2, 3];
    const start = await Promise.all(traders.map((i) => f.usdcOf(f.addr(i))));
    for (const i of traders) await f.ready(i, token);
    await f.buy(1, token, usdc(777));
    await f.buy(2, token, 999n);
    await f.buy(3, token, usdc(2_500) + 3n);
    await f.buy(1, token, 999n);
    // sell back in a different order and in pieces
    for (const i of [2, 3, 1]) {
      const all = await f.tokensOf(token, f.addr(i));
      await f.sell(i, token, all / 3n);
      await f.sell(i, token, all - all / 3n);
    }
    expect(await chainCurve(token)).toEqual(initial);
    expect(await f.usdcOf(f.launcher())).toBe(0n);
    expect(await f.tokensOf(token, f.launcher())).toBe(SUPPLY);
    // Together the traders take out exactly what they put in: the curve is back at its start and holds nothing.
    // One of them alone may end up a little ahead: whoever sells first sells at the top of the curve, so the order
    // of the exits moves value between traders. A trader alone never gains: see the round trips below.
    const end = await Promise.all(traders.map((i) => f.usdcOf(f.addr(i))));
    const sum = (xs: bigint[]) => xs.reduce((a, b) => a + b, 0n);
    expect(sum(end)).toBe(sum(start));
  });

  it('a round trip by a trader alone pays back exactly what it paid, from any state of the curve', async () => {
    // Rounding keeps the curve's token reserve up on a buy and its USDC reserve up on a sale; selling the tokens
    // just bought puts the token reserve back where it was, so the sale pays exactly the USDC the buy added.
    const { token } = await f.launch();
    await f.ready(1, token);
    await f.ready(2, token);
    for (const [n, amount] of [1n, 2n, 999n, usdc(1) + 1n, usdc(1_500)].entries()) {
      if (n === 3) await f.buy(2, token, usdc(1_500) + 17n); // someone else moves the curve in between
      const curve = await chainCurve(token);
      const before = await f.usdcOf(f.addr(1));
      await f.buy(1, token, amount);
      const bought = await f.tokensOf(token, f.addr(1));
      expect(await f.quoteSell(token, bought)).toBe(amount);
      await f.sell(1, token, bought);
      expect(await f.usdcOf(f.addr(1))).toBe(before);
      expect(await chainCurve(token)).toEqual(curve);
    }
  });

  it('checks slippage: minOut one above the quote reverts, at the quote succeeds', async () => {
    const { token } = await f.launch();
    await f.ready(1, token);
    const q = await f.quoteBuy(token, usdc(100));
    await f.tracedRevert(1, f.launcherCall('buy', [token, usdc(100), q + 1n, maxUint256]), 'LauncherSlippage', [
      q,
      q + 1n,
    ]);
    await f.buy(1, token, usdc(100), q);
    expect(await f.tokensOf(token, f.addr(1))).toBe(q);
    const s = await f.quoteSell(token, q / 2n);
    await f.tracedRevert(1, f.launcherCall('sell', [token, q / 2n, s + 1n, maxUint256]), 'LauncherSlippage', [
      s,
      s + 1n,
    ]);
    const before = await f.usdcOf(f.addr(1));
    await f.sell(1, token, q / 2n, s);
    expect((await f.usdcOf(f.addr(1))) - before).toBe(s);
  });

  it('checks the deadline: a block after it reverts, the deadline itself is accepted', async () => {
    const { token } = await f.launch();
    await f.ready(1, token);
    const now = (await f.client.getBlock()).timestamp;
    await f.client.setNextBlockTimestamp({ timestamp: now + 100n });
    await f.tracedRevert(1, f.launcherCall('buy', [token, usdc(1), 0n, now + 99n]), 'LauncherDeadlinePassed', [
      now + 99n,
      now + 100n,
    ]);
    await f.client.setNextBlockTimestamp({ timestamp: now + 200n });
    const ok = await f.buy(1, token, usdc(1), 0n, now + 200n);
    expect((await f.client.getBlock({ blockNumber: ok.blockNumber })).timestamp).toBe(now + 200n);
    await f.client.setNextBlockTimestamp({ timestamp: now + 300n });
    await f.tracedRevert(1, f.launcherCall('sell', [token, 10n ** 18n, 0n, now + 299n]), 'LauncherDeadlinePassed', [
      now + 299n,
      now + 300n,
    ]);
    await f.client.setNextBlockTimestamp({ timestamp: now + 400n });
    await f.sell(1, token, 10n ** 18n, 0n, now + 400n);
  });

  it('rejects zero amounts', async () => {
    const { token } = await f.launch();
    await f.ready(1, token);
    await f.tracedRevert(1, f.launcherCall('buy', [token, 0n, 0n, maxUint256]), 'LauncherZeroAmount', []);
    await f.tracedRevert(1, f.launcherCall('sell', [token, 0n, 0n, maxUint256]), 'LauncherZeroAmount', []);
  });

  it('dust: 1 raw USDC buys a nonzero amount; 1 wei of token sells for nothing and reverts', async () => {
    const { token } = await f.launch();
    await f.ready(1, token);
    const { out, next } = modelBuy(initialCurve(G), 1n);
    expect(out).toBeGreaterThan(0n);
    expect(await f.quoteBuy(token, 1n)).toBe(out);
    await f.buy(1, token, 1n);
    expect(await f.tokensOf(token, f.addr(1))).toBe(out);
    // out is the most 1 raw unit buys (ceil rounding keeps the curve's token reserve up): about 4e14 wei
    expect(out).toBe(399_999_999_920_000n);
    expect(modelSell(next, 1n).out).toBe(0n);
    expect(await f.quoteSell(token, 1n)).toBe(0n);
    await f.tracedRevert(1, f.launcherCall('sell', [token, 1n, 0n, maxUint256]), 'LauncherZeroOutput', []);
    // selling the whole dust purchase back pays the 1 unit paid, no more
    expect(await f.quoteSell(token, out)).toBe(1n);
    expect(await f.quoteSell(token, out + 1n)).toBe(1n);
    // and splitting it into pieces pays nothing at all: each piece is below one raw unit's worth
    const piece = out / 4n;
    expect(await f.quoteSell(token, piece)).toBe(0n);
    await f.tracedRevert(1, f.launcherCall('sell', [token, piece, 0n, maxUint256]), 'LauncherZeroOutput', []);
    expect(await f.usdcOf(f.launcher())).toBe(1n);
  });

  it('a seeded random sequence of buys and sells keeps the books exact after every step', async () => {
    // xorshift32, fixed seed: the same sequence every run.
    let seed = 0x2545f491;
    const rand = () => {
      seed ^= seed << 13;
      seed >>>= 0;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      seed >>>= 0;
      return seed / 2 ** 32;
    };
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
    const small = (await f.launch({ key: keyOf('small'), threshold: usdc(100) })).token;
    const large = (await f.launch({ key: keyOf('large'), threshold: usdc(20_000) })).token;
    const tokens = [small, large];
    const thresholds = new Map([
      [small, usdc(100)],
      [large, usdc(20_000)],
    ]);
    const models = new Map(tokens.map((t) => [t, initialCurve(thresholds.get(t)!)]));
    const traders = [1, 2, 3, 4];
    const start = await Promise.all(traders.map((i) => f.usdcOf(f.addr(i))));
    for (const i of traders) for (const t of tokens) await f.ready(i, t);

    const checkBooks = async () => {
      const curves = await Promise.all(tokens.map(f.curveOf));
      // the curves' USDC, and the fees accrued (this file's fee is 0: the dust of graduations)
      expect(await f.usdcOf(f.launcher())).toBe(
        curves.reduce((sum, c) => sum + c.realUsdc, 0n) + (await f.curveFeesAccrued()),
      );
      for (const [n, t] of tokens.entries()) {
        const c = curves[n]!;
        if (c.graduated) continue;
        expect(await chainCurve(t)).toEqual(modelView(models.get(t)!));
      }
    };
    let graduations = 0;
    for (let step = 0; step < 30; step++) {
      const i = pick(traders);
      const t = pick(tokens);
      const held = await f.tokensOf(t, f.addr(i));
      const isBuy = held === 0n || rand() < 0.55;
      const done = await f.graduated(t);
      if (isBuy) {
        const amount = pick([
          () => BigInt(1 + Math.floor(rand() * 1_000)), // dust
          () => BigInt(Math.floor(rand() * 5_000_000)) + 1n, // up to 5 USDC
          () => BigInt(Math.floor(rand() * 400_000_000)) + 1n, // up to 400 USDC
        ])();
        const quote = await f.quoteBuy(t, amount);
        const model = models.get(t)!;
        const curveOnly = !done && model.v + amount < model.gV;
        if (curveOnly) expect(quote).toBe(modelBuy(model, amount).out);
        await f.buy(i, t, amount, quote);
        expect((await f.tokensOf(t, f.addr(i))) - held).toBe(quote);
        if (curveOnly) models.set(t, modelBuy(model, amount).next);
        if (!done && (await f.graduated(t))) graduations++;
      } else {
        const amount = pick([
          () => BigInt(1 + Math.floor(rand() * 1e9)), // dust: far below one raw USDC's worth
          () => (held * BigInt(1 + Math.floor(rand() * 100))) / 100n,
          () => held,
        ])();
        const quote = await f.quoteSell(t, amount);
        if (quote === 0n) {
          await f.tracedRevert(i, f.launcherCall('sell', [t, amount, 0n, maxUint256]), 'LauncherZeroOutput', []);
        } else {
          const before = await f.usdcOf(f.addr(i));
          await f.sell(i, t, amount, quote);
          expect((await f.usdcOf(f.addr(i))) - before).toBe(quote);
          if (!done) {
            expect(quote).toBe(modelSell(models.get(t)!, amount).out);
            models.set(t, modelSell(models.get(t)!, amount).next);
          }
        }
      }
      await checkBooks();
    }
    // Everyone sells everything back (a graduated token sells in its pool, so that side pays the 2.5% fee).
    for (const i of traders) {
      for (const t of tokens) {
        const held = await f.tokensOf(t, f.addr(i));
        if (held === 0n) continue;
        const done = await f.graduated(t);
        const quote = await f.quoteSell(t, held);
        if (!done) expect(quote).toBe(modelSell(models.get(t)!, held).out);
        await f.sell(i, t, held, quote);
        if (!done) models.set(t, modelSell(models.get(t)!, held).next);
      }
    }
    await checkBooks();
    // the curve that never graduated is back where it started
    expect(await chainCurve(large)).toEqual(modelView(initialCurve(usdc(20_000))));
    // Together the traders end with less than they started with (one of them alone may gain from the order of the
    // exits, as in the test above); the difference is the graduated pool's liquidity, the 2.5% fees and rounding.
    const end = await Promise.all(traders.map((i) => f.usdcOf(f.addr(i))));
    const sum = (xs: bigint[]) => xs.reduce((a, b) => a + b, 0n);
    expect(sum(end)).toBeLessThan(sum(start));
    // The sequence is meant to graduate the small token and keep the large one on its curve.
    expect(graduations).toBe(1);
    expect(await f.graduated(small)).toBe(true);
    expect(await f.graduated(large)).toBe(false);
  });
});
