// Agents: a company's C-suite or a stand-alone agent, each with its own wallet and ERC-8004 identity, and what
// their trading tools did. Only domain/agents/store.ts writes the agents table (docs/architecture.md).
import { sql } from 'drizzle-orm';
import {
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgSequence,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { companies } from './companies.ts';

/** BIP-32 index of each agent wallet; a sequence never hands out an index twice. */
export const agentWalletIndexSeq = pgSequence('agent_wallet_index_seq', { startWith: 0, minValue: 0 });

export const agents = pgTable(
  'agents',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id').references(() => companies.id),
    name: text('name').notNull(),
    description: text('description'),
    /** One of the seven C-suite roles; null for a stand-alone agent whose persona names another role. */
    role: text('role'),
    status: text('status').notNull().default('PENDING'),
    creatorAddress: text('creator_address').notNull(),
    walletIndex: integer('wallet_index'),
    onChainAddress: text('on_chain_address'),
    /** ERC-8004 identity token id as a decimal string; ids may be 0, so null (not 0) means none. */
    erc8004TokenId: text('erc8004_token_id'),
    trustRegistryAddress: text('trust_registry_address'),
    persona: jsonb('persona').$type<{ role: string; description: string }>().notNull(),
    skills: jsonb('skills').$type<string[]>().notNull(),
    strategy: jsonb('strategy').$type<{ type: string; preset: string }>().notNull(),
    decisionsCount: integer('decisions_count').notNull().default(0),
    llmCallsTotal: integer('llm_calls_total').notNull().default(0),
    toolCallsTotal: integer('tool_calls_total').notNull().default(0),
    lastActiveAt: timestamp('last_active_at', { withTimezone: true, mode: 'date' }),
    /** Errors of the last identity pipeline run, reported in deploy-suite's dualityResults. */
    lastErrors: jsonb('last_errors').$type<string[]>(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /**
     * The client address a stand-alone agent was created from, for the per-address creation allowance; cleared by
     * the purge-idle-agents job once the allowance's 24 hours are over. Null for agents of companies.
     */
    createdFrom: text('created_from'),
  },
  (t) => [
    // Two deploy-suite calls at once can never fill one role twice.
    uniqueIndex('agents_company_role_active_unique')
      .on(t.companyId, t.role)
      .where(sql`${t.status} <> 'TERMINATED' and ${t.companyId} is not null and ${t.role} is not null`),
    uniqueIndex('agents_wallet_index_unique').on(t.walletIndex),
    index('agents_created_from_idx').on(t.createdFrom, t.createdAt).where(sql`${t.createdFrom} is not null`),
    index('agents_company_idx').on(t.companyId),
    // An agent by its wallet: trades in the score snapshot, pending agent transactions, portfolios.
    index('agents_wallet_address_idx').on(sql`lower(${t.onChainAddress})`),
    // DESC NULLS FIRST: what ORDER BY ... DESC means, or PostgreSQL cannot read the index in order (drizzle's .desc()
    // alone makes DESC NULLS LAST).
    // The list's order: agents of companies first (company_id is null = false), then stand-alone ones, each newest
    // first (domain/agents/queries.ts listAgents), one index per filter.
    index('agents_list_idx').on(
      sql`(${t.companyId} is null)`,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('agents_status_list_idx').on(
      t.status,
      sql`(${t.companyId} is null)`,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('agents_creator_list_idx').on(
      t.creatorAddress,
      sql`(${t.companyId} is null)`,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
  ],
);

/**
 * What the agents' trading tools did: one row per action a round ran through an agent wallet (a trade, a stake,
 * an unstake, a harvest) or per withdrawal step, with its notional (for the daily limit) and its transaction.
 */
export const agentActions = pgTable(
  'agent_actions',
  {
    /** The outbox key of its transaction, e.g. `agent:<roundId>:0:trade`. */
    key: text('key').primaryKey(),
    companyId: text('company_id').notNull(),
    agentId: text('agent_id').notNull(),
    roundId: text('round_id'),
    tool: text('tool').notNull(),
    tokenAddress: text('token_address'),
    /** The company whose token the action trades (null for staking): what a round traded, named beyond its symbol. */
    tokenCompanyId: text('token_company_id'),
    /** USDC base units the action trades (0 for staking). */
    notionalUsdc: numeric('notional_usdc', { precision: 78, scale: 0, mode: 'bigint' }).notNull(),
    /** The chain's UTC day the action was taken on: the daily notional limit counts by it. */
    day: date('day', { mode: 'string' }).notNull(),
    txHash: text('tx_hash'),
    /** SENT (admitted; its transactions signed or about to be), MINED, REVERTED, or FAILED (nothing was signed). */
    status: text('status').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** The chain's clock when the action was admitted: the buy rules' rolling windows count by it (null before 0031). */
    chainAt: timestamp('chain_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('agent_actions_company_day_idx').on(t.companyId, t.day),
    // Every agent buy of a token in a rolling window, platform-wide (domain/trading/buy-window.ts).
    index('agent_actions_token_buys_idx')
      .on(t.tokenAddress, t.chainAt)
      .where(sql`${t.tool} = 'buy_token'`),
    // An agent's actions, newest first (GET /api/agents/{id}/actions).
    index('agent_actions_agent_created_idx').on(t.agentId, t.createdAt.desc()),
    // A round's actions, for the record of a round whose process stopped in execution (domain/engine/runner.ts).
    index('agent_actions_round_idx')
      .on(t.roundId)
      .where(sql`${t.roundId} is not null`),
    // Actions settle-outbox may still have to settle (domain/trading/actions.ts settleActions).
    index('agent_actions_unsettled_idx')
      .on(t.roundId)
      .where(sql`${t.status} in ('SENT', 'REVERTED')`),
  ],
);
