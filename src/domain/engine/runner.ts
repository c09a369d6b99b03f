// Running rounds: one now for its creator (POST /api/companies/{id}/decisions/run), the companies whose slot has
// come on the schedule (schedule.ts; the engine role runs them continuously, pool.ts), and the repair of rounds a
// stopped process left RUNNING. The RUNNING round row is each company's claim: a partial unique index lets one
// exist per company, across every replica.
import { and, desc, eq } from 'drizzle-orm';
import type { Address } from 'viem';
import type { Tx } from '../../db/client.ts';
import { agents } from '../../db/schema/agents.ts';
import { decisionRounds } from '../../db/schema/decisions.ts';
import { AppError, badRequest } from '../../errors.ts';
import { requireCardHolder } from '../cards/holder.ts';
import { requireCompany } from '../companies/queries.ts';
import { PLATFORM_GAS_ESTIMATES, requireGasBudget } from '../costs/gas-budget.ts';
import { requireModelSpendHeadroom, roundReservation } from '../costs/model-spend.ts';
import type { Deps } from '../deps.ts';
import { anchorPendingRounds } from './anchoring.ts';
import { allocationFor } from './budget.ts';
import type { EngineDeps } from './context.ts';
import { economyNow, runRound, startRound } from './pipeline.ts';
import { markStaleFailed } from './rounds.ts';
import { claimDueRounds, dueOnSchedule, syncSchedule } from './schedule.ts';
import { recordInterruptedActions } from './settle-actions.ts';
import { roundView } from './views.ts';

export type RunnerDeps = EngineDeps & Pick<Deps, 'outbox' | 'config'>;

/**
 * Runs one round of the company now, for its creator; answers the finished round. `recordRecovery` is given the
 * round's id once its row exists and before any of its side effects (an Idempotency-Key's recovery point); when it
 * fails, the round is ended as interrupted before it acts.
 */
export async function runRoundNow(
  deps: RunnerDeps,
  idOrSlug: string,
  signer: Address | undefined,
  recordRecovery?: (db: Tx, roundId: string) => Promise<void>,
) {
  const company = await requireCompany(deps.database.db, idOrSlug);
  await requireCardHolder(deps, company, signer);
  const active = await deps.database.db
    .select({ id: agents.id })
    .from(agents)
    .where(and(eq(agents.companyId, company.id), eq(agents.status, 'ACTIVE')));
  if (active.length === 0) {
    throw badRequest(`Company ${company.slug} has no active agent: deploy its C-suite first (deploy-suite)`);
  }
  const now = await economyNow(deps);
  await requireManualRoundCooldown(deps, company.id, now);
  // 429 MODEL_SPEND_CAP_REACHED before any row: the creator is told why at once (a scheduled round records it).
  await requireModelSpendHeadroom(deps, company.id, {
    nowMs: now.getTime(),
    reservation: roundReservation(allocationFor(company.enginePreset), active.length),
  });
  await requireGasBudget(deps, company.id, PLATFORM_GAS_ESTIMATES.decisionAnchor, 'anchoring a round');
  const started = await startRound(deps, company.id, 'MANUAL', now);
  try {
    await recordRecovery?.(deps.database.db, started.id);
  } catch (err) {
    await runRound(deps, started, { signal: AbortSignal.abort(err) }).catch(() => {});
    throw err;
  }
  const round = await runRound(deps, started);
  // The round's hash is anchored now, with any others waiting (one batch), so the answer carries its anchoring.
  await anchorPendingRounds(deps);
  const [anchored] = await deps.database.db.select().from(decisionRounds).where(eq(decisionRounds.id, round.id));
  return roundView(anchored ?? round);
}

/**
 * 429 RATE_LIMITED (Retry-After) while the company's last manual round is younger than MANUAL_ROUND_COOLDOWN_S:
 * each round costs model calls and an anchoring the platform pays for, and only scheduled rounds count toward the
 * score, so a manual round is a convenience, not a lever. Rounds are dated by the chain's clock, and so is this.
 */
async function requireManualRoundCooldown(deps: RunnerDeps, companyId: string, now: Date): Promise<void> {
  const cooldownMs = deps.config.manualRoundCooldownS * 1000;
  if (cooldownMs === 0) return;
  const [last] = await deps.database.db
    .select({ createdAt: decisionRounds.createdAt })
    .from(decisionRounds)
    .where(and(eq(decisionRounds.companyId, companyId), eq(decisionRounds.trigger, 'MANUAL')))
    .orderBy(desc(decisionRounds.createdAt))
    .limit(1);
  const waitMs = last ? last.createdAt.getTime() + cooldownMs - now.getTime() : 0;
  if (waitMs > 0) {
    const retryAfter = Math.ceil(waitMs / 1000);
    throw new AppError(
      'RATE_LIMITED',
      `A manual round ran less than ${deps.config.manualRoundCooldownS} s ago: one manual round per ${deps.config.manualRoundCooldownS} s per company; retry after ${retryAfter} s (scheduled rounds run on their own)`,
      { headers: { 'retry-after': String(retryAfter) } },
    );
  }
}

/** Companies whose slot on the schedule has come (by the chain's clock) and that run no round now. */
export async function dueCompanies(deps: Pick<Deps, 'database' | 'now' | 'chain'>, limit: number) {
  const now = await economyNow(deps);
  await syncSchedule(deps, now);
  return dueOnSchedule(deps, now, limit);
}

/**
 * One pass over the schedule: claims up to `limit` due companies, runs their rounds `concurrency` at a time (a
 * finished round's place is taken at once), then anchors them in one batch. Returns the rounds run. The engine
 * role runs rounds continuously instead (pool.ts); this serves tests, benchmarks and one-off runs.
 */
export async function runDueRounds(
  deps: RunnerDeps,
  options: { intervalS: number; concurrency: number; limit?: number },
): Promise<number> {
  const now = await economyNow(deps);
  await syncSchedule(deps, now);
  const claimed = await claimDueRounds(deps, {
    now,
    intervalS: options.intervalS,
    limit: options.limit ?? options.concurrency * 4,
  });
  const queue = [...claimed];
  const worker = async () => {
    for (let round = queue.shift(); round !== undefined; round = queue.shift()) await runRound(deps, round);
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  // One anchoring batch for the pass's rounds: the more rounds run together, the less gas each one's anchoring.
  if (claimed.length > 0) await anchorPendingRounds(deps);
  return claimed.length;
}

/**
 * Rounds left RUNNING by a stopped process (no heartbeat for `staleMs`) become FAILED, phase kept. A round that
 * stopped in its execution gets a line for each action its agents' log holds beyond the lines it recorded (the
 * action in flight when the process stopped), so nothing signed in a round is missing from its record.
 */
export async function failStaleRounds(deps: Pick<Deps, 'database' | 'now'>, staleMs: number): Promise<number> {
  const db = deps.database.db;
  const failed = await markStaleFailed(
    db,
    new Date(deps.now() - staleMs),
    `interrupted: no heartbeat for ${Math.round(staleMs / 1000)} s (the process running it stopped, or could not reach the database; a live round moves its heartbeat at every phase, model attempt and action, and while it waits for a provider)`,
    new Date(deps.now()),
  );
  const executing = failed.filter((r) => r.phase === 'execution').map((r) => r.id);
  if (executing.length > 0) await recordInterruptedActions(deps, executing, 'the process stopped');
  return failed.length;
}
