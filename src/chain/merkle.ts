// The Merkle tree of one reward epoch, as the distributor contract (contracts/EpochDistributor.sol) verifies it:
// StandardMerkleTree leaves of @openzeppelin/merkle-tree with the encoding (epoch, index, companyKey, claimTo, score),
// and the reward a leaf is paid, rounded exactly as the contract rounds it.
import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import {
  type Address,
  bytesToHex,
  getAddress,
  type Hex,
  hexToBytes,
  isAddress,
  isHex,
  keccak256,
  maxUint256,
  zeroAddress,
} from 'viem';

/** Epoch length when `EPOCH_DURATION_S` is unset: one week. */
export const DEFAULT_EPOCH_DURATION_S = 604_800;
/** Reward pool of an epoch when `EPOCH_REWARD_POOL` is unset: 100,000 primary tokens (wei). */
export const DEFAULT_EPOCH_REWARD_POOL = 100_000n * 10n ** 18n;
/** The distributor's `maxRewardPool` at deployment is this many times the reward pool. */
export const MAX_REWARD_POOL_FACTOR = 10n;
const DAY_S = 86_400;

/** The leaf encoding of the distributor's StandardMerkleTree: (epoch, index, companyKey, claimTo, score). */
export const EPOCH_LEAF_ENCODING = ['uint256', 'uint256', 'bytes32', 'address', 'uint256'] as const;

/** One leaf's values in EPOCH_LEAF_ENCODING order. */
export type EpochLeafValue = [epoch: bigint, index: bigint, companyKey: Hex, claimTo: Address, score: bigint];
export type EpochTree = StandardMerkleTree<EpochLeafValue>;

export interface EpochEntry {
  /** bytes32 key of the company (0x + 64 hex digits); unique within an epoch. */
  companyKey: Hex;
  /** Where the reward is minted (the company's treasury). */
  claimTo: Address;
  score: bigint;
}

export interface EpochLeaf extends EpochEntry {
  /** Position of the entry once sorted by companyKey; the leaf's bit in the contract's claimed bitmap. */
  index: number;
  /** keccak256(keccak256(abi.encode(epoch, index, companyKey, claimTo, score))), the leaf the contract hashes. */
  leafHash: Hex;
  proof: Hex[];
}

export interface EpochTreeResult {
  epoch: bigint;
  root: Hex;
  tree: EpochTree;
  /** Sum of all scores: `totalScore` of the distributor's finalize. */
  totalScore: bigint;
  /** In index order. */
  leaves: EpochLeaf[];
}

/** The leaf hash the distributor computes in `claim`: keccak256(keccak256(abi.encode(...value))). */
export function epochLeafHash(value: EpochLeafValue): Uint8Array {
  return keccak256(keccak256(encodeLeaf(value), 'bytes'), 'bytes');
}

/**
 * abi.encode of the leaf's five static words, written directly into bytes: the same as viem's
 * encodeAbiParameters (the tests compare them) without the hex round trip, which cost as much as a keccak a leaf.
 */
export function encodeLeaf([epoch, index, companyKey, claimTo, score]: EpochLeafValue): Uint8Array {
  const out = new Uint8Array(160);
  out.set(wordBytes(epoch), 0);
  out.set(wordBytes(index), 32);
  out.set(hexToBytes(companyKey), 64);
  out.set(hexToBytes(claimTo), 108); // an address is right-aligned in word 3 (bytes 96-127)
  out.set(wordBytes(score), 128);
  return out;
}

/**
 * Builds the Merkle tree of epoch `epoch`. The entries are sorted by companyKey, so the same entries give the same
 * tree whatever their order, and a leaf's index is its position in that order. An epoch needs at least one entry
 * (an epoch without participants is finalized with a zero root and no tree); companyKeys must be distinct, claimTo
 * non-zero, scores between 0 and 2^256 - 1.
 *
 * The tree is exactly `StandardMerkleTree.of(values, EPOCH_LEAF_ENCODING)` (default options, so the library sorts
 * the leaves by hash). It is hashed here with viem and handed to the class's constructor (what `of` ends in),
 * because the library encodes each leaf with @metamask/abi-utils at about 0.2 ms a leaf and `load` re-encodes every
 * leaf to validate: 100,000 leaves took most of a minute. test/chain/merkle.test.ts checks the result against `of`
 * byte for byte. The tree's values hold bigints: serialize `tree.dump()` with a replacer that writes them as strings.
 */
export function buildEpochTree(epoch: bigint | number, entries: readonly EpochEntry[]): EpochTreeResult {
  const epochN = BigInt(epoch);
  if (epochN < 0n || epochN > maxUint256) throw new RangeError(`epoch ${epochN} is not a uint256`);
  if (entries.length === 0) {
    throw new RangeError('an epoch without participants has no tree: finalize it with a zero root, score and pool');
  }
  const normalized = entries
    .map(normalize)
    .sort((a, b) => (a.companyKey < b.companyKey ? -1 : a.companyKey > b.companyKey ? 1 : 0));
  let totalScore = 0n;
  for (const [i, e] of normalized.entries()) {
    if (i > 0 && normalized[i - 1]!.companyKey === e.companyKey) {
      throw new RangeError(`companyKey ${e.companyKey} appears twice`);
    }
    totalScore += e.score;
  }
  if (totalScore > maxUint256) throw new RangeError('the total score does not fit a uint256');

  const values = normalized.map((e, i): EpochLeafValue => [epochN, BigInt(i), e.companyKey, e.claimTo, e.score]);
  const hashes = values.map(epochLeafHash);
  // As MerkleTreeImpl.prepare with sortLeaves: leaves sorted by hash, stored from the end of the array.
  const order = hashes.map((_, i) => i).sort((a, b) => compareBytes(hashes[a]!, hashes[b]!));
  const n = hashes.length;
  const nodes: Uint8Array[] = new Array(2 * n - 1);
  const treeIndex: number[] = new Array(n);
  for (const [position, valueIndex] of order.entries()) {
    nodes[nodes.length - 1 - position] = hashes[valueIndex]!;
    treeIndex[valueIndex] = nodes.length - 1 - position;
  }
  const pair = new Uint8Array(64);
  for (let i = nodes.length - 1 - n; i >= 0; i--) {
    const left = nodes[2 * i + 1]!;
    const right = nodes[2 * i + 2]!;
    const [a, b] = compareBytes(left, right) <= 0 ? [left, right] : [right, left];
    pair.set(a, 0);
    pair.set(b, 32);
    nodes[i] = keccak256(pair, 'bytes');
  }
  const hexNodes = nodes.map((node) => bytesToHex(node));
  const tree = new (StandardMerkleTree as unknown as StandardTreeConstructor)(
    hexNodes,
    values.map((value, i) => ({ value, treeIndex: treeIndex[i]! })),
    [...EPOCH_LEAF_ENCODING],
  );
  const leaves = normalized.map(
    (e, i): EpochLeaf => ({
      index: i,
      companyKey: e.companyKey,
      claimTo: e.claimTo,
      score: e.score,
      leafHash: hexNodes[treeIndex[i]!]!,
      proof: siblingPath(hexNodes, treeIndex[i]!),
    }),
  );
  return { epoch: epochN, root: hexNodes[0]!, tree, totalScore, leaves };
}

/** The proof of leaf `index` (the leaf's index field, which is its position in the tree's values). */
export function proofFor(tree: EpochTree, index: number): Hex[] {
  return tree.getProof(index) as Hex[];
}

/** A leaf's reward: floor(rewardPool * score / totalScore), as the distributor's Math.mulDiv computes it. */
export function rewardOf(rewardPool: bigint, score: bigint, totalScore: bigint): bigint {
  if (totalScore <= 0n) throw new RangeError('totalScore must be positive');
  if (rewardPool < 0n || score < 0n) throw new RangeError('rewardPool and score must not be negative');
  return (rewardPool * score) / totalScore;
}

/** The distributor's start time for a deployment at `timestamp` (seconds): 00:00 UTC of that day. */
export function epochStartTimeFor(timestamp: bigint): bigint {
  return timestamp - (timestamp % BigInt(DAY_S));
}

/** The StandardMerkleTree constructor (protected in the typings) that `of` and `load` end in. */
type StandardTreeConstructor = new (
  tree: string[],
  values: { value: EpochLeafValue; treeIndex: number }[],
  leafEncoding: string[],
) => EpochTree;

function normalize(entry: EpochEntry): EpochEntry {
  if (!isHex(entry.companyKey, { strict: true }) || entry.companyKey.length !== 66) {
    throw new RangeError(`companyKey ${String(entry.companyKey)} is not a bytes32 hex string`);
  }
  if (!isAddress(entry.claimTo, { strict: false }) || getAddress(entry.claimTo) === zeroAddress) {
    throw new RangeError(`claimTo ${String(entry.claimTo)} of ${entry.companyKey} is not a non-zero address`);
  }
  if (typeof entry.score !== 'bigint' || entry.score < 0n || entry.score > maxUint256) {
    throw new RangeError(`score of ${entry.companyKey} is not a uint256`);
  }
  return { companyKey: entry.companyKey.toLowerCase() as Hex, claimTo: getAddress(entry.claimTo), score: entry.score };
}

function wordBytes(x: bigint): Uint8Array {
  return hexToBytes(`0x${x.toString(16).padStart(64, '0')}`);
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return a[i]! - b[i]!;
  }
  return 0;
}

/** Siblings from the leaf at tree position `i` up to the root (the library's core getProof). */
function siblingPath(nodes: Hex[], i: number): Hex[] {
  const proof: Hex[] = [];
  for (let j = i; j > 0; j = Math.floor((j - 1) / 2)) proof.push(nodes[j % 2 === 1 ? j + 1 : j - 1]!);
  return proof;
}
