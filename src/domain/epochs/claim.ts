// A company's claim of its reward in one finalized epoch (docs/api/epochs.md "POST /api/epochs/claim"): the oracle sends the
// distributor's `claim` with the leaf and proof recorded at finalization, through its exactly-once outbox, and the
// reward is minted to the leaf's claimTo (the treasury recorded then). The claim row then becomes CLAIMED.
//
// Crash-safe by repetition: a crash before the broadcast is finished by the next request (the outbox re-sends the
// recorded transaction, or the settle-outbox job does); a crash after the transaction is mined, or a claim made by
// someone else with the public proof, is seen on-chain (`isClaimed`) and the record is completed from the Claimed
// log. A leaf is paid once by the contract's bitmap, whatever happens here.
import { and, eq } from 'drizzle-orm';
import type { Address, Hex } from 'viem';
import { claimCall, claimKey, findClaimTx, readIsClaimed, readReceipt } from '../../chain/contracts/distributor.ts';
import { blockTime, chainDate } from '../../chain/time.ts';
import { rewardClaims } from '../../db/schema/epochs.ts';
import { badRequest } from '../../errors.ts';
import { requireCardHolder } from '../cards/holder.ts';
import { requireCompany } from '../companies/queries.ts';
import { PLATFORM_GAS_ESTIMATES, requireGasBudget } from '../costs/gas-budget.ts';
import type { Deps as DomainDeps } from '../deps.ts';
import { loadEpoch, markClaimed } from './distribute.ts';

type Deps = Pick<DomainDeps, 'chain' | 'database' | 'oracleOutbox' | 'config' | 'now'>;
type ClaimRow = typeof rewardClaims.$inferSelect;

export interface ClaimResult {
  success: boolean;
  alreadyClaimed: boolean;
  txHash: Hex | null;
  /** Wei minted by this request; '0' when it was claimed before. */
  amount: string;
  epoch: number;
}

const already = (epoch: number): ClaimResult => ({
  success: true,
  alreadyClaimed: true,
  txHash: null,
  amount: '0',
  epoch,
});

export async function claimEpochReward(
  deps: Deps,
  companyIdOrSlug: string,
  epoch: number,
  signer: Address | undefined,
): Promise<ClaimResult> {
  const db = deps.database.db;
  const company = await requireCompany(db, companyIdOrSlug);
  await requireCardHolder(deps, company, signer);
  const epochRow = await loadEpoch(db, epoch);
  if (epochRow?.status !== 'FINALIZED') {
    throw badRequest(`Epoch ${epoch} is not finalized: rewards can be claimed once the epoch has been distributed`);
  }
  if (!company.treasuryAddress) {
    throw badRequest(
      `Company ${company.id} has no treasury address: set one with PUT /api/companies/${company.id}/treasury`,
    );
  }
  const [claim] = await db
    .select()
    .from(rewardClaims)
    .where(and(eq(rewardClaims.epoch, epoch), eq(rewardClaims.companyId, company.id)));
  if (!claim) {
    throw badRequest(
      `Company ${company.id} has no reward in epoch ${epoch}: it had no treasury address or no score above 0 in the epoch window when the epoch was finalized`,
    );
  }
  if (claim.status === 'CLAIMED') return already(epoch);

  // Paid already (a crash after the claim was mined, or a claim by someone else): complete the record.
  if (await readIsClaimed(deps, epoch, claim.leafIndex)) {
    await recordClaimedOnChain(deps, claim, epochRow.finalizeTxHash);
    return already(epoch);
  }

  await requireGasBudget(deps, company.id, PLATFORM_GAS_ESTIMATES.claim, 'a claim');
  const receipt = await deps.oracleOutbox.send(
    claimKey(epoch, company.id),
    () =>
      claimCall(deps, epoch, {
        index: claim.leafIndex,
        companyKey: claim.companyKey as Hex,
        claimTo: claim.claimTo as Address,
        score: claim.score,
        proof: claim.proof as Hex[],
      }),
    { chargedTo: [company.id] },
  );
  if (receipt.status !== 'success') {
    // Reverted: someone claimed the leaf between our check and our transaction.
    if (await readIsClaimed(deps, epoch, claim.leafIndex)) {
      await recordClaimedOnChain(deps, claim, epochRow.finalizeTxHash);
      return already(epoch);
    }
    throw new Error(`claim of ${company.id} in epoch ${epoch} reverted in ${receipt.transactionHash}`);
  }
  const marked = await markClaimed(
    deps.database.db,
    claim,
    receipt.transactionHash,
    await blockTime(deps.chain.publicClient, receipt.blockNumber),
  );
  // A concurrent request marked it first: that request reported the payment.
  if (!marked) return already(epoch);
  return {
    success: true,
    alreadyClaimed: false,
    txHash: receipt.transactionHash,
    amount: claim.amount.toString(),
    epoch,
  };
}

/** The leaf is paid on-chain: record the paying transaction (the outbox's own, or the Claimed log's). */
async function recordClaimedOnChain(deps: Deps, claim: ClaimRow, finalizeTxHash: string | null): Promise<void> {
  let fromBlock: bigint | undefined;
  if (finalizeTxHash) {
    fromBlock = (await readReceipt(deps, finalizeTxHash as Hex))?.blockNumber;
  }
  const found = await findClaimTx(deps, claim, fromBlock);
  // Without the paying transaction, the chain's clock is when the payment is known to have happened by: claimedAt
  // stays a chain time like every other, never the server's (which may lie weeks apart from it).
  const claimedAt = found
    ? await blockTime(deps.chain.publicClient, found.blockNumber)
    : await chainDate(deps.chain.publicClient);
  await markClaimed(deps.database.db, claim, found?.txHash ?? null, claimedAt);
}
