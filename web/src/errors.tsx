// Every error a person sees goes through here: `said` turns any failure (a contract's refusal, a declined
// signature, a node or service that does not answer, an API error) into a sentence saying what happened and what to
// do, and keeps the technical text apart; `Notice` shows the sentence, with that text behind a "Details" toggle that
// wraps inside the page (a viem error's request body never widens a phone's screen).
import { humanError, technicalDetail } from './api';
import { explainFailure, type RevertContext } from './chain-errors';

/** A failure already said as a sentence (the form shows its message as it is), with the technical text behind it. */
export class RefusedError extends Error {
  constructor(
    message: string,
    readonly detail?: string,
    /** The contract error behind it ("LauncherSlippage"), when a simulation or a revert decoded one. */
    readonly errorName?: string,
  ) {
    super(message);
  }
}

export function ErrorDetails({ detail }: { detail: string }) {
  return (
    <details className="error-details">
      <summary>Details</summary>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region the keyboard must reach (axe scrollable-region-focusable) */}
      <pre tabIndex={0}>{detail}</pre>
    </details>
  );
}

/** A message for the page: a sentence, whether it reports a failure, and the technical detail behind it. */
export interface Said {
  text: string;
  failed?: boolean;
  detail?: string;
}

/** A failure in words; `ctx` (or just the action's name) says what was being done and in which tokens. */
export function said(err: unknown, ctx?: RevertContext | string): Said {
  if (err instanceof RefusedError)
    return { text: err.message, failed: true, ...(err.detail && { detail: err.detail }) };
  const text =
    typeof ctx === 'object' ? explainFailure(err, ctx) : humanError(err, typeof ctx === 'string' ? ctx : undefined);
  const detail = technicalDetail(err);
  return { text, failed: true, ...(detail && detail !== text && { detail }) };
}

/**
 * A failure the service recorded (a decision round that stopped, a phase that failed), said the same way: its first
 * line, at most a sentence long, with the whole text behind "Details" when there is more.
 */
export function recorded(text: string): Said {
  const first = text.split('\n')[0]!.trim();
  const short = first.length > 160 ? `${first.slice(0, 157)}…` : first;
  return { text: short, failed: true, ...(short !== text.trim() && { detail: text }) };
}

/** A page's message after an action: a success as it is, a failure in red with its details toggle. */
export function Notice({ message }: { message: string | Said | undefined }) {
  if (message === undefined) return null;
  const m = typeof message === 'string' ? { text: message } : message;
  return (
    <div className="notice-block">
      <output className={`notice${m.failed ? ' error' : ''}`} data-outcome={m.failed ? 'refused' : 'ok'}>
        {m.text}
      </output>
      {m.detail && <ErrorDetails detail={m.detail} />}
    </div>
  );
}
