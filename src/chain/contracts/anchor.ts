// Decision hashes on-chain: anchoring a batch of rounds' hashes as one Merkle root through the decision anchor
// contract exactly once, and reading the contract's records, per hash (anchors made by the contract's per-hash entry
// points, which the service no longer sends) or per root (anchor-lookup.ts looks a hash up for the verify route).

import { DecisionAnchorAbi } from '@ai-economy/shared/abis';
import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import { type Address, concat, encodeFunctionData, type Hex, isAddressEqual, keccak256, parseEventLogs } from 'viem';
import type { Chain } from '../client.ts';
import { onChain } from '../errors.ts';
import type { Outbox } from '../outbox.ts';

export type ChainReader = Pick<Chain, 'publicClient' | 'contracts'>;

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

export const seconds = (s: bigint) => new Date(Number(s) * 1000);

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

export async function readAnchor(chain: ChainReader, address: Address, decisionHash: Hex): Promise<AnchorRecord> {
  const [companyKey, anchoredAt, blockNumber] = await chain.publicClient.readContract({
    address,
    abi: DecisionAnchorAbi,
    functionName: 'anchorOf',
    args: [decisionHash],
  });
  return { companyKey, anchoredAt, blockNumber };
}

/** The transaction that anchored `decisionHash`, from its DecisionAnchored log in the one block that holds it. */
export async function anchoringTxHash(
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

export interface AnchorEntry {
  companyKey: Hex;
  decisionHash: Hex;
}

// ---------------------------------------------------------------- batches as one Merkle root

/** Largest batch one anchorRoot carries (a proof of at most 10 hashes). */
export const ANCHOR_ROOT_BATCH_MAX = 1_000;

/** The leaf encoding of a batch's StandardMerkleTree: (companyKey, decisionHash), as DecisionAnchor.leafOf. */
export const DECISION_LEAF_ENCODING = ['bytes32', 'bytes32'] as const;

/** A batch anchored as one Merkle root: its anchoring, its root and each hash's proof (by lower-case hash). */
export interface RootAnchoring extends DecisionAnchoring {
  root: Hex;
  proofs: Map<Hex, Hex[]>;
}

/** The Merkle tree of a batch: its root and each entry's proof, by lower-case decision hash. */
export function decisionTree(entries: readonly AnchorEntry[]): { root: Hex; proofs: Map<Hex, Hex[]> } {
  const tree = StandardMerkleTree.of(
    entries.map((e) => [e.companyKey.toLowerCase(), e.decisionHash.toLowerCase()]),
    [...DECISION_LEAF_ENCODING],
  );
  const proofs = new Map<Hex, Hex[]>();
  for (const [i, [, hash]] of tree.entries()) proofs.set(hash as Hex, tree.getProof(i) as Hex[]);
  return { root: tree.root as Hex, proofs };
}

/** The root a proof leads to from the entry's leaf (sorted pairs, as OpenZeppelin's MerkleProof). */
export function rootOfProof(companyKey: Hex, decisionHash: Hex, proof: readonly Hex[]): Hex {
  let node = keccak256(keccak256(concat([companyKey.toLowerCase() as Hex, decisionHash.toLowerCase() as Hex])));
  for (const sibling of proof) {
    const [a, b] = BigInt(node) < BigInt(sibling) ? [node, sibling] : [sibling, node];
    node = keccak256(concat([a, b]));
  }
  return node;
}

export async function readBatch(chain: ChainReader, address: Address, root: Hex) {
  const [anchoredAt, blockNumber] = await chain.publicClient.readContract({
    address,
    abi: DecisionAnchorAbi,
    functionName: 'batchOf',
    args: [root],
  });
  return { anchoredAt, blockNumber };
}

/** The transaction that anchored `root`, from its BatchAnchored log in the one block that holds it. */
export async function batchTxHash(
  chain: ChainReader,
  address: Address,
  root: Hex,
  blockNumber: bigint,
): Promise<Hex | null> {
  const logs = await chain.publicClient.getContractEvents({
    address,
    abi: DecisionAnchorAbi,
    eventName: 'BatchAnchored',
    args: { root },
    fromBlock: blockNumber,
    toBlock: blockNumber,
    strict: true,
  });
  return logs[0]?.transactionHash ?? null;
}

/**
 * Anchors the entries as one Merkle root with `anchorRoot(root, size)` from the platform account, exactly once,
 * through the outbox under `key`, and returns the batch's anchoring with each hash's proof. The tree depends only on
 * the set of entries, so a call repeated after a crash rebuilds the same root; a root anchored already (by this
 * key's transaction or any other) is not sent again and comes back as it was anchored.
 */
export async function anchorDecisionRoot(
  deps: AnchorDeps,
  key: string,
  entries: readonly AnchorEntry[],
  chargedTo: readonly string[] = [],
): Promise<RootAnchoring> {
  if (entries.length === 0 || entries.length > ANCHOR_ROOT_BATCH_MAX) {
    throw new Error(`a Merkle anchoring batch holds 1 to ${ANCHOR_ROOT_BATCH_MAX} entries, got ${entries.length}`);
  }
  const address = anchorAddress(deps.chain);
  const { root, proofs } = decisionTree(entries);
  const existing = async (): Promise<RootAnchoring | undefined> => {
    const batch = await onChain(() => readBatch(deps.chain, address, root));
    if (batch.anchoredAt === 0n) return undefined;
    const txHash = await onChain(() => batchTxHash(deps.chain, address, root, batch.blockNumber));
    if (!txHash) {
      throw new Error(
        `root ${root} is anchored (block ${batch.blockNumber}) but the node returned no BatchAnchored log`,
      );
    }
    return { root, proofs, txHash, blockNumber: batch.blockNumber, anchoredAt: seconds(batch.anchoredAt) };
  };
  const before = await existing();
  if (before) return before;
  const data = encodeFunctionData({
    abi: DecisionAnchorAbi,
    functionName: 'anchorRoot',
    args: [root, BigInt(entries.length)],
  });
  const receipt = await onChain(() => deps.outbox.send(key, () => ({ to: address, data }), { chargedTo }));
  if (receipt.status === 'success') {
    const logs = receipt.logs.filter((l) => isAddressEqual(l.address, address));
    const event = parseEventLogs({ abi: DecisionAnchorAbi, eventName: 'BatchAnchored', logs }).find(
      (e) => e.args.root.toLowerCase() === root.toLowerCase(),
    );
    if (event) {
      return {
        root,
        proofs,
        txHash: receipt.transactionHash,
        blockNumber: receipt.blockNumber,
        anchoredAt: seconds(event.args.anchoredAt),
      };
    }
  }
  // Anchored meanwhile by another transaction, or this key belongs to something else.
  const after = await existing();
  if (after) return after;
  throw new Error(
    `outbox key ${key} belongs to transaction ${receipt.transactionHash} (${receipt.status}), which did not anchor root ${root}`,
  );
}
