// Phase 7 of a decision round: the decided actions run, each when no veto of the CRO covers it and its agent's
// budget holds it, each charged to that budget. The round claims its execution first (its row must still be
// RUNNING, or nothing runs), moves its heartbeat before every action (a round failed meanwhile stops there), and
// records each action's line on the round row as soon as it is known, whatever the row's status, so an action
// signed in a round is never missing from its record: not when the round fails after it or is stopped during it
// (the round adds what the agent's action log holds, pipeline.ts), not when the process dies (the stale-round job
// does, failStaleRounds in runner.ts).
import { trace } from '@opentelemetry/api';
import type { DecisionAction } from '../../db/schema/decisions.ts';
import { TradeRefused } from '../trading/actions.ts';
import { type Budget, refuse, spend } from './budget.ts';
import type { EngineDeps, RoundInputs } from './context.ts';
import type { Role } from './models/types.ts';
import { errorText, type Proposal } from './phases.ts';
import { type RoundRecorder, RoundStopped } from './recorder.ts';
import { claimRoundExecution, recordActionLine } from './rounds.ts';
import { toolNamed } from './tools.ts';
import { outcomeOfLine, toolSpan } from './tracing.ts';

/** A veto of the CRO's proposals: the trading tool, and the token when named. */
interface Veto {
  tool: string;
  token?: string;
  reason: string;
}

export const vetoesOf = (proposals: Proposal[]): Veto[] =>
  proposals
    .filter((p) => p.role === 'CRO' && toolNamed(p.tool)?.kind === 'control' && typeof p.args.tool === 'string')
    .map((p) => ({
      tool: String(p.args.tool),
      ...(typeof p.args.token === 'string' ? { token: p.args.token } : {}),
      reason: typeof p.args.reason === 'string' ? p.args.reason : 'no reason given',
    }));

/**
 * The round takes its execution: the row, still RUNNING, records the decided actions and enters phase 7 in one
 * statement. A round failed meanwhile (judged stale while a model call hung) gets no row back and signs nothing.
 */
export async function claimExecution(deps: EngineDeps, roundId: string, actions: DecisionAction[]): Promise<void> {
  if (!(await claimRoundExecution(deps.database.db, roundId, actions, new Date(deps.now())))) {
    throw new RoundStopped('not-running', `round ${roundId} is no longer RUNNING: its decision is not executed`);
  }
}

/**
 * Phase 7: the decided actions, each run when its agent's budget still holds it and no veto of the CRO covers it;
 * what each did or why it was refused, as text, one line per action. A trading action's text ends with its
 * transaction hash.
 */
export async function executeActions(
  deps: EngineDeps,
  rec: RoundRecorder,
  inputs: RoundInputs,
  actions: DecisionAction[],
  budgets: Map<Role, Budget>,
  round: { id: string; vetoes: Veto[] },
): Promise<string[]> {
  const executed: string[] = [];
  for (const [index, action] of actions.entries()) {
    // A round failed or stopping meanwhile runs no further action.
    await rec.beat();
    const tool = toolNamed(action.tool);
    const traced = toolSpan(
      deps.tracer ?? trace.getTracer('ai-economy.engine'),
      rec.phaseSpan,
      { name: action.tool, kind: tool?.kind ?? 'unknown' },
      { role: action.role, companyId: inputs.company.id, roundId: round.id },
    );
    let line: string;
    try {
      line = await untilStopped(runAction(deps, inputs, action, index, budgets, round), rec.signal);
    } catch (err) {
      traced.end('failed', errorText(err));
      throw err;
    }
    const outcome = outcomeOfLine(line);
    traced.end(outcome, outcome === 'failed' ? line : undefined);
    executed.push(line);
    await recordActionLine(deps.database.db, round.id, index, line);
  }
  return executed;
}

/**
 * The action's outcome, or the round's stop reason as soon as the round must stop (the process is stopping, or the
 * row was failed meanwhile): an action waiting on a chain that does not answer (a receipt, for up to a minute) does
 * not hold the round past the engine's shutdown grace. The action left behind signs nothing more (its round is no
 * longer RUNNING by the time anything would be signed: round-guard.ts); what it signed is settled by settle-outbox.
 */
function untilStopped(running: Promise<string>, signal: AbortSignal): Promise<string> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const stop = () => reject(signal.reason);
    signal.addEventListener('abort', stop, { once: true });
    running.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}

async function runAction(
  deps: EngineDeps,
  inputs: RoundInputs,
  action: DecisionAction,
  index: number,
  budgets: Map<Role, Budget>,
  round: { id: string; vetoes: Veto[] },
): Promise<string> {
  const tool = toolNamed(action.tool)!;
  const budget = budgets.get(action.role as Role)!;
  const head = `${action.role} ${tool.name}`;
  const veto = round.vetoes.find((v) => v.tool === tool.name && (!v.token || v.token === action.args.token));
  if (veto) {
    refuse(budget, tool.name, `vetoed by the CRO: ${veto.reason}`);
    return `${head}: refused: vetoed by the CRO (${veto.reason})`;
  }
  if (!spend(budget, tool)) return `${head}: refused: over budget (${budget.allocated / 1e6} USD this round)`;
  try {
    const done = await tool.run({
      deps,
      company: inputs.company,
      role: action.role,
      args: action.args,
      action: { roundId: round.id, index, team: { active: inputs.active, walletAddresses: inputs.walletAddresses } },
    });
    return `${head}: ${done}`;
  } catch (err) {
    if (err instanceof TradeRefused) {
      refuse(budget, tool.name, err.message);
      return `${head}: refused: ${err.message}`;
    }
    return `${head}: failed: ${errorText(err)}`;
  }
}
