// The price chart's numbers (web/src/chart.tsx): the axis shows the decimals a price's size needs, never float
// noise, and the newest candle closes at the current price the page's header shows.
import { describe, expect, it } from 'vitest';
import { priceDecimals, withCurrentPrice } from '../../web/src/chart-data.ts';

describe('priceDecimals', () => {
  it('keeps about four significant digits, from 2 to 12 decimals', () => {
    expect(priceDecimals(12.34)).toBe(2);
    expect(priceDecimals(1.5)).toBe(3);
    expect(priceDecimals(0.054527)).toBe(5);
    expect(priceDecimals(0.002345)).toBe(6);
    expect(priceDecimals(1e-15)).toBe(12);
    expect(priceDecimals(0)).toBe(2);
    expect(priceDecimals(-3.46945e-18)).toBe(2);
  });
});

describe('withCurrentPrice', () => {
  const candles = [
    { time: 60, open: '0.01', high: '0.02', low: '0.01', close: '0.02' },
    { time: 120, open: '0.02', high: '0.024', low: '0.02', close: '0.023949' },
  ];

  it('closes the newest candle at the current price, stretching its high or low to it', () => {
    const up = withCurrentPrice(candles, 0.054527);
    expect(up[1]).toEqual({ time: 120, open: 0.02, high: 0.054527, low: 0.02, close: 0.054527 });
    expect(up[0]).toEqual({ time: 60, open: 0.01, high: 0.02, low: 0.01, close: 0.02 });
    const down = withCurrentPrice(candles, 0.015);
    expect(down[1]).toMatchObject({ high: 0.024, low: 0.015, close: 0.015 });
  });

  it('leaves the candles as they are without a price, and an empty chart empty', () => {
    expect(withCurrentPrice(candles, 0)[1]!.close).toBe(0.023949);
    expect(withCurrentPrice([], 0.5)).toEqual([]);
  });
});
