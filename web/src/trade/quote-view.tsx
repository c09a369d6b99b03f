// The trade form's quote on screen (route, fees, average price, impact, minimum received), and the "Price updated"
// step: a fresh quote read just before sending that is worse than the one shown, or takes another route, is shown
// beside the old figures and must be accepted before anything is sent.
import { amountOf, formatAmount, type Unit, USDC } from '../format';
import type { Quote } from './quote';

export const WARN_IMPACT_BPS = 500;

export const percent = (bps: number) => `${(bps / 100).toFixed(bps < 1000 ? 2 : 1)}%`;

const ROUTE: Record<Quote['route'], string> = {
  curve: 'Bonding curve',
  pool: 'Uniswap v4 pool',
  'curve-then-pool': 'Bonding curve, then the new Uniswap v4 pool',
};

export function QuoteView({
  id,
  quote: q,
  least,
  spent,
  received,
  symbol,
  state,
}: {
  id: string;
  quote: Quote | undefined;
  least: bigint | undefined;
  spent: Unit;
  received: Unit;
  symbol: string;
  state: string;
}) {
  if (state === 'idle') return null;
  if (state === 'loading') return <output className="quote muted">Quoting…</output>;
  if (state !== 'ready' || !q) return <output className="quote field-error">{state}</output>;
  const price = (v: bigint) => `${formatAmount(v, 6, 8)} USDC`;
  return (
    <section className="quote" aria-labelledby={`${id}-h`} data-quote-out={q.out.toString()} aria-live="polite">
      <h3 id={`${id}-h`} className="sr-only">
        Quote
      </h3>
      <dl className="facts">
        <dt>You receive about</dt>
        <dd data-testid="quote-out">{amountOf(q.out, received)}</dd>
        <dt>Minimum received</dt>
        <dd data-testid="quote-min" data-min={least?.toString()}>
          {least === undefined ? '—' : amountOf(least, received)}
        </dd>
        <dt>Average price</dt>
        <dd>
          {price(q.averagePrice)} per {symbol}
        </dd>
        <dt>Price impact</dt>
        <dd data-testid="quote-impact" className={q.impactBps > WARN_IMPACT_BPS ? 'down' : undefined}>
          {percent(q.impactBps)}
        </dd>
        <dt>Curve fee</dt>
        <dd>{amountOf(q.curveFeeUsdc, USDC)}</dd>
        <dt>Pool fee (2.5%)</dt>
        <dd>{q.poolFeeUsdc === 0n ? '0 USDC' : `about ${amountOf(q.poolFeeUsdc, USDC, 2)}`}</dd>
        <dt>Route</dt>
        <dd data-testid="quote-route">{ROUTE[q.route]}</dd>
      </dl>
      {q.graduates && (
        <p className="notice" data-testid="graduation">
          This buy completes the bonding curve and graduates {symbol}: {amountOf(q.curveUsdc + q.curveFeeUsdc, USDC, 2)}{' '}
          buys on the curve, then {amountOf(q.poolUsdc, USDC, 2)} buys in the Uniswap v4 pool the graduation creates, at
          a rising price.
        </p>
      )}
      {q.impactBps > WARN_IMPACT_BPS && (
        <p className="warning" role="alert" data-testid="impact-warning">
          High price impact: {q.side === 'buy' ? 'you pay' : 'you get'} {percent(q.impactBps)}{' '}
          {q.side === 'buy' ? 'more' : 'less'} per {symbol} than the current price. Consider a smaller{' '}
          {q.side === 'buy' ? 'buy' : 'sale'}.
        </p>
      )}
      <p className="muted">
        You pay {amountOf(q.amountIn, spent)}. The trade reverts, and costs only gas, if it would give less than the
        minimum.
      </p>
    </section>
  );
}

/** The route in a sentence ("goes through the Uniswap v4 pool"), its proper names kept. */
const ROUTE_PHRASE: Record<Quote['route'], string> = {
  curve: 'the bonding curve',
  pool: 'the Uniswap v4 pool',
  'curve-then-pool': 'the bonding curve, then the new Uniswap v4 pool',
};

/** A fresh quote worse than the one shown, or on another route: the new figures beside the old, and Accept. */
export function PriceUpdated({
  was,
  wasMinimum,
  now,
  minimum,
  received,
  onAccept,
}: {
  was: Quote;
  wasMinimum: bigint;
  now: Quote;
  minimum: bigint;
  received: Unit;
  onAccept: () => void;
}) {
  const changed = (a: string, b: string) =>
    a === b ? (
      <dd>{b}</dd>
    ) : (
      <dd>
        {b} <span className="muted">(was {a})</span>
      </dd>
    );
  return (
    <section
      className="warning price-updated"
      role="alert"
      aria-labelledby="price-updated-h"
      data-testid="price-updated"
    >
      <h3 id="price-updated-h">Price updated</h3>
      <p>
        {now.route !== was.route
          ? `The route changed since you looked: the trade now goes through ${ROUTE_PHRASE[now.route]}.`
          : 'Others traded since you looked: this trade now gives less.'}{' '}
        Nothing was sent. Check the new figures, accept them, then confirm the trade again.
      </p>
      <dl className="facts">
        <dt>You receive about</dt>
        {changed(amountOf(was.out, received), amountOf(now.out, received))}
        <dt>Minimum received</dt>
        <dd data-testid="updated-min" data-min={minimum.toString()}>
          {amountOf(minimum, received)} <span className="muted">(was {amountOf(wasMinimum, received)})</span>
        </dd>
        <dt>Price impact</dt>
        {changed(percent(was.impactBps), percent(now.impactBps))}
        <dt>Route</dt>
        {changed(ROUTE[was.route], ROUTE[now.route])}
      </dl>
      <button type="button" onClick={onAccept}>
        Accept new price
      </button>
    </section>
  );
}
