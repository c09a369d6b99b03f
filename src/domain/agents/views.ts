// The agent as the API shows it (docs/api/agents.md "Views"): the list view, and the detail view (list view plus identity, metrics, company
// and updatedAt). Timestamps become ISO 8601 strings; absent values are null. The ERC-8004 id is a decimal
// string that may be "0", so it is tested against null, never for truthiness.
import type { AGENT_STATUSES } from '../../constants.ts';
import type { agents } from '../../db/schema/agents.ts';
import type { AgentRole } from './rules.ts';

export type AgentStatus = (typeof AGENT_STATUSES)[number];

export type AgentRow = typeof agents.$inferSelect;

/** The columns the list view needs (everything but wallet index, errors, counters and updatedAt). */
export type AgentListRow = Pick<
  AgentRow,
  | 'id'
  | 'name'
  | 'description'
  | 'role'
  | 'status'
  | 'companyId'
  | 'creatorAddress'
  | 'onChainAddress'
  | 'erc8004TokenId'
  | 'persona'
  | 'skills'
  | 'strategy'
  | 'decisionsCount'
  | 'lastActiveAt'
  | 'createdAt'
>;

/** The agent's company as the detail view and the registration file need it. */
export interface AgentCompany {
  id: string;
  name: string;
  slug: string;
  category: string;
  logoUrl: string | null;
  cardTokenId: number;
}

export interface AgentWithCompany {
  agent: AgentRow;
  company: AgentCompany | null;
}

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

export function agentListView(row: AgentListRow) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    // The columns are text; only the domain writes them, always with these values.
    role: row.role as AgentRole | null,
    status: row.status as AgentStatus,
    companyId: row.companyId,
    creatorAddress: row.creatorAddress,
    onChainAddress: row.onChainAddress,
    walletAddress: row.onChainAddress,
    erc8004Id: row.erc8004TokenId,
    persona: row.persona,
    skills: row.skills,
    strategy: row.strategy,
    decisionsCount: row.decisionsCount,
    lastActiveAt: iso(row.lastActiveAt),
    createdAt: row.createdAt.toISOString(),
  };
}

export function agentDetailView({ agent, company }: AgentWithCompany) {
  return {
    ...agentListView(agent),
    identity:
      agent.erc8004TokenId === null
        ? null
        : { erc8004TokenId: agent.erc8004TokenId, trustRegistryAddress: agent.trustRegistryAddress },
    metrics: {
      decisionsExecuted: agent.decisionsCount,
      llmCallsTotal: agent.llmCallsTotal,
      toolCallsTotal: agent.toolCallsTotal,
      lastActiveAt: iso(agent.lastActiveAt),
    },
    company:
      company === null ? null : { id: company.id, name: company.name, slug: company.slug, category: company.category },
    updatedAt: agent.updatedAt.toISOString(),
  };
}

/** POST /api/agents answers only these. */
export function agentCreatedView(row: Pick<AgentRow, 'id' | 'name' | 'status' | 'creatorAddress' | 'createdAt'>) {
  return {
    id: row.id,
    name: row.name,
    status: row.status as AgentStatus,
    creatorAddress: row.creatorAddress,
    createdAt: row.createdAt.toISOString(),
  };
}
