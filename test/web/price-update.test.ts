// The trade form's "Price updated" rule (web/src/trade/quote.ts priceUpdate): a fresh quote read just before sending
// asks again when its minimum is below the one on screen or its route differs, and only then.
import { describe, expect, it } from 'vitest';
import { minimumOut, priceUpdate, type Quote } from '../../web/src/trade/quote.ts';

const quote = (out: bigint, route: Quote['route'] = 'curve'): Quote => ({
  side: 'buy',
  amountIn: 100_000_000n,
  out,
  route,
  graduates: false,
  curveUsdc: 99_000_000n,
  poolUsdc: 0n,
  curveFeeUsdc: 1_000_000n,
  poolFeeUsdc: 0n,
  averagePrice: 0n,
  impactBps: 100,
});
const ONE_PERCENT = 10_000n;

describe('priceUpdate', () => {
  const shown = quote(1_000_000n);
  const shownMin = minimumOut(shown.out, ONE_PERCENT);

  it('the same or a better quote sends without asking', () => {
    expect(priceUpdate(shown, shownMin, quote(1_000_000n), ONE_PERCENT)).toBeUndefined();
    expect(priceUpdate(shown, shownMin, quote(1_200_000n), ONE_PERCENT)).toBeUndefined();
  });

  it('one base unit below the minimum shown asks again, with the new minimum', () => {
    // 999_999 out at 1%: 989_999, one below 990_000.
    expect(shownMin).toBe(990_000n);
    expect(priceUpdate(shown, shownMin, quote(999_999n), ONE_PERCENT)).toEqual({
      minimum: 989_999n,
      worse: true,
      rerouted: false,
    });
  });

  it('another route asks again even when the amount is no worse', () => {
    expect(priceUpdate(shown, shownMin, quote(1_100_000n, 'pool'), ONE_PERCENT)).toEqual({
      minimum: 1_089_000n,
      worse: false,
      rerouted: true,
    });
  });
});
