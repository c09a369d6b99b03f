// AccessCard price changes take effect only MINT_PRICE_DELAY after the owner makes them (docs/contracts.md "Access
// card prices"): the owner pausing, repricing and unpausing in the block of a buyer's unbounded mint() charges that
// buyer the old price; the new price applies from exactly the scheduled second on (one second before, the old one);
// a new tranche cannot be minted before its price is in effect; and, as a property over random schedules, nobody
// ever pays more than the card showed (as its price or its pending price) a delay earlier.

import { AccessCardAbi } from '@ai-economy/shared/abis';
import fc from 'fast-check';
import type { Hex, TransactionReceipt } from 'viem';
import { describe, expect, it } from 'vitest';
import { MINT_PRICE_DELAY, PRICE, usdc, useCardChain } from './fixture.ts';

const f = useCardChain();

const brief = (events: { eventName: string; args: unknown }[]) => events.map((e) => [e.eventName, e.args]);
const UNLIMITED = 10n ** 30n;

const read = <T>(functionName: 'mintPrice' | 'pendingMintPrice' | 'MINT_PRICE_DELAY', blockNumber?: bigint) =>
  f.client.readContract({ address: f.card, abi: AccessCardAbi, functionName, blockNumber }) as Promise<T>;

/** The owner's setMintPrice(price), with minting paused around it as the card requires; the receipt of the change. */
function setPrice(price: bigint) {
  return f.whilePaused(() =>
    f.send(
      f.wallet(0).writeContract({ address: f.card, abi: AccessCardAbi, functionName: 'setMintPrice', args: [price] }),
    ),
  );
}

/** Mines account i's unbounded mint() in a block at exactly `timestamp`; returns what it paid and the receipt. */
async function mintAt(i: number, timestamp: bigint) {
  await f.client.setNextBlockTimestamp({ timestamp });
  const before = await f.usdcOf(f.addr(i));
  const receipt = await f.send(
    f.wallet(i).writeContract({ address: f.card, abi: AccessCardAbi, functionName: 'mint' }),
  );
  expect(await f.blockTime(receipt)).toBe(timestamp);
  return { paid: before - (await f.usdcOf(f.addr(i))), receipt };
}

describe('MINT_PRICE_DELAY', () => {
  it('is one day, and the fixture agrees', async () => {
    expect(await read<bigint>('MINT_PRICE_DELAY')).toBe(86_400n);
    expect(MINT_PRICE_DELAY).toBe(86_400n);
  });
});

describe('pause, reprice and unpause in one block', () => {
  it('charges a buyer with an unlimited approval the old price in that block, the next one and up to the delay', async () => {
    await f.approve(1, UNLIMITED);
    await f.approve(2, UNLIMITED);
    // The owner's three transactions and the buyer's mint wait in the mempool and are mined together, the owner's
    // first (a higher tip), as a front-running owner would arrange.
    await f.client.setAutomine(false);
    const owner = f.wallet(0);
    const tip = { gas: 200_000n, maxPriorityFeePerGas: 10_000_000_000n, maxFeePerGas: 100_000_000_000n };
    const hashes: Hex[] = [];
    try {
      hashes.push(
        await owner.writeContract({
          address: f.card,
          abi: AccessCardAbi,
          functionName: 'setMintActive',
          args: [false],
          ...tip,
        }),
        await owner.writeContract({
          address: f.card,
          abi: AccessCardAbi,
          functionName: 'setMintPrice',
          args: [usdc(5_000)],
          ...tip,
        }),
        await owner.writeContract({
          address: f.card,
          abi: AccessCardAbi,
          functionName: 'setMintActive',
          args: [true],
          ...tip,
        }),
        await f.wallet(1).writeContract({
          address: f.card,
          abi: AccessCardAbi,
          functionName: 'mint',
          gas: 400_000n,
          maxPriorityFeePerGas: 1_000_000_000n,
          maxFeePerGas: 100_000_000_000n,
        }),
      );
      await f.client.mine({ blocks: 1 });
    } finally {
      await f.client.setAutomine(true);
    }
    const receipts: TransactionReceipt[] = [];
    for (const hash of hashes) receipts.push(await f.client.waitForTransactionReceipt({ hash }));
    expect(receipts.map((r) => r.status)).toEqual(['success', 'success', 'success', 'success']);
    expect(new Set(receipts.map((r) => r.blockNumber)).size).toBe(1);
    expect(receipts.map((r) => r.transactionIndex)).toEqual([0, 1, 2, 3]);
    // The mint in the repricing block paid the old price.
    expect(brief(f.cardEvents(receipts[3]!))[1]).toEqual([
      'CardMinted',
      { buyer: f.addr(1), tokenId: 1n, tranche: 1, price: PRICE },
    ]);
    expect(await f.usdcOf(f.card)).toBe(PRICE);
    const scheduled = await f.blockTime(receipts[1]!);
    expect(brief(f.cardEvents(receipts[1]!))).toEqual([
      ['MintPriceScheduled', { price: usdc(5_000), effectiveAt: scheduled + MINT_PRICE_DELAY }],
    ]);

    // The next block, and the last second before the delay ends: still the old price.
    expect((await mintAt(2, scheduled + 1n)).paid).toBe(PRICE);
    expect((await mintAt(2, scheduled + MINT_PRICE_DELAY - 1n)).paid).toBe(PRICE);
    // From the scheduled second on: the new price.
    expect((await mintAt(1, scheduled + MINT_PRICE_DELAY)).paid).toBe(usdc(5_000));
    expect((await mintAt(1, scheduled + MINT_PRICE_DELAY + 1n)).paid).toBe(usdc(5_000));
  });
});

describe('setMintPrice(price)', () => {
  it('schedules the price: mintPrice() keeps the old one and pendingMintPrice() shows the new one until the delay ends', async () => {
    expect(await read<readonly [bigint, bigint]>('pendingMintPrice')).toEqual([0n, 0n]);
    const receipt = await setPrice(usdc(250));
    const at = (await f.blockTime(receipt)) + MINT_PRICE_DELAY;
    expect(brief(f.cardEvents(receipt))).toEqual([['MintPriceScheduled', { price: usdc(250), effectiveAt: at }]]);
    await f.approve(1, UNLIMITED);

    const early = await mintAt(1, at - 1n);
    expect(early.paid).toBe(PRICE);
    expect(await read<bigint>('mintPrice', early.receipt.blockNumber)).toBe(PRICE);
    expect(await read<readonly [bigint, bigint]>('pendingMintPrice', early.receipt.blockNumber)).toEqual([
      usdc(250),
      at,
    ]);

    const due = await mintAt(1, at);
    expect(due.paid).toBe(usdc(250));
    expect(await read<bigint>('mintPrice', due.receipt.blockNumber)).toBe(usdc(250));
    expect(await read<readonly [bigint, bigint]>('pendingMintPrice', due.receipt.blockNumber)).toEqual([0n, 0n]);
  });

  it('replaces a price still pending (the old price stays until the new one is due) and rolls one in effect forward', async () => {
    const first = await setPrice(usdc(300));
    const t1 = await f.blockTime(first);
    await f.client.setNextBlockTimestamp({ timestamp: t1 + MINT_PRICE_DELAY - 100n });
    await f.client.mine({ blocks: 1 });
    const second = await setPrice(usdc(50));
    const t2 = await f.blockTime(second);
    await f.approve(1, UNLIMITED);
    // 300 never takes effect: at its time the price is still 100, and 50 follows a delay after it was set.
    expect((await mintAt(1, t1 + MINT_PRICE_DELAY)).paid).toBe(PRICE);
    expect((await mintAt(1, t2 + MINT_PRICE_DELAY - 1n)).paid).toBe(PRICE);
    expect((await mintAt(1, t2 + MINT_PRICE_DELAY)).paid).toBe(usdc(50));
    // A change after 50 took effect keeps 50 until the next one is due.
    const third = await setPrice(usdc(70));
    const t3 = await f.blockTime(third);
    expect(await read<bigint>('mintPrice')).toBe(usdc(50));
    expect((await mintAt(1, t3 + MINT_PRICE_DELAY - 1n)).paid).toBe(usdc(50));
    expect((await mintAt(1, t3 + MINT_PRICE_DELAY)).paid).toBe(usdc(70));
  });

  it('accepts 1 and 2^96 - 1 raw units; refuses 0 and 2^96 with AccessCardInvalidPrice', async () => {
    const max = 2n ** 96n - 1n;
    await f.setMintActive(false);
    await f.send(
      f.wallet(0).writeContract({ address: f.card, abi: AccessCardAbi, functionName: 'setMintPrice', args: [1n] }),
    );
    await f.send(
      f.wallet(0).writeContract({ address: f.card, abi: AccessCardAbi, functionName: 'setMintPrice', args: [max] }),
    );
    expect((await read<readonly [bigint, bigint]>('pendingMintPrice'))[0]).toBe(max);
    await f.minedRevert(0, { functionName: 'setMintPrice', args: [0n] }, 'AccessCardInvalidPrice', [0n]);
    await f.minedRevert(0, { functionName: 'setMintPrice', args: [max + 1n] }, 'AccessCardInvalidPrice', [max + 1n]);
    await f.setTotalMinted(1_000n);
    await f.minedRevert(0, { functionName: 'activateTranche', args: [2, max + 1n] }, 'AccessCardInvalidPrice', [
      max + 1n,
    ]);
    expect((await read<readonly [bigint, bigint]>('pendingMintPrice'))[0]).toBe(max);
    await f.advance();
    expect(await read<bigint>('mintPrice')).toBe(max);
  });
});

describe('activateTranche(tranche, price)', () => {
  it('opens the tranche only once its price is in effect: AccessCardTrancheNotOpen a second before, the price at it', async () => {
    await f.setTotalMinted(1_000n);
    const receipt = await f.whilePaused(() =>
      f.send(
        f.wallet(0).writeContract({
          address: f.card,
          abi: AccessCardAbi,
          functionName: 'activateTranche',
          args: [2, usdc(150)],
        }),
      ),
    );
    const at = (await f.blockTime(receipt)) + MINT_PRICE_DELAY;
    expect(brief(f.cardEvents(receipt))).toEqual([
      ['MintPriceScheduled', { price: usdc(150), effectiveAt: at }],
      ['TrancheActivated', { tranche: 2, price: usdc(150) }],
    ]);
    expect(await f.views()).toMatchObject({ currentTranche: 2, mintPrice: 0n, trancheRemaining: 3_000n });
    expect(await read<readonly [bigint, bigint]>('pendingMintPrice')).toEqual([usdc(150), at]);

    await f.approve(1, UNLIMITED);
    const before = await f.ledger(f.addr(1));
    // Each attempt in a block of its own at a chosen second, the last one a second before the tranche opens.
    const attempts = [
      { functionName: 'mintBatch', args: [5n] },
      { functionName: 'mint', args: [usdc(150)] },
      { functionName: 'mint' },
    ];
    for (const [k, call] of attempts.entries()) {
      const second = at - BigInt(attempts.length - k);
      await f.client.setNextBlockTimestamp({ timestamp: second });
      const refused = await f.minedRevert(1, call, 'AccessCardTrancheNotOpen', [2, at]);
      expect(await f.blockTime(refused)).toBe(second);
    }
    expect(await f.ledger(f.addr(1))).toEqual(before);

    const first = await mintAt(1, at);
    expect(first.paid).toBe(usdc(150));
    expect(brief(f.cardEvents(first.receipt))[1]).toEqual([
      'CardMinted',
      { buyer: f.addr(1), tokenId: 1_001n, tranche: 2, price: usdc(150) },
    ]);
  });

  it('a price set while the tranche waits to open moves its opening a delay after that change', async () => {
    await f.setTotalMinted(1_000n);
    await f.setMintActive(false);
    const opened = await f.send(
      f
        .wallet(0)
        .writeContract({ address: f.card, abi: AccessCardAbi, functionName: 'activateTranche', args: [2, usdc(150)] }),
    );
    await f.client.setNextBlockTimestamp({ timestamp: (await f.blockTime(opened)) + 1_000n });
    const changed = await f.send(
      f
        .wallet(0)
        .writeContract({ address: f.card, abi: AccessCardAbi, functionName: 'setMintPrice', args: [usdc(120)] }),
    );
    await f.setMintActive(true);
    const at = (await f.blockTime(changed)) + MINT_PRICE_DELAY;
    expect(at).toBeGreaterThan((await f.blockTime(opened)) + MINT_PRICE_DELAY);
    await f.approve(1, UNLIMITED);
    await f.client.setNextBlockTimestamp({ timestamp: at - 1n });
    await f.minedRevert(1, { functionName: 'mint' }, 'AccessCardTrancheNotOpen', [2, at]);
    expect((await mintAt(1, at)).paid).toBe(usdc(120));
  });
});

describe('property: nobody pays more than the card showed a delay earlier', () => {
  type Step = { kind: 'price'; price: bigint } | { kind: 'wait'; seconds: bigint } | { kind: 'mint'; quantity: bigint };
  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.record({ kind: fc.constant('price' as const), price: fc.bigInt({ min: 1n, max: usdc(10_000) }) }),
    fc.record({
      kind: fc.constant('wait' as const),
      seconds: fc.oneof(
        fc.constantFrom(1n, MINT_PRICE_DELAY - 1n, MINT_PRICE_DELAY, MINT_PRICE_DELAY + 1n),
        fc.bigInt({ min: 1n, max: 2n * MINT_PRICE_DELAY }),
      ),
    }),
    fc.record({ kind: fc.constant('mint' as const), quantity: fc.bigInt({ min: 1n, max: 5n }) }),
  );

  it('every mint pays the price or the pending price of the latest block at least a delay older', async () => {
    await f.approve(1, UNLIMITED);
    await f.setMintActive(false); // every price change needs it; minting is switched on around each mint
    let mints = 0;
    // No price changed between the deployment and here: a mint less than a delay after the run began is compared
    // with the run's first block.
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 4, maxLength: 14 }), async (steps) => {
        const snapshot = await f.client.snapshot();
        const start = await f.client.getBlockNumber();
        try {
          for (const s of steps) {
            if (s.kind === 'price') {
              await f.send(
                f.wallet(0).writeContract({
                  address: f.card,
                  abi: AccessCardAbi,
                  functionName: 'setMintPrice',
                  args: [s.price],
                }),
              );
            } else if (s.kind === 'wait') {
              await f.advance(s.seconds);
            } else {
              await f.setMintActive(true);
              const before = await f.usdcOf(f.addr(1));
              const receipt = await f.send(
                f.wallet(1).writeContract({
                  address: f.card,
                  abi: AccessCardAbi,
                  functionName: 'mintBatch',
                  args: [s.quantity],
                }),
              );
              await f.setMintActive(false);
              const paid = (before - (await f.usdcOf(f.addr(1)))) / s.quantity;
              mints++;
              // The latest block at least a delay older than the mint, and what the card showed in it.
              const t = await f.blockTime(receipt);
              let n = receipt.blockNumber - 1n;
              while (n > start && (await f.client.getBlock({ blockNumber: n })).timestamp > t - MINT_PRICE_DELAY) n--;
              const shown = await read<bigint>('mintPrice', n);
              const [pending] = await read<readonly [bigint, bigint]>('pendingMintPrice', n);
              expect([shown, pending]).toContain(paid);
              expect(paid).toBe(await read<bigint>('mintPrice', receipt.blockNumber));
            }
          }
        } finally {
          await f.client.revert({ id: snapshot });
        }
      }),
      { numRuns: 15, seed: Number(process.env.FC_SEED ?? 26_6) },
    );
    expect(mints).toBeGreaterThan(0);
  });
});
