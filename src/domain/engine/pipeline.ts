// One decision round of one company, in seven phases (SPEC.md "decision pipeline"):
//   1 context     the company, its agents, treasury and token market, from the database and the chain
//   2 brief       a model writes the round's brief
//   3 scrape      the market sources the company's tools may read, summarised by a model
//   4 roles       each active C-suite agent proposes actions within its own budget (reads run at once)
//   5 synthesis   the CEO model turns the proposals into a directive, as the autonomy level allows
//   6 extraction  the decision as strict JSON, validated against its schema and repaired once
//   7 execution   allowed actions run; the decision is hashed, recorded, announced and anchored on-chain
// This file runs them in order (context.ts is phase 1, phases.ts the others): each is recorded with its duration,
// tokens, cost and calls (recorder.ts), each agent spends within its budget (budget.ts). The round row is RUNNING
// from the start (a partial unique index keeps one per company), then COMPLETE with its budgets and counters and
// announced, or FAILED with the phase and the error kept. Anchoring the hash on-chain is anchoring.ts's job.
import { createId } from '@paralleldrive/cuid2';
import { and, eq, sql } from 'drizzle-orm';
import { uniqueViolation } from '../../db/errors.ts';
import { type DecisionAction, decisionBudgets, decisionRounds, type PhaseRecord } from '../../db/schema/decisions.ts';
import { conflict } from '../../errors.ts';
import { addRoundCounters } from '../agents/store.ts';
import { publishEvent } from '../events/store.ts';
import { allocationFor, type Budget, createBudgets } from './budget.ts';
import { type CompanyRow, type EngineDeps, gatherContext, PhaseError } from './context.ts';
import { decisionHash } from './hash.ts';
import {
  errorText,
  executeActions,
  extractDecision,
  proposeActions,
  readMarket,
  synthesize,
  vetoesOf,
  writeBrief,
} from './phases.ts';
import { createRecorder } from './recorder.ts';

type RoundRow = typeof decisionRounds.$inferSelect;

/** Starts a round: the next cycle, RUNNING. 409 CONFLICT while another round of the company runs. */
export async function startRound(deps: EngineDeps, companyId: string, trigger: 'SCHEDULED' | 'MANUAL') {
  for (let attempt = 0; ; attempt++) {
    try {
      const [row] = await deps.database.db
        .insert(decisionRounds)
        .values({
          id: createId(),
          companyId,
          trigger,
          cycle: sql`(select coalesce(max(${decisionRounds.cycle}), 0) + 1 from ${decisionRounds} where ${decisionRounds.companyId} = ${companyId})`,
          heartbeatAt: new Date(deps.now()),
          createdAt: new Date(deps.now()),
        })
        .returning();
      return row!;
    } catch (err) {
      const constraint = uniqueViolation(err);
      if (constraint === 'decision_rounds_one_running_unique') {
        throw conflict(`A decision round of company ${companyId} is already running`);
      }
      // Two rounds took the same cycle number at once; the loser's partner is RUNNING, so this retry conflicts.
      if (constraint === 'decision_rounds_company_cycle_unique' && attempt < 2) continue;
      throw err;
    }
  }
}

/** Runs the round to its end; returns the finished row. Never throws for a failure inside the pipeline. */
export async function runRound(deps: EngineDeps, round: RoundRow) {
  const started = deps.now();
  const rec = createRecorder(deps, round.id);
  try {
    const inputs = await rec.step('context', () => gatherContext(deps, round.companyId, round.cycle));
    const { company } = inputs;
    const brief = await rec.step('brief', () => writeBrief(rec, inputs));
    const market = await rec.step('scrape', () => readMarket(deps, rec, inputs));
    const budgets = createBudgets(inputs.active, allocationFor(company.enginePreset));
    const proposals = await rec.step('roles', () => proposeActions(deps, rec, inputs, brief, market, budgets));
    const synthesis = await rec.step('synthesis', () => synthesize(rec, inputs, brief, market, proposals));
    const { directive, actions } = await rec.step('extraction', () => extractDecision(rec, inputs, synthesis));
    const vetoes = vetoesOf(proposals);
    const executed = await rec.step('execution', () =>
      executeActions(deps, company, actions, budgets, { id: round.id, vetoes }),
    );
    return await finish(deps, round, company, {
      phases: rec.phases,
      directive,
      actions,
      executed,
      hash: decisionHash({ companyId: company.id, cycle: round.cycle, directive, actions }),
      budgets: [...budgets.values()],
      totalDurationMs: deps.now() - started,
      modelCost: rec.modelCost,
    });
  } catch (err) {
    const failedPhase = err instanceof PhaseError ? err.phase : rec.phase;
    const phases = rec.failedPhases(errorText(err));
    const [failed] = await deps.database.db
      .update(decisionRounds)
      .set({
        status: 'FAILED',
        phase: failedPhase,
        error: errorText(err),
        phases,
        totalDurationMs: deps.now() - started,
        llmTokensUsed: phases.reduce((n, p) => n + p.tokens, 0),
        llmCost: rec.modelCost,
        finishedAt: new Date(deps.now()),
      })
      .where(and(eq(decisionRounds.id, round.id), eq(decisionRounds.status, 'RUNNING')))
      .returning();
    deps.log?.warn({ roundId: round.id, phase: failedPhase, err }, 'decision round failed');
    return failed ?? round;
  }
}

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
  const llmTokensUsed = o.phases.reduce((n, p) => n + p.tokens, 0);
  return db.transaction(async (tx) => {
    const [done] = await tx
      .update(decisionRounds)
      .set({
        status: 'COMPLETE',
        phase: 'execution',
        phases: o.phases,
        directive: o.directive,
        actions: o.actions,
        actionsExecuted: o.executed,
        decisionHash: o.hash,
        totalDurationMs: o.totalDurationMs,
        llmTokensUsed,
        llmCost: o.modelCost,
        finishedAt: new Date(deps.now()),
      })
      .where(and(eq(decisionRounds.id, round.id), eq(decisionRounds.status, 'RUNNING')))
      .returning();
    // Failed meanwhile (its heartbeat was judged stale): keep that outcome.
    if (!done) {
      const [row] = await tx.select().from(decisionRounds).where(eq(decisionRounds.id, round.id));
      return row!;
    }
    if (o.budgets.length > 0) {
      await tx.insert(decisionBudgets).values(
        o.budgets.map((b) => ({
          roundId: round.id,
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
        })),
      );
      await addRoundCounters(
        tx,
        o.budgets.map((b) => ({
          agentId: b.agentId,
          llmCalls: b.llmCalls,
          toolCalls: b.toolCalls + b.chainReads + b.scrapeCalls,
        })),
        new Date(deps.now()),
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
