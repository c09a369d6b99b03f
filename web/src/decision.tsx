// A decision round as a person reads it: the CEO's directive, each action with the agent who takes it, what it
// does in words, the reason the decision gives and what came of it, and the phases with the models that answered.
// Shown on the company page (its timeline) and on a decision's own page.
import { Link } from '@tanstack/react-router';
import type { paths } from './api-schema';
import { ServiceTime } from './chain-time';
import { ErrorDetails, recorded } from './errors';
import { money } from './format';
import { TxLink } from './ui';

type Decisions = paths['/api/companies/{id}/decisions']['get']['responses'][200]['content']['application/json']['data'];
export type Round = Decisions['rounds'][number];
type Action = Round['actions'][number];

const PHASES: Record<string, string> = {
  context: 'Context: the company and its market read',
  brief: 'Brief: the situation summed up',
  scrape: 'Market scan',
  roles: 'C-suite proposals',
  synthesis: 'Synthesis by the CEO',
  extraction: 'Decision extracted',
  execution: 'Execution',
};

/** What a tool does, in words, with its arguments. */
export function actionWords(action: Pick<Action, 'tool' | 'args'>): string {
  const a = action.args as Record<string, unknown>;
  const s = (k: string) => (a[k] === undefined ? undefined : String(a[k]));
  // An amount to the precision a person reads ("612.7126", not 17 decimals); "all" and words stay as they are.
  const n = (k: string, places: number) => {
    const v = s(k);
    return v !== undefined && /^\d+(\.\d+)?$/.test(v) ? money(v, places) : v;
  };
  switch (action.tool) {
    case 'buy_token':
      return `Buy ${s('token') ?? 'a token'} with ${n('usdc', 2) ?? '?'} USDC`;
    case 'sell_token':
      return `Sell ${s('amount') === 'all' ? 'all its' : (n('amount', 4) ?? 'some')} ${s('token') ?? 'tokens'}`;
    case 'stake_primary':
      return `Stake ${s('amount') === 'all' ? 'all its' : (n('amount', 4) ?? '')} primary tokens`.replace('  ', ' ');
    case 'unstake_primary':
      return `Unstake ${s('amount') === 'all' ? 'all its' : (n('amount', 4) ?? '')} primary tokens`.replace('  ', ' ');
    case 'harvest_emission':
      return 'Harvest the emission earned by its stake';
    case 'publish_update':
      return `Publish an update: “${s('message') ?? ''}”`;
    case 'set_agent_strategy':
      return `Set the ${s('role') ?? 'agent'}'s strategy to ${(s('preset') ?? '').toLowerCase()}`;
    case 'veto_action':
      return `Veto ${s('tool')?.replace(/_/g, ' ') ?? 'an action'}${s('token') ? ` of ${s('token')}` : ''}`;
    case 'read_token_price':
      return "Read the token's price";
    case 'read_treasury_balance':
      return "Read the treasury's balance";
    case 'read_staking_stats':
      return 'Read the staking pool';
    case 'scan_token_trades':
      return "Scan the token's recent trades";
    case 'scan_platform_tokens':
      return "Scan the platform's most traded tokens";
    case 'read_fortune_rank':
      return 'Read its Fortune List rank';
    default:
      return action.tool.replace(/_/g, ' ');
  }
}

/** Long decimals in an outcome's text (`19512.194931607376514959 TGT`) cut to what a reader uses. */
export const readable = (text: string) =>
  text.replace(/\b(\d+)\.(\d{5,})\b/g, (_, whole: string, fraction: string) =>
    `${whole}.${fraction.slice(0, whole.length > 2 ? 2 : 4)}`.replace(/\.?0+$/, ''),
  );

const OUTCOME: Record<Action['outcome']['status'], string> = {
  done: 'Done',
  refused: 'Refused',
  failed: 'Failed',
  not_run: 'Not run',
};

export function ActionItem({ action, explorer }: { action: Action; explorer: string | null }) {
  const { outcome } = action;
  return (
    <li data-outcome={outcome.status}>
      <p>
        <strong>{action.role}</strong>: {actionWords(action)}
      </p>
      {action.rationale && <p className="muted">Reason: {action.rationale}</p>}
      <p>
        <span
          className={`badge ${outcome.status === 'done' ? 'complete' : outcome.status === 'not_run' ? '' : 'failed'}`}
        >
          {OUTCOME[outcome.status]}
        </span>{' '}
        {outcome.status === 'not_run' ? 'The round stopped before this action.' : readable(outcome.text ?? '')}
        {outcome.txHash && (
          <>
            {' '}
            · transaction <TxLink hash={outcome.txHash} explorer={explorer} />
          </>
        )}
      </p>
    </li>
  );
}

/** The phases, each with its time, calls and the models that answered it (a model that did not answer is not named). */
export function Phases({ round }: { round: Round }) {
  return (
    <ul>
      {round.phases.map((p) => (
        <li key={p.phase}>
          {PHASES[p.phase] ?? p.phase}: {(p.durationMs / 1000).toFixed(1)} s
          {p.calls > 0 && (
            <>
              , {p.calls} model call{p.calls === 1 ? '' : 's'}
              {p.models.length > 0 &&
                `, answered by ${p.models.map((m) => (m === 'builtin' ? 'the built-in model' : m)).join(', ')}`}
            </>
          )}
          {p.error && <span className="error"> · failed: {recorded(p.error).text}</span>}
        </li>
      ))}
    </ul>
  );
}

/** Why a round failed, in the phase's words, its first line shown and the whole text behind "Details". */
export function RoundFailure({ round }: { round: Round }) {
  const m = recorded(round.error ?? '');
  const step = (PHASES[round.failedPhase ?? ''] ?? round.failedPhase ?? 'unknown').split(':')[0];
  return (
    <div className="notice-block">
      <p className="error">
        The round stopped at its step “{step}”: {m.text.replace(/\.$/, '')}. Nothing after that step ran.
      </p>
      {m.detail && <ErrorDetails detail={m.detail} />}
    </div>
  );
}

/** One round of the company's timeline: a summary with a link to the decision's own page. */
export function RoundSummary({ round, explorer }: { round: Round; explorer: string | null }) {
  return (
    <li data-round={round.id}>
      <p>
        <strong>Cycle {round.cycle}</strong> · {round.trigger === 'MANUAL' ? 'run by its creator' : 'scheduled'} ·{' '}
        <ServiceTime at={round.createdAt} /> ·{' '}
        <span className={`badge ${round.status.toLowerCase()}`}>{round.status}</span>{' '}
        {round.anchoredTxHash ? (
          <span className="badge verified">anchored on-chain</span>
        ) : (
          round.status === 'COMPLETE' && <span className="badge">anchoring pending</span>
        )}{' '}
        <Link to="/decisions/$id" params={{ id: round.id }}>
          The decision and its verification
        </Link>
      </p>
      {round.ceoDecision.directive && (
        <blockquote>
          <span className="muted">CEO directive: </span>
          {round.ceoDecision.directive}
        </blockquote>
      )}
      {round.error && <RoundFailure round={round} />}
      {round.actions.length > 0 ? (
        <ul className="actions-list" aria-label={`Actions of cycle ${round.cycle}`}>
          {round.actions.map((a, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a round's actions are fixed, in their decided order.
            <ActionItem key={i} action={a} explorer={explorer} />
          ))}
        </ul>
      ) : (
        round.status === 'COMPLETE' && <p className="muted">The decision took no action.</p>
      )}
      <details>
        <summary>Phases and models</summary>
        <Phases round={round} />
      </details>
    </li>
  );
}
