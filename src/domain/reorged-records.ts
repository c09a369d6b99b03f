// The records that name a platform transaction follow it after a reorg. The outbox sends a transaction whose block
// a reorg orphaned again (src/chain/outbox.ts recheckMined), under the same key: the same bytes (same hash), the same
// call signed anew (a new hash), or FAILED with the reason when sent again it would revert; its row keeps a note.
// Each table that stored the first hash from the receipt then shows the hash the chain holds now, or goes back to
// waiting, so the job that made it sends it again: a round's anchoring (decision_rounds, re-anchored by
// anchor-decisions), an epoch's finalization (reward_epochs, PREPARED again for distribute-epoch) and a reward claim
// (reward_claims, PENDING again). Agent actions and their round lines follow in settleRoundActions. Token launches are
// not here: their hash comes from the launch log, which the token stream's journal undoes and applies again.
import type { Deps } from './deps.ts';
import { followReorgedAnchorings } from './engine/rounds.ts';
import { settleRoundActions } from './engine/settle-actions.ts';
import { followReorgedEpochTxs } from './epochs/distribute.ts';

/** Brings every record of a reorged outbox transaction to what the chain holds; returns how many rows changed. */
export async function followReorgedTransactions(deps: Pick<Deps, 'database'>): Promise<number> {
  const n = await settleRoundActions(deps);
  return (
    n +
    (await deps.database.db.transaction(
      async (tx) => (await followReorgedAnchorings(tx)) + (await followReorgedEpochTxs(tx)),
    ))
  );
}
