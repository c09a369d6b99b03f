// A candlestick chart of a token's price (lightweight-charts), fed by GET /api/companies/{id}/token/candles. A
// candle's prices are its trades' prices; the newest candle closes at the current price, the one the page's header
// shows, so the chart's last price and the header always agree. The price axis shows as many decimals as the
// price's size needs (never 1e-18 noise), and TradingView's attribution is a link under the chart: its own logo
// injects a <style> element, which the content security policy refuses.
import {
  type CandlestickData,
  CandlestickSeries,
  createChart,
  type IChartApi,
  type ISeriesApi,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useEffect, useRef } from 'react';

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

export default function CandleChart({ candles, price, label }: { candles: Candle[]; price: string; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<IChartApi | undefined>(undefined);
  const series = useRef<ISeriesApi<'Candlestick'> | undefined>(undefined);
  useEffect(() => {
    if (!box.current) return;
    const c = createChart(box.current, {
      autoSize: true,
      height: 320,
      layout: { background: { color: 'transparent' }, textColor: '#cbd5e1', attributionLogo: false },
      grid: { vertLines: { color: '#1e293b' }, horzLines: { color: '#1e293b' } },
      timeScale: { timeVisible: true },
    });
    series.current = c.addSeries(CandlestickSeries, {
      upColor: '#22c55e',
      downColor: '#ef4444',
      wickUpColor: '#22c55e',
      wickDownColor: '#ef4444',
      borderVisible: false,
    });
    chart.current = c;
    return () => c.remove();
  }, []);
  useEffect(() => {
    const points = withCurrentPrice(candles, Number(price));
    const decimals = priceDecimals(Math.min(...points.map((p) => p.low).filter((v) => v > 0), Number(price)));
    const formatter = (p: number) => (Math.abs(p) < 10 ** -decimals ? 0 : p).toFixed(decimals);
    chart.current?.applyOptions({ localization: { priceFormatter: formatter } });
    series.current?.applyOptions({ priceFormat: { type: 'price', precision: decimals, minMove: 10 ** -decimals } });
    series.current?.setData(points);
    chart.current?.timeScale().fitContent();
  }, [candles, price]);
  return (
    <figure className="chart-figure">
      <div ref={box} className="chart" data-candles={candles.length} data-last-close={price} />
      <figcaption>
        <span className="sr-only">{label}. </span>
        <a className="muted" href="https://www.tradingview.com/" target="_blank" rel="noreferrer">
          Chart by TradingView
        </a>
      </figcaption>
    </figure>
  );
}
