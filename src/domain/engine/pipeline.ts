// One decision round of one company, in seven phases (docs/api/decisions.md "The seven phases"):
//   1 context     the round's world: the company, its agents and wallets, limits, tradable tokens, the chain's clock
//   2 brief       a model writes the round's brief
//   3 scrape      the market sources the company's tools may read, summarised by a model
//   4 roles       each active C-suite agent proposes actions within its own budget (reads run at once)
//   5 synthesis   the CEO model turns the proposals into a directive, as the autonomy level allows
//   6 extraction  the decision as strict JSON, validated against its schema and repaired once
//   7 execution   the round claims its execution, then the allowed actions run, each recorded as it ends; the
//                 decision is hashed, recorded, announced and anchored on-chain
// This file runs them in order (context.ts is phase 1, phases.ts 2-6, execution.ts 7): each is recorded with its
// duration, tokens, cost and calls (recorder.ts), each agent spends within its budget (budget.ts). The round row is
// RUNNING from the start (a partial unique index keeps one per company) and every write to it is made only while it
// still is; it ends COMPLETE with its budgets and counters and announced, or FAILED with the phase and the error
// kept. A round whose row stopped being RUNNING under it (failed as stale) stops at its next step and acts no
// more. Anchoring the hash on-chain is anchoring.ts's job.

import { decisionHash } from '@ai-economy/shared/decision-hash';
import { SpanStatusCode } from '@opentelemetry/api';
import { eq, sql } from 'drizzle-orm';
import { chainDate } from '../../chain/time.ts';
import { rowsOf, type Tx } from '../../db/client.ts';
import { type DecisionAction, decisionBudgets, decisionRounds, type PhaseRecord } from '../../db/schema/decisions.ts';
import { addRoundCounters } from '../agents/store.ts';
import { requireModelSpendHeadroom, roundReservation } from '../costs/model-spend.ts';
import { publishEvent } from '../events/store.ts';
import { allocationFor, type Budget, createBudgets } from './budget.ts';
import { type CompanyRow, type EngineDeps, gatherContext, PhaseError } from './context.ts';
import { claimExecution, executeActions, vetoesOf } from './execution.ts';
import { errorText, extractDecision, proposeActions, readMarket, synthesize, writeBrief } from './phases.ts';
import { createRecorder, RoundStopped } from './recorder.ts';
import { insertRound, markComplete, markFailed, markFailedBare, type RoundRow, recordDeliberation } from './rounds.ts';
import { recordInterruptedActions, settleRoundActions } from './settle-actions.ts';
import { roundSpan } from './tracing.ts';

/** The chain's clock, or the server's while the chain does not answer: rounds are dated by the economy's clock. */
export const economyNow = (deps: Pick<EngineDeps, 'chain' | 'now'>) =>
  chainDate(deps.chain.publicClient).catch(() => new Date(deps.now()));

/**
 * Starts a round: the next cycle, RUNNING, dated by the chain's clock (`at`, read once by a caller starting many).
 * 409 CONFLICT while another round of the company runs.
 */
export async function startRound(
  deps: EngineDeps,
  companyId: string,
  trigger: 'SCHEDULED' | 'MANUAL',
  at?: Date,
): Promise<RoundRow> {
  const createdAt = at ?? (await economyNow(deps));
  return insertRound(deps.database.db, { companyId, trigger, heartbeatAt: new Date(deps.now()), createdAt });
}

/**
 * Runs the round to its end; returns the finished row. Never throws for a failure inside the pipeline. `signal`
 * ends it early (the process is stopping): it is then FAILED as interrupted, with what it did recorded.
 */
export async function runRound(deps: EngineDeps, round: RoundRow, options: { signal?: AbortSignal } = {}) {
  const started = deps.now();
  const tracer = deps.tracer;
  const span = tracer ? roundSpan(tracer, round) : undefined;
  const rec = createRecorder(deps, round.id, {
    ...(options.signal && { signal: options.signal }),
    ...(tracer && { tracer }),
    ...(span && { span }),
  });
  let decided: DecisionAction[] | undefined;
  let spentBy: Budget[] = [];
  try {
    const inputs = await rec.step('context', async () => {
      const world = await gatherContext(deps, round.companyId, round.cycle);
      // A round that would pass the company's or the platform's daily model-spend cap does not start: no model call.
      await requireModelSpendHeadroom(deps, round.companyId, {
        nowMs: world.chainNow.getTime(),
        reservation: roundReservation(allocationFor(world.company.enginePreset), world.active.length),
        roundId: round.id,
      });
      return world;
    });
    const { company } = inputs;
    const brief = await rec.step('brief', () => writeBrief(rec, inputs));
    const market = await rec.step('scrape', () => readMarket(deps, rec, inputs));
    const budgets = createBudgets(inputs.active, allocationFor(company.enginePreset));
    spentBy = [...budgets.values()];
    const proposals = await rec.step('roles', () => proposeActions(deps, rec, inputs, brief, market, budgets));
    const synthesis = await rec.step('synthesis', () => synthesize(rec, inputs, brief, market, proposals));
    // What the decision page shows beside the decision: who proposed what, and how the CEO weighed it.
    await recordDeliberation(deps.database.db, round.id, {
      proposals: proposals.map(({ role, tool, args, rationale, result }) => ({
        role,
        tool,
        args,
        rationale,
        ...(result !== undefined && { result }),
      })),
      ceoReasoning: synthesis,
    });
    const { directive, actions } = await rec.step('extraction', () => extractDecision(rec, inputs, synthesis));
    const vetoes = vetoesOf(proposals);
    const executed = await rec.step('execution', async () => {
      await claimExecution(deps, round.id, actions);
      decided = actions;
      return executeActions(deps, rec, inputs, actions, budgets, { id: round.id, vetoes });
    });
    const done = await finish(deps, round, company, {
      phases: rec.phases,
      directive,
      actions,
      executed,
      hash: decisionHash({ companyId: company.id, cycle: round.cycle, directive, actions }),
      budgets: [...budgets.values()],
      totalDurationMs: deps.now() - started,
      modelCost: rec.modelCost,
    });
    span?.setAttributes({ 'ai_economy.round.status': done.status, 'ai_economy.round.actions': actions.length });
    return done;
  } catch (err) {
    // A round stopped from outside says why (failed as stale, the process stopping), not how its call broke off.
    const cause = rec.signal.aborted ? rec.signal.reason : err;
    const message = cause instanceof RoundStopped ? cause.message : errorText(cause);
    const failedPhase = err instanceof PhaseError ? err.phase : rec.phase;
    span?.setStatus({ code: SpanStatusCode.ERROR, message });
    const failed = await failRound(deps, round, {
      phase: failedPhase,
      error: message,
      phases: rec.failedPhases(message),
      totalDurationMs: deps.now() - started,
      llmCost: rec.modelCost,
      budgets: spentBy,
      ...(decided && { actions: decided }),
    });
    deps.log?.warn({ roundId: round.id, phase: failedPhase, err }, 'decision round failed');
    return decided ? await closeExecution(deps, failed, cause) : failed;
  } finally {
    span?.end();
  }
}

/**
 * A round that failed or was stopped in its execution: the action in flight gets its line ("interrupted", with what
 * it had signed), and its actions that never signed their transaction are FAILED now (they no longer count toward
 * the day), so the record is true at once. What was signed stays SENT for settle-outbox, which settles it as the
 * chain says. Best effort: the stale job and settle-outbox do the same later.
 */
async function closeExecution(deps: EngineDeps, round: RoundRow, cause: unknown): Promise<RoundRow> {
  if (round.status === 'RUNNING') return round;
  const why =
    cause instanceof RoundStopped
      ? cause.reason === 'shutdown'
        ? 'the engine process stopped (shutdown)'
        : 'the round was ended elsewhere'
      : 'the round failed';
  try {
    await recordInterruptedActions(deps, [round.id], why);
    await settleRoundActions(deps, round.id);
  } catch (err) {
    deps.log?.warn({ roundId: round.id, err }, 'recording the interrupted actions failed; settle-outbox does it');
  }
  const [row] = await deps.database.db.select().from(decisionRounds).where(eq(decisionRounds.id, round.id));
  return row ?? round;
}

/**
 * Records the round FAILED while it is RUNNING (one already failed as stale keeps that outcome). Should that write
 * fail, a last one writes only the status and the error, so no round stays RUNNING for want of a field. The lines
 * of actions already run are on the row already (execution.ts) and are never overwritten here.
 */
async function failRound(
  deps: EngineDeps,
  round: RoundRow,
  f: {
    phase: string;
    error: string;
    phases: PhaseRecord[];
    totalDurationMs: number;
    llmCost: number;
    /** What each agent spent before the failure: billed all the same. */
    budgets: Budget[];
    actions?: DecisionAction[];
  },
): Promise<RoundRow> {
  const db = deps.database.db;
  try {
    const failed = await markFailed(db, round.id, {
      phase: f.phase,
      error: f.error,
      phases: f.phases,
      totalDurationMs: f.totalDurationMs,
      llmTokensUsed: f.phases.reduce((n, p) => n + p.tokens, 0),
      llmCost: f.llmCost,
      ...(f.actions && { actions: f.actions }),
      finishedAt: new Date(deps.now()),
    });
    if (failed) {
      if (f.budgets.length > 0)
        await db
          .insert(decisionBudgets)
          .values(f.budgets.map(budgetRow(round.id)))
          .onConflictDoNothing();
      return failed;
    }
  } catch (err) {
    deps.log?.warn(
      { roundId: round.id, err },
      'recording the failed round failed; recording its status and error only',
    );
    await markFailedBare(db, round.id, f.error, new Date(deps.now()));
  }
  const [row] = await db.select().from(decisionRounds).where(eq(decisionRounds.id, round.id));
  return row ?? round;
}

const budgetRow = (roundId: string) => (b: Budget) => ({
  roundId,
  agentId: b.agentId,
  role: b.role,
  allocated: b.allocated,
  spent: b.spent,
  llmCalls: b.llmCalls,
  llmCost: b.llmCost,
  scrapeCalls: b.scrapeCalls,
  scrapeCost: b.scrapeCost,
  chainReads: b.chainReads,
  chainReadCost: b.chainReadCost,
  toolCalls: b.toolCalls,
  refused: b.refused,
});

interface Outcome {
  phases: PhaseRecord[];
  directive: string;
  actions: DecisionAction[];
  executed: string[];
  hash: `0x${string}`;
  budgets: Budget[];
  totalDurationMs: number;
  /** micro-USD of the round's model calls */
  modelCost: number;
}

/** Records the finished round, its budgets and the agents' counters, and announces it, in one transaction. */
async function finish(deps: EngineDeps, round: RoundRow, company: CompanyRow, o: Outcome) {
  const db = deps.database.db;
  // The agents were last active now by the economy's clock, as their actions and the round are dated.
  const activeAt = await economyNow(deps);
  const llmTokensUsed = o.phases.reduce((n, p) => n + p.tokens, 0);
  return db.transaction(async (tx) => {
    const done = await markComplete(tx, round.id, {
      phases: o.phases,
      directive: o.directive,
      actions: o.actions,
      actionsExecuted: o.executed,
      decisionHash: o.hash,
      totalDurationMs: o.totalDurationMs,
      llmTokensUsed,
      llmCost: o.modelCost,
      finishedAt: new Date(deps.now()),
    });
    // Failed meanwhile (its heartbeat was judged stale): keep that outcome.
    if (!done) {
      const [row] = await tx.select().from(decisionRounds).where(eq(decisionRounds.id, round.id));
      return row!;
    }
    if (o.budgets.length > 0) {
      await tx.insert(decisionBudgets).values(o.budgets.map(budgetRow(round.id)));
      await addRoundCounters(
        tx,
        o.budgets.map((b) => ({
          agentId: b.agentId,
          llmCalls: b.llmCalls,
          toolCalls: b.toolCalls + b.chainReads + b.scrapeCalls,
        })),
        activeAt,
      );
    }
    await publishEvent(tx, {
      type: 'decision',
      companyId: company.id,
      data: {
        roundId: round.id,
        cycle: round.cycle,
        directive: o.directive,
        actionsCount: o.actions.length,
        decisionHash: o.hash,
      },
    });
    return done;
  });
}

/** Deletes the agents' budget rows of the rounds `roundIds` (rounds past the retention: domain/engine/retention.ts). */
export async function deleteRoundBudgets(db: Tx, roundIds: string[]): Promise<number> {
  if (roundIds.length === 0) return 0;
  const [row] = rowsOf<{ n: number }>(
    await db.execute(sql`
      with gone as (
        delete from ${decisionBudgets} where ${decisionBudgets.roundId} = any(${sql.param(roundIds)}::text[]) returning 1
      )
      select count(*)::integer as n from gone`),
  );
  return row?.n ?? 0;
}
