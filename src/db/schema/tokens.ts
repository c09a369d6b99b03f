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
    /** The hash of the block the log is in (lower case); null for trades indexed before it was recorded. */
    blockHash: text('block_hash'),
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
    /**
     * A sale's realised PnL against the trader's average cost of the tokens sold (USDC base units), set when the
     * trade is indexed; null for buys. Tokens the trader got other than by buying have no cost and earn none.
     */
    realizedPnl: numeric('realized_pnl', { precision: 78, scale: 0, mode: 'bigint' }),
    /**
     * A sale's holding period, for the trading score (docs/api/fortune.md "Trading"): when the trader's position
     * was opened (its first buy since it last held nothing) and its latest buy before the sale. Null for buys, and
     * for a sale of a position opened before these were recorded.
     */
    heldSince: timestamp('held_since', { withTimezone: true, mode: 'date' }),
    lastBuyAt: timestamp('last_buy_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    primaryKey({ columns: [t.txHash, t.logIndex] }),
    // 24 h volume per company, and a company's latest trades.
    index('token_trades_company_time_idx').on(t.companyId, t.blockTime.desc()),
    index('token_trades_time_idx').on(t.blockTime),
    // A wallet's trades across every token, newest first (its PnL over time, the account page).
    index('token_trades_trader_time_idx').on(t.trader, t.blockTime.desc()),
    // The trades lists in chain order (block, then log index), either way, and their cursors: one company's token,
    // every token (the platform feed), one trader's.
    index('token_trades_company_block_idx').on(t.companyId, t.blockNumber, t.logIndex),
    index('token_trades_block_idx').on(t.blockNumber, t.logIndex),
    index('token_trades_trader_block_idx').on(t.trader, t.blockNumber, t.logIndex),
  ],
);

/**
 * Each trader's position in each company token from its indexed trades, at average cost: a buy adds its tokens and
 * the USDC paid, a sale takes the sold tokens' share of the cost out and realises the difference.
 */
export const traderPositions = pgTable(
  'trader_positions',
  {
    /** Lower case. */
    trader: text('trader').notNull(),
    tokenAddress: text('token_address').notNull(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    /** Tokens bought and not yet sold (base units). */
    quantity: numeric('quantity', { precision: 78, scale: 0, mode: 'bigint' }).notNull(),
    /** USDC paid for `quantity` (base units). */
    costUsdc: numeric('cost_usdc', { precision: 78, scale: 0, mode: 'bigint' }).notNull(),
    realizedPnlUsdc: numeric('realized_pnl_usdc', { precision: 78, scale: 0, mode: 'bigint' }).notNull(),
    /** The block time of the first buy since the position last held nothing; null while it holds nothing. */
    openedAt: timestamp('opened_at', { withTimezone: true, mode: 'date' }),
    /** The block time of the latest buy. */
    lastBuyAt: timestamp('last_buy_at', { withTimezone: true, mode: 'date' }),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.trader, t.tokenAddress] })],
);

/**
 * Each company token's holder count, from its `Transfer` logs (the holder stream, src/domain/tokens/company-token-holders.stream.ts): the
 * addresses other than the zero address with a positive balance. `applied_block`/`applied_log` is the last transfer
 * counted, so a batch applied twice counts nothing twice.
 */
export const tokenHolderCounts = pgTable('token_holder_counts', {
  /** Checksummed, as companies.token_address. */
  tokenAddress: text('token_address').primaryKey(),
  holders: integer('holders').notNull().default(0),
  /** Minted less burned (transfers from and to the zero address), base units. */
  supply: numeric('supply', { precision: 78, scale: 0, mode: 'bigint' }).notNull().default(sql`0`),
  appliedBlock: bigint('applied_block', { mode: 'bigint' }).notNull().default(sql`-1`),
  appliedLog: integer('applied_log').notNull().default(-1),
});

/** Each positive balance of a company token, from its `Transfer` logs; a balance that reaches 0 is deleted. */
export const tokenBalances = pgTable(
  'token_balances',
  {
    tokenAddress: text('token_address').notNull(),
    /** Checksummed. */
    holder: text('holder').notNull(),
    balance: numeric('balance', { precision: 78, scale: 0, mode: 'bigint' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tokenAddress, t.holder] }),
    // A token's largest holders, largest first (the token page's top holders).
    index('token_balances_token_balance_idx').on(t.tokenAddress, t.balance.desc()),
  ],
);

/**
 * Each transfer of a company token from an agent's wallet into its own company's Safe (the sweep of a move into
 * custody), as the token stream indexed it: the position (quantity and cost at average cost) it carried from the
 * wallet to the Safe. Keyed by log, so a batch applied twice carries nothing twice; a reorg undoes it with the rest.
 */
export const positionCarries = pgTable(
  'position_carries',
  {
    txHash: text('tx_hash').notNull(),
    logIndex: integer('log_index').notNull(),
    blockNumber: bigint('block_number', { mode: 'bigint' }).notNull(),
    /** Checksummed. */
    tokenAddress: text('token_address').notNull(),
    /** The token's company. */
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    /** The agent wallet, lower case (as trader_positions.trader). */
    fromTrader: text('from_trader').notNull(),
    /** The Safe, lower case. */
    toTrader: text('to_trader').notNull(),
    /** Tokens the transfer moved (base units). */
    amount: numeric('amount', { precision: 78, scale: 0, mode: 'bigint' }).notNull(),
    /** Of those, the tokens the wallet's position held, and their cost (USDC base units): what moved to the Safe's. */
    quantity: numeric('quantity', { precision: 78, scale: 0, mode: 'bigint' }).notNull(),
    costUsdc: numeric('cost_usdc', { precision: 78, scale: 0, mode: 'bigint' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.txHash, t.logIndex] })],
);
