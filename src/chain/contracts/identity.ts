// The ERC-8004 identity registry from the platform's side: the register and setAgentWallet transactions, the
// EIP-712 typed data a new agent wallet signs for setAgentWallet, an agent's recorded wallet, and the agent id a
// registration receipt carries. Agent ids start at 0, so an id is a bigint that may be 0n: test it against
// undefined, never for truthiness.

import { IdentityRegistryAbi } from '@ai-economy/shared/abis';
import {
  type Address,
  encodeFunctionData,
  type Hex,
  isAddressEqual,
  parseEventLogs,
  type TransactionReceipt,
  type TypedDataDefinition,
} from 'viem';
import type { Chain } from '../client.ts';
import { onChain } from '../errors.ts';
import type { TxRequest } from '../outbox.ts';
import { requireContract } from './addresses.ts';

export const identityRegistryAddress = (chain: Pick<Chain, 'contracts'>): Address =>
  requireContract(chain.contracts, 'identityRegistry');

/** The platform's registration of a new agent, with its registration file's URI. */
export function registerCall(chain: Pick<Chain, 'contracts'>, uri: string): TxRequest {
  return {
    to: identityRegistryAddress(chain),
    data: encodeFunctionData({ abi: IdentityRegistryAbi, functionName: 'register', args: [uri] }),
  };
}

/** Sets an agent's wallet, proven by the wallet's own signature over the typed data below. */
export function setAgentWalletCall(
  chain: Pick<Chain, 'contracts'>,
  proof: { tokenId: bigint; wallet: Address; deadline: bigint; signature: Hex },
): TxRequest {
  return {
    to: identityRegistryAddress(chain),
    data: encodeFunctionData({
      abi: IdentityRegistryAbi,
      functionName: 'setAgentWallet',
      args: [proof.tokenId, proof.wallet, proof.deadline, proof.signature],
    }),
  };
}

/** The wallet the registry records for agent `tokenId`. */
export function agentWalletOf(chain: Pick<Chain, 'publicClient' | 'contracts'>, tokenId: bigint): Promise<Address> {
  return onChain(() =>
    chain.publicClient.readContract({
      address: identityRegistryAddress(chain),
      abi: IdentityRegistryAbi,
      functionName: 'getAgentWallet',
      args: [tokenId],
    }),
  );
}

/** The registry's EIP-712 domain name and version (IdentityRegistry.sol, as in the ERC-8004 reference). */
export const AGENT_WALLET_DOMAIN = { name: 'ERC8004IdentityRegistry', version: '1' } as const;

/** `AgentWalletSet(uint256 agentId,address newWallet,address owner,uint256 deadline)`. */
export const AGENT_WALLET_SET_TYPES = {
  AgentWalletSet: [
    { name: 'agentId', type: 'uint256' },
    { name: 'newWallet', type: 'address' },
    { name: 'owner', type: 'address' },
    { name: 'deadline', type: 'uint256' },
  ],
} as const;

/** Seconds a signature's deadline may lie ahead of the block that checks it (IdentityRegistry.MAX_DEADLINE_DELAY). */
export const AGENT_WALLET_MAX_DEADLINE_DELAY = 300n;

export type AgentWalletTypedData = TypedDataDefinition<typeof AGENT_WALLET_SET_TYPES, 'AgentWalletSet'>;

/**
 * What `newWallet` signs (viem `signTypedData`) so that the agent's owner, or an operator it approved, can call
 * `setAgentWallet(agentId, newWallet, deadline, signature)`. `owner` is the agent's owner at the time of that call
 * (a transfer in between voids the signature); `deadline` is a unix time in seconds, not past and at most
 * {@link AGENT_WALLET_MAX_DEADLINE_DELAY} ahead of the block when the call lands.
 */
export function agentWalletTypedData(
  registry: Address,
  chainId: number,
  agentId: bigint,
  newWallet: Address,
  owner: Address,
  deadline: bigint,
): AgentWalletTypedData {
  return {
    domain: { ...AGENT_WALLET_DOMAIN, chainId, verifyingContract: registry },
    types: AGENT_WALLET_SET_TYPES,
    primaryType: 'AgentWalletSet',
    message: { agentId, newWallet, owner, deadline },
  };
}

/**
 * The id of the agent a registration transaction minted, from its `Registered` event. With `registry` given, only
 * that contract's events count. Throws unless there is exactly one (0n is a valid id).
 */
export function registeredAgentId(receipt: Pick<TransactionReceipt, 'logs'>, registry?: Address): bigint {
  const logs = registry ? receipt.logs.filter((l) => isAddressEqual(l.address, registry)) : receipt.logs;
  const events = parseEventLogs({ abi: IdentityRegistryAbi, eventName: 'Registered', logs });
  if (events.length !== 1) {
    throw new Error(`expected one Registered event in the receipt, found ${events.length}`);
  }
  return events[0]!.args.agentId;
}
