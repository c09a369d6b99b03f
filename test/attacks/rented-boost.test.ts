// Attack: rent a boost. The staking contract checked the card tier only when a boost was refreshed, so a staker could
// borrow a Black card for one transaction (receive it, refresh, send it back) and earn 5x until someone else
// refreshed it down, and later deposits kept the old multiplier. A boost now holds only while its staker holds the
// card: the access card tells the staking contract of every transfer, which ends the boost in that block.

import { AccessCardAbi, CardBorrowerAbi, PrimaryTokenAbi, StakingAbi } from '@ai-economy/shared/abis';
import { type Address, createTestClient, type Hex, http, maxUint256, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadArtifact } from '../../src/chain/artifacts.ts';
import { startTestChain, type TestChain } from '../helpers/chain.ts';
import { mintCard } from '../helpers/companies.ts';

let chain: TestChain;
let borrower: Address;
const RATE = parseEther('1');

beforeAll(async () => {
  chain = await startTestChain();
});
afterAll(async () => {
  await chain?.stop();
});

/**
 * Gas for calls into the staking contract, instead of the node's estimate: a pool update costs more in a later
 * second than in the one it was estimated in, so an exact estimate can run out under a loaded machine.
 */
const STAKING_GAS = 1_000_000n;
const client = () => chain.chain.publicClient;
const c = () => chain.chain.contracts as Record<string, Address>;
async function mined(hash: Promise<Hex>) {
  const receipt = await client().waitForTransactionReceipt({ hash: await hash });
  expect(receipt.status).toBe('success');
  return receipt;
}

describe('a card borrowed for one transaction', () => {
  beforeAll(async () => {
    // A simple emission rate, so rewards are easy to reason about.
    await mined(
      chain.wallet(0).writeContract({
        address: c().staking!,
        abi: StakingAbi,
        functionName: 'setEmissionPerSecond',
        args: [RATE],
        gas: STAKING_GAS,
      }),
    );
    const deployed = await mined(
      chain.wallet(3).deployContract({
        abi: CardBorrowerAbi,
        bytecode: loadArtifact('CardBorrower').bytecode as Hex,
        args: [c().accessCard!, c().staking!],
      }),
    );
    borrower = deployed.contractAddress!;
    // The borrower stakes 1,000 primary tokens of account 3; an honest staker (account 4) stakes as much, no card.
    for (const [account, to] of [
      [3, borrower],
      [4, c().staking!],
    ] as const) {
      await mined(
        chain.wallet(account).writeContract({
          address: c().primaryToken!,
          abi: PrimaryTokenAbi,
          functionName: 'approve',
          args: [to, maxUint256],
        }),
      );
    }
    await mined(
      chain.wallet(3).writeContract({
        address: borrower,
        abi: CardBorrowerAbi,
        functionName: 'stake',
        args: [c().primaryToken!, 0n, parseEther('1000')],
        gas: STAKING_GAS,
      }),
    );
    await mined(
      chain.wallet(4).writeContract({
        address: c().staking!,
        abi: StakingAbi,
        functionName: 'deposit',
        args: [0n, parseEther('1000')],
        gas: STAKING_GAS,
      }),
    );
  });

  it.each([
    ['by the scan (refreshBoost(pid))', false],
    ['by name (refreshBoost(pid, cardId))', true],
  ])('earns no boost, refreshed %s', async (_label, named) => {
    // The lender holds a Black card (5x) and lets the borrower move it.
    const card = await mintCard(chain, 1);
    expect(card).toBeLessThanOrEqual(1_000n);
    await mined(
      chain.wallet(1).writeContract({
        address: c().accessCard!,
        abi: AccessCardAbi,
        functionName: 'approve',
        args: [borrower, card],
      }),
    );
    await mined(
      chain.wallet(3).writeContract({
        address: borrower,
        abi: CardBorrowerAbi,
        functionName: 'borrowAndBoost',
        args: [chain.wallet(1).account.address, card, 0n, named],
        gas: STAKING_GAS,
      }),
    );

    // The card went home in the same transaction, and the boost with it.
    expect(
      await client().readContract({
        address: c().accessCard!,
        abi: AccessCardAbi,
        functionName: 'ownerOf',
        args: [card],
      }),
    ).toBe(chain.wallet(1).account.address);
    const [, effective, multiplier, boostCard] = await client().readContract({
      address: c().staking!,
      abi: StakingAbi,
      functionName: 'userInfo',
      args: [0n, borrower],
    });
    expect({ multiplier, boostCard, effective }).toEqual({
      multiplier: 1n,
      boostCard: 0n,
      effective: parseEther('1000'),
    });

    // A week later the borrower earns exactly what the honest 1x staker beside it earns, not five times as much.
    const test = createTestClient({ mode: 'anvil', transport: http(chain.node.rpcUrl) });
    await test.increaseTime({ seconds: 7 * 86_400 });
    await test.mine({ blocks: 1 });
    const [mine, honest] = await Promise.all(
      [borrower, chain.wallet(4).account.address].map((a) =>
        client().readContract({
          address: c().staking!,
          abi: StakingAbi,
          functionName: 'pendingEmission',
          args: [0n, a],
        }),
      ),
    );
    const ratio = Number((mine! * 1000n) / honest!) / 1000;
    expect(ratio).toBeGreaterThan(0.98);
    expect(ratio).toBeLessThan(1.02);
  });
});
