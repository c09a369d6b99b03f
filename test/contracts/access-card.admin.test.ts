// AccessCard views and owner-only administration: setMintActive, setMintPrice, setPlatform, withdraw (and
// activateTranche's access rule), their events, and OwnableUnauthorizedAccount for everyone but the owner.

import { AccessCardAbi, MockUSDCAbi } from '@ai-economy/shared/abis';
import { describe, expect, it } from 'vitest';
import { expectRevert } from '../helpers/revert.ts';
import { MINT_PRICE_DELAY, PRICE, usdc, useCardChain, ZERO } from './fixture.ts';

const f = useCardChain();

const brief = (events: { eventName: string; args: unknown }[]) => events.map((e) => [e.eventName, e.args]);
const readCard = <
  const fn extends 'owner' | 'pendingOwner' | 'platform' | 'usdc' | 'MAX_SUPPLY' | 'MAX_BATCH' | 'TRANCHE_COUNT',
>(
  functionName: fn,
) => f.client.readContract({ address: f.card, abi: AccessCardAbi, functionName });

describe('views', () => {
  it('start as the deployment leaves them', async () => {
    expect(await f.views()).toEqual({
      totalSupply: 0n,
      totalMinted: 0n,
      trancheRemaining: 1_000n,
      currentTranche: 1,
      mintPrice: PRICE,
      mintActive: true,
    });
    expect(await readCard('owner')).toBe(f.addr(0));
    expect(await readCard('platform')).toBe(f.addr(0));
    expect(await readCard('usdc')).toBe(f.usdcToken);
    expect([await readCard('MAX_SUPPLY'), await readCard('MAX_BATCH'), await readCard('TRANCHE_COUNT')]).toEqual([
      10_000n,
      5n,
      3,
    ]);
  });

  it('the deployment emitted OwnershipTransferred, PlatformSet, TrancheActivated(1, price), MintActiveSet(true) and StakingSet', async () => {
    const events = await f.client.getContractEvents({ address: f.card, abi: AccessCardAbi, fromBlock: 0n });
    expect(brief(events)).toEqual([
      ['OwnershipTransferred', { previousOwner: ZERO, newOwner: f.addr(0) }],
      ['PlatformSet', { previousPlatform: ZERO, newPlatform: f.addr(0) }],
      ['TrancheActivated', { tranche: 1, price: PRICE }],
      ['MintActiveSet', { active: true }],
      ['StakingSet', { previousStaking: ZERO, newStaking: f.chain.chain.contracts.staking }],
    ]);
  });

  it('track sales: totalSupply and totalMinted rise together, trancheRemaining falls', async () => {
    await f.mint(1);
    await f.mintBatch(2, 4);
    expect(await f.views()).toMatchObject({ totalSupply: 5n, totalMinted: 5n, trancheRemaining: 995n });
  });
});

describe('ERC-721 surface', () => {
  it('announces ERC-165, ERC-721, metadata and enumerable interfaces', async () => {
    const supports = (id: `0x${string}`) =>
      f.client.readContract({ address: f.card, abi: AccessCardAbi, functionName: 'supportsInterface', args: [id] });
    expect(
      await Promise.all(
        ['0x01ffc9a7', '0x80ac58cd', '0x5b5e139f', '0x780e9d63'].map((id) => supports(id as `0x${string}`)),
      ),
    ).toEqual([true, true, true, true]);
    expect(await supports('0xffffffff')).toBe(false);
  });

  it('serves tokenURI from the platform metadata route, and setBaseURI changes it', async () => {
    await f.mint(1);
    const tokenURI = () =>
      f.client.readContract({ address: f.card, abi: AccessCardAbi, functionName: 'tokenURI', args: [1n] });
    expect(await tokenURI()).toBe('http://localhost:3000/api/nft/metadata/1');
    await f.send(
      f.wallet(0).writeContract({
        address: f.card,
        abi: AccessCardAbi,
        functionName: 'setBaseURI',
        args: ['https://cards.example/meta/'],
      }),
    );
    expect(await tokenURI()).toBe('https://cards.example/meta/1');
    await expectRevert(
      f.client.readContract({ address: f.card, abi: AccessCardAbi, functionName: 'tokenURI', args: [2n] }),
      'ERC721NonexistentToken',
      [2n],
    );
  });
});

describe('owner administration', () => {
  it('setMintActive switches minting and emits MintActiveSet', async () => {
    const off = await f.send(
      f.wallet(0).writeContract({ address: f.card, abi: AccessCardAbi, functionName: 'setMintActive', args: [false] }),
    );
    expect(brief(f.cardEvents(off))).toEqual([['MintActiveSet', { active: false }]]);
    expect((await f.views()).mintActive).toBe(false);
    const on = await f.send(
      f.wallet(0).writeContract({ address: f.card, abi: AccessCardAbi, functionName: 'setMintActive', args: [true] }),
    );
    expect(brief(f.cardEvents(on))).toEqual([['MintActiveSet', { active: true }]]);
    expect((await f.views()).mintActive).toBe(true);
  });

  it('setMintPrice schedules mintPrice a delay ahead and emits MintPriceScheduled, only while minting is paused', async () => {
    await f.minedRevert(0, { functionName: 'setMintPrice', args: [usdc(250)] }, 'AccessCardMintActive', []);
    const receipt = await f.whilePaused(() =>
      f.send(
        f
          .wallet(0)
          .writeContract({ address: f.card, abi: AccessCardAbi, functionName: 'setMintPrice', args: [usdc(250)] }),
      ),
    );
    const effectiveAt = (await f.blockTime(receipt)) + MINT_PRICE_DELAY;
    expect(brief(f.cardEvents(receipt))).toEqual([['MintPriceScheduled', { price: usdc(250), effectiveAt }]]);
    expect((await f.views()).mintPrice).toBe(PRICE);
    await f.advance();
    expect((await f.views()).mintPrice).toBe(usdc(250));
  });

  it('setMintPrice and activateTranche refuse a price of zero with AccessCardInvalidPrice', async () => {
    await f.setTotalMinted(1_000n);
    await f.whilePaused(async () => {
      await f.minedRevert(0, { functionName: 'setMintPrice', args: [0n] }, 'AccessCardInvalidPrice', [0n]);
      await f.minedRevert(0, { functionName: 'activateTranche', args: [2, 0n] }, 'AccessCardInvalidPrice', [0n]);
    });
    expect((await f.views()).mintPrice).toBe(usdc(100));
  });

  it('setPlatform changes the platform and emits PlatformSet(previous, new)', async () => {
    const receipt = await f.send(
      f
        .wallet(0)
        .writeContract({ address: f.card, abi: AccessCardAbi, functionName: 'setPlatform', args: [f.addr(5)] }),
    );
    expect(brief(f.cardEvents(receipt))).toEqual([
      ['PlatformSet', { previousPlatform: f.addr(0), newPlatform: f.addr(5) }],
    ]);
    expect(await readCard('platform')).toBe(f.addr(5));
  });

  it('setPlatform rejects the zero address with AccessCardInvalidAddress', async () => {
    await f.minedRevert(0, { functionName: 'setPlatform', args: [ZERO] }, 'AccessCardInvalidAddress', [ZERO]);
    expect(await readCard('platform')).toBe(f.addr(0));
  });

  it('withdraw(to) sends the whole USDC balance, sales and stray transfers alike, and emits Withdrawn', async () => {
    await f.mint(1);
    await f.mintBatch(2, 3);
    // USDC sent to the contract outside a sale is withdrawn too.
    await f.send(
      f
        .wallet(3)
        .writeContract({ address: f.usdcToken, abi: MockUSDCAbi, functionName: 'transfer', args: [f.card, 7n] }),
    );
    const held = await f.usdcOf(f.card);
    expect(held).toBe(PRICE * 4n + 7n);
    const before = await f.usdcOf(f.addr(8));
    const receipt = await f.send(
      f.wallet(0).writeContract({ address: f.card, abi: AccessCardAbi, functionName: 'withdraw', args: [f.addr(8)] }),
    );
    expect((await f.usdcOf(f.addr(8))) - before).toBe(held);
    expect(await f.usdcOf(f.card)).toBe(0n);
    expect(brief(f.cardEvents(receipt))).toEqual([['Withdrawn', { to: f.addr(8), amount: held }]]);
    expect(brief(f.usdcEvents(receipt))).toEqual([['Transfer', { from: f.card, to: f.addr(8), value: held }]]);
    // Cards are unaffected.
    expect(await f.views()).toMatchObject({ totalSupply: 4n, totalMinted: 4n });
  });

  it('withdraw with nothing held sends 0 and still emits Withdrawn', async () => {
    const receipt = await f.send(
      f.wallet(0).writeContract({ address: f.card, abi: AccessCardAbi, functionName: 'withdraw', args: [f.addr(0)] }),
    );
    expect(brief(f.cardEvents(receipt))).toEqual([['Withdrawn', { to: f.addr(0), amount: 0n }]]);
  });

  it('withdraw rejects the zero address with AccessCardInvalidAddress and keeps the funds', async () => {
    await f.mint(1);
    await f.minedRevert(0, { functionName: 'withdraw', args: [ZERO] }, 'AccessCardInvalidAddress', [ZERO]);
    expect(await f.usdcOf(f.card)).toBe(PRICE);
  });

  it('ownership moves in two steps: the new owner administers once it accepted, the previous one no longer does', async () => {
    await f.send(
      f.wallet(0).writeContract({
        address: f.card,
        abi: AccessCardAbi,
        functionName: 'transferOwnership',
        args: [f.addr(3)],
      }),
    );
    // Until accepted, the offer changes nothing: a mistyped address can never take the collection.
    expect(await readCard('owner')).toBe(f.addr(0));
    expect(await readCard('pendingOwner')).toBe(f.addr(3));
    await f.minedRevert(3, { functionName: 'setMintActive', args: [false] }, 'OwnableUnauthorizedAccount', [f.addr(3)]);
    await f.send(f.wallet(3).writeContract({ address: f.card, abi: AccessCardAbi, functionName: 'acceptOwnership' }));
    expect(await readCard('owner')).toBe(f.addr(3));
    await f.minedRevert(0, { functionName: 'setMintActive', args: [false] }, 'OwnableUnauthorizedAccount', [f.addr(0)]);
    await f.send(
      f.wallet(3).writeContract({ address: f.card, abi: AccessCardAbi, functionName: 'setMintActive', args: [false] }),
    );
    await f.send(
      f.wallet(3).writeContract({ address: f.card, abi: AccessCardAbi, functionName: 'setMintPrice', args: [1n] }),
    );
    await f.advance();
    expect((await f.views()).mintPrice).toBe(1n);
  });

  it('setBaseURI tells marketplaces every card changed (ERC-4906 BatchMetadataUpdate), and the interface says so', async () => {
    const receipt = await f.send(
      f
        .wallet(0)
        .writeContract({ address: f.card, abi: AccessCardAbi, functionName: 'setBaseURI', args: ['https://x/'] }),
    );
    expect(brief(f.cardEvents(receipt))).toEqual([['BatchMetadataUpdate', { _fromTokenId: 1n, _toTokenId: 10_000n }]]);
    expect(
      await f.client.readContract({
        address: f.card,
        abi: AccessCardAbi,
        functionName: 'supportsInterface',
        args: ['0x49064906'],
      }),
    ).toBe(true);
  });
});

describe('OwnableUnauthorizedAccount for everyone but the owner', () => {
  const calls = [
    { functionName: 'activateTranche', args: [2, PRICE] },
    { functionName: 'setMintActive', args: [false] },
    { functionName: 'setMintPrice', args: [1n] },
    { functionName: 'setPlatform', args: ['0x000000000000000000000000000000000000dEaD'] },
    { functionName: 'withdraw', args: ['0x000000000000000000000000000000000000dEaD'] },
    { functionName: 'setBaseURI', args: ['https://evil.example/'] },
  ];

  it.each(calls)('$functionName refuses a buyer and a platform that is not the owner', async (call) => {
    await f.mint(1); // some USDC for withdraw to take
    await f.setTotalMinted(1_000n); // tranche 1 sold out, so only ownership stands in activateTranche's way
    await f.send(
      f
        .wallet(0)
        .writeContract({ address: f.card, abi: AccessCardAbi, functionName: 'setPlatform', args: [f.addr(5)] }),
    );
    const before = { views: await f.views(), platform: await readCard('platform'), usdc: await f.usdcOf(f.card) };
    for (const i of [1, 5]) {
      await f.minedRevert(i, call, 'OwnableUnauthorizedAccount', [f.addr(i)]);
    }
    expect({ views: await f.views(), platform: await readCard('platform'), usdc: await f.usdcOf(f.card) }).toEqual(
      before,
    );
  });
});
