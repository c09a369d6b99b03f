// What a finished round keeps once it is older than DECISION_DETAIL_RETENTION_DAYS (the prune-decision-details job),
// so the round records do not grow without end. Kept for good: everything the verification, the web app and the
// scores read: the decision itself (directive and actions with their rationales, the exact preimage of the decision
// hash, which the browser recomputes), the hash and its anchoring, each action's outcome line, the status, error,
// tokens and cost, and each phase's duration, tokens, cost, calls, answering models and flags. Pruned: the phases'
// notes (except the refusals at extraction, which are outcomes the next rounds are told of), the models a phase was
// configured with, the deliberation (the C-suite's proposals and the CEO's reasoning), and the agents' budget rows (GET /api/companies/{id}/decisions shows the latest round's only).
// A company's latest round is left whole until a later one exists, so its budget stays shown.
import type { Tx } from '../../db/client.ts';
import { deleteRoundBudgets } from './pipeline.ts';
import { slimRoundDetails } from './rounds.ts';

/** Rounds pruned in one batch, and batches one run makes at most (a run pruning more leaves the rest to the next). */
export const PRUNE_BATCH = 1_000;
export const PRUNE_BATCHES_PER_RUN = 20;

const DAY_MS = 86_400_000;

/** The first instant a round is kept whole at `now` (rounds created before it are pruned). */
export const detailCutoff = (now: Date, retentionDays: number) => new Date(now.getTime() - retentionDays * DAY_MS);

/**
 * Prunes the details of the finished rounds created before `cutoff` (by the chain's clock, the one that dates
 * rounds), oldest first, in batches of `batch` rounds: one statement slims a batch's rounds (picked through the
 * partial index of the rounds not yet pruned, skipping those another process holds), one more deletes their budget
 * rows; no round trip per round. Returns the rounds pruned and the budget rows deleted.
 */
export async function pruneDecisionDetails(
  db: Tx,
  cutoff: Date,
  { batch = PRUNE_BATCH, maxBatches = PRUNE_BATCHES_PER_RUN } = {},
): Promise<{ rounds: number; budgets: number }> {
  const total = { rounds: 0, budgets: 0 };
  for (let i = 0; i < maxBatches; i++) {
    const ids = await slimRoundDetails(db, cutoff, batch);
    total.rounds += ids.length;
    total.budgets += await deleteRoundBudgets(db, ids);
    if (ids.length < batch) break;
  }
  return total;
}
