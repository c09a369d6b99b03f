// Company treasuries and their USDC balances over time (docs/api/fortune.md "Treasury", docs/indexer.md): the
// treasuries each company proved it controls, with the time each one counted from and until, and every followed
// address's balance history as observations made from USDC `Transfer` logs, time-weighted as PoolTogether v5's
// TwabController does (an observation holds the balance and the cumulative balance-time up to it), so the average
// balance over any span is (cumulative at the end - cumulative at the start) / its length, exactly.
import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { companies } from './companies.ts';

const usdc = (name: string) => numeric(name, { precision: 78, scale: 0, mode: 'bigint' }).notNull();

/**
 * The treasuries a company proved it controls, one row per span: set with the treasury's own acceptance (or the
 * creator's own wallet) at `from_time`, replaced at `until_time`. The treasury score counts only these spans.
 */
export const companyTreasuries = pgTable(
  'company_treasuries',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    /** Checksummed. */
    address: text('address').notNull(),
    /** The chain's time when the treasury was set: it counts from here. */
    fromTime: timestamp('from_time', { withTimezone: true, mode: 'date' }).notNull(),
    /** The chain's time when the company set another treasury; null while it is the company's treasury. */
    untilTime: timestamp('until_time', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    // One current treasury per company, and an address is the current treasury of one company at most.
    uniqueIndex('company_treasuries_current_unique')
      .on(t.companyId)
      .where(sql`${t.untilTime} is null`),
    uniqueIndex('company_treasuries_current_address_unique')
      .on(sql`lower(${t.address})`)
      .where(sql`${t.untilTime} is null`),
    // A company's treasuries, past ones included (its linked wallets).
    index('company_treasuries_company_idx').on(t.companyId),
  ],
);

/**
 * The addresses whose USDC transfers the treasury stream follows: every treasury ever proven. Followed for good
 * once added, so a balance history never has a gap.
 */
export const treasuryAccounts = pgTable(
  'treasury_accounts',
  {
    /** Checksummed. */
    address: text('address').primaryKey(),
    /**
     * While the account catches up with the stream: the block through which its transfers are recorded (its
     * opening balance was read there). Null once the stream's cursor covers it.
     */
    syncedBlock: bigint('synced_block', { mode: 'bigint' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('treasury_accounts_catching_up_idx').on(t.syncedBlock).where(sql`${t.syncedBlock} is not null`)],
);

/**
 * A followed address's USDC balance after each transfer that moved it, in chain order, and its opening balance (read
 * at the block where following began, log index -1). `cumulative` is the integral of the balance over time, in USDC
 * base units times seconds, from the first observation to this one.
 */
export const treasuryObservations = pgTable(
  'treasury_observations',
  {
    /** Checksummed. */
    address: text('address').notNull(),
    blockNumber: bigint('block_number', { mode: 'bigint' }).notNull(),
    /** The log's index in its block; -1 for the opening balance. */
    logIndex: integer('log_index').notNull(),
    /** The block's time. */
    observedAt: timestamp('observed_at', { withTimezone: true, mode: 'date' }).notNull(),
    balance: usdc('balance'),
    cumulative: usdc('cumulative'),
  },
  (t) => [
    primaryKey({ columns: [t.address, t.blockNumber, t.logIndex] }),
    // The last observation at or before an instant: the balance and cumulative there (the snapshot's two ends).
    index('treasury_observations_address_time_idx').on(t.address, t.observedAt, t.blockNumber, t.logIndex),
  ],
);
