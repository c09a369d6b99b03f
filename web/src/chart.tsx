// A candlestick chart of a token's price (lightweight-charts), fed by GET /api/companies/{id}/token/candles. A
// candle's prices are its trades' prices; the newest candle closes at the current price, the one the page's header
// shows, so the chart's last price and the header always agree. The price axis shows as many decimals as the
// price's size needs (never 1e-18 noise), and TradingView's attribution is a link under the chart: its own logo
// injects a <style> element, which the content security policy refuses.
import { CandlestickSeries, createChart, type IChartApi, type ISeriesApi } from 'lightweight-charts';
import { useEffect, useRef } from 'react';
import { type Candle, priceDecimals, withCurrentPrice } from './chart-data';

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
