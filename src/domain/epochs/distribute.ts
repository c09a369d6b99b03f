// The epoch distribution (docs/api/epochs.md "POST /api/cron/epoch-distribute" and "The flow"): once an
// epoch has ended on-chain, score the eligible companies over its window, record the Merkle tree (the epoch PREPARED
// and one PENDING claim per company, in one transaction), finalize the root on-chain in one transaction through the
// oracle's exactly-once outbox, then mark the epoch FINALIZED and publish a `season` event.
//
// Every step can be repeated after a crash, and is: the job runs every hour and at start.
// - Crash before the finalize is sent: the PREPARED rows are reused exactly (never recomputed: snapshots may have
//   changed since), and the outbox re-broadcasts the transaction it recorded, or sends it if it recorded none.
// - Crash after the finalize is mined: the chain says finalized while the row is PREPARED; the row's root is checked
//   against the chain's, and the records are completed (answer `already_finalized`).
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { type Address, type Hex, zeroHash } from 'viem';
import {
  type EpochInfo,
  finalizeCall,
  finalizeKey,
  findFinalizeTx,
  readCurrentEpoch,
  readEpoch,
} from '../../chain/contracts/distributor.ts';
import { companyKey } from '../../chain/contracts/launcher.ts';
import { buildEpochTree, rewardOf } from '../../chain/merkle.ts';
import { blockTime } from '../../chain/time.ts';
import { rowsOf, type Tx } from '../../db/client.ts';
import { companies } from '../../db/schema/companies.ts';
import { rewardClaims, rewardEpochs } from '../../db/schema/epochs.ts';
import type { Deps as DomainDeps } from '../deps.ts';
import { publishEvent } from '../events/store.ts';
import { epochScores } from './scores.ts';

type Deps = Pick<DomainDeps, 'chain' | 'database' | 'oracleOutbox' | 'config'>;

export type EpochRow = typeof rewardEpochs.$inferSelect;
type NewClaim = typeof rewardClaims.$inferInsert;
type ClaimRow = typeof rewardClaims.$inferSelect;

/** `reason` of the answer while epoch 0 runs: no epoch has ended, so there is nothing to distribute yet. */
export const NO_EPOCH_ENDED = 'no_epoch_ended_yet';

export type DistributeResult =
  | { epoch: number; status: 'finalized'; participantCount: number; txHash: Hex }
  | { epoch: number; status: 'already_finalized' }
  | { epoch: number; status: 'already_processed'; reason?: typeof NO_EPOCH_ENDED };

/** Claim rows per INSERT: 11 bind parameters each, well below PostgreSQL's 65,535 per statement. */
const CLAIMS_PER_STATEMENT = 5_000;
/** Epoch numbers are stored as PostgreSQL integers. */
const EPOCH_MAX = 2_147_483_647n;

export async function loadEpoch(db: Tx, epoch: number): Promise<EpochRow | undefined> {
  const [row] = await db.select().from(rewardEpochs).where(eq(rewardEpochs.epoch, epoch));
  return row;
}

/** Finalizes the epoch before the running one, once (the steps of docs/api/epochs.md "POST /api/cron/epoch-distribute"). */
export async function distributeEpoch(deps: Deps): Promise<DistributeResult> {
  const current = await readCurrentEpoch(deps);
  if (current === 0n) return { epoch: 0, status: 'already_processed', reason: NO_EPOCH_ENDED };
  if (current - 1n > EPOCH_MAX) throw new Error(`epoch ${current - 1n} does not fit the reward_epochs table`);
  const epoch = Number(current - 1n);
  const db = deps.database.db;

  const row = await loadEpoch(db, epoch);
  if (row?.status === 'FINALIZED') return { epoch, status: 'already_processed' };

  const { start, end, info } = await readEpoch(deps, epoch);
  if (info.finalizedAt !== 0n) {
    await completeFinalized(deps, epoch, row, info, start, end);
    return { epoch, status: 'already_finalized' };
  }

  const prepared = row ?? (await prepareEpoch(deps, epoch, start, end));
  const receipt = await deps.oracleOutbox.send(finalizeKey(epoch), () =>
    finalizeCall(deps, epoch, { ...prepared, merkleRoot: prepared.merkleRoot as Hex }),
  );
  if (receipt.status !== 'success') {
    // Only an epoch finalized meanwhile by another transaction of the oracle is expected here.
    const after = await readEpoch(deps, epoch);
    if (after.info.finalizedAt !== 0n) {
      await completeFinalized(deps, epoch, prepared, after.info, start, end);
      return { epoch, status: 'already_finalized' };
    }
    throw new Error(
      `finalize of epoch ${epoch} reverted in ${receipt.transactionHash}; the epoch stays PREPARED and needs an operator (check the oracle and maxRewardPool)`,
    );
  }
  await markFinalized(
    deps,
    prepared,
    receipt.transactionHash,
    await blockTime(deps.chain.publicClient, receipt.blockNumber),
  );
  return { epoch, status: 'finalized', participantCount: prepared.companyCount, txHash: receipt.transactionHash };
}

/**
 * Scores the window, builds the tree and records the epoch PREPARED with one PENDING claim per participant, in one
 * transaction. When another process recorded the epoch first, its rows are the ones used.
 */
async function prepareEpoch(deps: Deps, epoch: number, start: bigint, end: bigint): Promise<EpochRow> {
  const db = deps.database.db;
  const scores = await epochScores(db, start, end);
  const window = { windowStart: new Date(Number(start) * 1000), windowEnd: new Date(Number(end) * 1000) };
  let epochValues: typeof rewardEpochs.$inferInsert;
  let claims: NewClaim[] = [];
  if (scores.length === 0) {
    // An epoch without participants is finalized with zeros: marked done on-chain, nothing to claim.
    epochValues = { epoch, ...window, merkleRoot: zeroHash, totalScore: 0n, rewardPool: 0n, companyCount: 0 };
  } else {
    const idOfKey = new Map(scores.map((s) => [companyKey(s.companyId).toLowerCase(), s.companyId]));
    const tree = buildEpochTree(
      epoch,
      scores.map((s) => ({
        companyKey: companyKey(s.companyId),
        claimTo: s.treasuryAddress as Address,
        score: s.score,
      })),
    );
    const pool = deps.config.epochRewardPool;
    epochValues = {
      epoch,
      ...window,
      merkleRoot: tree.root,
      totalScore: tree.totalScore,
      rewardPool: pool,
      companyCount: tree.leaves.length,
    };
    claims = tree.leaves.map((leaf) => ({
      epoch,
      companyId: idOfKey.get(leaf.companyKey.toLowerCase())!,
      leafIndex: leaf.index,
      companyKey: leaf.companyKey,
      claimTo: leaf.claimTo,
      score: leaf.score,
      amount: rewardOf(pool, leaf.score, tree.totalScore),
      proof: leaf.proof,
    }));
  }
  await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(rewardEpochs)
      .values(epochValues)
      .onConflictDoNothing()
      .returning({ epoch: rewardEpochs.epoch });
    if (inserted.length === 0) return;
    for (let i = 0; i < claims.length; i += CLAIMS_PER_STATEMENT) {
      await tx.insert(rewardClaims).values(claims.slice(i, i + CLAIMS_PER_STATEMENT));
    }
  });
  return (await loadEpoch(db, epoch))!;
}

/**
 * The chain holds the epoch while the database does not say FINALIZED: a crash after the finalize, or a concurrent
 * run. The PREPARED row must be what the chain holds (the same root, total, pool and count); it is then marked.
 * Without any row (the epoch was finalized by someone else's tree, or the database was restored from before it),
 * the chain's figures are recorded as they are, with no claims: there is no leaf this platform could prove.
 */
async function completeFinalized(
  deps: Deps,
  epoch: number,
  row: EpochRow | undefined,
  info: EpochInfo,
  start: bigint,
  end: bigint,
): Promise<void> {
  const found = await findFinalizeTx(deps, epoch);
  const finalizedAt = new Date(Number(info.finalizedAt) * 1000);
  if (!row) {
    await deps.database.db
      .insert(rewardEpochs)
      .values({
        epoch,
        windowStart: new Date(Number(start) * 1000),
        windowEnd: new Date(Number(end) * 1000),
        merkleRoot: info.merkleRoot,
        totalScore: info.totalScore,
        rewardPool: info.rewardPool,
        companyCount: Number(info.companyCount),
        status: 'FINALIZED',
        finalizeTxHash: found?.txHash ?? null,
        finalizedAt,
      })
      .onConflictDoNothing();
    return;
  }
  if (row.status === 'FINALIZED') return;
  const same =
    row.merkleRoot.toLowerCase() === info.merkleRoot.toLowerCase() &&
    row.totalScore === info.totalScore &&
    row.rewardPool === info.rewardPool &&
    BigInt(row.companyCount) === info.companyCount;
  if (!same) {
    throw new Error(
      `epoch ${epoch} was finalized on-chain with root ${info.merkleRoot} (total ${info.totalScore}, pool ${info.rewardPool}, ${info.companyCount} companies), not the prepared root ${row.merkleRoot}; its claims cannot be proven and need an operator`,
    );
  }
  await markFinalized(deps, row, found?.txHash ?? null, finalizedAt);
}

/**
 * PREPARED -> FINALIZED with the transaction, and the `season` event in the same database transaction; a row
 * already marked (a concurrent run) is left alone and no second event is published.
 */
async function markFinalized(deps: Deps, row: EpochRow, txHash: Hex | null, finalizedAt: Date): Promise<void> {
  await deps.database.db.transaction(async (tx) => {
    const updated = await tx
      .update(rewardEpochs)
      .set({ status: 'FINALIZED', finalizeTxHash: txHash, finalizedAt })
      .where(and(eq(rewardEpochs.epoch, row.epoch), eq(rewardEpochs.status, 'PREPARED')))
      .returning({ epoch: rewardEpochs.epoch });
    if (updated.length === 0) return;
    const companyId = await eventCompany(tx, row.epoch);
    if (!companyId) return;
    await publishEvent(tx, {
      type: 'season',
      companyId,
      data: {
        kind: 'epoch_finalized',
        epoch: row.epoch,
        participantCount: row.companyCount,
        rewardPool: row.rewardPool.toString(),
        txHash,
      },
    });
  });
}

/**
 * A season event belongs to no one company, but the event log needs one (as the score snapshot's season event,
 * which names the snapshot's leader): the epoch's best-scoring participant, else the platform's leader by
 * platformScore (the Fortune List's order); none when there is no company at all.
 */
async function eventCompany(tx: Tx, epoch: number): Promise<string | undefined> {
  const [top] = rowsOf<{ id: string }>(
    await tx.execute(sql`
      select coalesce(
        (select company_id from ${rewardClaims} where epoch = ${epoch} order by score desc, company_id asc limit 1),
        (select id from ${companies} order by platform_score desc, created_at asc, id asc limit 1)
      ) as id`),
  );
  return top?.id ?? undefined;
}

/** A claim paid on-chain (claim.ts): PENDING -> CLAIMED; false when the row was already CLAIMED. */
export async function markClaimed(
  db: Tx,
  claim: Pick<ClaimRow, 'epoch' | 'companyId'>,
  txHash: Hex | null,
  claimedAt: Date,
): Promise<boolean> {
  const updated = await db
    .update(rewardClaims)
    .set({ status: 'CLAIMED', claimTxHash: txHash, claimedAt })
    .where(
      and(
        eq(rewardClaims.epoch, claim.epoch),
        eq(rewardClaims.companyId, claim.companyId),
        eq(rewardClaims.status, 'PENDING'),
      ),
    )
    .returning({ epoch: rewardClaims.epoch });
  return updated.length > 0;
}

/** The outbox's rows a reorg touched (chain_txs.note set), settled: few, found by their partial index. */
const reorgedTxs = sql`(select key, hash, status from chain_txs where note is not null and status in ('MINED', 'FAILED'))`;

/**
 * Epoch finalizations and claims whose transaction a reorg orphaned (domain/reorged-records.ts): the hash mined now,
 * or, sent again it would revert, waiting again (PREPARED, PENDING); distribute-epoch and the claim route read the
 * chain first, so one finalized or claimed by another transaction meanwhile records that one. Returns how many rows
 * changed.
 */
export async function followReorgedEpochTxs(tx: Tx): Promise<number> {
  const changed = async (q: SQL) => rowsOf(await tx.execute(q)).length;
  return (
    (await changed(sql`
      update reward_epochs e set finalize_tx_hash = c.hash from ${reorgedTxs} c
      where c.key = 'epoch-finalize:' || e.epoch and c.status = 'MINED' and e.finalize_tx_hash is distinct from c.hash
      returning e.epoch`)) +
    (await changed(sql`
      update reward_epochs e set status = 'PREPARED', finalize_tx_hash = null, finalized_at = null
      from ${reorgedTxs} c
      where c.key = 'epoch-finalize:' || e.epoch and c.status = 'FAILED' and e.finalize_tx_hash = c.hash
      returning e.epoch`)) +
    (await changed(sql`
      update reward_claims k set claim_tx_hash = c.hash from ${reorgedTxs} c
      where c.key = 'epoch-claim:' || k.epoch || ':' || k.company_id and c.status = 'MINED'
        and k.claim_tx_hash is distinct from c.hash
      returning k.epoch`)) +
    (await changed(sql`
      update reward_claims k set status = 'PENDING', claim_tx_hash = null, claimed_at = null from ${reorgedTxs} c
      where c.key = 'epoch-claim:' || k.epoch || ':' || k.company_id and c.status = 'FAILED'
        and k.claim_tx_hash = c.hash
      returning k.epoch`))
  );
}
