// A candlestick chart of a token's price (lightweight-charts), fed by GET /api/companies/{id}/token/candles.
import { CandlestickSeries, createChart, type IChartApi, type ISeriesApi, type UTCTimestamp } from 'lightweight-charts';
import { useEffect, useRef } from 'react';

export interface Candle {
  time: number;
  open: string;
  high: string;
  low: string;
  close: string;
}

export default function CandleChart({ candles, label }: { candles: Candle[]; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<IChartApi | undefined>(undefined);
  const series = useRef<ISeriesApi<'Candlestick'> | undefined>(undefined);
  useEffect(() => {
    if (!box.current) return;
    const c = createChart(box.current, {
      autoSize: true,
      height: 320,
      layout: { background: { color: 'transparent' }, textColor: '#cbd5e1' },
      grid: { vertLines: { color: '#1e293b' }, horzLines: { color: '#1e293b' } },
      timeScale: { timeVisible: true },
      localization: { priceFormatter: (p: number) => p.toPrecision(6) },
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
    series.current?.setData(
      candles.map((k) => ({
        time: k.time as UTCTimestamp,
        open: Number(k.open),
        high: Number(k.high),
        low: Number(k.low),
        close: Number(k.close),
      })),
    );
    chart.current?.timeScale().fitContent();
  }, [candles]);
  return (
    <figure className="chart-figure">
      <div ref={box} className="chart" data-candles={candles.length} />
      <figcaption className="sr-only">{label}</figcaption>
    </figure>
  );
}
