// The epoch tree: the same tree as @openzeppelin/merkle-tree's StandardMerkleTree.of, deterministic whatever the
// order of the entries, proofs that verify, input checks, and rewards rounded as the contract rounds them.
import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import { type Address, encodeAbiParameters, type Hex, keccak256, parseAbiParameters, toHex } from 'viem';
import { describe, expect, it } from 'vitest';
import {
  buildEpochTree,
  DEFAULT_EPOCH_REWARD_POOL,
  EPOCH_LEAF_ENCODING,
  type EpochEntry,
  encodeLeaf,
  epochLeafHash,
  epochStartTimeFor,
  proofFor,
  rewardOf,
} from '../../src/chain/merkle.ts';
import { seededRandom } from '../helpers/random.ts';

function randomHex(next: () => number, bytes: number): Hex {
  let s = '0x';
  for (let i = 0; i < bytes; i++)
    s += Math.floor(next() * 256)
      .toString(16)
      .padStart(2, '0');
  return s as Hex;
}

function entries(n: number, seed = 1): EpochEntry[] {
  const next = seededRandom(seed);
  return Array.from({ length: n }, () => ({
    companyKey: randomHex(next, 32),
    claimTo: randomHex(next, 20) as Address,
    score: BigInt(Math.floor(next() * 1e9)) * 10n ** 9n,
  }));
}

/** The tree as JSON, bigints as strings, to compare with the library's byte for byte. */
const dumpJson = (tree: { dump(): unknown }) =>
  JSON.stringify(tree.dump(), (_k, v) => (typeof v === 'bigint' ? v.toString() : v));

describe('buildEpochTree', () => {
  it('is exactly StandardMerkleTree.of with the leaf encoding, for sizes 1 to 17, 31 to 33 and 100', () => {
    for (const n of [...Array.from({ length: 17 }, (_, i) => i + 1), 31, 32, 33, 100]) {
      const built = buildEpochTree(3n, entries(n, n));
      const values = built.leaves.map((l) => [3n, BigInt(l.index), l.companyKey, l.claimTo, l.score]);
      const reference = StandardMerkleTree.of(values, [...EPOCH_LEAF_ENCODING]);
      expect(built.root).toBe(reference.root);
      expect(dumpJson(built.tree)).toBe(dumpJson(reference));
      built.tree.validate();
      for (const leaf of built.leaves) {
        expect(leaf.proof).toEqual(reference.getProof(leaf.index));
        expect(leaf.leafHash).toBe(reference.leafHash(values[leaf.index]!));
      }
    }
  });

  it('hashes a leaf as keccak256(keccak256(abi.encode(epoch, index, companyKey, claimTo, score)))', () => {
    const [e] = entries(1, 9);
    const value = [7n, 3n, e!.companyKey, e!.claimTo, 123n * 10n ** 18n] as const;
    const encoded = encodeAbiParameters(parseAbiParameters('uint256, uint256, bytes32, address, uint256'), value);
    expect(toHex(encodeLeaf([...value]))).toBe(encoded);
    expect(toHex(epochLeafHash([...value]))).toBe(keccak256(keccak256(encoded)));
    const max = 2n ** 256n - 1n;
    const big = [max, max, e!.companyKey, e!.claimTo, max] as const;
    expect(toHex(encodeLeaf([...big]))).toBe(
      encodeAbiParameters(parseAbiParameters('uint256, uint256, bytes32, address, uint256'), big),
    );
  });

  it('orders the entries by companyKey, so any input order gives the same tree', () => {
    const list = entries(25, 4);
    const a = buildEpochTree(1n, list);
    const b = buildEpochTree(1n, [...list].reverse());
    const shuffled = [...list].sort((x, y) => (x.score < y.score ? -1 : 1));
    const c = buildEpochTree(1, shuffled);
    expect(b.root).toBe(a.root);
    expect(c.root).toBe(a.root);
    expect(b.leaves).toEqual(a.leaves);
    const keys = a.leaves.map((l) => l.companyKey);
    expect(keys).toEqual([...keys].sort());
    expect(a.leaves.map((l) => l.index)).toEqual(Array.from({ length: 25 }, (_, i) => i));
    // Upper- and lower-case keys are the same key.
    const upper = buildEpochTree(
      1n,
      list.map((e) => ({ ...e, companyKey: `0x${e.companyKey.slice(2).toUpperCase()}` as Hex })),
    );
    expect(upper.root).toBe(a.root);
  });

  it('depends on the epoch, so a tree of one epoch proves nothing in another', () => {
    const list = entries(5, 2);
    expect(buildEpochTree(1n, list).root).not.toBe(buildEpochTree(2n, list).root);
  });

  it('gives proofs that verify against the root, and none for a changed leaf', () => {
    const built = buildEpochTree(4n, entries(12, 5));
    const enc = [...EPOCH_LEAF_ENCODING];
    for (const leaf of built.leaves) {
      const value = [4n, BigInt(leaf.index), leaf.companyKey, leaf.claimTo, leaf.score];
      expect(StandardMerkleTree.verify(built.root, enc, value, leaf.proof)).toBe(true);
      expect(proofFor(built.tree, leaf.index)).toEqual(leaf.proof);
      expect(
        StandardMerkleTree.verify(
          built.root,
          enc,
          [4n, BigInt(leaf.index), leaf.companyKey, leaf.claimTo, leaf.score + 1n],
          leaf.proof,
        ),
      ).toBe(false);
      expect(
        StandardMerkleTree.verify(
          built.root,
          enc,
          [5n, BigInt(leaf.index), leaf.companyKey, leaf.claimTo, leaf.score],
          leaf.proof,
        ),
      ).toBe(false);
    }
  });

  it('sums the scores into totalScore and checksums the claim-to addresses', () => {
    const list = entries(10, 6);
    const built = buildEpochTree(
      0n,
      list.map((e) => ({ ...e, claimTo: e.claimTo.toLowerCase() as Address })),
    );
    expect(built.totalScore).toBe(list.reduce((s, e) => s + e.score, 0n));
    for (const leaf of built.leaves) expect(leaf.claimTo).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(built.leaves.some((l) => l.claimTo !== l.claimTo.toLowerCase())).toBe(true);
  });

  it('builds a single-leaf tree whose root is the leaf and whose proof is empty', () => {
    const built = buildEpochTree(2n, entries(1, 8));
    expect(built.leaves[0]!.proof).toEqual([]);
    expect(built.root).toBe(built.leaves[0]!.leafHash);
  });

  it('rejects no entries, duplicate keys, bad keys, zero or bad addresses and out-of-range scores', () => {
    const [a, b] = entries(2, 7) as [EpochEntry, EpochEntry];
    expect(() => buildEpochTree(1n, [])).toThrow(/without participants/);
    expect(() => buildEpochTree(1n, [a, { ...b, companyKey: a.companyKey }])).toThrow(/twice/);
    expect(() =>
      buildEpochTree(1n, [a, { ...b, companyKey: a.companyKey.toUpperCase().replace('0X', '0x') as Hex }]),
    ).toThrow(/twice/);
    expect(() => buildEpochTree(1n, [{ ...a, companyKey: '0x1234' }])).toThrow(/bytes32/);
    expect(() => buildEpochTree(1n, [{ ...a, claimTo: '0x0000000000000000000000000000000000000000' }])).toThrow(
      /non-zero/,
    );
    expect(() => buildEpochTree(1n, [{ ...a, claimTo: '0x1234' as Address }])).toThrow(/non-zero/);
    expect(() => buildEpochTree(1n, [{ ...a, score: -1n }])).toThrow(/uint256/);
    expect(() => buildEpochTree(1n, [{ ...a, score: 2n ** 256n }])).toThrow(/uint256/);
    expect(() => buildEpochTree(-1n, [a])).toThrow(/uint256/);
    expect(() =>
      buildEpochTree(1n, [
        { ...a, score: 2n ** 255n },
        { ...b, score: 2n ** 255n },
      ]),
    ).toThrow(/total/);
  });

  it('builds 5,000 leaves (depth 13) whose proofs verify', () => {
    const started = performance.now();
    const built = buildEpochTree(1n, entries(5_000, 11));
    const ms = performance.now() - started;
    console.log(`buildEpochTree: 5,000 leaves in ${Math.round(ms)} ms`);
    expect(built.leaves).toHaveLength(5_000);
    expect(Math.max(...built.leaves.map((l) => l.proof.length))).toBe(13);
    const sample = built.leaves[1_234]!;
    expect(
      StandardMerkleTree.verify(
        built.root,
        [...EPOCH_LEAF_ENCODING],
        [1n, BigInt(sample.index), sample.companyKey, sample.claimTo, sample.score],
        sample.proof,
      ),
    ).toBe(true);
  });
});

describe('rewardOf', () => {
  it('is floor(pool * score / total), without overflow for large values', () => {
    expect(rewardOf(100n, 1n, 3n)).toBe(33n);
    expect(rewardOf(DEFAULT_EPOCH_REWARD_POOL, 2n, 3n)).toBe(66_666_666666666666666666n);
    const max = 2n ** 256n - 1n;
    expect(rewardOf(max, max, max)).toBe(max);
    expect(rewardOf(10n ** 24n, 0n, 5n)).toBe(0n);
  });

  it('leaves at most one wei of dust per leaf when the scores sum to the total', () => {
    const scores = entries(37, 3).map((e) => e.score);
    const total = scores.reduce((s, x) => s + x, 0n);
    const paid = scores.reduce((s, x) => s + rewardOf(DEFAULT_EPOCH_REWARD_POOL, x, total), 0n);
    expect(paid).toBeLessThanOrEqual(DEFAULT_EPOCH_REWARD_POOL);
    expect(DEFAULT_EPOCH_REWARD_POOL - paid).toBeLessThan(37n);
  });

  it('rejects a zero total and negative values', () => {
    expect(() => rewardOf(1n, 1n, 0n)).toThrow(RangeError);
    expect(() => rewardOf(-1n, 1n, 1n)).toThrow(RangeError);
    expect(() => rewardOf(1n, -1n, 1n)).toThrow(RangeError);
  });
});

describe('epochStartTimeFor', () => {
  it('rounds down to 00:00 UTC', () => {
    const t = BigInt(Date.UTC(2026, 4, 17, 13, 45, 12) / 1000);
    expect(epochStartTimeFor(t)).toBe(BigInt(Date.UTC(2026, 4, 17) / 1000));
    expect(epochStartTimeFor(BigInt(Date.UTC(2026, 4, 17) / 1000))).toBe(BigInt(Date.UTC(2026, 4, 17) / 1000));
  });
});
