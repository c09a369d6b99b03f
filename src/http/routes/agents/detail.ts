// GET /api/agents/{id} (docs/api/agents.md): one agent, its identity, metrics and company included.
import { getAgent } from '../../../domain/agents/queries.ts';
import { agentDetailView } from '../../../domain/agents/views.ts';
import { route } from '../../route.ts';
import { AgentDetail, AgentIdParams } from './agent.ts';

export default route({
  url: '/api/agents/:id',
  auth: 'none',
  tag: 'agents',
  summary: 'One agent: identity, metrics and company included',
  params: AgentIdParams,
  response: AgentDetail,
  // Kept until a table it was read from changes (read-cache.ts).
  cache: { name: 'agent', tables: ['agents', 'companies'], key: ({ params }) => params.id },
  load: async (deps, { params }) => agentDetailView(await getAgent(deps.database.db, params.id)),
});
