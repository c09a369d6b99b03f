// The trade form's lasting allowance, in words: what the launcher may already spend of the token a side spends (the
// trade then takes one prompt, and a way to end it), or the offer of a capped one, its cap said in units ("Allow the
// launcher to spend up to 1,000 USDC from your wallet until you change it"). The cap is chosen in allowance.ts.
import { amountOf, type Unit } from '../format';

/** An allowance this large is an unlimited one (an approval of the maximum, as many apps give): said as such. */
const UNLIMITED = 2n ** 255n;

export function LastingAllowance({
  id,
  covered,
  allowance,
  spent,
  capWords,
  checked,
  onChange,
  onRemove,
  busy,
}: {
  id: string;
  covered: boolean;
  allowance: bigint | undefined;
  spent: Unit;
  capWords: string | undefined;
  checked: boolean;
  onChange: (keep: boolean) => void;
  onRemove: () => void;
  busy: boolean;
}) {
  if (covered && allowance !== undefined) {
    return (
      <p className="allowance" data-testid="allowance">
        {allowance >= UNLIMITED
          ? `The launcher may spend any amount of your ${spent.symbol} (an unlimited allowance given earlier): this trade takes one confirmation.`
          : `The launcher may spend up to ${amountOf(allowance, spent)} more from your wallet (your lasting allowance): this trade takes one confirmation.`}{' '}
        <button type="button" className="secondary" disabled={busy} onClick={onRemove}>
          Remove the allowance
        </button>
      </p>
    );
  }
  if (capWords === undefined) return null;
  return (
    <div className="allowance">
      <label className="confirm">
        <input
          type="checkbox"
          checked={checked}
          onChange={(e) => onChange(e.target.checked)}
          aria-describedby={`${id}-note`}
        />
        Allow the launcher to spend up to {capWords} from your wallet until you change it
      </label>
      <p id={`${id}-note`} className="muted">
        {checked
          ? `One approval now, then this trade; later trades take one confirmation each until ${capWords} is spent. You can remove the allowance here at any time.`
          : 'Without it, each trade asks for a signature (a permit for that trade only) and then the transaction.'}
      </p>
    </div>
  );
}
