// PUT /api/agents/{id} (docs/api/agents.md): an agent's fields changed by its creator; persona and strategy are merged
// key by key. Answers the agent's detail view.
import { Type } from 'typebox';
import { AGENT_SETTABLE_STATUSES, AGENT_SKILLS_MAX, AGENT_SKILLS_MIN } from '../../../constants.ts';
import { updateAgent } from '../../../domain/agents/commands.ts';
import { agentDetailView } from '../../../domain/agents/views.ts';
import { route } from '../../route.ts';
import { StringEnum } from '../../schemas/common.ts';
import {
  AgentDetail,
  AgentIdParams,
  closed,
  Description,
  Name,
  PersonaDescription,
  PersonaRole,
  Preset,
  Skills,
  StrategyType,
} from './agent.ts';

export const UpdateAgentBody = Type.Object(
  {
    name: Type.Optional(Name),
    description: Type.Optional(Description),
    persona: Type.Optional(
      Type.Object(
        { role: Type.Optional(PersonaRole), description: Type.Optional(PersonaDescription) },
        { ...closed, minProperties: 1, description: 'Merged into the stored persona: only the keys given change' },
      ),
    ),
    skills: Type.Optional(Skills(`Replaces the skills: ${AGENT_SKILLS_MIN}-${AGENT_SKILLS_MAX} items`)),
    strategy: Type.Optional(
      Type.Object(
        { type: Type.Optional(StrategyType), preset: Type.Optional(Preset) },
        { ...closed, minProperties: 1, description: 'Merged into the stored strategy: only the keys given change' },
      ),
    ),
    status: Type.Optional(
      StringEnum(AGENT_SETTABLE_STATUSES, { description: 'ACTIVE needs a deployed agent (one with a wallet)' }),
    ),
  },
  { ...closed, minProperties: 1, description: 'At least one field; only the fields given are updated' },
);

export default route({
  method: 'PUT',
  url: '/api/agents/:id',
  auth: 'wallet',
  tag: 'agents',
  summary: 'Update an agent (creator only): only the fields given change',
  description:
    'persona and strategy are merged key by key. status may be ACTIVE (a deployed agent only) or PAUSED. A TERMINATED agent cannot be updated (400 BAD_REQUEST). Answers the agent detail view after the update.',
  params: AgentIdParams,
  body: UpdateAgentBody,
  response: AgentDetail,
  load: async (deps, { params, body, signer }) => agentDetailView(await updateAgent(deps, params.id, signer!, body)),
});
