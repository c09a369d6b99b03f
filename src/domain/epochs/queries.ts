// Reads of the epoch routes: the running epoch from the distributor (docs/api/epochs.md "GET /api/epochs/current"), a company's claimable
// rewards (docs/api/epochs.md "GET /api/epochs/claimable/{companyId}") and a leaf's proof (docs/api/epochs.md "GET /api/epochs/{epoch}/proof/{companyId}").
import { and, desc, eq } from 'drizzle-orm';
import { readRunningEpoch } from '../../chain/contracts/distributor.ts';
import { rewardClaims, rewardEpochs } from '../../db/schema/epochs.ts';
import { notFound } from '../../errors.ts';
import { requireCompany } from '../companies/queries.ts';
import type { Deps } from '../deps.ts';

/** docs/api/README.md "Limits": at most the last 12 finalized epochs. */
export const CLAIMABLE_EPOCHS_MAX = 12;

export interface EpochView {
  epochNumber: number;
  startTime: number;
  endTime: number;
  rewardPool: string;
  totalScore: string;
  totalClaimed: string;
  companyCount: number;
  finalized: boolean;
  epochDuration: number;
  nextEpochIn: number;
}

/**
 * The running epoch, read on-chain at the latest block: its number, window and EpochInfo in one JSON-RPC batch
 * pinned to that block (the distributor's start time and epoch length never change and are read once). The
 * running epoch cannot be finalized yet, so its totalScore, totalClaimed and companyCount are 0 and finalized is
 * false until it has ended and been distributed; rewardPool is the pool it will be finalized with
 * (EPOCH_REWARD_POOL). nextEpochIn counts from the latest block's time.
 */
export async function readCurrentEpochView(deps: Pick<Deps, 'chain' | 'config'>): Promise<EpochView> {
  const running = await readRunningEpoch(deps);
  return {
    epochNumber: Number(running.epoch),
    startTime: Number(running.start),
    endTime: Number(running.end),
    rewardPool: deps.config.epochRewardPool.toString(),
    totalScore: running.info.totalScore.toString(),
    totalClaimed: running.info.totalClaimed.toString(),
    companyCount: Number(running.info.companyCount),
    finalized: running.info.finalizedAt !== 0n,
    epochDuration: Number(running.epochDuration),
    nextEpochIn: Number(running.end - running.blockTime),
  };
}

export interface ClaimableEntry {
  epochNumber: number;
  amount: string;
  alreadyClaimed: boolean;
}

export type Claimable =
  | { companyId: string; treasuryAddress: string; claimable: ClaimableEntry[]; totalClaimable: string }
  | {
      companyId: string;
      treasuryAddress: null;
      claimable: [];
      totalClaimable: '0';
      reason: 'no_treasury_address';
    };

/**
 * The company's rewards in its last 12 finalized epochs with a claim, newest first; totalClaimable sums those not
 * claimed yet. A company without a treasury address gets the empty variant with `reason` (docs/api/epochs.md).
 */
export async function readClaimable(deps: Pick<Deps, 'database'>, idOrSlug: string): Promise<Claimable> {
  const db = deps.database.db;
  const company = await requireCompany(db, idOrSlug);
  if (!company.treasuryAddress) {
    return {
      companyId: company.id,
      treasuryAddress: null,
      claimable: [],
      totalClaimable: '0',
      reason: 'no_treasury_address',
    };
  }
  const rows = await db
    .select({ epoch: rewardClaims.epoch, amount: rewardClaims.amount, status: rewardClaims.status })
    .from(rewardClaims)
    .innerJoin(rewardEpochs, eq(rewardEpochs.epoch, rewardClaims.epoch))
    .where(and(eq(rewardClaims.companyId, company.id), eq(rewardEpochs.status, 'FINALIZED')))
    .orderBy(desc(rewardClaims.epoch))
    .limit(CLAIMABLE_EPOCHS_MAX);
  let total = 0n;
  const claimable = rows.map((r) => {
    const alreadyClaimed = r.status === 'CLAIMED';
    if (!alreadyClaimed) total += r.amount;
    return { epochNumber: r.epoch, amount: r.amount.toString(), alreadyClaimed };
  });
  return {
    companyId: company.id,
    treasuryAddress: company.treasuryAddress,
    claimable,
    totalClaimable: total.toString(),
  };
}

export interface EpochProof {
  epoch: number;
  companyId: string;
  leaf: { index: number; companyKey: string; claimTo: string; score: string; amount: string };
  proof: string[];
  root: string;
  claimed: boolean;
}

/** A company's leaf and proof in a finalized epoch; 404 when the company, the epoch or the leaf is unknown. */
export async function readProof(deps: Pick<Deps, 'database'>, epoch: number, idOrSlug: string): Promise<EpochProof> {
  const db = deps.database.db;
  const company = await requireCompany(db, idOrSlug);
  const [row] = await db
    .select({ claim: rewardClaims, root: rewardEpochs.merkleRoot })
    .from(rewardClaims)
    .innerJoin(rewardEpochs, eq(rewardEpochs.epoch, rewardClaims.epoch))
    .where(
      and(eq(rewardClaims.epoch, epoch), eq(rewardClaims.companyId, company.id), eq(rewardEpochs.status, 'FINALIZED')),
    );
  if (!row) {
    throw notFound(
      `Company ${company.id} has no leaf in epoch ${epoch}: the epoch is not finalized, or the company did not take part in it`,
    );
  }
  const { claim } = row;
  return {
    epoch,
    companyId: company.id,
    leaf: {
      index: claim.leafIndex,
      companyKey: claim.companyKey,
      claimTo: claim.claimTo,
      score: claim.score.toString(),
      amount: claim.amount.toString(),
    },
    proof: claim.proof,
    root: row.root,
    claimed: claim.status === 'CLAIMED',
  };
}
