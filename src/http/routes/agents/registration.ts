// GET /api/agents/{id}/registration.json (docs/api/agents.md): the agent's ERC-8004 registration file, what its agentURI
// points to: the bare registration-v1 document, not wrapped in an envelope.
import { Type } from 'typebox';
import { AGENT_REGISTRATION_CACHE_CONTROL } from '../../../constants.ts';
import { getAgent } from '../../../domain/agents/queries.ts';
import { REGISTRATION_TYPE, registrationFile } from '../../../domain/agents/registration.ts';
import { route } from '../../route.ts';
import { AgentIdParams, Nullable } from './agent.ts';

export const AgentRegistration = Type.Object(
  {
    type: Type.Literal(REGISTRATION_TYPE),
    name: Type.String(),
    description: Type.String(),
    image: Nullable(Type.String(), "The company's logo, else its access card image; null for a stand-alone agent"),
    services: Type.Array(Type.Object({ name: Type.String(), endpoint: Type.String() })),
    x402Support: Type.Boolean(),
    active: Type.Boolean({ description: 'True while the agent is ACTIVE' }),
    registrations: Type.Array(
      Type.Object({
        agentId: Type.Integer(),
        agentRegistry: Type.String({ description: 'eip155:<chainId>:<identity registry address>' }),
      }),
    ),
    supportedTrust: Type.Array(Type.String()),
  },
  { description: 'ERC-8004 agent registration file (registration-v1), not wrapped in an envelope' },
);

export default route({
  url: '/api/agents/:id/registration.json',
  auth: 'none',
  tag: 'agents',
  summary: 'ERC-8004 registration file of the agent (what its agentURI points to)',
  description: `The bare registration-v1 document, not wrapped in an envelope. Cache-Control: ${AGENT_REGISTRATION_CACHE_CONTROL}.`,
  params: AgentIdParams,
  response: AgentRegistration,
  bare: true,
  headers: { 'cache-control': AGENT_REGISTRATION_CACHE_CONTROL },
  load: async (deps, { params }) =>
    registrationFile(await getAgent(deps.database.db, params.id), {
      baseUrl: deps.config.baseUrl,
      chainId: deps.chain.chainId,
      identityRegistry: deps.chain.contracts.identityRegistry,
    }),
});
