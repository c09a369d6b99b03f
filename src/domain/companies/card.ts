// The access card behind a company: picking the creator's unused card, and locking it on-chain for good with
// markCompanyDeployed. The binding is written to the database first; the lock goes through the outbox, and
// companies whose lock is not yet confirmed are repaired at start and every minute (repairCardLocks).

import { inArray, isNull } from 'drizzle-orm';
import type { Address } from 'viem';
import { canDeploy, cardsOf, isLocked, latestBlock, lockCall } from '../../chain/contracts/access-card.ts';
import type { Tx } from '../../db/client.ts';
import { companies } from '../../db/schema/companies.ts';
import { forbidden } from '../../errors.ts';
import type { Deps as DomainDeps } from '../deps.ts';
import { markCardLocked } from './store.ts';

type Deps = Pick<DomainDeps, 'chain' | 'database' | 'outbox' | 'now'>;

/**
 * The lowest-numbered card the signer holds that is neither locked on-chain nor bound in the database (a lock
 * still pending). canDeploy answers the common case in one call; only when its card is already bound here are
 * all the signer's cards read, in one JSON-RPC batch.
 */
export async function pickUnusedCard(deps: Deps, signer: Address): Promise<{ tokenId: number; block: bigint }> {
  // Every read at one block, which the company records: the indexer applies only transfers after it.
  const block = await latestBlock(deps.chain);
  const first = await canDeploy(deps.chain, signer, block);
  const noCard = () =>
    forbidden(
      `${signer} holds no unused access card: mint one (or receive one) to create a company; one card makes one company`,
    );
  if (first === 0n) throw noCard();
  if (!(await boundCards(deps.database.db, [Number(first)])).has(Number(first)))
    return { tokenId: Number(first), block };

  const candidates = (await cardsOf(deps.chain, signer, block)).filter((c) => !c.locked).map((c) => Number(c.id));
  const bound = await boundCards(deps.database.db, candidates);
  const free = candidates.filter((id) => !bound.has(id)).sort((a, b) => a - b);
  if (free.length === 0) throw noCard();
  return { tokenId: free[0]!, block };
}

async function boundCards(db: Tx, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: companies.cardTokenId })
    .from(companies)
    .where(inArray(companies.cardTokenId, ids));
  return new Set(rows.map((r) => r.id));
}

/** Locks the company's card on-chain (once, whatever happens) and records the confirmation. */
export async function lockCompanyCard(deps: Deps, company: { id: string; cardTokenId: number }): Promise<void> {
  const tokenId = BigInt(company.cardTokenId);
  if (!(await isLocked(deps.chain, tokenId))) {
    const receipt = await deps.outbox.send(`card-lock:${company.cardTokenId}`, () => lockCall(deps.chain, tokenId), {
      chargedTo: [company.id],
    });
    if (receipt.status !== 'success' && !(await isLocked(deps.chain, tokenId))) {
      throw new Error(`markCompanyDeployed(${tokenId}) reverted in ${receipt.transactionHash}`);
    }
  }
  await markCardLocked(deps.database.db, company.id, new Date(deps.now()));
}

/** Locks every card whose lock is not yet confirmed (after a crash, or a chain outage during creation). */
export async function repairCardLocks(deps: Deps, limit = 100): Promise<number> {
  const pending = await deps.database.db
    .select({ id: companies.id, cardTokenId: companies.cardTokenId })
    .from(companies)
    .where(isNull(companies.cardLockedAt))
    .limit(limit);
  for (const company of pending) await lockCompanyCard(deps, company);
  return pending.length;
}
