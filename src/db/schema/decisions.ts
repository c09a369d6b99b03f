// Decision rounds of the engine and the per-agent budget of each round. Costs are micro-USD integers (exact);
// the routes show them as USD numbers.
import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { agents } from './agents.ts';
import { companies } from './companies.ts';

/** One phase of a round as it ran. */
export interface PhaseRecord {
  phase: string;
  durationMs: number;
  tokens: number;
  /** micro-USD */
  cost: number;
  calls: number;
  /** The models that answered the phase's calls: a model id, or `builtin` for the built-in model. */
  models: string[];
  /** The models the company's preset and engineConfig chose for the phase (absent on rounds recorded before). */
  configuredModels?: string[];
  /** Some call's token counts were estimated: no usage in the answer, or figures no call could have used. */
  usageEstimated?: boolean;
  /**
   * Some call's cost is unknown: an unpriced model (in no price table) whose endpoint did not say what it billed.
   * `cost` then holds only what is known; the day's spending caps count the round at its whole reservation.
   */
  costUnknown?: boolean;
  /** Prompt tokens the providers read from their caches (counted in `tokens` too), when they report them. */
  cachedTokens?: number;
  /**
   * What went wrong without failing the phase: a role agent whose model call failed (its proposals counted as none),
   * an answer cut off at its token limit and kept.
   */
  notes?: string[];
  error?: string;
}

/** An action of the CEO's decision, as extracted and validated. */
export interface DecisionAction {
  role: string;
  tool: string;
  args: Record<string, unknown>;
  rationale: string;
}

/** A C-suite agent's proposal to the CEO, as the round's deliberation records it (a read's result condensed). */
export interface RoundProposal {
  role: string;
  tool: string;
  args: Record<string, unknown>;
  rationale: string;
  /** What a read proposal found, condensed; absent for an action or a control. */
  result?: string;
}

export const decisionRounds = pgTable(
  'decision_rounds',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    /** 1, 2, ... per company. */
    cycle: integer('cycle').notNull(),
    /** RUNNING, then COMPLETE or FAILED. */
    status: text('status').notNull().default('RUNNING'),
    /** SCHEDULED or MANUAL. */
    trigger: text('trigger').notNull(),
    /** The phase running, or the one that failed. */
    phase: text('phase').notNull().default('context'),
    error: text('error'),
    directive: text('directive'),
    actions: jsonb('actions').$type<DecisionAction[]>(),
    /**
     * The deliberation before the decision: the C-suite's proposals (phase 4) and the CEO's reasoning (phase 5, the
     * synthesis the decision was extracted from). Null for a round recorded before they were kept, or one that
     * stopped before its synthesis.
     */
    proposals: jsonb('proposals').$type<RoundProposal[]>(),
    ceoReasoning: text('ceo_reasoning'),
    actionsExecuted: jsonb('actions_executed').$type<string[]>(),
    phases: jsonb('phases').$type<PhaseRecord[]>().notNull().default(sql`'[]'::jsonb`),
    /** keccak256 of the canonical JSON of { companyId, cycle, directive, actions }. */
    decisionHash: text('decision_hash'),
    anchorTxHash: text('anchor_tx_hash'),
    /** The outbox key of the batch that anchors this round, set before the batch is sent (so a crash resends it). */
    anchorBatchKey: text('anchor_batch_key'),
    anchoredAt: timestamp('anchored_at', { withTimezone: true, mode: 'date' }),
    /**
     * The Merkle root its batch was anchored as (DecisionAnchor.anchorRoot) and the round's proof in that tree; null
     * for a round anchored by its hash alone (anchor / anchorBatch).
     */
    anchorRoot: text('anchor_root'),
    anchorProof: jsonb('anchor_proof').$type<string[]>(),
    totalDurationMs: integer('total_duration_ms'),
    /** Whole tokens of the round's model calls; bounded per call, summed in a bigint (a JS number holds any sum). */
    llmTokensUsed: bigint('llm_tokens_used', { mode: 'number' }).notNull().default(0),
    llmCost: bigint('llm_cost', { mode: 'number' }).notNull().default(0),
    /** A scheduled round: the slot of the company's schedule it ran for (the chain's clock). */
    scheduledFor: timestamp('scheduled_for', { withTimezone: true, mode: 'date' }),
    /** Moved forward at every phase, model attempt and action; a RUNNING round whose heartbeat stops is failed by a job. */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** When the round started, by the chain's clock (the one clock the economy's windows use). */
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
    /**
     * When the round's details past DECISION_DETAIL_RETENTION_DAYS were pruned (domain/engine/retention.ts): its
     * phases' notes (refusals kept) and configured models, and its agents' budget rows. Null while they are kept.
     */
    detailsPrunedAt: timestamp('details_pruned_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('decision_rounds_company_cycle_unique').on(t.companyId, t.cycle),
    // A company's rounds never overlap, across every replica.
    uniqueIndex('decision_rounds_one_running_unique')
      .on(t.companyId)
      .where(sql`${t.status} = 'RUNNING'`),
    index('decision_rounds_company_created_idx').on(t.companyId, t.createdAt.desc()),
    // The score snapshot's 7-day activity window.
    index('decision_rounds_complete_created_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'COMPLETE'`),
    // The platform's model spend of the chain's day (domain/costs/model-spend.ts).
    index('decision_rounds_created_idx').on(t.createdAt),
    index('decision_rounds_running_idx').on(t.heartbeatAt).where(sql`${t.status} = 'RUNNING'`),
    index('decision_rounds_anchor_batch_idx')
      .on(t.anchorBatchKey)
      .where(sql`${t.anchorBatchKey} is not null and ${t.anchorTxHash} is null`),
    // Manual rounds of a company, newest first (the manual-round cooldown).
    index('decision_rounds_manual_idx')
      .on(t.companyId, t.createdAt.desc().nullsFirst())
      .where(sql`${t.trigger} = 'MANUAL'`),
    // Finished rounds whose details are still kept, oldest first (the prune-decision-details job).
    index('decision_rounds_unpruned_idx')
      .on(t.createdAt)
      .where(sql`${t.detailsPrunedAt} is null and ${t.status} <> 'RUNNING'`),
    index('decision_rounds_unanchored_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'COMPLETE' and ${t.decisionHash} is not null and ${t.anchorTxHash} is null`),
  ],
);

export const decisionBudgets = pgTable(
  'decision_budgets',
  {
    roundId: text('round_id')
      .notNull()
      .references(() => decisionRounds.id),
    agentId: text('agent_id')
      .notNull()
      .references(() => agents.id),
    role: text('role').notNull(),
    allocated: bigint('allocated', { mode: 'number' }).notNull(),
    spent: bigint('spent', { mode: 'number' }).notNull().default(0),
    llmCalls: integer('llm_calls').notNull().default(0),
    llmCost: bigint('llm_cost', { mode: 'number' }).notNull().default(0),
    scrapeCalls: integer('scrape_calls').notNull().default(0),
    scrapeCost: bigint('scrape_cost', { mode: 'number' }).notNull().default(0),
    chainReads: integer('chain_reads').notNull().default(0),
    chainReadCost: bigint('chain_read_cost', { mode: 'number' }).notNull().default(0),
    toolCalls: integer('tool_calls').notNull().default(0),
    /** Actions refused for this agent: over budget, or a disabled tool. */
    refused: jsonb('refused').$type<{ tool: string; reason: string }[]>().notNull().default(sql`'[]'::jsonb`),
  },
  (t) => [primaryKey({ columns: [t.roundId, t.agentId] })],
);

/**
 * The decision schedule: each company with an active agent and the next slot it is due at, by the chain's clock.
 * Slots repeat every DECISION_INTERVAL_S at an offset of the company's own, so rounds spread over the interval; the
 * engine's replicas claim due rows with SKIP LOCKED (domain/engine/schedule.ts).
 */
export const decisionSchedule = pgTable(
  'decision_schedule',
  {
    companyId: text('company_id')
      .primaryKey()
      .references(() => companies.id),
    nextAt: timestamp('next_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('decision_schedule_next_idx').on(t.nextAt)],
);

/**
 * The engine processes alive, each with the rounds it can run at once: the replicas split the concurrency the
 * schedule needs between them (domain/engine/pool.ts). A row whose heartbeat stops is ignored, then removed.
 */
export const engineReplicas = pgTable('engine_replicas', {
  id: text('id').primaryKey(),
  heartbeatAt: timestamp('heartbeat_at', { withTimezone: true, mode: 'date' }).notNull(),
  /** The rounds this process may run at once (ENGINE_CONCURRENCY). */
  capacity: integer('capacity').notNull(),
  /** Rounds it was running at its last heartbeat. */
  running: integer('running').notNull().default(0),
});
