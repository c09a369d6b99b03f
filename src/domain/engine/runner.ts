// Running rounds: one now for its creator (POST /api/companies/{id}/decisions/run), every company with active
// agents every DECISION_INTERVAL_S (the engine role, any number of replicas: the RUNNING round row is the claim,
// and a partial unique index lets one exist per company), anchoring, and the repairs after a crash.
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Address, Hex } from 'viem';
import { anchorDecision } from '../../chain/decisions.ts';
import type { Container } from '../../container.ts';
import { rowsOf } from '../../db/client.ts';
import { agents } from '../../db/schema/companies.ts';
import { decisionRounds } from '../../db/schema/decisions.ts';
import { AppError, badRequest } from '../../errors.ts';
import { requireCompany } from '../companies/queries.ts';
import { requireCreator } from '../companies/rules.ts';
import { companyKey } from '../tokens/keys.ts';
import { type EngineDeps, runRound, startRound } from './pipeline.ts';
import { roundView } from './views.ts';

export type RunnerDeps = EngineDeps & Pick<Container, 'outbox'>;
type RoundRow = typeof decisionRounds.$inferSelect;

/** Runs one round of the company now, for its creator; answers the finished round. */
export async function runRoundNow(c: RunnerDeps, idOrSlug: string, signer: Address | undefined) {
  const company = await requireCompany(c.database.db, idOrSlug);
  requireCreator(company, signer);
  const [active] = await c.database.db
    .select({ id: agents.id })
    .from(agents)
    .where(and(eq(agents.companyId, company.id), eq(agents.status, 'ACTIVE')))
    .limit(1);
  if (!active) throw badRequest(`Company ${company.slug} has no active agent: deploy its C-suite first (deploy-suite)`);
  const round = await startRound(c, company.id, 'MANUAL');
  return roundView(await anchorRound(c, await runRound(c, round)));
}

/** Anchors a complete round's hash on-chain (once, through the outbox); a failure leaves it for the repair job. */
export async function anchorRound(c: RunnerDeps, round: RoundRow): Promise<RoundRow> {
  if (round.status !== 'COMPLETE' || !round.decisionHash || round.anchorTxHash) return round;
  if (!c.chain.contracts.decisionAnchor) return round;
  try {
    const anchored = await anchorDecision(
      c,
      `decision-anchor:${round.id}`,
      companyKey(round.companyId),
      round.decisionHash as Hex,
    );
    const [row] = await c.database.db
      .update(decisionRounds)
      .set({ anchorTxHash: anchored.txHash, anchoredAt: anchored.anchoredAt })
      .where(eq(decisionRounds.id, round.id))
      .returning();
    return row ?? round;
  } catch (err) {
    c.log?.warn({ roundId: round.id, err }, 'anchoring a decision failed; the anchor-decisions job retries');
    return round;
  }
}

/** Companies with an active agent and no round started within the interval, oldest round first. */
export async function dueCompanies(c: Pick<Container, 'database' | 'now'>, intervalS: number, limit: number) {
  const since = new Date(c.now() - intervalS * 1000).toISOString();
  const rows = rowsOf<{ id: string }>(
    await c.database.db.execute(sql`
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
  c: RunnerDeps,
  options: { intervalS: number; concurrency: number; limit?: number },
): Promise<number> {
  const due = await dueCompanies(c, options.intervalS, options.limit ?? options.concurrency * 4);
  let ran = 0;
  const queue = [...due];
  const worker = async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      let round: RoundRow;
      try {
        round = await startRound(c, id, 'SCHEDULED');
      } catch (err) {
        if (err instanceof AppError && err.code === 'CONFLICT') continue;
        throw err;
      }
      await anchorRound(c, await runRound(c, round));
      ran++;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  return ran;
}

/** Rounds left RUNNING by a stopped process (no heartbeat for `staleMs`) become FAILED, phase kept. */
export async function failStaleRounds(c: Pick<Container, 'database' | 'now'>, staleMs: number): Promise<number> {
  const failed = await c.database.db
    .update(decisionRounds)
    .set({
      status: 'FAILED',
      error: `interrupted: no progress for ${Math.round(staleMs / 1000)} s (the process running it stopped)`,
      finishedAt: new Date(c.now()),
    })
    .where(and(eq(decisionRounds.status, 'RUNNING'), lt(decisionRounds.heartbeatAt, new Date(c.now() - staleMs))))
    .returning({ id: decisionRounds.id });
  return failed.length;
}

/** Anchors complete rounds whose anchoring did not happen (a chain outage, a crash). */
export async function anchorPendingRounds(c: RunnerDeps, limit = 50): Promise<number> {
  const pending = await c.database.db
    .select()
    .from(decisionRounds)
    .where(
      and(
        eq(decisionRounds.status, 'COMPLETE'),
        sql`${decisionRounds.decisionHash} is not null`,
        isNull(decisionRounds.anchorTxHash),
      ),
    )
    .orderBy(decisionRounds.createdAt)
    .limit(limit);
  let anchored = 0;
  for (const round of pending) if ((await anchorRound(c, round)).anchorTxHash) anchored++;
  return anchored;
}
