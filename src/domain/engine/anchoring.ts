// Anchoring decision hashes in batches (docs/api/decisions.md "Anchoring in batches"): complete rounds wait for the next
// flush, which anchors every waiting hash as one Merkle root per batch of up to ANCHOR_ROOT_BATCH_MAX
// (DecisionAnchor.anchorRoot: one storage slot a batch, not one a round), so the anchoring gas per round falls as
// more rounds run together; each round keeps the root and its proof, which the verify route serves. A manual round
// flushes at its end (its answer carries its anchoring); the engine's continuous pool flushes when a batch is due,
// by size or by time, whichever comes first (anchoringDue); the anchor-decisions job flushes what is left.
//
// Crash safety: a batch is claimed first (its rounds get the batch's outbox key in one UPDATE), then sent through
// the outbox under that key, then recorded on its rounds. A flush first resends every claimed batch not yet
// recorded, so a crash at any point finishes the same batch with the same transaction, never a second one (the
// tree, and so its root, depends only on the batch's rounds).
import { createId } from '@paralleldrive/cuid2';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Hex } from 'viem';
import { ANCHOR_ROOT_BATCH_MAX, anchorDecisionRoot } from '../../chain/contracts/anchor.ts';
import { companyKey } from '../../chain/contracts/launcher.ts';
import { rowsOf } from '../../db/client.ts';
import { decisionRounds } from '../../db/schema/decisions.ts';
import type { Deps } from '../deps.ts';
import { claimAnchorBatch, recordAnchoring } from './rounds.ts';

export type AnchoringDeps = Pick<Deps, 'chain' | 'database' | 'outbox'> & {
  log?: { warn(o: object, m: string): void };
};

/**
 * Anchors every complete, hashed, unanchored round: claimed batches left by a crash first, then new batches of up
 * to ANCHOR_ROOT_BATCH_MAX. Returns the rounds anchored. A batch that fails (the chain is down) stays claimed and is
 * resent by the next flush. Rounds of another flush running at once are never taken twice.
 */
export async function anchorPendingRounds(deps: AnchoringDeps): Promise<number> {
  if (!deps.chain.contracts.decisionAnchor) return 0;
  let anchored = 0;
  for (const key of await unfinishedBatches(deps)) anchored += await sendBatch(deps, key);
  for (;;) {
    const key = await claimBatch(deps);
    if (!key) return anchored;
    const done = await sendBatch(deps, key);
    if (done === 0) return anchored;
    anchored += done;
  }
}

async function unfinishedBatches(deps: AnchoringDeps): Promise<string[]> {
  const rows = await deps.database.db
    .selectDistinct({ key: decisionRounds.anchorBatchKey })
    .from(decisionRounds)
    .where(and(sql`${decisionRounds.anchorBatchKey} is not null`, isNull(decisionRounds.anchorTxHash)));
  return rows.map((r) => r.key!);
}

/** Gives up to ANCHOR_ROOT_BATCH_MAX waiting rounds a new batch key, oldest first; undefined when none waits. */
async function claimBatch(deps: AnchoringDeps): Promise<string | undefined> {
  const key = `decision-anchor-batch:${createId()}`;
  const claimed = await claimAnchorBatch(deps.database.db, key, ANCHOR_ROOT_BATCH_MAX);
  return claimed.length > 0 ? key : undefined;
}

/** Sends (or resends) the batch under `key` and records each round's anchoring; 0 when it could not be sent. */
async function sendBatch(deps: AnchoringDeps, key: string): Promise<number> {
  const db = deps.database.db;
  const rounds = await db
    .select({ id: decisionRounds.id, companyId: decisionRounds.companyId, decisionHash: decisionRounds.decisionHash })
    .from(decisionRounds)
    .where(eq(decisionRounds.anchorBatchKey, key))
    .orderBy(asc(decisionRounds.createdAt), asc(decisionRounds.id));
  if (rounds.length === 0) return 0;
  try {
    const batch = await anchorDecisionRoot(
      deps,
      key,
      rounds.map((r) => ({ companyKey: companyKey(r.companyId), decisionHash: r.decisionHash as Hex })),
      rounds.map((r) => r.companyId),
    );
    await recordAnchoring(
      db,
      batch,
      rounds.map((round) => ({ id: round.id, proof: batch.proofs.get(round.decisionHash!.toLowerCase() as Hex)! })),
    );
    return rounds.length;
  } catch (err) {
    deps.log?.warn(
      { batch: key, rounds: rounds.length, err },
      'anchoring a batch of decisions failed; the next flush resends it',
    );
    return 0;
  }
}

/** Rounds a batch gathers before it is due: at 100 a round's share of the batch's gas is under 5,000. */
export const ANCHOR_BATCH_TARGET = 100;
/** Longest a complete round waits for its batch (milliseconds of the database's clock). */
export const ANCHOR_BATCH_WAIT_MS = 60_000;

/**
 * Whether a batch is due: ANCHOR_BATCH_TARGET rounds wait, or the oldest waiting one finished ANCHOR_BATCH_WAIT_MS
 * ago, whichever comes first; a batch claimed but not recorded (left by a failure) is always due.
 */
export async function anchoringDue(
  deps: Pick<Deps, 'database'>,
  options: { target?: number; waitMs?: number } = {},
): Promise<boolean> {
  const target = options.target ?? ANCHOR_BATCH_TARGET;
  const waitMs = options.waitMs ?? ANCHOR_BATCH_WAIT_MS;
  const [row] = rowsOf<{ waiting: number; oldest_ms: number | null; unfinished: boolean }>(
    await deps.database.db.execute(sql`
      select count(*)::int as waiting,
        (extract(epoch from (now() - min(coalesce(finished_at, created_at)))) * 1000)::float8 as oldest_ms,
        exists (select 1 from ${decisionRounds} where anchor_batch_key is not null and anchor_tx_hash is null)
          as unfinished
      from ${decisionRounds}
      where status = 'COMPLETE' and decision_hash is not null and anchor_tx_hash is null and anchor_batch_key is null`),
  );
  if (!row) return false;
  if (row.unfinished) return true;
  if (row.waiting === 0) return false;
  return row.waiting >= target || (row.oldest_ms ?? 0) >= waitMs;
}
