// The trade form's fields: the amount, with the balance it is spent from and its 25/50/75% and Max presets, and the
// slippage and deadline that bound the trade, each with what is wrong with it said under it as it is typed.
import { amountOf, type Unit } from '../format';
import type { checkDeadline, checkSlippage } from './inputs';

const PRESETS = [25, 50, 75] as const;

export function AmountField({
  id,
  side,
  symbol,
  amountText,
  onAmount,
  amountError,
  address,
  holdings,
  spent,
  token,
  balance,
  preset,
}: {
  id: string;
  side: 'buy' | 'sell';
  symbol: string;
  amountText: string;
  onAmount: (text: string) => void;
  amountError: string | undefined;
  address: string | undefined;
  holdings: { usdc: bigint; tokens: bigint } | undefined;
  spent: Unit;
  token: Unit;
  balance: bigint | undefined;
  preset: (percent: number) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{side === 'buy' ? 'USDC to spend' : `${symbol} to sell`}</label>
      <input
        id={id}
        name="amount"
        inputMode="decimal"
        autoComplete="off"
        value={amountText}
        placeholder="0.0"
        onChange={(e) => onAmount(e.target.value)}
        aria-invalid={amountError ? true : undefined}
        aria-describedby={`${id}-balance ${id}-error`}
      />
      <p id={`${id}-balance`} className="balance">
        {address ? (
          <>
            Balance{' '}
            <span data-testid="balance">
              {holdings ? amountOf(side === 'buy' ? holdings.usdc : holdings.tokens, spent) : '…'}
            </span>
            {side === 'buy' && holdings && (
              <span className="muted"> · you hold {amountOf(holdings.tokens, token)}</span>
            )}
          </>
        ) : (
          'Connect a wallet to see your balance.'
        )}
      </p>
      {balance !== undefined && balance > 0n && (
        <div className="presets">
          {PRESETS.map((p) => (
            <button key={p} type="button" className="secondary" onClick={() => preset(p)}>
              {p}%
            </button>
          ))}
          <button type="button" className="secondary" onClick={() => preset(100)}>
            Max
          </button>
        </div>
      )}
      <p id={`${id}-error`} className="field-error" role={amountError ? 'alert' : undefined}>
        {amountError}
      </p>
    </div>
  );
}

export function LimitFields({
  slippageId,
  deadlineId,
  slippageText,
  deadlineText,
  onSlippage,
  onDeadline,
  slippage,
  deadline,
}: {
  slippageId: string;
  deadlineId: string;
  slippageText: string;
  deadlineText: string;
  onSlippage: (text: string) => void;
  onDeadline: (text: string) => void;
  slippage: ReturnType<typeof checkSlippage>;
  deadline: ReturnType<typeof checkDeadline>;
}) {
  return (
    <div className="row">
      <div className="field">
        <label htmlFor={slippageId}>Slippage (%)</label>
        <input
          id={slippageId}
          name="slippage"
          inputMode="decimal"
          value={slippageText}
          onChange={(e) => onSlippage(e.target.value)}
          aria-invalid={slippage.ok ? undefined : true}
          aria-describedby={`${slippageId}-note`}
        />
        <p id={`${slippageId}-note`} className={slippage.ok ? 'field-warning' : 'field-error'}>
          {slippage.ok ? slippage.warning : slippage.error}
        </p>
      </div>
      <div className="field">
        <label htmlFor={deadlineId}>Deadline (minutes)</label>
        <input
          id={deadlineId}
          name="deadline"
          inputMode="numeric"
          value={deadlineText}
          onChange={(e) => onDeadline(e.target.value)}
          aria-invalid={deadline.ok ? undefined : true}
          aria-describedby={`${deadlineId}-note`}
        />
        <p id={`${deadlineId}-note`} className="field-error">
          {deadline.ok ? '' : deadline.error}
        </p>
      </div>
    </div>
  );
}
