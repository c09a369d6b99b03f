// Company-token trades, followed from the chain: curve trades (the launcher's CurveTrade) and pool swaps (the fee
// hook's PoolTrade). One row per log, keyed by (tx_hash, log_index), so applying a block twice changes nothing.
// Amounts are base units in numeric(78,0): USDC with 6 decimals, tokens with 18.
import { sql } from 'drizzle-orm';
import { bigint, index, integer, numeric, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { companies } from './companies.ts';

export const tokenTrades = pgTable(
  'token_trades',
  {
    txHash: text('tx_hash').notNull(),
    logIndex: integer('log_index').notNull(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    tokenAddress: text('token_address').notNull(),
    blockNumber: bigint('block_number', { mode: 'bigint' }).notNull(),
    blockTime: timestamp('block_time', { withTimezone: true, mode: 'date' }).notNull(),
    trader: text('trader').notNull(),
    /** `buy` or `sell`, from the trader's side. */
    side: text('side').notNull(),
    /** USDC paid (buy) or received (sell), net of the pool fee. */
    usdcAmount: numeric('usdc_amount', { precision: 78, scale: 0, mode: 'bigint' }).notNull(),
    tokenAmount: numeric('token_amount', { precision: 78, scale: 0, mode: 'bigint' }).notNull(),
    /** The pool hook's 2.5% (in the currency it was taken in); 0 on the curve. */
    feeAmount: numeric('fee_amount', { precision: 78, scale: 0, mode: 'bigint' }).notNull().default(sql`0`),
    /** `CURVE` or `POOL`. */
    venue: text('venue').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.txHash, t.logIndex] }),
    // 24 h volume per company, and a company's latest trades.
    index('token_trades_company_time_idx').on(t.companyId, t.blockTime.desc()),
    index('token_trades_time_idx').on(t.blockTime),
  ],
);
