// Decision hashes on-chain: anchoring a round's hash through the decision anchor contract exactly once, per hash or
// in a batch by Merkle root, and reading the contract's records (anchor-lookup.ts looks a hash up for the verify
// route).

import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import { type Address, concat, encodeFunctionData, type Hex, isAddressEqual, keccak256, parseEventLogs } from 'viem';
import { AppError } from '../../errors.ts';
import type { Chain } from '../client.ts';
import { onChain } from '../errors.ts';
import { DecisionAnchorAbi } from '../generated/abis.ts';
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
