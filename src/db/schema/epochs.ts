// Reward epochs (docs/api/epochs.md "The flow"): one row per epoch the platform prepared for the distributor
// contract, and one claim row per participating company (its Merkle leaf, proof and reward). Both are written
// together, PREPARED, before the finalize transaction is sent; the epoch becomes FINALIZED once the chain holds the
// root, and a claim CLAIMED once its reward is minted. Scores and amounts are uint256 values in numeric(78,0).
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, numeric, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { companies } from './companies.ts';

const uint256 = (name: string) => numeric(name, { precision: 78, scale: 0, mode: 'bigint' }).notNull();

export const rewardEpochs = pgTable(
  'reward_epochs',
  {
    /** The distributor's epoch number (0 first). */
    epoch: integer('epoch').primaryKey(),
    /** The epoch's window [start, end) on the chain's clock: epochStart(epoch) and epochEnd(epoch). */
    windowStart: timestamp('window_start', { withTimezone: true, mode: 'date' }).notNull(),
    windowEnd: timestamp('window_end', { withTimezone: true, mode: 'date' }).notNull(),
    /** bytes32 hex; all zeros for an epoch without participants. */
    merkleRoot: text('merkle_root').notNull(),
    totalScore: uint256('total_score'),
    /** Primary tokens (wei) the epoch pays at most; 0 for an epoch without participants. */
    rewardPool: uint256('reward_pool'),
    companyCount: integer('company_count').notNull(),
    /** PREPARED (recorded, finalize not yet confirmed) or FINALIZED (the chain holds this root). */
    status: text('status').notNull().default('PREPARED'),
    finalizeTxHash: text('finalize_tx_hash'),
    /** Block time of the finalization. */
    finalizedAt: timestamp('finalized_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  () => [check('reward_epochs_status_check', sql.raw(`status in ('PREPARED', 'FINALIZED')`))],
);

export const rewardClaims = pgTable(
  'reward_claims',
  {
    epoch: integer('epoch')
      .notNull()
      .references(() => rewardEpochs.epoch),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    /** The leaf's index in the tree (its bit in the distributor's claimed bitmap). */
    leafIndex: integer('leaf_index').notNull(),
    /** keccak256 of the company id (chain/contracts/launcher.ts), bytes32 hex. */
    companyKey: text('company_key').notNull(),
    /** The treasury address recorded at finalization: where the reward is minted, whatever the treasury is later. */
    claimTo: text('claim_to').notNull(),
    /** floor(100 * mean overall score of the company's snapshots in the epoch window). */
    score: uint256('score'),
    /** rewardPool * score / totalScore rounded down (wei), as the distributor pays it. */
    amount: uint256('amount'),
    /** The Merkle proof of the leaf, bytes32 hex strings from the leaf up. */
    proof: jsonb('proof').$type<string[]>().notNull(),
    /** PENDING or CLAIMED. */
    status: text('status').notNull().default('PENDING'),
    claimTxHash: text('claim_tx_hash'),
    /** Block time of the claim transaction. */
    claimedAt: timestamp('claimed_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    primaryKey({ columns: [t.epoch, t.companyId] }),
    check('reward_claims_status_check', sql.raw(`status in ('PENDING', 'CLAIMED')`)),
    // GET /api/epochs/claimable/{companyId}: a company's newest claims first.
    index('reward_claims_company_epoch_idx').on(t.companyId, t.epoch.desc().nullsFirst()),
  ],
);
