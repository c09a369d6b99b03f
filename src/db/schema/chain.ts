// Chain bookkeeping: the platform's outgoing transactions (an outbox that makes every send exactly-once across
// crashes) and the indexer's block cursors.
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';

export const chainTxs = pgTable(
  'chain_txs',
  {
    /** What the transaction does, unique per effect, e.g. `card-lock:42` or `agent-register:<agentId>`. */
    key: text('key').primaryKey(),
    fromAddress: text('from_address').notNull(),
    nonce: integer('nonce').notNull(),
    /** The signed transaction, so a send interrupted by a crash is re-broadcast byte for byte. */
    rawTx: text('raw_tx').notNull(),
    hash: text('hash').notNull(),
    /**
     * SENT (recorded, maybe broadcast), MINED, REVERTED, DROPPED (its nonce went to another transaction), REORGED (it
     * was mined in a block a reorg orphaned, and is being sent again; charged once already), or FAILED (orphaned so,
     * and sending it again would revert: `note` says why).
     */
    status: text('status').notNull().default('SENT'),
    /** Why the row left its ordinary course: the orphaned block it was mined in, the reason it failed. */
    note: text('note'),
    blockNumber: bigint('block_number', { mode: 'bigint' }),
    /**
     * The companies whose requests caused the transaction, one entry per share of its cost (a batch anchoring
     * several rounds lists each round's company); empty for the platform's own work (epoch finalization).
     */
    chargedTo: text('charged_to').array().notNull().default(sql`'{}'::text[]`),
    /** From the receipt, once mined (or reverted): gas used and the price paid per gas, in wei. */
    gasUsed: numeric('gas_used', { precision: 78, scale: 0, mode: 'bigint' }),
    gasPrice: numeric('gas_price', { precision: 78, scale: 0, mode: 'bigint' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('chain_txs_pending_idx').on(t.status),
    // The few rows a reorg touched, whose records follow them (domain/reorged-records.ts).
    index('chain_txs_noted_idx')
      .on(t.key)
      .where(sql`${t.note} is not null`),
  ],
);

export const chainCursors = pgTable('chain_cursors', {
  /** The log stream followed, e.g. `access-card-transfers`. */
  name: text('name').primaryKey(),
  /** Last block whose logs were fully applied. */
  block: bigint('block', { mode: 'bigint' }).notNull(),
  /** The chain's finalized block when the stream last applied a batch: its rows at or below it are final. */
  finalized: bigint('finalized', { mode: 'bigint' }),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * The blocks each stream applied that are not finalized yet, by number and hash (the last block of every batch, and
 * every block that held one of its logs): a batch whose first block's parent hash differs from the recorded hash of
 * the block before it is a reorg, and the highest recorded block still on the chain is the common ancestor the
 * stream rolls back to (docs/indexer.md#reorgs). Rows below the finalized block are pruned, the finalized one kept.
 */
export const chainBlocks = pgTable(
  'chain_blocks',
  {
    stream: text('stream').notNull(),
    number: bigint('number', { mode: 'bigint' }).notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [primaryKey({ columns: [t.stream, t.number] })],
);

/**
 * The undo log of the chain streams (src/chain/journal.ts, docs/indexer.md#reorgs): every row a stream's batch
 * inserted, changed or deleted in a table it declares, written by the `chain_journal_write` trigger while the batch
 * is applied above the finalized block. A reorg restores, newest first, every row of the batches that reach past the
 * common ancestor; entries of finalized batches are pruned.
 */
export const chainJournal = pgTable(
  'chain_journal',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    stream: text('stream').notNull(),
    /** The batch's blocks: its writes may derive from any of them. */
    fromBlock: bigint('from_block', { mode: 'bigint' }).notNull(),
    toBlock: bigint('to_block', { mode: 'bigint' }).notNull(),
    tableName: text('table_name').notNull(),
    /** The row's primary key columns. */
    key: jsonb('key').$type<Record<string, unknown>>().notNull(),
    /** `I` (inserted: undone by deleting it), `U` (changed: its old values), `D` (deleted: the whole old row). */
    op: text('op').notNull(),
    /** The columns a `U` changed, with their old values; the whole row of a `D`; null for an `I`. */
    old: jsonb('old').$type<Record<string, unknown>>(),
  },
  (t) => [
    index('chain_journal_stream_to_idx').on(t.stream, t.toBlock),
    // A company's creators replaced by a card transfer not yet final (src/domain/companies/linked.ts), per company.
    index('chain_journal_company_update_idx')
      .on(sql`(${t.key}->>'id')`)
      .where(sql`${t.tableName} = 'companies' and ${t.op} = 'U'`),
  ],
);

/**
 * Gas the platform paid for each company, per UTC day: each transaction's gas and native cost split in equal
 * shares over its `charged_to` entries, added once when the transaction settles. The daily budget reads it.
 */
export const companyGasDays = pgTable(
  'company_gas_days',
  {
    companyId: text('company_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    gasUsed: numeric('gas_used', { precision: 78, scale: 0, mode: 'bigint' }).notNull(),
    /** Native currency (wei) paid for that gas. */
    costWei: numeric('cost_wei', { precision: 78, scale: 0, mode: 'bigint' }).notNull(),
    transactions: integer('transactions').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.day] })],
);
