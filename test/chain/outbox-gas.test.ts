// The outbox's gas limit holds in the block a transaction lands in, not only in the one it was estimated in: after the
// chain's clock moved a week, first stakes by fresh wallets all succeed on their first send (the staking contract
// does more work in a block later than its pool's last update). A transaction that still runs out of gas is
// recognised and sent once more with a higher limit.

import { MockUSDCAbi, PrimaryTokenAbi, StakingAbi } from '@ai-economy/shared/abis';
import { like } from 'drizzle-orm';
import { encodeFunctionData, parseEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approveCall, stakingCall } from '../../src/chain/contracts/wallet-actions.ts';
import { createOutbox, RETRY_SUFFIX } from '../../src/chain/outbox.ts';
import type { Database } from '../../src/db/client.ts';
import { chainTxs } from '../../src/db/schema/chain.ts';
import { anvilTestClient, startTestChain, type TestChain } from '../helpers/chain.ts';
import { testDatabases } from '../helpers/db.ts';

let chain: TestChain;
beforeAll(async () => {
  chain = await startTestChain();
});
afterAll(async () => {
  await chain?.stop();
});

const STAKE = parseEther('1000');

describe.each(testDatabases)('outbox gas limits on $name', ({ open }) => {
  let database: Database;
  beforeAll(async () => {
    database = await open();
  });
  afterAll(async () => {
    await database?.close();
  });

  /**
   * A fresh wallet with ETH for gas and STAKE primary tokens, and its outbox; `later` has each transaction land a few
   * seconds after it was signed, as on a busy chain (the next block is stamped past the latest one).
   */
  async function freshStaker(later = false) {
    const account = privateKeyToAccount(generatePrivateKey());
    const test = anvilTestClient(chain.node.rpcUrl);
    await test.setBalance({ address: account.address, value: parseEther('1') });
    const hash = await chain.wallet(1).writeContract({
      address: chain.chain.contracts.primaryToken!,
      abi: PrimaryTokenAbi,
      functionName: 'transfer',
      args: [account.address, STAKE],
    });
    await chain.chain.publicClient.waitForTransactionReceipt({ hash });
    const outbox = createOutbox({
      db: database.db,
      chain: chain.chain,
      wallet: chain.chain.walletOf(account),
      receiptTimeoutMs: 10_000,
      ...(later
        ? {
            beforeBroadcast: async () => {
              const latest = await chain.chain.publicClient.getBlock({ blockTag: 'latest' });
              await test.setNextBlockTimestamp({ timestamp: latest.timestamp + 3n });
            },
          }
        : {}),
    });
    return { account, outbox };
  }

  const staked = (address: `0x${string}`) =>
    chain.chain.publicClient.readContract({
      address: chain.chain.contracts.staking!,
      abi: StakingAbi,
      functionName: 'userInfo',
      args: [0n, address],
    });

  it('after the clock moves 7 days, 20 first stakes by fresh wallets in a row all succeed on the first send', async () => {
    const staking = chain.chain.contracts.staking!;
    const primary = chain.chain.contracts.primaryToken!;
    await anvilTestClient(chain.node.rpcUrl).increaseTime({ seconds: 7 * 86_400 });
    const stakers = [];
    for (let i = 0; i < 20; i++) {
      const staker = await freshStaker(true);
      const approved = await staker.outbox.send(`week:${i}:approve`, () => approveCall(primary, staking, STAKE));
      expect(approved.status).toBe('success');
      stakers.push(staker);
    }
    // One after the other, each signed while the previous stake is the latest block and mined seconds later: the
    // pool's accumulator does not move in the block it was estimated in and does in the block it lands in, which
    // costs more (most for the second stake, the first to find the pool non-empty, whose accumulator starts at 0).
    for (const [i, { account, outbox }] of stakers.entries()) {
      const receipt = await outbox.send(`week:${i}:stake`, () => stakingCall(chain.chain, 'deposit', STAKE));
      expect(receipt.status, `stake ${i}`).toBe('success');
      expect((await staked(account.address))[0]).toBe(STAKE);
    }
    const retries = await database.db
      .select()
      .from(chainTxs)
      .where(like(chainTxs.key, `week:%${RETRY_SUFFIX}`));
    expect(retries).toEqual([]);
  });

  it('sends a transaction that ran out of gas once more with a higher limit, and only once', async () => {
    const { account, outbox } = await freshStaker();
    const staking = chain.chain.contracts.staking!;
    const primary = chain.chain.contracts.primaryToken!;
    await outbox.send('low:approve', () => approveCall(primary, staking, STAKE));
    // 60,000 gas: enough to start the deposit, not to finish it.
    const build = () => ({ ...stakingCall(chain.chain, 'deposit', STAKE), gas: 60_000n });
    const receipt = await outbox.send('low:stake', build);
    expect(receipt.status).toBe('success');
    expect((await staked(account.address))[0]).toBe(STAKE);

    const rows = await database.db.select().from(chainTxs).where(like(chainTxs.key, 'low:stake%'));
    expect(rows.map((r) => [r.key, r.status]).sort()).toEqual([
      ['low:stake', 'REVERTED'],
      [`low:stake${RETRY_SUFFIX}`, 'MINED'],
    ]);
    expect(receipt.transactionHash).toBe(rows.find((r) => r.key.endsWith(RETRY_SUFFIX))!.hash);
    // Sent again, the key finds its retry: nothing is sent a third time.
    const again = await outbox.send('low:stake', build);
    expect(again.transactionHash).toBe(receipt.transactionHash);
    expect((await staked(account.address))[0]).toBe(STAKE);
  });

  it('does not retry a transaction that reverted for another reason', async () => {
    const { outbox } = await freshStaker();
    // A mint by a wallet that is not USDC's owner reverts at once, far below its limit.
    const receipt = await outbox.send('other:mint', () => ({
      to: chain.chain.contracts.usdc!,
      data: encodeMint(),
      gas: 200_000n,
    }));
    expect(receipt.status).toBe('reverted');
    const rows = await database.db.select().from(chainTxs).where(like(chainTxs.key, 'other:mint%'));
    expect(rows.map((r) => r.key)).toEqual(['other:mint']);
  });
});

const encodeMint = () =>
  encodeFunctionData({
    abi: MockUSDCAbi,
    functionName: 'mint',
    args: ['0x000000000000000000000000000000000000dEaD', 1n],
  });
