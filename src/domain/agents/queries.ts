// Reads of agents: the paged list (newest first, filtered by status and creator) and one agent with its company.
import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import { getAddress } from 'viem';
import type { Tx } from '../../db/client.ts';
import { agents, companies } from '../../db/schema/companies.ts';
import { agentNotFound } from './rules.ts';
import type { AgentListRow, AgentWithCompany } from './views.ts';

export interface ListAgentsQuery {
  page: number;
  limit: number;
  status?: string | undefined;
  /** A creator address in any letter case; matched against the stored checksummed form. */
  creator?: string | undefined;
}

export interface AgentPage {
  rows: AgentListRow[];
  total: number;
}

const listColumns = {
  id: agents.id,
  name: agents.name,
  description: agents.description,
  role: agents.role,
  status: agents.status,
  companyId: agents.companyId,
  creatorAddress: agents.creatorAddress,
  onChainAddress: agents.onChainAddress,
  erc8004TokenId: agents.erc8004TokenId,
  persona: agents.persona,
  skills: agents.skills,
  strategy: agents.strategy,
  decisionsCount: agents.decisionsCount,
  lastActiveAt: agents.lastActiveAt,
  createdAt: agents.createdAt,
};

/**
 * One query for the page, one for the total. The order (created_at DESC, id DESC) is the order of
 * agents_created_idx, agents_status_created_idx and agents_creator_created_idx, so each filter reads an index range.
 */
export async function listAgents(db: Tx, query: ListAgentsQuery): Promise<AgentPage> {
  const filters: SQL[] = [];
  if (query.status !== undefined) filters.push(eq(agents.status, query.status));
  if (query.creator !== undefined) filters.push(eq(agents.creatorAddress, getAddress(query.creator)));
  const where = filters.length > 0 ? and(...filters) : undefined;
  const [rows, totals] = await Promise.all([
    db
      .select(listColumns)
      .from(agents)
      .where(where)
      .orderBy(desc(agents.createdAt), desc(agents.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ total: count() }).from(agents).where(where),
  ]);
  return { rows, total: totals[0]?.total ?? 0 };
}

/** The agent and its company (null for a stand-alone agent); undefined when no agent has that id. */
export async function findAgent(db: Tx, id: string): Promise<AgentWithCompany | undefined> {
  const [found] = await db
    .select({
      agent: agents,
      company: {
        id: companies.id,
        name: companies.name,
        slug: companies.slug,
        category: companies.category,
        logoUrl: companies.logoUrl,
        cardTokenId: companies.cardTokenId,
      },
    })
    .from(agents)
    .leftJoin(companies, eq(companies.id, agents.companyId))
    .where(eq(agents.id, id))
    .limit(1);
  return found;
}

/** Like findAgent, but an unknown id is 404 NOT_FOUND. */
export async function getAgent(db: Tx, id: string): Promise<AgentWithCompany> {
  const found = await findAgent(db, id);
  if (!found) throw agentNotFound(id);
  return found;
}
