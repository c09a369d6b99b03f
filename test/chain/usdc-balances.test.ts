// Many USDC balances at one pinned block (the score snapshot's treasury reads): each account's own balance, across
// several multicall eth_calls (deployless: the local chain has no Multicall3 contract).

import { MockUSDCAbi } from '@ai-economy/shared/abis';
import { type Address, erc20Abi } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BALANCES_PER_CALL, usdcBalancesAt } from '../../src/chain/contracts/usdc.ts';
import { startTestChain, type TestChain } from '../helpers/chain.ts';

let chain: TestChain;
beforeAll(async () => {
  chain = await startTestChain();
});
afterAll(async () => {
  await chain?.stop();
});

/** 25 fresh accounts; account i holds i * 1,000,003 base units (account 0 nothing). */
const accounts: Address[] = Array.from({ length: 25 }, (_, i) =>
  privateKeyToAddress(`0x${(i + 1).toString(16).padStart(64, '7')}`),
);

async function mint(to: Address, amount: bigint) {
  const hash = await chain.wallet(0).writeContract({
    address: chain.chain.contracts.usdc!,
    abi: MockUSDCAbi,
    functionName: 'mint',
    args: [to, amount],
  });
  await chain.chain.publicClient.waitForTransactionReceipt({ hash });
}

describe('usdcBalancesAt', () => {
  it('reads every account, over several eth_calls, at the block it pins', async () => {
    for (const [i, account] of accounts.entries()) if (i > 0) await mint(account, BigInt(i) * 1_000_003n);

    // 4 accounts a call: 7 calls, 8 in flight at once.
    const read = await usdcBalancesAt(chain.chain, accounts, 4);
    expect(read.block).toBe(await chain.chain.publicClient.getBlockNumber({ cacheTime: 0 }));
    expect(read.balances.size).toBe(accounts.length);
    for (const [i, account] of accounts.entries()) {
      expect(read.balances.get(account.toLowerCase()), `account ${i}`).toBe(BigInt(i) * 1_000_003n);
      const single = await chain.chain.publicClient.readContract({
        address: chain.chain.contracts.usdc!,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [account],
      });
      expect(single).toBe(BigInt(i) * 1_000_003n);
    }
  });

  it('answers the most balances one call can return (766: what creation code returns is held to 24,576 bytes)', async () => {
    const most = [
      ...accounts,
      ...Array.from({ length: 766 - accounts.length }, (_, i) =>
        privateKeyToAddress(`0x${(0x10_000 + i).toString(16).padStart(64, '0')}`),
      ),
    ];
    const read = await usdcBalancesAt(chain.chain, most, 766);
    expect(read.balances.size).toBe(766);
    expect(read.balances.get(accounts[24]!.toLowerCase())).toBe(24n * 1_000_003n);
    expect(read.balances.get(most[765]!.toLowerCase())).toBe(0n);
    // One more in the same call is past the limit; BALANCES_PER_CALL keeps a margin under it.
    await expect(usdcBalancesAt(chain.chain, [...most, accounts[1]!], 767)).rejects.toThrow();
    expect(BALANCES_PER_CALL).toBeLessThan(766);
  });
});
