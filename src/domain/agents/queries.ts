// Reads of agents: the paged list (companies' agents first, each newest first; filtered by status and creator) and one agent with its company.
import { and, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import { formatUnits, getAddress } from 'viem';
import { AGENT_ACTIONS_SHOWN, USDC_DECIMALS } from '../../constants.ts';
import type { Tx } from '../../db/client.ts';
import { countEachTime, type PageTotal } from '../../db/page-total.ts';
import { preparedOn } from '../../db/prepared.ts';
import { agentActions, agents } from '../../db/schema/agents.ts';
import { companies } from '../../db/schema/companies.ts';
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

/** The filters a list statement has: none, status, creator or both (one prepared statement each). */
function filtersOf(status: boolean, creator: boolean): SQL | undefined {
  const filters: SQL[] = [];
  if (status) filters.push(eq(agents.status, sql.placeholder('status')));
  if (creator) filters.push(eq(agents.creatorAddress, sql.placeholder('creator')));
  return filters.length > 0 ? and(...filters) : undefined;
}

/** false (an agent of a company) sorts before true (a stand-alone agent): companies' agents come first. */
const STANDALONE_LAST = sql`(${agents.companyId} is null)`;

function pageStatement(db: Tx, status: boolean, creator: boolean) {
  return preparedOn(db, `agents_page_${Number(status)}${Number(creator)}`, (name) =>
    db
      .select(listColumns)
      .from(agents)
      .where(filtersOf(status, creator))
      .orderBy(STANDALONE_LAST, desc(agents.createdAt), desc(agents.id))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare(name),
  );
}

function countStatement(db: Tx, status: boolean, creator: boolean) {
  return preparedOn(db, `agents_count_${Number(status)}${Number(creator)}`, (name) =>
    db.select({ total: count() }).from(agents).where(filtersOf(status, creator)).prepare(name),
  );
}

/**
 * The page, then its total (`total` decides when to count; by default whenever the page does not show it). Agents
 * of companies come first, then stand-alone ones (free to create, so they cannot push a company's agents off the
 * first page: test/attacks/agent-list-spam.test.ts), each newest first. The order ((company_id is null),
 * created_at DESC, id DESC) is the order of agents_list_idx, agents_status_list_idx and agents_creator_list_idx,
 * so each filter reads an index range.
 */
export async function listAgents(db: Tx, query: ListAgentsQuery, total: PageTotal = countEachTime): Promise<AgentPage> {
  const hasStatus = query.status !== undefined;
  const hasCreator = query.creator !== undefined;
  const creator = hasCreator ? getAddress(query.creator!) : undefined;
  const offset = (query.page - 1) * query.limit;
  const params = { status: query.status, creator, limit: query.limit, offset };
  const rows = await pageStatement(db, hasStatus, hasCreator).execute(params);
  const key = `${query.status ?? ''}|${creator ?? ''}`;
  const counted = await total(key, { offset, limit: query.limit, rows: rows.length }, async () => {
    const [row] = await countStatement(db, hasStatus, hasCreator).execute(params);
    return row?.total ?? 0;
  });
  return { rows, total: counted };
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

/** The agent wallet's last on-chain actions, newest first (agent_actions_agent_created_idx); 404 for an unknown agent. */
export async function agentActionsOf(db: Tx, id: string) {
  await getAgent(db, id);
  const rows = await db
    .select()
    .from(agentActions)
    .where(eq(agentActions.agentId, id))
    .orderBy(desc(agentActions.createdAt))
    .limit(AGENT_ACTIONS_SHOWN);
  return rows.map((a) => ({
    tool: a.tool,
    roundId: a.roundId,
    tokenAddress: a.tokenAddress,
    notionalUsdc: formatUnits(a.notionalUsdc, USDC_DECIMALS),
    txHash: a.txHash,
    status: a.status as 'SENT' | 'MINED' | 'REVERTED' | 'FAILED',
    createdAt: a.createdAt.toISOString(),
  }));
}
