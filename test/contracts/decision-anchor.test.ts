// The decision anchor: platform-only anchoring, each hash once (anchor reverts, anchorBatch skips), the
// DecisionAnchored event, anchoredAt = the block's timestamp, batch validation (lengths, empty, the 200 cap), the
// owner's setPlatform, and the gas of anchor and anchorBatch(10).

import { DecisionAnchorAbi } from '@ai-economy/shared/abis';
import { concat, type Hex, keccak256, stringToHex } from 'viem';
import { describe, expect, it } from 'vitest';
import { decisionTree, rootOfProof } from '../../src/chain/contracts/anchor.ts';
import { expectRevert } from '../helpers/revert.ts';
import { contractHelpers, useCardChain, ZERO } from './fixture.ts';

const f = useCardChain();

const anchorAddress = () => f.chain.chain.contracts.decisionAnchor!;
const ZERO_HASH = `0x${'00'.repeat(32)}` as Hex;
const company = (n: number) => keccak256(stringToHex(`company-${n}`));
const decision = (n: number | string) => keccak256(stringToHex(`decision-${n}`));

const { write, simulate, read, events } = contractHelpers(f, anchorAddress, DecisionAnchorAbi);

/** Moves the chain's clock a minute on, so that a later anchoring would carry another timestamp. */
const later = async () => {
  await f.client.increaseTime({ seconds: 60 });
  await f.client.mine({ blocks: 1 });
};

describe('deployment', () => {
  it('is deployed with the platform account as owner and platform', async () => {
    expect(await read('owner')).toBe(f.addr(0));
    expect(await read('platform')).toBe(f.addr(0));
    expect(await read('MAX_BATCH')).toBe(200n);
  });
});

describe('anchor', () => {
  it('records the hash once with the block timestamp, its company and block, and emits DecisionAnchored', async () => {
    const [c, h] = [company(1), decision(1)];
    expect(await read('anchoredAt', [h])).toBe(0n);
    expect(await read('companyOf', [h])).toBe(ZERO_HASH);
    expect(await read('anchorOf', [h])).toEqual([ZERO_HASH, 0n, 0n]);

    const receipt = await write(0, 'anchor', [c, h]);
    const at = await f.blockTime(receipt);
    expect(events(receipt)).toEqual([['DecisionAnchored', { companyKey: c, decisionHash: h, anchoredAt: at }]]);
    expect(await read('anchoredAt', [h])).toBe(at);
    expect(await read('companyOf', [h])).toBe(c);
    expect(await read('anchorOf', [h])).toEqual([c, at, receipt.blockNumber]);
    // Both fields are indexed: a reader filters the log by hash or by company.
    const byHash = await f.client.getContractEvents({
      address: anchorAddress(),
      abi: DecisionAnchorAbi,
      eventName: 'DecisionAnchored',
      args: { decisionHash: h },
      fromBlock: receipt.blockNumber,
    });
    expect(byHash.map((l) => l.transactionHash)).toEqual([receipt.transactionHash]);
  });

  it('refuses a hash anchored before, for any company, and keeps the first record', async () => {
    const h = decision(2);
    const first = await write(0, 'anchor', [company(1), h]);
    const at = await f.blockTime(first);
    await later();
    await expectRevert(simulate(0, 'anchor', [company(1), h]), 'DecisionAnchorAlreadyAnchored', [h, at]);
    const mined = await f.minedRevert(
      0,
      { address: anchorAddress(), abi: DecisionAnchorAbi, functionName: 'anchor', args: [company(2), h] },
      'DecisionAnchorAlreadyAnchored',
      [h, at],
    );
    expect(mined.logs).toEqual([]);
    expect(await read('anchoredAt', [h])).toBe(at);
    expect(await read('companyOf', [h])).toBe(company(1));
  });

  it('refuses the zero hash and the zero company key', async () => {
    await expectRevert(simulate(0, 'anchor', [company(1), ZERO_HASH]), 'DecisionAnchorInvalidHash', [ZERO_HASH]);
    await expectRevert(simulate(0, 'anchor', [ZERO_HASH, decision(3)]), 'DecisionAnchorInvalidCompanyKey', [ZERO_HASH]);
  });

  it('is for the platform only', async () => {
    await expectRevert(simulate(1, 'anchor', [company(1), decision(4)]), 'DecisionAnchorUnauthorizedPlatform', [
      f.addr(1),
    ]);
    await f.minedRevert(
      3,
      { address: anchorAddress(), abi: DecisionAnchorAbi, functionName: 'anchor', args: [company(1), decision(4)] },
      'DecisionAnchorUnauthorizedPlatform',
      [f.addr(3)],
    );
    expect(await read('anchoredAt', [decision(4)])).toBe(0n);
  });
});

describe('anchorBatch', () => {
  it('anchors every entry with its own company, one event each, all at the block timestamp', async () => {
    const companies = [company(1), company(2), company(1)];
    const hashes = [decision('b1'), decision('b2'), decision('b3')];
    const { result } = await simulate(0, 'anchorBatch', [companies, hashes]);
    expect(result).toBe(3n);
    const receipt = await write(0, 'anchorBatch', [companies, hashes]);
    const at = await f.blockTime(receipt);
    expect(events(receipt)).toEqual(
      hashes.map((h, i) => ['DecisionAnchored', { companyKey: companies[i], decisionHash: h, anchoredAt: at }]),
    );
    for (const [i, h] of hashes.entries()) {
      expect(await read('anchoredAt', [h])).toBe(at);
      expect(await read('companyOf', [h])).toBe(companies[i]);
    }
  });

  it('skips hashes anchored before or earlier in the batch, so a retried batch completes', async () => {
    const old = decision('old');
    const first = await write(0, 'anchor', [company(1), old]);
    const oldAt = await f.blockTime(first);
    await later();

    const fresh = [decision('n1'), decision('n2')];
    const companies = [company(2), company(2), company(2), company(3)];
    const hashes = [fresh[0]!, old, fresh[1]!, fresh[0]!];
    const { result } = await simulate(0, 'anchorBatch', [companies, hashes]);
    expect(result).toBe(2n);
    const receipt = await write(0, 'anchorBatch', [companies, hashes]);
    const at = await f.blockTime(receipt);
    expect(at).toBeGreaterThan(oldAt);
    expect(events(receipt)).toEqual([
      ['DecisionAnchored', { companyKey: company(2), decisionHash: fresh[0], anchoredAt: at }],
      ['DecisionAnchored', { companyKey: company(2), decisionHash: fresh[1], anchoredAt: at }],
    ]);
    // The skipped entries keep their first anchoring.
    expect(await read('anchoredAt', [old])).toBe(oldAt);
    expect(await read('companyOf', [old])).toBe(company(1));
    expect(await read('companyOf', [fresh[0]])).toBe(company(2));

    // The same batch again (a retry after a crash): succeeds, anchors nothing, emits nothing.
    const { result: again } = await simulate(0, 'anchorBatch', [companies, hashes]);
    expect(again).toBe(0n);
    const retry = await write(0, 'anchorBatch', [companies, hashes]);
    expect(retry.logs).toEqual([]);
    expect(await read('anchoredAt', [fresh[1]])).toBe(at);
  });

  it('refuses arrays of different lengths, an empty batch and more than 200 entries', async () => {
    await expectRevert(
      simulate(0, 'anchorBatch', [[company(1)], [decision('x'), decision('y')]]),
      'DecisionAnchorLengthMismatch',
      [1n, 2n],
    );
    await expectRevert(
      simulate(0, 'anchorBatch', [[company(1), company(1)], [decision('x')]]),
      'DecisionAnchorLengthMismatch',
      [2n, 1n],
    );
    await expectRevert(simulate(0, 'anchorBatch', [[], []]), 'DecisionAnchorInvalidBatchSize', [0n, 200n]);
    const big = (n: number) => Array.from({ length: n }, (_, i) => decision(`cap-${i}`));
    await expectRevert(
      simulate(0, 'anchorBatch', [Array(201).fill(company(1)), big(201)]),
      'DecisionAnchorInvalidBatchSize',
      [201n, 200n],
    );
    // Exactly 200 goes through, within a block's gas.
    const receipt = await write(0, 'anchorBatch', [Array(200).fill(company(1)), big(200)]);
    expect(events(receipt)).toHaveLength(200);
    console.log('DecisionAnchor gas used', { 'anchorBatch(200)': Number(receipt.gasUsed) });
    expect(receipt.gasUsed).toBeLessThan(15_000_000n);
  });

  it('refuses a zero hash or company key anywhere in the batch, anchoring none of it', async () => {
    await expectRevert(
      simulate(0, 'anchorBatch', [
        [company(1), company(1)],
        [decision('z1'), ZERO_HASH],
      ]),
      'DecisionAnchorInvalidHash',
      [ZERO_HASH],
    );
    await expectRevert(
      simulate(0, 'anchorBatch', [
        [company(1), ZERO_HASH],
        [decision('z1'), decision('z2')],
      ]),
      'DecisionAnchorInvalidCompanyKey',
      [ZERO_HASH],
    );
    expect(await read('anchoredAt', [decision('z1')])).toBe(0n);
  });

  it('is for the platform only', async () => {
    await expectRevert(
      simulate(2, 'anchorBatch', [[company(1)], [decision('p')]]),
      'DecisionAnchorUnauthorizedPlatform',
      [f.addr(2)],
    );
  });
});

describe('anchorRoot (a batch as one Merkle root)', () => {
  const entriesOf = (n: number, label: string) =>
    Array.from({ length: n }, (_, i) => ({ companyKey: company(i % 7), decisionHash: decision(`${label}-${i}`) }));

  it('anchors a batch in one slot; anyone checks each round with anchoredAt(companyKey, hash, proof)', async () => {
    const entries = entriesOf(13, 'root');
    const { root, proofs } = decisionTree(entries);
    expect(await read('batchOf', [root])).toEqual([0n, 0n, 0n]);
    const receipt = await write(0, 'anchorRoot', [root, 13n]);
    const at = await f.blockTime(receipt);
    expect(events(receipt)).toEqual([
      ['BatchAnchored', { root, size: 13n, anchoredAt: at, blockNumber: receipt.blockNumber }],
    ]);
    expect(await read('batchOf', [root])).toEqual([at, receipt.blockNumber, 13n]);
    for (const e of entries) {
      const proof = proofs.get(e.decisionHash)!;
      expect(await read('anchoredAt', [e.companyKey, e.decisionHash, proof])).toBe(at);
      expect(rootOfProof(e.companyKey, e.decisionHash, proof)).toBe(root);
      // The proof binds the company too: the same hash under another company, or another round's proof, is not
      // anchored.
      expect(await read('anchoredAt', [company(99), e.decisionHash, proof])).toBe(0n);
      // Batched rounds are not per-hash records.
      expect(await read('anchoredAt', [e.decisionHash])).toBe(0n);
    }
    const [a, b] = entries;
    expect(await read('anchoredAt', [a!.companyKey, a!.decisionHash, proofs.get(b!.decisionHash)!])).toBe(0n);
    expect(await read('anchoredAt', [a!.companyKey, a!.decisionHash, []])).toBe(0n);
    expect(await read('leafOf', [a!.companyKey, a!.decisionHash])).toBe(
      keccak256(keccak256(concat([a!.companyKey, a!.decisionHash]))),
    );
  });

  it('a root anchored before keeps its first record: a re-sent batch returns false and emits nothing', async () => {
    const { root } = decisionTree(entriesOf(3, 'again'));
    const first = await write(0, 'anchorRoot', [root, 3n]);
    const at = await f.blockTime(first);
    await later();
    expect((await simulate(0, 'anchorRoot', [root, 3n])).result).toBe(false);
    const again = await write(0, 'anchorRoot', [root, 3n]);
    expect(events(again)).toEqual([]);
    expect(await read('batchOf', [root])).toEqual([at, first.blockNumber, 3n]);
  });

  it('refuses the zero root, an empty batch and anyone but the platform', async () => {
    const { root } = decisionTree(entriesOf(2, 'refused'));
    await expectRevert(simulate(0, 'anchorRoot', [ZERO_HASH, 1n]), 'DecisionAnchorInvalidHash', [ZERO_HASH]);
    await expectRevert(simulate(0, 'anchorRoot', [root, 0n]), 'DecisionAnchorInvalidBatchSize', [0n, 2n ** 128n - 1n]);
    await expectRevert(simulate(0, 'anchorRoot', [root, 2n ** 128n]), 'DecisionAnchorInvalidBatchSize', [
      2n ** 128n,
      2n ** 128n - 1n,
    ]);
    await expectRevert(simulate(1, 'anchorRoot', [root, 2n]), 'DecisionAnchorUnauthorizedPlatform', [f.addr(1)]);
  });

  it('a batch of one is its own root with an empty proof', async () => {
    const [e] = entriesOf(1, 'single');
    const { root, proofs } = decisionTree([e!]);
    expect(proofs.get(e!.decisionHash)).toEqual([]);
    const receipt = await write(0, 'anchorRoot', [root, 1n]);
    expect(await read('anchoredAt', [e!.companyKey, e!.decisionHash, []])).toBe(await f.blockTime(receipt));
  });

  it('gas per round: 1, 10 and 100 rounds a batch (target under 5,000 at 100)', async () => {
    const perRound: Record<string, number> = {};
    for (const n of [1, 10, 100]) {
      const { root } = decisionTree(entriesOf(n, `gas-root-${n}`));
      const receipt = await write(0, 'anchorRoot', [root, BigInt(n)]);
      perRound[`${n} a batch`] = Math.round(Number(receipt.gasUsed) / n);
    }
    console.log('DecisionAnchor.anchorRoot gas per round', perRound);
    expect(perRound['100 a batch']).toBeLessThan(5_000);
    expect(perRound['10 a batch']).toBeLessThan(perRound['1 a batch']! / 5);
  });
});

describe('setPlatform', () => {
  it('moves the right to anchor; owner only; never to the zero address', async () => {
    const receipt = await write(0, 'setPlatform', [f.addr(2)]);
    expect(events(receipt)).toEqual([['PlatformSet', { previousPlatform: f.addr(0), newPlatform: f.addr(2) }]]);
    expect(await read('platform')).toBe(f.addr(2));
    await expectRevert(simulate(0, 'anchor', [company(1), decision('sp')]), 'DecisionAnchorUnauthorizedPlatform', [
      f.addr(0),
    ]);
    await write(2, 'anchor', [company(1), decision('sp')]);
    expect(await read('companyOf', [decision('sp')])).toBe(company(1));

    await expectRevert(simulate(1, 'setPlatform', [f.addr(1)]), 'OwnableUnauthorizedAccount', [f.addr(1)]);
    await expectRevert(simulate(2, 'setPlatform', [f.addr(2)]), 'OwnableUnauthorizedAccount', [f.addr(2)]);
    await expectRevert(simulate(0, 'setPlatform', [ZERO]), 'DecisionAnchorInvalidAddress', [ZERO]);
  });
});

describe('gas', () => {
  it('records the gas of anchor and anchorBatch(10): one storage write a hash once the company is known', async () => {
    // A company's first hash also records the company key, once.
    const first = await write(0, 'anchor', [company(1), decision('gas-1')]);
    const later = await write(0, 'anchor', [company(1), decision('gas-2')]);
    const ten = await write(0, 'anchorBatch', [
      Array(10).fill(company(1)),
      Array.from({ length: 10 }, (_, i) => decision(`gas-batch-${i}`)),
    ]);
    const tenSkipped = await f.send(
      f.wallet(0).writeContract({
        address: anchorAddress(),
        abi: DecisionAnchorAbi,
        functionName: 'anchorBatch',
        args: [Array(10).fill(company(1)), Array.from({ length: 10 }, (_, i) => decision(`gas-batch-${i}`))],
      }),
    );
    const gas = {
      "anchor, the company's first hash": Number(first.gasUsed),
      anchor: Number(later.gasUsed),
      'anchorBatch(10)': Number(ten.gasUsed),
      'anchorBatch(10), all anchored already': Number(tenSkipped.gasUsed),
    };
    console.log('DecisionAnchor gas used', gas);
    expect(first.gasUsed).toBeLessThan(130_000n);
    expect(later.gasUsed).toBeLessThan(60_000n);
    expect(ten.gasUsed).toBeLessThan(350_000n);
    expect(tenSkipped.gasUsed).toBeLessThan(ten.gasUsed / 4n);
  });
});
