// Decision hashes on-chain: anchoring a round's hash through the decision anchor contract exactly once, and
// looking a hash up for the verify route, in the anchor contract first and then among the legacy ERC-8004
// validation entries (SPEC.md, Versioning rule 3).
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  encodeFunctionData,
  type Hex,
  isAddressEqual,
  parseEventLogs,
} from 'viem';
import { AppError } from '../errors.ts';
import type { Chain } from './client.ts';
import { onChain } from './errors.ts';
import { DecisionAnchorAbi, ValidationRegistryAbi } from './generated/abis.ts';
import type { Outbox } from './outbox.ts';

type ChainReader = Pick<Chain, 'publicClient' | 'contracts'>;

export interface AnchorDeps {
  outbox: Outbox;
  chain: ChainReader;
}

/** Where a decision hash was anchored. */
export interface DecisionAnchoring {
  txHash: Hex;
  blockNumber: bigint;
  /** The anchoring block's timestamp. */
  anchoredAt: Date;
}

export type DecisionLookup =
  | {
      method: 'decision_anchor';
      anchoredAt: Date;
      /** The anchoring transaction; null when the node no longer returns the block's DecisionAnchored log. */
      txHash: Hex | null;
      blockNumber: bigint;
      companyKey: Hex;
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

const seconds = (s: bigint) => new Date(Number(s) * 1000);

function anchorAddress(chain: ChainReader): Address {
  const address = chain.contracts.decisionAnchor;
  if (!address)
    throw new Error('the decision anchor contract is not deployed on this chain (contracts.decisionAnchor)');
  return address;
}

interface AnchorRecord {
  companyKey: Hex;
  anchoredAt: bigint;
  blockNumber: bigint;
}

async function readAnchor(chain: ChainReader, address: Address, decisionHash: Hex): Promise<AnchorRecord> {
  const [companyKey, anchoredAt, blockNumber] = await chain.publicClient.readContract({
    address,
    abi: DecisionAnchorAbi,
    functionName: 'anchorOf',
    args: [decisionHash],
  });
  return { companyKey, anchoredAt, blockNumber };
}

/** The transaction that anchored `decisionHash`, from its DecisionAnchored log in the one block that holds it. */
async function anchoringTxHash(
  chain: ChainReader,
  address: Address,
  decisionHash: Hex,
  blockNumber: bigint,
): Promise<Hex | null> {
  const logs = await chain.publicClient.getContractEvents({
    address,
    abi: DecisionAnchorAbi,
    eventName: 'DecisionAnchored',
    args: { decisionHash },
    fromBlock: blockNumber,
    toBlock: blockNumber,
    strict: true,
  });
  return logs[0]?.transactionHash ?? null;
}

/** The existing anchoring of `decisionHash`, or undefined when it is not anchored. */
async function existingAnchoring(
  chain: ChainReader,
  address: Address,
  decisionHash: Hex,
): Promise<DecisionAnchoring | undefined> {
  const record = await onChain(() => readAnchor(chain, address, decisionHash));
  if (record.anchoredAt === 0n) return undefined;
  const txHash = await onChain(() => anchoringTxHash(chain, address, decisionHash, record.blockNumber));
  if (!txHash) {
    throw new Error(
      `decision hash ${decisionHash} is anchored (block ${record.blockNumber}) but the node returned no DecisionAnchored log for it`,
    );
  }
  return { txHash, blockNumber: record.blockNumber, anchoredAt: seconds(record.anchoredAt) };
}

/**
 * Anchors `decisionHash` for `companyKey` with `anchor(companyKey, decisionHash)` from the platform account, exactly
 * once, through the outbox under `key` (for example `decision-anchor:<roundId>`): a repeated call, or one after a
 * crash between recording and broadcasting, sends nothing new. A hash anchored already (by this key or any other
 * transaction, such as an anchorBatch) is not sent again: the existing anchoring is returned, its transaction found
 * from the DecisionAnchored log. The anchor state is read before sending and again when the send fails or its
 * transaction reverts, so losing a race to another anchoring also returns that anchoring.
 *
 * A key is bound to its first transaction: a key whose transaction reverted for another reason keeps failing (use a
 * new key once the cause is fixed), and a key used before for something else is refused.
 */
export async function anchorDecision(
  deps: AnchorDeps,
  key: string,
  companyKey: Hex,
  decisionHash: Hex,
): Promise<DecisionAnchoring> {
  const address = anchorAddress(deps.chain);
  const before = await existingAnchoring(deps.chain, address, decisionHash);
  if (before) return before;

  const data = encodeFunctionData({ abi: DecisionAnchorAbi, functionName: 'anchor', args: [companyKey, decisionHash] });
  let receipt: Awaited<ReturnType<Outbox['send']>>;
  try {
    receipt = await onChain(() => deps.outbox.send(key, () => ({ to: address, data })));
  } catch (err) {
    // Gas estimation reverts when the hash got anchored meanwhile: that anchoring is the answer.
    if (err instanceof AppError && err.code === 'CHAIN_UNAVAILABLE') throw err;
    const after = await existingAnchoring(deps.chain, address, decisionHash);
    if (after) return after;
    throw err;
  }

  if (receipt.status !== 'success') {
    const after = await existingAnchoring(deps.chain, address, decisionHash);
    if (after) return after;
    throw new Error(
      `the anchoring transaction ${receipt.transactionHash} (outbox key ${key}) reverted and ${decisionHash} is not anchored`,
    );
  }
  const logs = receipt.logs.filter((l) => isAddressEqual(l.address, address));
  const event = parseEventLogs({ abi: DecisionAnchorAbi, eventName: 'DecisionAnchored', logs }).find(
    (e) => e.args.decisionHash.toLowerCase() === decisionHash.toLowerCase(),
  );
  if (!event) {
    throw new Error(
      `outbox key ${key} belongs to transaction ${receipt.transactionHash}, which did not anchor ${decisionHash}`,
    );
  }
  return {
    txHash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
    anchoredAt: seconds(event.args.anchoredAt),
  };
}

/** True when the error is a contract revert (an unknown request in the validation registry). */
function isRevert(err: unknown): boolean {
  return err instanceof BaseError && err.walk((e) => e instanceof ContractFunctionRevertedError) !== null;
}

/**
 * Looks `decisionHash` up on-chain for the verify route. The anchor contract's record and the validation
 * registry's entry are read in one JSON-RPC batch (the chain client batches concurrent calls); an anchored hash
 * then costs one more call, for its DecisionAnchored log (the transaction hash), in the single block the anchor
 * contract names.
 *
 * - `decision_anchor`: anchored in the decision anchor contract (preferred when both match).
 * - `erc8004_validation`: a legacy entry, the hash being a request hash of the validation registry whose
 *   validator answered with a non-zero score. A zero score is both the standard's "failed" and what
 *   getValidationStatus shows before any answer, so it does not verify.
 * - `none`: neither; also for a contract this chain does not have.
 *
 * An unreachable RPC throws CHAIN_UNAVAILABLE.
 */
export async function lookupDecisionHash(chain: ChainReader, decisionHash: Hex): Promise<DecisionLookup> {
  const anchor = chain.contracts.decisionAnchor;
  const registry = chain.contracts.validationRegistry;
  const [record, validation] = await onChain(() =>
    Promise.all([
      anchor ? readAnchor(chain, anchor, decisionHash) : undefined,
      registry
        ? chain.publicClient
            .readContract({
              address: registry,
              abi: ValidationRegistryAbi,
              functionName: 'getValidationStatus',
              args: [decisionHash],
            })
            .catch((err: unknown) => {
              // The registry reverts for a hash that is not a request hash.
              if (isRevert(err)) return undefined;
              throw err;
            })
        : undefined,
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
    const [validatorAddress, agentId, response, , , lastUpdate] = validation;
    if (validatorAddress !== ZERO_ADDRESS && response > 0) {
      return { method: 'erc8004_validation', validatedAt: seconds(lastUpdate), agentId, validatorAddress, response };
    }
  }
  return { method: 'none' };
}
