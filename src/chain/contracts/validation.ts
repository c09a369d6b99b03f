// The legacy ERC-8004 validation registry (contracts/ValidationRegistry.sol), read by the verify route for decision
// hashes anchored before the decision anchor contract existed (docs/api/README.md "Versioning" 3).

import { ValidationRegistryAbi } from '@ai-economy/shared/abis';
import { type Address, BaseError, ContractFunctionRevertedError, encodeAbiParameters, type Hex, keccak256 } from 'viem';
import type { Chain } from '../client.ts';

/** A validation entry: its validator, the agent validated, the validator's score, and when it last answered. */
export interface ValidationStatus {
  validatorAddress: `0x${string}`;
  agentId: bigint;
  response: number;
  lastUpdate: bigint;
}

/**
 * The hash of the request `requester` made for `dataHash` (ValidationRegistry.requestHashOf): the registry derives
 * it on-chain, so nobody can take another's request.
 */
export const validationRequestHash = (requester: Address, dataHash: Hex): Hex =>
  keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'bytes32' }], [requester, dataHash]));

/**
 * The validation status of `requestHash`, or undefined when the chain has no registry or the hash is not a request
 * hash of it (the registry reverts). Not wrapped for outages: the caller batches it with other reads.
 */
export async function readValidation(
  chain: Pick<Chain, 'publicClient' | 'contracts'>,
  requestHash: Hex,
): Promise<ValidationStatus | undefined> {
  const registry = chain.contracts.validationRegistry;
  if (!registry) return undefined;
  try {
    const [validatorAddress, agentId, response, , , lastUpdate] = await chain.publicClient.readContract({
      address: registry,
      abi: ValidationRegistryAbi,
      functionName: 'getValidationStatus',
      args: [requestHash],
    });
    return { validatorAddress, agentId, response, lastUpdate };
  } catch (err) {
    if (err instanceof BaseError && err.walk((e) => e instanceof ContractFunctionRevertedError)) return undefined;
    throw err;
  }
}
