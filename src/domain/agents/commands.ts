import { and, eq, isNull, sql } from 'drizzle-orm';
import { type Address, getAddress } from 'viem';
import {
  type AGENT_SETTABLE_STATUSES,
  STANDALONE_AGENTS_PER_SIGNER_PER_DAY,
  type STRATEGY_PRESETS,
} from '../../constants.ts';
import type { Tx } from '../../db/client.ts';
import { agents } from '../../db/schema/agents.ts';
import { companies } from '../../db/schema/companies.ts';
import { AppError, badRequest } from '../../errors.ts';
import { requireCardHolder } from '../cards/holder.ts';
import type { Deps } from '../deps.ts';
import { syncCustodyMembers } from './custody.ts';
import { getAgent } from './queries.ts';
import { agentNotFound, assertCreator, roleFromPersona, shownId } from './rules.ts';
import { insertAgent, markTerminated, saveAgentChanges } from './store.ts';
import type { AgentRow, AgentWithCompany } from './views.ts';

export type StrategyPreset = (typeof STRATEGY_PRESETS)[number];
export type SettableAgentStatus = (typeof AGENT_SETTABLE_STATUSES)[number];

export interface NewAgent {
  name: string;
  description?: string | undefined;
  persona: { role: string; description: string };
  skills: string[];
  strategy: { type: string; preset: StrategyPreset };
}

export interface AgentPatch {
  name?: string | undefined;
  description?: string | undefined;
  persona?: { role?: string | undefined; description?: string | undefined } | undefined;
  skills?: string[] | undefined;
  strategy?: { type?: string | undefined; preset?: StrategyPreset | undefined } | undefined;
  status?: SettableAgentStatus | undefined;
}

/** Who asks for a stand-alone agent, besides its signer: the client address and its allowance. */
export interface CreationClient {
  address: string;
  /** Stand-alone agents this address may create in any 24 hours. */
  perDay: number;
}

/**
 * A stand-alone agent (no company), PENDING, owned by the signer. Its role is the persona's role when that names
 * one of the seven C-suite roles, else null. Wallet and ERC-8004 identity come later (the identity pipeline).
 * `recordRecovery` runs in the creation's transaction with the new agent's id (an Idempotency-Key's recovery point).
 */
export async function createAgent(
  db: Tx,
  signer: string,
  input: NewAgent,
  client: CreationClient,
  recordRecovery?: (tx: Tx, agentId: string) => Promise<void>,
): Promise<AgentRow> {
  const creatorAddress = getAddress(signer);
  return db.transaction(async (tx) => {
    await requireCreationAllowance(tx, creatorAddress);
    await requireAddressAllowance(tx, client);
    const row = await insertAgent(tx, {
      createdFrom: client.address,
      companyId: null,
      name: input.name,
      description: input.description ?? null,
      role: roleFromPersona(input.persona.role),
      status: 'PENDING',
      creatorAddress,
      persona: { role: input.persona.role, description: input.persona.description },
      skills: [...input.skills],
      strategy: { type: input.strategy.type, preset: input.strategy.preset },
    });
    await recordRecovery?.(tx, row.id);
    return row;
  });
}

/**
 * 429 RATE_LIMITED (Retry-After) when the signer created STANDALONE_AGENTS_PER_SIGNER_PER_DAY stand-alone agents in
 * the last 24 hours: they cost nothing, so a fresh key could otherwise fill the public list. The window is the
 * database's clock, the one that stamps created_at (an anti-spam limit, not an economic rule: docs/decisions.md).
 * A per-signer advisory lock, held to the end of the transaction, makes concurrent creations count one by one.
 */
async function requireCreationAllowance(tx: Tx, creatorAddress: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`agent-create:${creatorAddress}`}))`);
  const [row] = await tx
    .select({
      n: sql<number>`count(*)::int`,
      // Seconds until the oldest creation counted leaves the window.
      wait: sql<number>`ceil(extract(epoch from min(${agents.createdAt}) + interval '24 hours' - now()))::int`,
    })
    .from(agents)
    .where(
      and(
        eq(agents.creatorAddress, creatorAddress),
        isNull(agents.companyId),
        sql`${agents.createdAt} > now() - interval '24 hours'`,
      ),
    );
  if ((row?.n ?? 0) < STANDALONE_AGENTS_PER_SIGNER_PER_DAY) return;
  const retryAfter = Math.max(1, row?.wait ?? 1);
  throw new AppError(
    'RATE_LIMITED',
    `At most ${STANDALONE_AGENTS_PER_SIGNER_PER_DAY} stand-alone agents per signer in any 24 hours: ${creatorAddress} has created ${row?.n}; retry after ${retryAfter} s`,
    { headers: { 'retry-after': String(retryAfter) } },
  );
}

/**
 * 429 RATE_LIMITED (Retry-After) when the client address created `perDay` stand-alone agents in the last 24 hours,
 * by whatever signers: keys are free, so the signer's allowance alone does not bound one client. Locked per address
 * after the signer's lock (always in that order), so concurrent creations count one by one.
 */
async function requireAddressAllowance(tx: Tx, client: CreationClient): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`agent-create-ip:${client.address}`}))`);
  const [row] = await tx
    .select({
      n: sql<number>`count(*)::int`,
      wait: sql<number>`ceil(extract(epoch from min(${agents.createdAt}) + interval '24 hours' - now()))::int`,
    })
    .from(agents)
    .where(and(eq(agents.createdFrom, client.address), sql`${agents.createdAt} > now() - interval '24 hours'`));
  if ((row?.n ?? 0) < client.perDay) return;
  const retryAfter = Math.max(1, row?.wait ?? 1);
  throw new AppError(
    'RATE_LIMITED',
    `At most ${client.perDay} stand-alone agents per client address in any 24 hours: this address has created ${row?.n}; retry after ${retryAfter} s`,
    { headers: { 'retry-after': String(retryAfter) } },
  );
}

type CommandDeps = Pick<Deps, 'database' | 'chain'>;

/**
 * Before a change that cannot be undone: 404 for an unknown agent, 403 for another signer, and for an agent of a
 * company, 403 unless the signer holds the company's card on-chain now (requireCardHolder), so the card's previous
 * holder cannot act in the seconds before the index sees the transfer.
 */
export async function requireHolder(deps: CommandDeps, id: string, signer: string): Promise<void> {
  const [row] = await deps.database.db
    .select({
      creatorAddress: agents.creatorAddress,
      companyId: companies.id,
      companyCreator: companies.creatorAddress,
      cardTokenId: companies.cardTokenId,
    })
    .from(agents)
    .leftJoin(companies, eq(companies.id, agents.companyId))
    .where(eq(agents.id, id));
  if (!row) throw agentNotFound(id);
  assertCreator({ id, creatorAddress: row.creatorAddress }, signer);
  if (row.companyId !== null && row.companyCreator !== null && row.cardTokenId !== null) {
    const company = { id: row.companyId, creatorAddress: row.companyCreator, cardTokenId: row.cardTokenId };
    await requireCardHolder(deps, company, signer as Address);
  }
}

/** The locked row, after the checks every change shares: 404 for an unknown id, then 403 for another signer. */
async function lockForCreator(tx: Tx, id: string, signer: string): Promise<AgentRow> {
  const [row] = await tx.select().from(agents).where(eq(agents.id, id)).for('update');
  if (!row) throw agentNotFound(id);
  assertCreator(row, signer);
  return row;
}

/**
 * Applies the fields given and nothing else; persona and strategy are merged key by key into the stored object.
 * A TERMINATED agent is final (400 BAD_REQUEST). Setting ACTIVE needs a deployed agent, one with a wallet
 * (400 BAD_REQUEST "not deployed yet" otherwise). Returns the agent as stored afterwards, with its company.
 */
export async function updateAgent(
  deps: CommandDeps,
  id: string,
  signer: string,
  patch: AgentPatch,
): Promise<AgentWithCompany> {
  await requireHolder(deps, id, signer);
  return deps.database.db.transaction(async (tx) => {
    const row = await lockForCreator(tx, id, signer);
    if (row.status === 'TERMINATED') {
      throw badRequest(`Agent "${shownId(id)}" is TERMINATED: a terminated agent cannot be updated`);
    }
    if (patch.status === 'ACTIVE' && row.status !== 'ACTIVE' && row.onChainAddress === null) {
      throw badRequest(
        `Agent "${shownId(id)}" is not deployed yet: it has no wallet or ERC-8004 identity, so it cannot be ACTIVE (PAUSED is allowed)`,
      );
    }
    const changes: Partial<typeof agents.$inferInsert> = {};
    if (patch.name !== undefined) changes.name = patch.name;
    if (patch.description !== undefined) changes.description = patch.description;
    if (patch.skills !== undefined) changes.skills = [...patch.skills];
    if (patch.status !== undefined) changes.status = patch.status;
    if (patch.persona !== undefined) {
      const persona = {
        role: patch.persona.role ?? row.persona.role,
        description: patch.persona.description ?? row.persona.description,
      };
      changes.persona = persona;
      // A company agent holds a seat (its role) that deploy-suite gave it; only a stand-alone agent's role
      // follows its persona.
      if (row.companyId === null) changes.role = roleFromPersona(persona.role);
    }
    if (patch.strategy !== undefined) {
      changes.strategy = {
        type: patch.strategy.type ?? row.strategy.type,
        preset: patch.strategy.preset ?? row.strategy.preset,
      };
    }
    await saveAgentChanges(tx, id, changes);
    return getAgent(tx, id);
  });
}

/**
 * Soft termination: status TERMINATED, the record kept. Idempotent: terminating a TERMINATED agent answers the
 * same and changes nothing (updatedAt stays that of the termination).
 */
export async function terminateAgent(
  deps: CommandDeps & Pick<Deps, 'outbox'>,
  id: string,
  signer: string,
): Promise<{ id: string; status: 'TERMINATED' }> {
  await requireHolder(deps, id, signer);
  const companyId = await deps.database.db.transaction(async (tx) => {
    const row = await lockForCreator(tx, id, signer);
    if (row.status !== 'TERMINATED') {
      await markTerminated(tx, id);
    }
    return row.companyId;
  });
  // A company with custody: the key leaves the module's roles (also on a repeated call, which finishes an
  // interrupted one; so does the reconcile job), so it can no longer act through the company's Safe. A module the
  // platform may not change answers 409 (NoManageRole) with the agent TERMINATED: the holder takes the key out or
  // gives the manage role back, and the reconcile job then finishes it.
  if (companyId !== null) {
    const [company] = await deps.database.db
      .select({ id: companies.id, rolesModuleAddress: companies.rolesModuleAddress })
      .from(companies)
      .where(eq(companies.id, companyId));
    if (company?.rolesModuleAddress) await syncCustodyMembers(deps, company);
  }
  return { id, status: 'TERMINATED' as const };
}
