// AccessCard tiers and tranches: tierOf, the id boundaries 1000/1001, 4000/4001 and 10000, sold-out tranches,
// activateTranche's rules, batches that would cross the end of a tranche, and the hard cap.
//
// Selling 10,000 cards one by one would take minutes, so these tests jump near a boundary by writing the
// contract's `totalMinted` counter directly (anvil_setStorageAt). Only the counter moves: the skipped ids are
// never minted, so totalMinted and totalSupply (ERC721Enumerable's count of existing cards) differ on purpose
// afterwards. The contract derives the next id and the tranche's remaining count from totalMinted alone.

import { AccessCardAbi } from '@ai-economy/shared/abis';
import { maxUint256, type TransactionReceipt } from 'viem';
import { describe, expect, it } from 'vitest';
import { MINT_PRICE_DELAY, PRICE, usdc, useCardChain } from './fixture.ts';

const f = useCardChain();

const brief = (events: { eventName: string; args: unknown }[]) => events.map((e) => [e.eventName, e.args]);

async function ownerOf(tokenId: bigint) {
  return f.client.readContract({ address: f.card, abi: AccessCardAbi, functionName: 'ownerOf', args: [tokenId] });
}

/**
 * The owner activates `tranche` at `price`, with minting paused as price changes require, and the chain's clock moves
 * past the delay after which its cards can be minted; returns the activation's receipt.
 */
async function activate(tranche: number, price: bigint) {
  const receipt = await f.whilePaused(() =>
    f.send(
      f.wallet(0).writeContract({
        address: f.card,
        abi: AccessCardAbi,
        functionName: 'activateTranche',
        args: [tranche, price],
      }),
    ),
  );
  await f.advance();
  return receipt;
}

/** The card's events in an activation: the price scheduled a delay after its block, then the tranche. */
async function activation(receipt: TransactionReceipt, tranche: number, price: bigint) {
  const effectiveAt = (await f.blockTime(receipt)) + MINT_PRICE_DELAY;
  return [
    ['MintPriceScheduled', { price, effectiveAt }],
    ['TrancheActivated', { tranche, price }],
  ];
}

describe('tierOf(tokenId)', () => {
  it.each([
    { label: '0', id: 0n, tranche: 0, multiplier: 1 },
    { label: '1', id: 1n, tranche: 1, multiplier: 5 },
    { label: '500', id: 500n, tranche: 1, multiplier: 5 },
    { label: '1000', id: 1_000n, tranche: 1, multiplier: 5 },
    { label: '1001', id: 1_001n, tranche: 2, multiplier: 3 },
    { label: '4000', id: 4_000n, tranche: 2, multiplier: 3 },
    { label: '4001', id: 4_001n, tranche: 3, multiplier: 2 },
    { label: '10000', id: 10_000n, tranche: 3, multiplier: 2 },
    { label: '10001', id: 10_001n, tranche: 0, multiplier: 1 },
    { label: '2^256 - 1', id: maxUint256, tranche: 0, multiplier: 1 },
  ])('id $label is tranche $tranche with multiplier $multiplier', async ({ id, tranche, multiplier }) => {
    const tier = await f.client.readContract({
      address: f.card,
      abi: AccessCardAbi,
      functionName: 'tierOf',
      args: [id],
    });
    expect(tier).toEqual([tranche, BigInt(multiplier)]);
  });
});

describe('tranche boundaries', () => {
  it('starts in tranche 1 with 1,000 cards at 100 USDC', async () => {
    expect(await f.views()).toMatchObject({ currentTranche: 1, trancheRemaining: 1_000n, mintPrice: PRICE });
  });

  it('sells id 1000 as the last Black card, then reports tranche 1 sold out until tranche 2 opens at id 1001', async () => {
    await f.setTotalMinted(999n);
    expect(await f.views()).toMatchObject({ totalMinted: 999n, totalSupply: 0n, trancheRemaining: 1n });

    const last = await f.mint(1);
    expect(brief(f.cardEvents(last))[1]).toEqual([
      'CardMinted',
      { buyer: f.addr(1), tokenId: 1_000n, tranche: 1, price: PRICE },
    ]);
    expect(await ownerOf(1_000n)).toBe(f.addr(1));
    expect(await f.views()).toMatchObject({
      totalMinted: 1_000n,
      totalSupply: 1n,
      trancheRemaining: 0n,
      currentTranche: 1,
    });

    await f.approve(2, PRICE * 5n);
    const before = await f.ledger(f.addr(2));
    await f.minedRevert(2, { functionName: 'mint' }, 'AccessCardTrancheSoldOut', [1]);
    await f.minedRevert(2, { functionName: 'mintBatch', args: [1n] }, 'AccessCardTrancheSoldOut', [1]);
    await f.minedRevert(2, { functionName: 'mintBatch', args: [5n] }, 'AccessCardTrancheSoldOut', [1]);
    expect(await f.ledger(f.addr(2))).toEqual(before);

    const opened = await activate(2, usdc(150));
    expect(brief(f.cardEvents(opened))).toEqual(await activation(opened, 2, usdc(150)));
    expect(await f.views()).toMatchObject({ currentTranche: 2, mintPrice: usdc(150), trancheRemaining: 3_000n });

    await f.approve(2, usdc(150));
    const paid = await f.usdcOf(f.addr(2));
    const first = await f.send(
      f.wallet(2).writeContract({ address: f.card, abi: AccessCardAbi, functionName: 'mint' }),
    );
    expect(paid - (await f.usdcOf(f.addr(2)))).toBe(usdc(150));
    expect(brief(f.cardEvents(first))[1]).toEqual([
      'CardMinted',
      { buyer: f.addr(2), tokenId: 1_001n, tranche: 2, price: usdc(150) },
    ]);
    expect(await f.views()).toMatchObject({ totalMinted: 1_001n, totalSupply: 2n, trancheRemaining: 2_999n });
  });

  it('sells id 4000 as the last Gold card, then opens tranche 3 at id 4001', async () => {
    await f.openTranche(2);
    await f.setTotalMinted(3_999n);
    const last = await f.mint(1);
    expect(brief(f.cardEvents(last))[1]).toEqual([
      'CardMinted',
      { buyer: f.addr(1), tokenId: 4_000n, tranche: 2, price: PRICE },
    ]);
    expect(await f.views()).toMatchObject({ totalMinted: 4_000n, trancheRemaining: 0n, currentTranche: 2 });
    await f.approve(1, PRICE);
    await f.minedRevert(1, { functionName: 'mint' }, 'AccessCardTrancheSoldOut', [2]);

    const opened = await activate(3, usdc(80));
    expect(brief(f.cardEvents(opened))).toEqual(await activation(opened, 3, usdc(80)));
    expect(await f.views()).toMatchObject({ currentTranche: 3, mintPrice: usdc(80), trancheRemaining: 6_000n });
    const first = await f.mint(1); // approves PRICE, more than the 80 USDC taken
    expect(brief(f.cardEvents(first))[1]).toEqual([
      'CardMinted',
      { buyer: f.addr(1), tokenId: 4_001n, tranche: 3, price: usdc(80) },
    ]);
    expect(await f.usdcOf(f.card)).toBe(PRICE + usdc(80));
  });

  it('sells ids up to the cap of 10,000 and nothing after it', async () => {
    await f.openTranche(2);
    await f.openTranche(3);
    await f.setTotalMinted(9_995n);
    const batch = await f.mintBatch(1, 5);
    const minted = f
      .cardEvents(batch)
      .filter((e) => e.eventName === 'CardMinted')
      .map((e) => e.args);
    expect(minted.map((a) => ('tokenId' in a ? a.tokenId : undefined))).toEqual([
      9_996n,
      9_997n,
      9_998n,
      9_999n,
      10_000n,
    ]);
    expect(await ownerOf(10_000n)).toBe(f.addr(1));
    const maxSupply = await f.client.readContract({ address: f.card, abi: AccessCardAbi, functionName: 'MAX_SUPPLY' });
    expect(await f.views()).toMatchObject({ totalMinted: maxSupply, trancheRemaining: 0n, currentTranche: 3 });

    await f.approve(2, PRICE * 5n);
    const before = await f.ledger(f.addr(2));
    await f.minedRevert(2, { functionName: 'mint' }, 'AccessCardTrancheSoldOut', [3]);
    await f.minedRevert(2, { functionName: 'mintBatch', args: [1n] }, 'AccessCardTrancheSoldOut', [3]);
    // No tranche 4 to open, and neither a new price nor toggling minting reopens sales.
    await f.whilePaused(async () => {
      await f.minedRevert(0, { functionName: 'activateTranche', args: [4, PRICE] }, 'AccessCardInvalidTranche', [4]);
      await f.send(
        f.wallet(0).writeContract({ address: f.card, abi: AccessCardAbi, functionName: 'setMintPrice', args: [1n] }),
      );
    });
    await f.minedRevert(2, { functionName: 'mint' }, 'AccessCardTrancheSoldOut', [3]);
    expect(await f.ledger(f.addr(2))).toEqual(before);
    expect((await f.views()).totalMinted).toBe(10_000n);
  });
});

describe('batches at the end of a tranche', () => {
  it.each([
    { tranche: 1, minted: 997n, remaining: 3n, left: 3 },
    { tranche: 2, minted: 3_998n, remaining: 2n, left: 2 },
    { tranche: 3, minted: 9_999n, remaining: 1n, left: 1 },
  ])('tranche $tranche with $left left rejects a larger batch with AccessCardInvalidQuantity(quantity, remaining) and sells the rest', async ({
    tranche,
    minted,
    remaining,
  }) => {
    if (tranche >= 2) await f.openTranche(2);
    if (tranche >= 3) await f.openTranche(3);
    await f.setTotalMinted(minted);
    await f.approve(1, PRICE * 5n);
    const before = await f.ledger(f.addr(1));
    for (let q = remaining + 1n; q <= 5n; q++) {
      await f.minedRevert(1, { functionName: 'mintBatch', args: [q] }, 'AccessCardInvalidQuantity', [q, remaining]);
    }
    expect(await f.ledger(f.addr(1))).toEqual(before);

    await f.send(
      f.wallet(1).writeContract({ address: f.card, abi: AccessCardAbi, functionName: 'mintBatch', args: [remaining] }),
    );
    const after = await f.ledger(f.addr(1));
    expect(before.accounts[0]!.usdc - after.accounts[0]!.usdc).toBe(PRICE * remaining);
    expect(after.accounts[0]!.cards).toBe(remaining);
    expect(await f.views()).toMatchObject({ totalMinted: minted + remaining, trancheRemaining: 0n });
    // The last card of the tranche belongs to it.
    const tier = await f.client.readContract({
      address: f.card,
      abi: AccessCardAbi,
      functionName: 'tierOf',
      args: [minted + remaining],
    });
    expect(tier[0]).toBe(tranche);
  });
});

describe('activateTranche(tranche, price)', () => {
  /** An activation the card refuses, tried with minting paused (as every price change must be). */
  const refused = (tranche: number, errorName: string, args: readonly unknown[]) =>
    f.whilePaused(() => f.minedRevert(0, { functionName: 'activateTranche', args: [tranche, PRICE] }, errorName, args));

  it('AccessCardMintActive while minting is on: a pending mint never meets a new price', async () => {
    await f.setTotalMinted(1_000n);
    await f.minedRevert(0, { functionName: 'activateTranche', args: [2, PRICE] }, 'AccessCardMintActive', []);
    await f.minedRevert(0, { functionName: 'setMintPrice', args: [usdc(1)] }, 'AccessCardMintActive', []);
    expect(await f.views()).toMatchObject({ currentTranche: 1, mintPrice: PRICE });
  });

  it('AccessCardTrancheNotSoldOut(current, remaining) while the current tranche has cards left', async () => {
    await refused(2, 'AccessCardTrancheNotSoldOut', [1, 1_000n]);
    await f.setTotalMinted(999n);
    await refused(2, 'AccessCardTrancheNotSoldOut', [1, 1n]);
    await f.openTranche(2);
    await f.setTotalMinted(3_000n);
    await refused(3, 'AccessCardTrancheNotSoldOut', [2, 1_000n]);
    expect(await f.views()).toMatchObject({ currentTranche: 2, mintPrice: PRICE });
  });

  it.each([
    0, 1, 3, 4, 255,
  ])('AccessCardInvalidTranche(%i) from tranche 1, even when it is sold out', async (tranche) => {
    await f.setTotalMinted(1_000n);
    await refused(tranche, 'AccessCardInvalidTranche', [tranche]);
    expect(await f.views()).toMatchObject({ currentTranche: 1 });
  });

  it('only ever opens the next tranche: 2 twice, or 3 and 4 from tranche 3, revert with AccessCardInvalidTranche', async () => {
    await f.openTranche(2);
    await f.setTotalMinted(4_000n);
    await refused(2, 'AccessCardInvalidTranche', [2]);
    await f.openTranche(3);
    // Tranche 4 does not exist, whether tranche 3 is sold out or not.
    await refused(4, 'AccessCardInvalidTranche', [4]);
    await refused(3, 'AccessCardInvalidTranche', [3]);
    await f.setTotalMinted(10_000n);
    await refused(4, 'AccessCardInvalidTranche', [4]);
    expect(await f.views()).toMatchObject({ currentTranche: 3, trancheRemaining: 0n });
  });

  it('replaces a price set earlier with setMintPrice by the price it is given', async () => {
    await f.whilePaused(() =>
      f.send(
        f
          .wallet(0)
          .writeContract({ address: f.card, abi: AccessCardAbi, functionName: 'setMintPrice', args: [usdc(7)] }),
      ),
    );
    await f.advance();
    expect((await f.views()).mintPrice).toBe(usdc(7));
    const receipt = await f.openTranche(2, usdc(150));
    expect(brief(f.cardEvents(receipt))).toEqual(await activation(receipt, 2, usdc(150)));
    expect((await f.views()).mintPrice).toBe(usdc(150));
  });

  it('OwnableUnauthorizedAccount for anyone but the owner, platform included', async () => {
    await f.setTotalMinted(1_000n);
    await f.send(
      f
        .wallet(0)
        .writeContract({ address: f.card, abi: AccessCardAbi, functionName: 'setPlatform', args: [f.addr(5)] }),
    );
    for (const i of [1, 5]) {
      await f.minedRevert(i, { functionName: 'activateTranche', args: [2, PRICE] }, 'OwnableUnauthorizedAccount', [
        f.addr(i),
      ]);
    }
    expect(await f.views()).toMatchObject({ currentTranche: 1 });
  });
});
