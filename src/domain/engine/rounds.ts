// The round store: every write to decision_rounds, the whole life cycle of a round's row in one place (the one writer
// of the table, test/layering.test.ts). A round is inserted RUNNING with the company's next cycle number (one rule,
// nextCycle, for a manual round and for the rounds the schedule starts); while RUNNING, its heartbeat and phase move,
// it claims its execution, and each action's line is appended; it ends COMPLETE or FAILED (by its own process, or
// as stale by the repair job, which adds the lines of actions interrupted mid-way); a complete round is then claimed
// into an anchoring batch and records its anchoring. Every write of a running round is conditioned on its row still
// being RUNNING, so a round failed as stale under its process stays failed and acts no more.
import { createId } from '@paralleldrive/cuid2';
import { and, eq, isNull, lt, type SQL, sql } from 'drizzle-orm';
import type { Hex } from 'viem';
import { rowsOf, type Tx } from '../../db/client.ts';
import { isDatabaseUnavailable, uniqueViolation } from '../../db/errors.ts';
import { type DecisionAction, decisionRounds, type PhaseRecord } from '../../db/schema/decisions.ts';
import { conflict } from '../../errors.ts';
import { storableJson } from '../../text.ts';

export type RoundRow = typeof decisionRounds.$inferSelect;

/** The company's next cycle number, as SQL over its id: one more than its last round's, 1 for its first. */
const nextCycle = (companyId: SQL) =>
  sql`(select coalesce(max(r.cycle), 0) + 1 from ${decisionRounds} r where r.company_id = ${companyId})`;

const running = (id: string) => and(eq(decisionRounds.id, id), eq(decisionRounds.status, 'RUNNING'));

/**
 * How long a write of a running round (its heartbeat, phase, execution claim, action lines, failure) is retried
 * while the database cannot be reached: a restart or failover of a few seconds to a minute does not
 * abandon a live round, and a longer one still leaves it to the stale job well before ROUND_STALE_MS ends.
 */
export const BOOKKEEPING_RETRY_MS = 60_000;

/**
 * Runs `write` again, backing off from 100 ms to 5 s, while it fails because the database is unavailable and the
 * bound allows; any other error, or the last one, is thrown. Only for writes that are safe to repeat (each is
 * conditioned on the row's state, so one that committed before its answer was lost changes nothing the second time).
 */
export async function retried<T>(write: () => Promise<T>, boundMs = BOOKKEEPING_RETRY_MS): Promise<T> {
  const started = performance.now();
  for (let delay = 100; ; delay = Math.min(delay * 2, 5_000)) {
    try {
      return await write();
    } catch (err) {
      if (!isDatabaseUnavailable(err) || performance.now() - started + delay > boundMs) throw err;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/** Inserts a RUNNING round with the company's next cycle. 409 CONFLICT while another round of the company runs. */
export async function insertRound(
  db: Tx,
  r: { companyId: string; trigger: 'SCHEDULED' | 'MANUAL'; heartbeatAt: Date; createdAt: Date },
): Promise<RoundRow> {
  for (let attempt = 0; ; attempt++) {
    try {
      const [row] = await db
        .insert(decisionRounds)
        .values({ id: createId(), ...r, cycle: nextCycle(sql`${r.companyId}`) })
        .returning();
      return row!;
    } catch (err) {
      const constraint = uniqueViolation(err);
      if (constraint === 'decision_rounds_one_running_unique') {
        throw conflict(`A decision round of company ${r.companyId} is already running`);
      }
      // Two rounds took the same cycle number at once; the loser's partner is RUNNING, so this retry conflicts.
      if (constraint === 'decision_rounds_company_cycle_unique' && attempt < 2) continue;
      throw err;
    }
  }
}

/**
 * Inserts a SCHEDULED round, RUNNING, for each company `claimed` names, in the one statement that claims them:
 * `claimed` is a WITH clause (no trailing comma) defining a relation `claimed(company_id, slot, n)`, n numbering its
 * rows from 1 to at most `limit`. Each round records the slot it ran for. Returns the new rounds' ids.
 */
export async function insertScheduledRounds(
  db: Tx,
  claimed: SQL,
  o: { limit: number; heartbeatAt: Date; createdAt: Date },
): Promise<string[]> {
  const ids = Array.from({ length: o.limit }, () => createId());
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`
      ${claimed},
      ids as (select id, n from unnest(${`{${ids.join(',')}}`}::text[]) with ordinality as t(id, n))
      insert into ${decisionRounds} (id, company_id, trigger, cycle, scheduled_for, heartbeat_at, created_at)
      select ids.id, m.company_id, 'SCHEDULED', ${nextCycle(sql`m.company_id`)},
        m.slot, ${o.heartbeatAt.toISOString()}::timestamptz, ${o.createdAt.toISOString()}::timestamptz
      from claimed m join ids on ids.n = m.n
      on conflict do nothing
      returning id`),
  );
  return rows.map((r) => r.id);
}

/** Moves the heartbeat of a RUNNING round; false when it is no longer RUNNING. */
export async function beatRound(db: Tx, id: string, at: Date): Promise<boolean> {
  const [row] = await retried(() =>
    db.update(decisionRounds).set({ heartbeatAt: at }).where(running(id)).returning({ id: decisionRounds.id }),
  );
  return row !== undefined;
}

/** A RUNNING round enters phase `name` with the phases done so far; false when it is no longer RUNNING. */
export async function enterPhase(db: Tx, id: string, name: string, phases: PhaseRecord[], at: Date): Promise<boolean> {
  const [row] = await retried(() =>
    db
      .update(decisionRounds)
      .set({ phase: name, phases, heartbeatAt: at })
      .where(running(id))
      .returning({ id: decisionRounds.id }),
  );
  return row !== undefined;
}

/**
 * The round takes its execution: the row, still RUNNING, records the decided actions and enters phase 7 in one
 * statement; false when it is no longer RUNNING (it then signs nothing).
 */
export async function claimRoundExecution(db: Tx, id: string, actions: DecisionAction[], at: Date): Promise<boolean> {
  const [row] = await retried(() =>
    db
      .update(decisionRounds)
      .set({ phase: 'execution', actions, actionsExecuted: [], heartbeatAt: at })
      .where(running(id))
      .returning({ id: decisionRounds.id }),
  );
  return row !== undefined;
}

/**
 * Appends the line of action `index` to the round's record, whatever its status, unless a line is there already
 * (the stale-round job may have written it for an action its process never finished).
 */
export async function recordActionLine(db: Tx, roundId: string, index: number, line: string) {
  await retried(() =>
    db
      .update(decisionRounds)
      .set({
        actionsExecuted: sql`coalesce(${decisionRounds.actionsExecuted}, '[]'::jsonb) || ${JSON.stringify([line])}::jsonb`,
      })
      .where(
        and(
          eq(decisionRounds.id, roundId),
          sql`coalesce(jsonb_array_length(${decisionRounds.actionsExecuted}), 0) = ${index}`,
        ),
      ),
  );
}

/**
 * Sets the line of action `index` of a round no longer RUNNING to what its transaction did, as settle-outbox learned
 * it after the round recorded the action (a lost RPC answer, a killed process): the line in its place is replaced,
 * or appended when it is the next one. A line that already names `mention` (the transaction's hash) is kept.
 */
export async function settleActionLine(db: Tx, roundId: string, index: number, line: string, mention: string | null) {
  const lines = sql`coalesce(${decisionRounds.actionsExecuted}, '[]'::jsonb)`;
  await db
    .update(decisionRounds)
    .set({
      actionsExecuted: sql`case when jsonb_array_length(${lines}) > ${index}
        then jsonb_set(${lines}, ${`{${index}}`}::text[], to_jsonb(${line}::text))
        else ${lines} || jsonb_build_array(${line}::text) end`,
    })
    .where(
      and(
        eq(decisionRounds.id, roundId),
        sql`${decisionRounds.status} <> 'RUNNING'`,
        sql`jsonb_array_length(${lines}) >= ${index}`,
        mention === null ? sql`true` : sql`coalesce(${lines} ->> ${index}, '') not like ${`%${mention}%`}`,
      ),
    );
}

/** The outbox's rows a reorg touched (chain_txs.note set), settled: few, found by their partial index. */
const reorgedTxs = sql`(select key, hash, status from chain_txs where note is not null and status in ('MINED', 'FAILED'))`;

/**
 * Rounds whose anchoring batch a reorg orphaned (domain/reorged-records.ts): the hash mined now, or, sent again it
 * would revert, no anchoring, so anchor-decisions sends the batch anew. Returns how many rounds changed.
 */
export async function followReorgedAnchorings(tx: Tx): Promise<number> {
  const moved = rowsOf(
    await tx.execute(sql`
      update decision_rounds r set anchor_tx_hash = c.hash from ${reorgedTxs} c
      where c.key = r.anchor_batch_key and c.status = 'MINED' and r.anchor_tx_hash is distinct from c.hash
      returning r.id`),
  );
  const unanchored = rowsOf(
    await tx.execute(sql`
      update decision_rounds r set anchor_tx_hash = null, anchored_at = null from ${reorgedTxs} c
      where c.key = r.anchor_batch_key and c.status = 'FAILED' and r.anchor_tx_hash is not null
      returning r.id`),
  );
  return moved.length + unanchored.length;
}

/** Replaces a round's action lines (the stale-round job's repair of an interrupted execution). */
export async function setActionLines(db: Tx, roundId: string, lines: string[]): Promise<void> {
  await db.update(decisionRounds).set({ actionsExecuted: lines }).where(eq(decisionRounds.id, roundId));
}

/** A RUNNING round becomes COMPLETE with its outcome; undefined when it is no longer RUNNING (failed as stale). */
export async function markComplete(
  tx: Tx,
  id: string,
  o: Pick<
    typeof decisionRounds.$inferInsert,
    | 'phases'
    | 'directive'
    | 'actions'
    | 'actionsExecuted'
    | 'decisionHash'
    | 'totalDurationMs'
    | 'llmTokensUsed'
    | 'llmCost'
    | 'finishedAt'
  >,
): Promise<RoundRow | undefined> {
  const [done] = await tx
    .update(decisionRounds)
    .set({ status: 'COMPLETE', phase: 'execution', ...o })
    .where(running(id))
    .returning();
  return done;
}

/** Records a RUNNING round's deliberation (the proposals and the CEO's reasoning) once the synthesis is written. */
export async function recordDeliberation(
  db: Tx,
  id: string,
  o: Required<Pick<typeof decisionRounds.$inferInsert, 'proposals' | 'ceoReasoning'>>,
): Promise<void> {
  // Model text: what no column can store (a NUL, a lone surrogate) is left out rather than failing the round.
  await db.update(decisionRounds).set(storableJson(o)).where(running(id));
}

/**
 * A RUNNING round becomes FAILED with its phase, error and what it spent; undefined when it is no longer RUNNING
 * (one already failed as stale keeps that outcome). `actions`, when given, records the decision it had reached.
 */
export async function markFailed(
  db: Tx,
  id: string,
  f: Pick<
    typeof decisionRounds.$inferInsert,
    'phase' | 'error' | 'phases' | 'totalDurationMs' | 'llmTokensUsed' | 'llmCost' | 'actions' | 'finishedAt'
  >,
): Promise<RoundRow | undefined> {
  const [failed] = await retried(() =>
    db
      .update(decisionRounds)
      .set({ status: 'FAILED', ...f })
      .where(running(id))
      .returning(),
  );
  return failed;
}

/** The last resort when recording a failure failed: only the status and the error, so no round stays RUNNING. */
export async function markFailedBare(db: Tx, id: string, error: string, at: Date): Promise<void> {
  await retried(() =>
    db
      .update(decisionRounds)
      .set({ status: 'FAILED', error: error.slice(0, 2_000), finishedAt: at })
      .where(running(id)),
  );
}

/** Rounds RUNNING without a heartbeat since `before` become FAILED, phase kept; returns them with their phase. */
export async function markStaleFailed(
  db: Tx,
  before: Date,
  error: string,
  at: Date,
): Promise<{ id: string; phase: string | null }[]> {
  return db
    .update(decisionRounds)
    .set({ status: 'FAILED', error, finishedAt: at })
    .where(and(eq(decisionRounds.status, 'RUNNING'), lt(decisionRounds.heartbeatAt, before)))
    .returning({ id: decisionRounds.id, phase: decisionRounds.phase });
}

/** Gives up to `limit` complete, hashed rounds waiting for anchoring the batch key `key`, oldest first; their ids. */
export async function claimAnchorBatch(db: Tx, key: string, limit: number): Promise<string[]> {
  const claimed = rowsOf<{ id: string }>(
    await db.execute(sql`
      update ${decisionRounds} set anchor_batch_key = ${key}
      where id in (
        select id from ${decisionRounds}
        where status = 'COMPLETE' and decision_hash is not null and anchor_tx_hash is null
          and anchor_batch_key is null
        order by created_at
        limit ${limit}
        for update skip locked)
      returning id`),
  );
  return claimed.map((r) => r.id);
}

/** Records each round's anchoring in its batch (a round anchored already keeps its record). */
export async function recordAnchoring(
  db: Tx,
  batch: { txHash: string; anchoredAt: Date; root: string },
  rounds: { id: string; proof: Hex[] }[],
): Promise<void> {
  await db.transaction(async (tx) => {
    for (const round of rounds) {
      await tx
        .update(decisionRounds)
        .set({
          anchorTxHash: batch.txHash,
          anchoredAt: batch.anchoredAt,
          anchorRoot: batch.root,
          anchorProof: round.proof,
        })
        .where(and(eq(decisionRounds.id, round.id), isNull(decisionRounds.anchorTxHash)));
    }
  });
}

/**
 * Slims the details of at most `limit` finished rounds created before `cutoff`, oldest first, each with a later round
 * of its company (a company's latest round is left whole), in one statement: picked through the partial index of the
 * rounds not yet pruned, skipping those another process holds (FOR UPDATE SKIP LOCKED). Each phase loses its notes
 * (the refusals, `refused ...`, are kept: the next rounds are told of them) and its configured models, the round its
 * deliberation (the C-suite's proposals and the CEO's reasoning, model texts); the round is stamped `details_pruned_at`. Returns the ids slimmed (domain/engine/retention.ts deletes their budget rows).
 */
export async function slimRoundDetails(db: Tx, cutoff: Date, limit: number): Promise<string[]> {
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`
      with picked as (
        select r.id from ${decisionRounds} r
        where r.details_pruned_at is null and r.status <> 'RUNNING'
          and r.created_at < ${cutoff.toISOString()}::timestamptz
          and exists (select 1 from ${decisionRounds} later
                      where later.company_id = r.company_id and later.cycle > r.cycle)
        order by r.created_at
        limit ${limit}
        for update of r skip locked
      )
      update ${decisionRounds} r set
        phases = coalesce((
          select jsonb_agg(
            (e.p - 'notes' - 'configuredModels') || coalesce((
              select jsonb_build_object('notes', jsonb_agg(n.v order by n.i))
              from jsonb_array_elements_text(
                case when jsonb_typeof(e.p -> 'notes') = 'array' then e.p -> 'notes' else '[]'::jsonb end
              ) with ordinality n(v, i)
              where n.v like 'refused %'
              having count(*) > 0
            ), '{}'::jsonb)
            order by e.ord)
          from jsonb_array_elements(r.phases) with ordinality e(p, ord)
        ), '[]'::jsonb),
        proposals = null,
        ceo_reasoning = null,
        details_pruned_at = now()
      from picked where r.id = picked.id
      returning r.id`),
  );
  return rows.map((r) => r.id);
}
