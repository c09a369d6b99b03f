// Chain bookkeeping: the platform's outgoing transactions (an outbox that makes every send exactly-once across
// crashes) and the indexer's block cursors.
import { bigint, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

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
    /** SENT (recorded, maybe broadcast), MINED, REVERTED, or DROPPED (its nonce went to another transaction). */
    status: text('status').notNull().default('SENT'),
    blockNumber: bigint('block_number', { mode: 'bigint' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('chain_txs_pending_idx').on(t.status)],
);

export const chainCursors = pgTable('chain_cursors', {
  /** The log stream followed, e.g. `access-card-transfers`. */
  name: text('name').primaryKey(),
  /** Last block whose logs were fully applied. */
  block: bigint('block', { mode: 'bigint' }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
