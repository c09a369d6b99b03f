// The simulation's rented card (bench/economy/adversaries/rented-card.ts) on the chain: the card goes back to its
// lender right after the staker's refreshBoost. The access card reports the transfer to the staking contract, which
// updates the pool and banks the staker's emission before it drops the boost: nothing to write in the refreshBoost's
// second, storage writes in a later one (about 16,000 gas more). anvil's estimate is made in the conditions of the
// moment it is asked (its pending block): when a second begins between the estimate and the block that takes the
// transaction, a limit from that estimate runs out of gas (this test failed so, three runs of three, before the
// transfer took the outbox's limit).

import { PrimaryTokenAbi, StakingAbi } from '@ai-economy/shared/abis';
import { createPublicClient, createWalletClient, custom, type Hex, http, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lendCard } from '../../bench/economy/adversaries/rented-card.ts';
import type { Ctx } from '../../scripts/demo/context.ts';
import { devAccount } from '../../src/chain/client.ts';
import { anvilTestClient, startTestChain, type TestChain } from '../helpers/chain.ts';
import { mintCard } from '../helpers/companies.ts';

let chain: TestChain;
beforeAll(async () => {
  chain = await startTestChain();
});
afterAll(async () => {
  await chain?.stop();
});

const LENDER = 5;
const STAKER = 6;
const STAKING_GAS = 1_000_000n;

describe("the simulation's rented card", () => {
  it('goes back to its lender when a second begins between its estimate and its block', async () => {
    const { staking, primaryToken } = chain.chain.contracts as Record<string, Hex>;
    const client = chain.chain.publicClient;
    const test = anvilTestClient(chain.node.rpcUrl);
    const node = createPublicClient({ transport: http(chain.node.rpcUrl) });
    // The wallets the simulation sends with, except that the block of a transaction can be stamped later than the
    // moment it was prepared in: the stamp is set just before the node is handed the signed transaction.
    let landAt: bigint | undefined;
    const transport = custom({
      async request({ method, params }) {
        if (method === 'eth_sendRawTransaction' && landAt !== undefined) {
          await test.setNextBlockTimestamp({ timestamp: landAt });
          landAt = undefined;
        }
        return node.request({ method, params } as never);
      },
    });
    const wallet = (index: number) =>
      createWalletClient({ account: devAccount(index), chain: chain.chain.viemChain, transport });
    const ctx = { client, contracts: chain.chain.contracts, account: devAccount, wallet } as unknown as Ctx;
    const mined = async (hash: Promise<Hex>) => {
      const receipt = await client.waitForTransactionReceipt({ hash: await hash });
      expect(receipt.status).toBe('success');
    };
    const staker = chain.wallet(STAKER);
    const amount = parseEther('1000');
    await mined(
      staker.writeContract({
        address: primaryToken!,
        abi: PrimaryTokenAbi,
        functionName: 'approve',
        args: [staking!, amount],
      }),
    );
    await mined(
      staker.writeContract({
        address: staking!,
        abi: StakingAbi,
        functionName: 'deposit',
        args: [0n, amount],
        gas: STAKING_GAS,
      }),
    );
    const cardId = await mintCard(chain, LENDER);
    await lendCard(ctx, LENDER, STAKER, cardId);
    // The staker refreshes its boost with the card, which updates the pool in that block's second ...
    const latest = await client.getBlock({ blockTag: 'latest' });
    await test.setNextBlockTimestamp({ timestamp: latest.timestamp + 1n });
    await mined(
      staker.writeContract({
        address: staking!,
        abi: StakingAbi,
        functionName: 'refreshBoost',
        args: [0n],
        gas: STAKING_GAS,
      }),
    );
    const userInfo = () =>
      client.readContract({
        address: staking!,
        abi: StakingAbi,
        functionName: 'userInfo',
        args: [0n, devAccount(STAKER).address],
      });
    expect((await userInfo())[3]).toBe(cardId);
    // ... and the card goes back in a block stamped seconds later than that.
    landAt = latest.timestamp + 5n;
    const receipt = await lendCard(ctx, STAKER, LENDER, cardId);
    expect((await client.getBlock({ blockNumber: receipt.blockNumber })).timestamp).toBe(latest.timestamp + 5n);
    expect((await userInfo())[3]).toBe(0n);
  });
});
