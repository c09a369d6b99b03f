// The ERC-8004 agent registration file ("registration-v1"): the document an agent's agentURI in the identity
// registry points to. It names the agent, where to reach it, whether it is active and which registry entry is its.
import type { AgentWithCompany } from './views.ts';

export const REGISTRATION_TYPE = 'https://eips.ethereum.org/EIPS/eip-8004#registration-v1';

export interface RegistrationContext {
  /** The service's public base URL, without a trailing slash. */
  baseUrl: string;
  chainId: number;
  /** The identity registry of the configured chain; used when the agent's own registry address is not stored. */
  identityRegistry?: string | undefined;
}

/**
 * `image` is the company's logo, else its access card's image, else null (a stand-alone agent). `description`
 * falls back to the persona's description. `registrations` holds the agent's identity once it has one; its id may
 * be 0, a real id.
 */
export function registrationFile({ agent, company }: AgentWithCompany, ctx: RegistrationContext) {
  const image = company === null ? null : (company.logoUrl ?? `${ctx.baseUrl}/api/nft/image/${company.cardTokenId}`);
  const registry = agent.trustRegistryAddress ?? ctx.identityRegistry ?? null;
  const registrations =
    agent.erc8004TokenId !== null && registry !== null
      ? [{ agentId: Number(agent.erc8004TokenId), agentRegistry: `eip155:${ctx.chainId}:${registry}` }]
      : [];
  return {
    type: REGISTRATION_TYPE,
    name: agent.name,
    description: agent.description ?? agent.persona.description,
    image,
    services: [{ name: 'web', endpoint: `${ctx.baseUrl}/api/agents/${encodeURIComponent(agent.id)}` }],
    x402Support: false,
    active: agent.status === 'ACTIVE',
    registrations,
    supportedTrust: ['reputation'],
  };
}
