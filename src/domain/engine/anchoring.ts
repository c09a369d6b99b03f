// Anchoring decision hashes in batches (docs/api/decisions.md "Anchoring in batches"): complete rounds wait for the next
// flush, which anchors every waiting hash in one anchorBatch transaction per 200, so the anchoring gas per round
// falls as more rounds run at once. A manual round flushes at its end (its answer carries its anchoring); the
// engine flushes after each pass of scheduled rounds; the anchor-decisions job flushes what is left.
//
// Crash safety: a batch is claimed first (its rounds get the batch's outbox key in one UPDATE), then sent through
// the outbox under that key, then recorded on its rounds. A flush first resends every claimed batch not yet
// recorded, so a crash at any point finishes the same batch with the same transaction, never a second one.
import { createId } from '@paralleldrive/cuid2';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Hex } from 'viem';
import { ANCHOR_BATCH_MAX, anchorDecisions } from '../../chain/contracts/anchor.ts';
import { companyKey } from '../../chain/contracts/launcher.ts';
import { rowsOf } from '../../db/client.ts';
import { decisionRounds } from '../../db/schema/decisions.ts';
import type { Deps } from '../deps.ts';

export type AnchoringDeps = Pick<Deps, 'chain' | 'database' | 'outbox'> & {
  log?: { warn(o: object, m: string): void };
};

/**
 * Anchors every complete, hashed, unanchored round: claimed batches left by a crash first, then new batches of up
 * to ANCHOR_BATCH_MAX. Returns the rounds anchored. A batch that fails (the chain is down) stays claimed and is
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

/** Gives up to ANCHOR_BATCH_MAX waiting rounds a new batch key, oldest first; undefined when none waits. */
async function claimBatch(deps: AnchoringDeps): Promise<string | undefined> {
  const key = `decision-anchor-batch:${createId()}`;
  const claimed = rowsOf<{ id: string }>(
    await deps.database.db.execute(sql`
      update ${decisionRounds} set anchor_batch_key = ${key}
      where id in (
        select id from ${decisionRounds}
        where status = 'COMPLETE' and decision_hash is not null and anchor_tx_hash is null
          and anchor_batch_key is null
        order by created_at
        limit ${ANCHOR_BATCH_MAX}
        for update skip locked)
      returning id`),
  );
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
    const anchorings = await anchorDecisions(
      deps,
      key,
      rounds.map((r) => ({ companyKey: companyKey(r.companyId), decisionHash: r.decisionHash as Hex })),
      rounds.map((r) => r.companyId),
    );
    await db.transaction(async (tx) => {
      for (const round of rounds) {
        const anchoring = anchorings.get(round.decisionHash!.toLowerCase() as Hex)!;
        await tx
          .update(decisionRounds)
          .set({ anchorTxHash: anchoring.txHash, anchoredAt: anchoring.anchoredAt })
          .where(and(eq(decisionRounds.id, round.id), isNull(decisionRounds.anchorTxHash)));
      }
    });
    return rounds.length;
  } catch (err) {
    deps.log?.warn(
      { batch: key, rounds: rounds.length, err },
      'anchoring a batch of decisions failed; the next flush resends it',
    );
    return 0;
  }
}
