// POST /api/agents (docs/api/agents.md): a stand-alone agent (PENDING), owned by the signer, within the per-signer and
// per-client daily limits.
import { Type } from 'typebox';
import {
  AGENT_SKILLS_MAX,
  AGENT_SKILLS_MIN,
  AGENT_STATUSES,
  STANDALONE_AGENTS_PER_SIGNER_PER_DAY,
} from '../../../constants.ts';
import { createAgent } from '../../../domain/agents/commands.ts';
import { getAgent } from '../../../domain/agents/queries.ts';
import { agentCreatedView } from '../../../domain/agents/views.ts';
import { route } from '../../route.ts';
import { AddressOut, IsoTimestamp, StringEnum } from '../../schemas/common.ts';
import { closed, Description, Name, PersonaDescription, PersonaRole, Preset, Skills, StrategyType } from './agent.ts';

export const CreateAgentBody = Type.Object(
  {
    name: Name,
    description: Type.Optional(Description),
    persona: Type.Object({ role: PersonaRole, description: PersonaDescription }, closed),
    skills: Skills(`${AGENT_SKILLS_MIN}-${AGENT_SKILLS_MAX} skills`),
    strategy: Type.Object({ type: StrategyType, preset: Preset }, closed),
  },
  closed,
);

export const AgentCreated = Type.Object({
  id: Type.String(),
  name: Type.String(),
  status: StringEnum(AGENT_STATUSES),
  creatorAddress: AddressOut(),
  createdAt: IsoTimestamp,
});

export default route({
  method: 'POST',
  url: '/api/agents',
  auth: 'wallet',
  tag: 'agents',
  summary: 'Create a stand-alone agent (PENDING), owned by the signer',
  description: `No company; status PENDING. \`role\` is persona.role upper-cased when it names a C-suite role (CFO, CTO, CMO, COO, CSO, CISO, CRO), else null. Agents of a company come from deploy-suite. At most ${STANDALONE_AGENTS_PER_SIGNER_PER_DAY} per signer, and STANDALONE_AGENTS_PER_IP_PER_DAY (default 20) per client address whatever the signers, in any 24 hours: past either, 429 RATE_LIMITED with Retry-After. A stand-alone agent that never did anything (no wallet, identity or activity) is deleted STANDALONE_AGENT_RETENTION_MS (default 7 days) after its creation.`,
  body: CreateAgentBody,
  // Every invalid field of the form at once, not only the first.
  allErrors: true,
  status: 201,
  response: AgentCreated,
  // A retry of a keyed creation that may have committed answers the agent it created (src/http/plugins/idempotency.ts).
  recover: {
    kind: 'agent',
    answer: async (deps, { id }) => agentCreatedView((await getAgent(deps.database.db, id)).agent),
  },
  load: async (deps, { body, signer, client, record }) => {
    const limit = { address: client, perDay: deps.config.standaloneAgentsPerIpPerDay };
    return agentCreatedView(await createAgent(deps.database.db, signer!, body, limit, record));
  },
});
