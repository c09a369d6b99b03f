// Decision hashes on-chain: anchoring a round's hash through the decision anchor contract exactly once, and
// looking a hash up for the verify route, in the anchor contract first and then among the legacy ERC-8004
// validation entries (docs/api/README.md "Versioning" 3).
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  encodeFunctionData,
  type Hex,
  isAddressEqual,
  parseEventLogs,
} from 'viem';
import { AppError } from '../../errors.ts';
import type { Chain } from '../client.ts';
import { onChain } from '../errors.ts';
import { DecisionAnchorAbi } from '../generated/abis.ts';
import type { Outbox } from '../outbox.ts';
import { readValidation } from './validation.ts';

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

export interface AnchorEntry {
  companyKey: Hex;
  decisionHash: Hex;
}

/** Largest batch one anchoring transaction carries (DecisionAnchor.MAX_BATCH). */
export const ANCHOR_BATCH_MAX = 200;

/**
 * Anchors the entries with one `anchorBatch(companyKeys, decisionHashes)` from the platform account, exactly once,
 * through the outbox under `key` (for example `decision-anchor-batch:<id>`), and returns each hash's anchoring.
 * Hashes anchored already (by an earlier batch, or any other transaction) are not sent again and come back as they
 * were anchored; if every hash is, nothing is sent. A repeated call, or one after a crash between recording and
 * broadcasting, sends nothing new: the outbox returns the recorded transaction, and the contract skips hashes
 * anchored meanwhile, so an overlapping batch still completes. `chargedTo` is handed to the outbox (whose
 * companies pay the gas, one share per entry).
 *
 * A key is bound to its first transaction: a key whose transaction anchored none of a hash that is still not
 * anchored (it was made for other entries, or reverted) is refused.
 */
export async function anchorDecisions(
  deps: AnchorDeps,
  key: string,
  entries: readonly AnchorEntry[],
  chargedTo: readonly string[] = [],
): Promise<Map<Hex, DecisionAnchoring>> {
  if (entries.length === 0 || entries.length > ANCHOR_BATCH_MAX) {
    throw new Error(`an anchoring batch holds 1 to ${ANCHOR_BATCH_MAX} entries, got ${entries.length}`);
  }
  const address = anchorAddress(deps.chain);
  const hashes = entries.map((e) => e.decisionHash.toLowerCase() as Hex);
  const found = new Map<Hex, DecisionAnchoring>();
  const collect = async (wanted: readonly Hex[]) => {
    // One JSON-RPC batch for the anchor records (the chain client batches concurrent calls).
    const anchorings = await Promise.all(wanted.map((h) => existingAnchoring(deps.chain, address, h)));
    wanted.forEach((h, i) => {
      const anchoring = anchorings[i];
      if (anchoring) found.set(h, anchoring);
    });
  };
  await collect(hashes);
  const missing = entries.filter((e) => !found.has(e.decisionHash.toLowerCase() as Hex));
  if (missing.length === 0) return found;

  const data = encodeFunctionData({
    abi: DecisionAnchorAbi,
    functionName: 'anchorBatch',
    args: [missing.map((e) => e.companyKey), missing.map((e) => e.decisionHash)],
  });
  let receipt: Awaited<ReturnType<Outbox['send']>> | undefined;
  try {
    receipt = await onChain(() => deps.outbox.send(key, () => ({ to: address, data }), { chargedTo }));
  } catch (err) {
    // Gas estimation reverts when every hash got anchored meanwhile: those anchorings are the answer.
    if (err instanceof AppError && err.code === 'CHAIN_UNAVAILABLE') throw err;
    await collect(missing.map((e) => e.decisionHash.toLowerCase() as Hex));
    if (found.size === hashes.length) return found;
    throw err;
  }
  if (receipt.status === 'success') {
    const logs = receipt.logs.filter((l) => isAddressEqual(l.address, address));
    for (const event of parseEventLogs({ abi: DecisionAnchorAbi, eventName: 'DecisionAnchored', logs })) {
      found.set(event.args.decisionHash.toLowerCase() as Hex, {
        txHash: receipt.transactionHash,
        blockNumber: receipt.blockNumber,
        anchoredAt: seconds(event.args.anchoredAt),
      });
    }
  }
  // Hashes the transaction did not anchor: anchored by another meanwhile, or this key belongs to something else.
  const left = hashes.filter((h) => !found.has(h));
  if (left.length > 0) await collect(left);
  const unanchored = hashes.filter((h) => !found.has(h));
  if (unanchored.length > 0) {
    throw new Error(
      `outbox key ${key} belongs to transaction ${receipt.transactionHash} (${receipt.status}), which did not anchor ${unanchored.join(', ')}`,
    );
  }
  return found;
}

/** True when the error is a contract revert (an unknown request in the validation registry). */
function _isRevert(err: unknown): boolean {
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
  const [record, validation] = await onChain(() =>
    Promise.all([anchor ? readAnchor(chain, anchor, decisionHash) : undefined, readValidation(chain, decisionHash)]),
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
