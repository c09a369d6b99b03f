// Running rounds: one now for its creator (POST /api/companies/{id}/decisions/run), every company with active
// agents every DECISION_INTERVAL_S (the engine role, any number of replicas: the RUNNING round row is the claim,
// and a partial unique index lets one exist per company), anchoring, and the repairs after a crash.
import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { Address } from 'viem';
import { rowsOf } from '../../db/client.ts';
import { agents } from '../../db/schema/companies.ts';
import { decisionRounds } from '../../db/schema/decisions.ts';
import { AppError, badRequest } from '../../errors.ts';
import { requireCardHolder } from '../companies/card.ts';
import { requireCompany } from '../companies/queries.ts';
import { PLATFORM_GAS_ESTIMATES, requireGasBudget } from '../costs/gas-budget.ts';
import type { Deps } from '../deps.ts';
import { anchorPendingRounds } from './anchoring.ts';
import type { EngineDeps } from './context.ts';
import { runRound, startRound } from './pipeline.ts';
import { roundView } from './views.ts';

export type RunnerDeps = EngineDeps & Pick<Deps, 'outbox' | 'config'>;
type RoundRow = typeof decisionRounds.$inferSelect;

/** Runs one round of the company now, for its creator; answers the finished round. */
export async function runRoundNow(deps: RunnerDeps, idOrSlug: string, signer: Address | undefined) {
  const company = await requireCompany(deps.database.db, idOrSlug);
  await requireCardHolder(deps, company, signer);
  const [active] = await deps.database.db
    .select({ id: agents.id })
    .from(agents)
    .where(and(eq(agents.companyId, company.id), eq(agents.status, 'ACTIVE')))
    .limit(1);
  if (!active) throw badRequest(`Company ${company.slug} has no active agent: deploy its C-suite first (deploy-suite)`);
  await requireManualRoundCooldown(deps, company.id);
  await requireGasBudget(deps, company.id, PLATFORM_GAS_ESTIMATES.decisionAnchor, 'anchoring a round');
  const round = await runRound(deps, await startRound(deps, company.id, 'MANUAL'));
  // The round's hash is anchored now, with any others waiting (one batch), so the answer carries its anchoring.
  await anchorPendingRounds(deps);
  const [anchored] = await deps.database.db.select().from(decisionRounds).where(eq(decisionRounds.id, round.id));
  return roundView(anchored ?? round);
}

/**
 * 429 RATE_LIMITED (Retry-After) while the company's last manual round is younger than MANUAL_ROUND_COOLDOWN_S:
 * each round costs model calls and an anchoring the platform pays for, and only scheduled rounds count toward the
 * score, so a manual round is a convenience, not a lever.
 */
async function requireManualRoundCooldown(deps: RunnerDeps, companyId: string): Promise<void> {
  const cooldownMs = deps.config.manualRoundCooldownS * 1000;
  if (cooldownMs === 0) return;
  const [last] = await deps.database.db
    .select({ createdAt: decisionRounds.createdAt })
    .from(decisionRounds)
    .where(and(eq(decisionRounds.companyId, companyId), eq(decisionRounds.trigger, 'MANUAL')))
    .orderBy(desc(decisionRounds.createdAt))
    .limit(1);
  const waitMs = last ? last.createdAt.getTime() + cooldownMs - deps.now() : 0;
  if (waitMs > 0) {
    const retryAfter = Math.ceil(waitMs / 1000);
    throw new AppError(
      'RATE_LIMITED',
      `A manual round ran less than ${deps.config.manualRoundCooldownS} s ago: one manual round per ${deps.config.manualRoundCooldownS} s per company; retry after ${retryAfter} s (scheduled rounds run on their own)`,
      { headers: { 'retry-after': String(retryAfter) } },
    );
  }
}

/** Companies with an active agent and no round started within the interval, oldest round first. */
export async function dueCompanies(deps: Pick<Deps, 'database' | 'now'>, intervalS: number, limit: number) {
  const since = new Date(deps.now() - intervalS * 1000).toISOString();
  const rows = rowsOf<{ id: string }>(
    await deps.database.db.execute(sql`
      select c.id from companies c
      where exists (select 1 from agents a where a.company_id = c.id and a.status = 'ACTIVE')
        and not exists (
          select 1 from decision_rounds r
          where r.company_id = c.id and (r.status = 'RUNNING' or r.created_at > ${since}::timestamptz))
      order by (select max(r.created_at) from decision_rounds r where r.company_id = c.id) asc nulls first, c.id
      limit ${limit}`),
  );
  return rows.map((r) => r.id);
}

/**
 * Starts and runs the rounds that are due, at most `concurrency` at once. A company another replica has just
 * claimed is skipped. Returns the rounds run.
 */
export async function runDueRounds(
  deps: RunnerDeps,
  options: { intervalS: number; concurrency: number; limit?: number },
): Promise<number> {
  const due = await dueCompanies(deps, options.intervalS, options.limit ?? options.concurrency * 4);
  let ran = 0;
  const queue = [...due];
  const worker = async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      let round: RoundRow;
      try {
        round = await startRound(deps, id, 'SCHEDULED');
      } catch (err) {
        if (err instanceof AppError && err.code === 'CONFLICT') continue;
        throw err;
      }
      await runRound(deps, round);
      ran++;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  // One anchoring batch for the pass's rounds: the more rounds run together, the less gas each one's anchoring.
  if (ran > 0) await anchorPendingRounds(deps);
  return ran;
}

/** Rounds left RUNNING by a stopped process (no heartbeat for `staleMs`) become FAILED, phase kept. */
export async function failStaleRounds(deps: Pick<Deps, 'database' | 'now'>, staleMs: number): Promise<number> {
  const failed = await deps.database.db
    .update(decisionRounds)
    .set({
      status: 'FAILED',
      error: `interrupted: no progress for ${Math.round(staleMs / 1000)} s (the process running it stopped)`,
      finishedAt: new Date(deps.now()),
    })
    .where(and(eq(decisionRounds.status, 'RUNNING'), lt(decisionRounds.heartbeatAt, new Date(deps.now() - staleMs))))
    .returning({ id: decisionRounds.id });
  return failed.length;
}
