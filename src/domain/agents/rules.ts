// Rules of the agent resource: how a stand-alone agent's role follows from its persona, and who may change an
// agent.
import { type Address, isAddressEqual } from 'viem';
import { AGENT_ROLES } from '../../constants.ts';
import { forbidden, notFound } from '../../errors.ts';

export type AgentRole = (typeof AGENT_ROLES)[number];

/**
 * The C-suite role a persona names: its role text, trimmed and upper-cased, when that is one of the seven roles
 * ("cfo" -> CFO); null for anything else ("Market maker"), which makes a stand-alone agent with no seat role.
 */
export function roleFromPersona(personaRole: string): AgentRole | null {
  const candidate = personaRole.trim().toUpperCase();
  return (AGENT_ROLES as readonly string[]).includes(candidate) ? (candidate as AgentRole) : null;
}

const ID_ECHO_MAX = 64;
/** An id as echoed in error messages: cut short, so a long path parameter does not fill the message. */
export const shownId = (id: string) => (id.length > ID_ECHO_MAX ? `${id.slice(0, ID_ECHO_MAX)}...` : id);

export const agentNotFound = (id: string) => notFound(`Agent "${shownId(id)}" not found`);

/** 403 FORBIDDEN unless `signer` is the agent's creator; addresses compare case-insensitively, as in companies. */
export function assertCreator(agent: { id: string; creatorAddress: string }, signer: string): void {
  if (!isAddressEqual(agent.creatorAddress as Address, signer as Address)) {
    throw forbidden(`Only the creator of agent "${shownId(agent.id)}" (${agent.creatorAddress}) may change it`);
  }
}
