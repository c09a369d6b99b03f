// Looking a decision hash up for the verify route: in the decision anchor contract first (a per-hash record or a
// batch's Merkle root), then among the legacy ERC-8004 validation entries (docs/api/README.md "Versioning" 3).

import { DecisionAnchorAbi } from '@ai-economy/shared/abis';
import type { Address, Hex } from 'viem';
import { onChain } from '../errors.ts';
import {
  anchoringTxHash,
  batchTxHash,
  type ChainReader,
  readAnchor,
  readBatch,
  rootOfProof,
  seconds,
} from './anchor.ts';
import { readValidation, validationRequestHash } from './validation.ts';

export type DecisionLookup =
  | {
      method: 'decision_anchor';
      anchoredAt: Date;
      /** The anchoring transaction; null when the node no longer returns the block's DecisionAnchored log. */
      txHash: Hex | null;
      blockNumber: bigint;
      companyKey: Hex;
      /** For a round anchored in a batch by Merkle root: the root and the round's proof. */
      merkleRoot?: Hex;
      merkleProof?: Hex[];
    }
  | {
      method: 'erc8004_validation';
      /** Time of the validator's latest answer. */
      validatedAt: Date;
      /** ERC-8004 agent id (may be 0n). */
      agentId: bigint;
      validatorAddress: Address;
      /** The validator's score, 1-100. */
      response: number;
    }
  | { method: 'none' };

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

/**
 * Looks `decisionHash` up on-chain for the verify route. The anchor contract's record and the validation
 * registry's entry are read in one JSON-RPC batch (the chain client batches concurrent calls); an anchored hash
 * then costs one more call, for its DecisionAnchored log (the transaction hash), in the single block the anchor
 * contract names.
 *
 * - `decision_anchor`: anchored in the decision anchor contract (preferred when both match). A round anchored in a
 *   batch by Merkle root (`options.batch`: its company key and proof) is checked with the contract's
 *   `anchoredAt(companyKey, decisionHash, proof)`, as any third party would, and the batch's BatchAnchored log names
 *   the transaction; a proof that leads to no anchored root falls back to the per-hash record.
 * - `erc8004_validation`: a legacy entry, the request `requester` (the agents' identity owner, the platform) made
 *   for the hash in the validation registry (its request hash derived on-chain from both), whose validator answered
 *   with a non-zero score; looked up only when `options.requester` is given. A zero score is the standard's
 *   "failed", what getValidationStatus shows before any answer, and what it shows for an answer retracted by the
 *   validator's removal, so it does not verify.
 * - `none`: neither; also for a contract this chain does not have.
 *
 * An unreachable RPC throws CHAIN_UNAVAILABLE.
 */
export async function lookupDecisionHash(
  chain: ChainReader,
  decisionHash: Hex,
  options: { batch?: { companyKey: Hex; proof: readonly Hex[] }; requester?: Address } = {},
): Promise<DecisionLookup> {
  const { batch, requester } = options;
  const anchor = chain.contracts.decisionAnchor;
  if (anchor && batch) {
    // A round anchored in a batch: the contract checks its proof (as any third party can), and the batch's record
    // names the block of its BatchAnchored log.
    const root = rootOfProof(batch.companyKey, decisionHash, batch.proof);
    const [at, record] = await onChain(() =>
      Promise.all([
        chain.publicClient.readContract({
          address: anchor,
          abi: DecisionAnchorAbi,
          functionName: 'anchoredAt',
          args: [batch.companyKey, decisionHash, [...batch.proof]],
        }),
        readBatch(chain, anchor, root),
      ]),
    );
    if (at !== 0n) {
      const txHash = await onChain(() => batchTxHash(chain, anchor, root, record.blockNumber));
      return {
        method: 'decision_anchor',
        anchoredAt: seconds(at),
        txHash,
        blockNumber: record.blockNumber,
        companyKey: batch.companyKey,
        merkleRoot: root,
        merkleProof: [...batch.proof],
      };
    }
  }
  const [record, validation] = await onChain(() =>
    Promise.all([
      anchor ? readAnchor(chain, anchor, decisionHash) : undefined,
      requester ? readValidation(chain, validationRequestHash(requester, decisionHash)) : undefined,
    ]),
  );

  if (anchor && record && record.anchoredAt !== 0n) {
    const txHash = await onChain(() => anchoringTxHash(chain, anchor, decisionHash, record.blockNumber));
    return {
      method: 'decision_anchor',
      anchoredAt: seconds(record.anchoredAt),
      txHash,
      blockNumber: record.blockNumber,
      companyKey: record.companyKey,
    };
  }
  if (validation) {
    const { validatorAddress, agentId, response, lastUpdate } = validation;
    if (validatorAddress !== ZERO_ADDRESS && response > 0) {
      return { method: 'erc8004_validation', validatedAt: seconds(lastUpdate), agentId, validatorAddress, response };
    }
  }
  return { method: 'none' };
}
