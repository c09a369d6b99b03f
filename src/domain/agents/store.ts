// The one writer of the agents table. Every change to an agent row goes through a function here: its creation (a
// stand-alone agent, a company's C-suite), its edits and termination, the identity pipeline's steps, the engine's
// counters and strategy changes, ownership following the access card, and the retention of idle stand-alone agents.
// Reads stay where they are used.
import { createId } from '@paralleldrive/cuid2';
import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Address } from 'viem';
import type { Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/client.ts';
import { agents } from '../../db/schema/agents.ts';
import { decisionBudgets } from '../../db/schema/decisions.ts';

export type AgentRow = typeof agents.$inferSelect;
export type NewAgentRow = Omit<typeof agents.$inferInsert, 'id'>;

/** A stand-alone agent. */
export async function insertAgent(db: Tx, values: NewAgentRow): Promise<AgentRow> {
  const [row] = await db
    .insert(agents)
    .values({ id: createId(), ...values })
    .returning();
  return row!;
}

/**
 * A company's seats, one agent a role; a role already held by an agent that is not TERMINATED is left alone (the
 * partial unique index decides, so concurrent calls hire each role once). Answers the agents created.
 */
export function insertSeats(db: Tx, rows: NewAgentRow[]) {
  return db
    .insert(agents)
    .values(rows.map((values) => ({ id: createId(), ...values })))
    .onConflictDoNothing({
      target: [agents.companyId, agents.role],
      where: sql`status <> 'TERMINATED' and company_id is not null and role is not null`,
    })
    .returning({ id: agents.id, name: agents.name, role: agents.role });
}

/** Edits an agent's profile fields. */
export async function saveAgentChanges(
  db: Tx,
  id: string,
  changes: Partial<Pick<AgentRow, 'name' | 'description' | 'status' | 'persona' | 'role' | 'skills' | 'strategy'>>,
): Promise<void> {
  await db
    .update(agents)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(agents.id, id));
}

/** Soft termination: the record is kept. */
export async function markTerminated(db: Tx, id: string): Promise<void> {
  await db.update(agents).set({ status: 'TERMINATED', updatedAt: sql`now()` }).where(eq(agents.id, id));
}

// ---------------------------------------------------------------- the identity pipeline's steps

/** Provisioning: not started, or failed before. */
const PROVISIONABLE = sql`${agents.status} in ('PENDING', 'DEPLOYING', 'FAILED')`;

/**
 * Takes a fresh wallet index from the sequence, once, and moves the agent to DEPLOYING (the WHERE makes a
 * concurrent run a no-op).
 */
export async function takeWalletIndex(db: Tx, id: string): Promise<void> {
  await db
    .update(agents)
    .set({ walletIndex: sql`nextval('agent_wallet_index_seq')`, status: 'DEPLOYING', updatedAt: new Date() })
    .where(sql`${agents.id} = ${id} and ${agents.walletIndex} is null and ${agents.status} in ('PENDING', 'FAILED')`);
}

export async function recordWallet(db: Tx, id: string, wallet: Address): Promise<void> {
  await db.update(agents).set({ onChainAddress: wallet, updatedAt: new Date() }).where(eq(agents.id, id));
}

/** The ERC-8004 identity the registry minted for the agent. */
export async function recordIdentity(db: Tx, id: string, tokenId: bigint, registry: Address): Promise<void> {
  await db
    .update(agents)
    .set({ erc8004TokenId: tokenId.toString(), trustRegistryAddress: registry, updatedAt: new Date() })
    .where(eq(agents.id, id));
}

export async function markActive(db: Tx, id: string): Promise<void> {
  await db
    .update(agents)
    .set({ status: 'ACTIVE', lastErrors: null, updatedAt: new Date() })
    .where(sql`${agents.id} = ${id} and ${PROVISIONABLE}`);
}

export async function markFailed(db: Tx, id: string, errors: string[]): Promise<void> {
  await db
    .update(agents)
    .set({ status: 'FAILED', lastErrors: errors, updatedAt: new Date() })
    .where(sql`${agents.id} = ${id} and ${PROVISIONABLE}`);
}

// ---------------------------------------------------------------- the engine

/** Sets the strategy preset of a company's agent in `role` (not TERMINATED); true when one was changed. */
export async function setStrategyPreset(db: Tx, companyId: string, role: string, preset: string): Promise<boolean> {
  const changed = await db
    .update(agents)
    .set({
      strategy: sql`jsonb_set(${agents.strategy}, '{preset}', to_jsonb(${preset}::text))`,
      updatedAt: new Date(),
    })
    .where(and(eq(agents.companyId, companyId), eq(agents.role, role), sql`${agents.status} <> 'TERMINATED'`))
    .returning({ id: agents.id });
  return changed.length > 0;
}

/** One decision round's counters for each agent that took part: a decision, its model calls and tool calls. */
export async function addRoundCounters(
  tx: Tx,
  counters: { agentId: string; llmCalls: number; toolCalls: number }[],
  at: Date,
): Promise<void> {
  if (counters.length === 0) return;
  const values = sql.join(
    counters.map((c) => sql`(${c.agentId}::text, ${c.llmCalls}::integer, ${c.toolCalls}::integer)`),
    sql`, `,
  );
  await tx.execute(sql`
    update agents set decisions_count = decisions_count + 1, llm_calls_total = llm_calls_total + v.llm,
      tool_calls_total = tool_calls_total + v.tools, last_active_at = ${at.toISOString()}::timestamptz
    from (values ${values}) as v (id, llm, tools)
    where agents.id = v.id`);
}

// ---------------------------------------------------------------- ownership

/**
 * Gives the agents of each company whose card moved (`moves`: a `(card_token_id, holder, block)` values list) to
 * the card's new holder, unless the company already records a later move; answers the agents changed.
 */
export async function moveToCardHolders(tx: Tx, moves: SQL): Promise<{ id: string }[]> {
  return rowsOf<{ id: string }>(
    await tx.execute(sql`
      update agents set creator_address = moves.holder, updated_at = now()
      from companies, ${moves}
      where companies.card_token_id = moves.card_token_id
        and agents.company_id = companies.id
        and companies.owner_block < moves.block
        and agents.creator_address <> moves.holder
      returning agents.id`),
  );
}

/**
 * The retention of stand-alone agents (the purge-idle-agents job): deletes those older than `retentionMs` (on the
 * database's clock, the one that stamps created_at) that never
 * did anything (no wallet, no identity, no decision, model or tool call, never active, in no round's budget), and
 * clears the creation address of agents older than the address allowance's 24 hours. Returns how many were deleted.
 */
export async function purgeIdleAgents(tx: Tx, retentionMs: number): Promise<number> {
  const deleted = await tx
    .delete(agents)
    .where(
      and(
        isNull(agents.companyId),
        sql`${agents.createdAt} < now() - make_interval(secs => ${retentionMs / 1000})`,
        isNull(agents.walletIndex),
        isNull(agents.onChainAddress),
        isNull(agents.erc8004TokenId),
        isNull(agents.lastActiveAt),
        eq(agents.decisionsCount, 0),
        eq(agents.llmCallsTotal, 0),
        eq(agents.toolCallsTotal, 0),
        sql`not exists (select 1 from ${decisionBudgets} where ${decisionBudgets.agentId} = ${agents.id})`,
      ),
    )
    .returning({ id: agents.id });
  await tx
    .update(agents)
    .set({ createdFrom: null })
    .where(and(sql`${agents.createdFrom} is not null`, sql`${agents.createdAt} <= now() - interval '24 hours'`));
  return deleted.length;
}
