// What the demo's epoch step does next, decided from what the service reports (pure: no service, no chain).

export interface EpochView {
  epochNumber: number;
  startTime: number;
  endTime: number;
  nextEpochIn: number;
}

export type EpochPlan =
  | { kind: 'claim' }
  | { kind: 'advance'; seconds: number }
  | { kind: 'distribute-previous' }
  | { kind: 'wait-snapshot' };

/**
 * What the epoch step does. `hasFinalizedReward`: a demo company already has a reward in a finalized epoch (claim
 * it). `snapshotAt`: the start (epoch seconds) of the latest score snapshot holding demo companies, if any.
 *
 * The chain's clock is only moved when the running epoch holds a snapshot of the demo companies: an epoch that ends
 * without one is finalized with no participants, and its pool is lost for the demo.
 */
export function planEpoch(epoch: EpochView, hasFinalizedReward: boolean, snapshotAt: number | undefined): EpochPlan {
  if (hasFinalizedReward) return { kind: 'claim' };
  if (snapshotAt !== undefined && snapshotAt >= epoch.startTime && snapshotAt < epoch.endTime) {
    // A few seconds past the end, so the next block is certainly in the next epoch.
    return { kind: 'advance', seconds: Math.max(epoch.nextEpochIn, 0) + 5 };
  }
  if (snapshotAt !== undefined && snapshotAt < epoch.startTime && epoch.epochNumber > 0) {
    // The snapshot's epoch has ended (an earlier run moved the clock): it only needs distributing.
    return { kind: 'distribute-previous' };
  }
  return { kind: 'wait-snapshot' };
}

/** The snapshot date (`2026-03-10T00:00:00.000Z`) as epoch seconds. */
export const snapshotSeconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);
