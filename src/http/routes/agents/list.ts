// GET /api/agents (docs/api/agents.md): agents, companies' agents first, each newest first, by status and creator.
import { Type } from 'typebox';
import { AGENT_STATUSES, AGENTS_PAGE_SIZE_DEFAULT, AGENTS_PAGE_SIZE_MAX } from '../../../constants.ts';
import { createPageTotals } from '../../../db/page-total.ts';
import { listAgents } from '../../../domain/agents/queries.ts';
import { agentListView } from '../../../domain/agents/views.ts';
import { perApp, route } from '../../route.ts';
import { AddressString, PageQuery, StringEnum } from '../../schemas/common.ts';
import { AgentListItem } from './agent.ts';

export const ListAgentsQuery = Type.Object({
  ...PageQuery(AGENTS_PAGE_SIZE_DEFAULT, AGENTS_PAGE_SIZE_MAX),
  status: Type.Optional(StringEnum(AGENT_STATUSES)),
  creator: Type.Optional(AddressString),
});

const totalsOf = perApp(() => createPageTotals());

export default route({
  url: '/api/agents',
  auth: 'none',
  tag: 'agents',
  summary: "List agents, companies' agents first, each newest first, by status and creator",
  description:
    'Agents of companies come before stand-alone agents; within each, newest first. `creator` matches the creator wallet in any letter case.',
  query: ListAgentsQuery,
  response: Type.Array(AgentListItem),
  page: true,
  // Kept until a table they were read from changes (read-cache.ts).
  cache: {
    name: 'agents',
    tables: ['agents', 'companies'],
    key: ({ query }) => `${query.page}|${query.limit}|${query.status ?? ''}|${query.creator?.toLowerCase() ?? ''}`,
  },
  load: async (deps, { query }) => {
    const { page, limit, status, creator } = query;
    const { rows, total } = await listAgents(deps.database.db, { page, limit, status, creator }, totalsOf(deps));
    return { data: rows.map(agentListView), pagination: { page, limit, total, hasMore: page * limit < total } };
  },
});
