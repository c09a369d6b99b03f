// AccessCard sales: mint(), mintBatch(quantity), their reverts (which must leave no card and move no USDC),
// the reentrancy guard, and the gas the sale and binding transactions use.

import { AccessCardAbi, MockUSDCAbi, ReentrantCardBuyerAbi } from '@ai-economy/shared/abis';
import { type Address, getAddress, type Hex, maxUint256 } from 'viem';
import { describe, expect, it } from 'vitest';
import { loadArtifact } from '../../src/chain/artifacts.ts';
import { expectRevert } from '../helpers/revert.ts';
import { ALL_ERRORS, PRICE, usdc, useCardChain, ZERO } from './fixture.ts';

const f = useCardChain();

const brief = (events: { eventName: string; args: unknown }[]) => events.map((e) => [e.eventName, e.args]);

async function ownerOf(tokenId: bigint) {
  return f.client.readContract({ address: f.card, abi: AccessCardAbi, functionName: 'ownerOf', args: [tokenId] });
}

async function allowance(owner: Address) {
  return f.client.readContract({
    address: f.usdcToken,
    abi: MockUSDCAbi,
    functionName: 'allowance',
    args: [owner, f.card],
  });
}

/** Leaves account i with exactly `amount` USDC by sending the rest to account 9. */
async function setUsdcBalance(i: number, amount: bigint) {
  const excess = (await f.usdcOf(f.addr(i))) - amount;
  await f.send(
    f.wallet(i).writeContract({
      address: f.usdcToken,
      abi: MockUSDCAbi,
      functionName: 'transfer',
      args: [f.addr(9), excess],
    }),
  );
}

describe('mint()', () => {
  it('takes exactly mintPrice from the buyer and mints token 1 with Transfer and CardMinted events', async () => {
    const buyer = f.addr(1);
    await f.approve(1, PRICE);
    const before = await f.ledger(buyer);
    const receipt = await f.send(
      f.wallet(1).writeContract({ address: f.card, abi: AccessCardAbi, functionName: 'mint' }),
    );
    const after = await f.ledger(buyer);

    expect(before.accounts[0]!.usdc - after.accounts[0]!.usdc).toBe(PRICE);
    expect(after.cardUsdc - before.cardUsdc).toBe(PRICE);
    expect(after.accounts[0]!.cards).toBe(1n);
    expect(await ownerOf(1n)).toBe(buyer);
    expect(await allowance(buyer)).toBe(0n);
    expect(await f.views()).toMatchObject({ totalSupply: 1n, totalMinted: 1n, trancheRemaining: 999n });

    expect(brief(f.usdcEvents(receipt))).toEqual([['Transfer', { from: buyer, to: f.card, value: PRICE }]]);
    expect(brief(f.cardEvents(receipt))).toEqual([
      ['Transfer', { from: ZERO, to: buyer, tokenId: 1n }],
      ['CardMinted', { buyer, tokenId: 1n, tranche: 1, price: PRICE }],
    ]);
    // USDC moves before the card exists (docs/contracts.md: USDC is transferred before the card is minted).
    const usdcLog = receipt.logs.findIndex((l) => l.address.toLowerCase() === f.usdcToken.toLowerCase());
    const cardLog = receipt.logs.findIndex((l) => l.address.toLowerCase() === f.card.toLowerCase());
    expect(usdcLog).toBeLessThan(cardLog);
  });

  it('returns the new id and hands out sequential ids from 1 across buyers', async () => {
    await f.approve(1, maxUint256);
    const { result } = await f.client.simulateContract({
      account: f.wallet(1).account,
      address: f.card,
      abi: AccessCardAbi,
      functionName: 'mint',
    });
    expect(result).toBe(1n);

    await f.mint(1);
    await f.mint(2);
    await f.mint(1);
    expect([await ownerOf(1n), await ownerOf(2n), await ownerOf(3n)]).toEqual([f.addr(1), f.addr(2), f.addr(1)]);
    const owned = await Promise.all(
      [0n, 1n].map((i) =>
        f.client.readContract({
          address: f.card,
          abi: AccessCardAbi,
          functionName: 'tokenOfOwnerByIndex',
          args: [f.addr(1), i],
        }),
      ),
    );
    expect(owned).toEqual([1n, 3n]);
    expect(await f.views()).toMatchObject({ totalSupply: 3n, totalMinted: 3n, trancheRemaining: 997n });
  });

  it('succeeds with a balance of exactly the price, leaving the buyer at zero', async () => {
    await setUsdcBalance(1, PRICE);
    await f.mint(1);
    expect(await f.usdcOf(f.addr(1))).toBe(0n);
    expect(await ownerOf(1n)).toBe(f.addr(1));
  });

  it('charges the price in force when the card is minted', async () => {
    await f.whilePaused(() =>
      f.send(
        f
          .wallet(0)
          .writeContract({ address: f.card, abi: AccessCardAbi, functionName: 'setMintPrice', args: [usdc(42)] }),
      ),
    );
    await f.advance(); // a new price takes effect a delay after it is set (access-card.price-delay.test.ts)
    const before = await f.usdcOf(f.addr(1));
    const receipt = await f.mint(1);
    expect(before - (await f.usdcOf(f.addr(1)))).toBe(usdc(42));
    expect(await f.usdcOf(f.card)).toBe(usdc(42));
    expect(brief(f.cardEvents(receipt))[1]).toEqual([
      'CardMinted',
      { buyer: f.addr(1), tokenId: 1n, tranche: 1, price: usdc(42) },
    ]);
  });
});

describe('a maximum price', () => {
  it('mint(maxPrice) and mintBatch(quantity, maxPrice) pay the price when it is at most the maximum', async () => {
    await f.approve(1, PRICE * 3n);
    const one = await f.send(
      f.wallet(1).writeContract({ address: f.card, abi: AccessCardAbi, functionName: 'mint', args: [PRICE] }),
    );
    expect(brief(f.cardEvents(one))[1]).toEqual([
      'CardMinted',
      { buyer: f.addr(1), tokenId: 1n, tranche: 1, price: PRICE },
    ]);
    await f.send(
      f
        .wallet(1)
        .writeContract({ address: f.card, abi: AccessCardAbi, functionName: 'mintBatch', args: [2n, PRICE + 1n] }),
    );
    expect(await f.usdcOf(f.card)).toBe(PRICE * 3n);
  });

  it('refuses with AccessCardPriceAboveMax when the price rose above what the buyer saw, taking nothing', async () => {
    await f.whilePaused(() =>
      f.send(
        f
          .wallet(0)
          .writeContract({ address: f.card, abi: AccessCardAbi, functionName: 'setMintPrice', args: [usdc(500)] }),
      ),
    );
    await f.advance();
    await f.approve(1, usdc(2_500));
    const before = await f.ledger(f.addr(1));
    await f.minedRevert(1, { functionName: 'mint', args: [PRICE] }, 'AccessCardPriceAboveMax', [usdc(500), PRICE]);
    await f.minedRevert(1, { functionName: 'mintBatch', args: [5n, PRICE] }, 'AccessCardPriceAboveMax', [
      usdc(500),
      PRICE,
    ]);
    expect(await f.ledger(f.addr(1))).toEqual(before);
  });
});

describe('mint() reverts without creating a card or moving USDC', () => {
  /** Mines a reverting mint from account i and checks that cards, totals, USDC and the allowance are untouched. */
  async function expectNoTraceRevert(i: number, errorName: string, args: readonly unknown[]) {
    const before = await f.ledger(f.addr(i));
    const allowanceBefore = await allowance(f.addr(i));
    await f.minedRevert(i, { functionName: 'mint' }, errorName, args);
    expect(await f.ledger(f.addr(i))).toEqual(before);
    expect(await allowance(f.addr(i))).toBe(allowanceBefore);
    await expectRevert(ownerOf(before.totalMinted + 1n), 'ERC721NonexistentToken', [before.totalMinted + 1n]);
  }

  it('AccessCardMintInactive while minting is switched off, and mints again once it is back on', async () => {
    await f.send(
      f.wallet(0).writeContract({ address: f.card, abi: AccessCardAbi, functionName: 'setMintActive', args: [false] }),
    );
    await f.approve(1, PRICE);
    await expectNoTraceRevert(1, 'AccessCardMintInactive', []);
    await f.send(
      f.wallet(0).writeContract({ address: f.card, abi: AccessCardAbi, functionName: 'setMintActive', args: [true] }),
    );
    await f.mint(1);
    expect(await ownerOf(1n)).toBe(f.addr(1));
  });

  it('AccessCardInsufficientBalance(buyer, balance, price) when the balance is one unit short', async () => {
    await setUsdcBalance(1, PRICE - 1n);
    await f.approve(1, PRICE);
    await expectNoTraceRevert(1, 'AccessCardInsufficientBalance', [f.addr(1), PRICE - 1n, PRICE]);
  });

  it('AccessCardInsufficientBalance(buyer, 0, price) for an account without USDC', async () => {
    // Account 0 (owner and platform) receives no USDC from the deployment.
    expect(await f.usdcOf(f.addr(0))).toBe(0n);
    await f.approve(0, PRICE);
    await expectNoTraceRevert(0, 'AccessCardInsufficientBalance', [f.addr(0), 0n, PRICE]);
  });

  it('ERC20InsufficientAllowance(card, 0, price) without an approval', async () => {
    await expectNoTraceRevert(1, 'ERC20InsufficientAllowance', [f.card, 0n, PRICE]);
  });

  it('ERC20InsufficientAllowance(card, allowance, price) with an approval one unit short', async () => {
    await f.approve(1, PRICE - 1n);
    await expectNoTraceRevert(1, 'ERC20InsufficientAllowance', [f.card, PRICE - 1n, PRICE]);
  });

  it('reports the same decoded error to a client simulating the call', async () => {
    await expectRevert(
      f.client.simulateContract({
        account: f.wallet(1).account,
        address: f.card,
        abi: AccessCardAbi,
        functionName: 'mint',
      }),
      'ERC20InsufficientAllowance',
      [f.card, 0n, PRICE],
      ALL_ERRORS,
    );
  });
});

describe('mintBatch(quantity)', () => {
  it.each([1, 2, 3, 4, 5])('mints %i sequential cards for exactly price × quantity', async (quantity) => {
    await f.mint(2); // token 1 goes to someone else, so the batch starts at 2
    const q = BigInt(quantity);
    const buyer = f.addr(1);
    await f.approve(1, PRICE * q);
    const { result } = await f.client.simulateContract({
      account: f.wallet(1).account,
      address: f.card,
      abi: AccessCardAbi,
      functionName: 'mintBatch',
      args: [q],
    });
    expect(result).toBe(2n);

    const before = await f.ledger(buyer);
    const receipt = await f.send(
      f.wallet(1).writeContract({ address: f.card, abi: AccessCardAbi, functionName: 'mintBatch', args: [q] }),
    );
    const after = await f.ledger(buyer);
    expect(before.accounts[0]!.usdc - after.accounts[0]!.usdc).toBe(PRICE * q);
    expect(after.cardUsdc - before.cardUsdc).toBe(PRICE * q);
    expect(after.accounts[0]!.cards).toBe(q);
    expect(after.totalMinted).toBe(1n + q);
    expect(after.totalSupply).toBe(1n + q);

    const ids = Array.from({ length: quantity }, (_, k) => 2n + BigInt(k));
    for (const id of ids) expect(await ownerOf(id)).toBe(buyer);
    await expectRevert(ownerOf(2n + q), 'ERC721NonexistentToken', [2n + q]);
    expect(brief(f.usdcEvents(receipt))).toEqual([['Transfer', { from: buyer, to: f.card, value: PRICE * q }]]);
    expect(brief(f.cardEvents(receipt))).toEqual(
      ids.flatMap((tokenId) => [
        ['Transfer', { from: ZERO, to: buyer, tokenId }],
        ['CardMinted', { buyer, tokenId, tranche: 1, price: PRICE }],
      ]),
    );
  });

  it.each([
    { label: '0', q: 0n },
    { label: '6', q: 6n },
    { label: '1000', q: 1_000n },
    { label: '2^256 - 1', q: maxUint256 },
  ])('rejects quantity $label with AccessCardInvalidQuantity(quantity, 5)', async ({ q }) => {
    await f.approve(1, maxUint256);
    const before = await f.ledger(f.addr(1));
    await f.minedRevert(1, { functionName: 'mintBatch', args: [q] }, 'AccessCardInvalidQuantity', [q, 5n]);
    expect(await f.ledger(f.addr(1))).toEqual(before);
  });

  it('AccessCardMintInactive while minting is switched off', async () => {
    await f.send(
      f.wallet(0).writeContract({ address: f.card, abi: AccessCardAbi, functionName: 'setMintActive', args: [false] }),
    );
    await f.approve(1, PRICE * 5n);
    const before = await f.ledger(f.addr(1));
    await f.minedRevert(1, { functionName: 'mintBatch', args: [5n] }, 'AccessCardMintInactive');
    expect(await f.ledger(f.addr(1))).toEqual(before);
  });

  it('AccessCardInsufficientBalance(buyer, balance, price × 5) when the balance pays for 4 cards only', async () => {
    const balance = PRICE * 5n - 1n;
    await setUsdcBalance(1, balance);
    await f.approve(1, PRICE * 5n);
    const before = await f.ledger(f.addr(1));
    await f.minedRevert(1, { functionName: 'mintBatch', args: [5n] }, 'AccessCardInsufficientBalance', [
      f.addr(1),
      balance,
      PRICE * 5n,
    ]);
    expect(await f.ledger(f.addr(1))).toEqual(before);
    await f.mintBatch(1, 4); // what the balance does cover still works
    expect(await f.usdcOf(f.addr(1))).toBe(PRICE - 1n);
  });

  it('ERC20InsufficientAllowance when the approval covers one card less than the batch', async () => {
    await f.approve(1, PRICE * 2n);
    const before = await f.ledger(f.addr(1));
    await f.minedRevert(1, { functionName: 'mintBatch', args: [3n] }, 'ERC20InsufficientAllowance', [
      f.card,
      PRICE * 2n,
      PRICE * 3n,
    ]);
    expect(await f.ledger(f.addr(1))).toEqual(before);
  });
});

describe('reentrancy', () => {
  /** Deploys a ReentrantCardBuyer and funds it with 1,000 USDC minted by the USDC owner (account 0). */
  async function deployBuyer(mode: 0 | 1 | 2): Promise<Address> {
    const hash = await f.wallet(0).deployContract({
      abi: ReentrantCardBuyerAbi,
      bytecode: loadArtifact('ReentrantCardBuyer').bytecode as Hex,
      args: [f.card, f.usdcToken],
    });
    const receipt = await f.send(Promise.resolve(hash));
    const buyer = getAddress(receipt.contractAddress!);
    await f.send(
      f.wallet(0).writeContract({
        address: f.usdcToken,
        abi: MockUSDCAbi,
        functionName: 'mint',
        args: [buyer, usdc(1_000)],
      }),
    );
    if (mode !== 0) {
      await f.send(
        f
          .wallet(0)
          .writeContract({ address: buyer, abi: ReentrantCardBuyerAbi, functionName: 'setReenterMode', args: [mode] }),
      );
    }
    return buyer;
  }

  it('a contract buyer that does not reenter receives its cards through onERC721Received', async () => {
    const buyer = await deployBuyer(0);
    await f.send(f.wallet(1).writeContract({ address: buyer, abi: ReentrantCardBuyerAbi, functionName: 'buy' }));
    await f.send(
      f.wallet(1).writeContract({ address: buyer, abi: ReentrantCardBuyerAbi, functionName: 'buyBatch', args: [2n] }),
    );
    expect([await ownerOf(1n), await ownerOf(2n), await ownerOf(3n)]).toEqual([buyer, buyer, buyer]);
    expect(await f.client.readContract({ address: buyer, abi: ReentrantCardBuyerAbi, functionName: 'received' })).toBe(
      3n,
    );
    expect(await f.usdcOf(buyer)).toBe(usdc(1_000) - PRICE * 3n);
    expect(await f.usdcOf(f.card)).toBe(PRICE * 3n);
  });

  it.each([
    { outer: 'mint', inner: 'mint', mode: 1, call: { functionName: 'buy' } },
    { outer: 'mint', inner: 'mintBatch', mode: 2, call: { functionName: 'buy' } },
    { outer: 'mintBatch', inner: 'mintBatch', mode: 2, call: { functionName: 'buyBatch', args: [2n] } },
    { outer: 'mintBatch', inner: 'mint', mode: 1, call: { functionName: 'buyBatch', args: [1n] } },
  ] as const)('$outer reentered with $inner from onERC721Received reverts with ReentrancyGuardReentrantCall and moves no USDC', async ({
    mode,
    call,
  }) => {
    const buyer = await deployBuyer(mode);
    const before = await f.ledger(buyer);
    await f.minedRevert(1, { ...call, address: buyer, abi: ReentrantCardBuyerAbi }, 'ReentrancyGuardReentrantCall', []);
    expect(await f.ledger(buyer)).toEqual(before);
    expect(before).toEqual({
      totalSupply: 0n,
      totalMinted: 0n,
      cardUsdc: 0n,
      accounts: [{ usdc: usdc(1_000), cards: 0n }],
    });
    expect(await allowance(buyer)).toBe(0n);
    await expectRevert(ownerOf(1n), 'ERC721NonexistentToken', [1n]);
  });
});

describe('gas', () => {
  it('records the gas of mint, mintBatch(5) and markCompanyDeployed', async () => {
    const firstMint = await f.mint(1); // first card ever: cold counters, the card's USDC balance goes from zero
    const secondMint = await f.mint(2);
    const batch = await f.mintBatch(3, 5);
    const mark = await f.send(
      f
        .wallet(0)
        .writeContract({ address: f.card, abi: AccessCardAbi, functionName: 'markCompanyDeployed', args: [1n] }),
    );
    const gas = {
      'mint (first card)': firstMint.gasUsed,
      'mint (later card)': secondMint.gasUsed,
      'mintBatch(5)': batch.gasUsed,
      markCompanyDeployed: mark.gasUsed,
    };
    console.log('AccessCard gas used', Object.fromEntries(Object.entries(gas).map(([k, v]) => [k, Number(v)])));
    // Loose ceilings, to notice a regression by an order of magnitude, not to pin exact numbers.
    expect(firstMint.gasUsed).toBeLessThan(300_000n);
    expect(secondMint.gasUsed).toBeLessThan(firstMint.gasUsed);
    expect(batch.gasUsed).toBeLessThan(5n * firstMint.gasUsed);
    expect(mark.gasUsed).toBeLessThan(60_000n);
  });
});
