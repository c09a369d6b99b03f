// DELETE /api/agents/{id} (docs/api/agents.md): an agent terminated by its creator, softly (the record is kept);
// repeating it answers the same.
import { Type } from 'typebox';
import { terminateAgent } from '../../../domain/agents/commands.ts';
import { route } from '../../route.ts';
import { AgentIdParams } from './agent.ts';

export const AgentTerminated = Type.Object({ id: Type.String(), status: Type.Literal('TERMINATED') });

export default route({
  method: 'DELETE',
  url: '/api/agents/:id',
  auth: 'wallet',
  tag: 'agents',
  summary: 'Terminate an agent (creator only): soft, the record is kept; repeating it answers the same',
  description:
    "For a company with custody the agent's key also leaves the trading and staking roles of the company's Roles module. 409 CONFLICT when the platform may not change that module (its key is not a member of the module's manage role): the agent is TERMINATED all the same, and the message says its key is still a member and how the card's holder takes it out or gives the role back (the reconcile-custody job then finishes it).",
  params: AgentIdParams,
  response: AgentTerminated,
  load: (deps, { params, signer }) => terminateAgent(deps, params.id, signer!),
});
