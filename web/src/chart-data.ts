// The chart's numbers, apart from the chart library so they can be checked on their own (test/web/chart.test.ts).
import type { CandlestickData, UTCTimestamp } from 'lightweight-charts';

export interface Candle {
  time: number;
  open: string;
  high: string;
  low: string;
  close: string;
}

/** Decimals that show a price to about four significant digits: 2 for 12.34, 6 for 0.002345, at most 12. */
export function priceDecimals(price: number): number {
  if (!(price > 0)) return 2;
  return Math.min(12, Math.max(2, 3 - Math.floor(Math.log10(price))));
}

/** The candles with the newest one closing at `price` (its high and low stretched to include it). */
export function withCurrentPrice(candles: readonly Candle[], price: number): CandlestickData<UTCTimestamp>[] {
  const points = candles.map((k) => ({
    time: k.time as UTCTimestamp,
    open: Number(k.open),
    high: Number(k.high),
    low: Number(k.low),
    close: Number(k.close),
  }));
  const last = points.at(-1);
  if (last && price > 0) {
    last.close = price;
    last.high = Math.max(last.high, price);
    last.low = Math.min(last.low, price);
  }
  return points;
}
