// A small line chart of values over time (SVG, no library): an agent's PnL, a company's score. A zero line when
// the values cross zero; one point is drawn as a dot.
export function Sparkline({ points, label }: { points: { time: number; value: number }[]; label: string }) {
  const width = 600;
  const height = 100;
  if (points.length === 0) return null;
  const values = points.map((p) => p.value);
  const max = Math.max(0, ...values);
  const min = Math.min(0, ...values);
  const span = max - min || 1;
  const t0 = points[0]!.time;
  const tspan = points[points.length - 1]!.time - t0 || 1;
  const x = (t: number) => (points.length === 1 ? width / 2 : ((t - t0) / tspan) * width);
  const y = (v: number) => height - 3 - ((v - min) / span) * (height - 6);
  const line = points.map((p) => `${x(p.time).toFixed(1)},${y(p.value).toFixed(1)}`).join(' ');
  return (
    <svg viewBox={`0 0 ${width} ${height}`} className="spark" role="img" aria-label={label}>
      {min < 0 && max > 0 && <line x1="0" x2={width} y1={y(0)} y2={y(0)} stroke="currentColor" strokeOpacity="0.3" />}
      {points.length === 1 ? (
        <circle cx={x(t0)} cy={y(points[0]!.value)} r="4" fill="currentColor" />
      ) : (
        <polyline points={line} fill="none" stroke="currentColor" strokeWidth="2" />
      )}
    </svg>
  );
}
