// Treasuries on a test chain as users prove them: the treasury signs its EIP-712 acceptance, the creator sends it
// with PUT /api/companies/{id}/treasury, USDC moves at chosen block times, and the treasury stream records it.

import { MockUSDCAbi } from '@ai-economy/shared/abis';
import type { Address, LocalAccount } from 'viem';
import { expect } from 'vitest';
import { followStream } from '../../src/chain/streams.ts';
import { chainTime } from '../../src/chain/time.ts';
import { treasuryAcceptanceTypedData } from '../../src/domain/treasuries/acceptance.ts';
import { treasuryTransfers } from '../../src/domain/treasuries/treasury-transfers.stream.ts';
import type { TestEnv } from './app.ts';
import { anvilTestClient } from './chain.ts';
import { signed } from './companies.ts';

export interface Acceptance {
  deadline: number;
  signature: `0x${string}`;
}

export function treasuryHelpers(t: TestEnv) {
  const testClient = () => anvilTestClient(t.chain.node.rpcUrl, t.chain.chain.viemChain);

  /** `treasury`'s acceptance of `companyId`, valid `seconds` past the chain's time. */
  async function accept(treasury: LocalAccount, companyId: string, seconds = 600): Promise<Acceptance> {
    const deadline = Number(await chainTime(t.chain.chain.publicClient)) + seconds;
    const typed = treasuryAcceptanceTypedData(companyId, treasury.address, t.chain.chain.chainId, deadline);
    return { deadline, signature: await treasury.signTypedData!(typed) };
  }

  return {
    accept,

    /** PUT /api/companies/{id}/treasury signed by dev account `creator`, with the body given. */
    put: (creator: number, companyId: string, body: Record<string, unknown>) =>
      signed(t.app, creator, 'PUT', `/api/companies/${companyId}/treasury`, body),

    /** Sets `treasury` as the company's treasury with its acceptance; expects 200. */
    async prove(creator: number, companyId: string, treasury: LocalAccount) {
      const res = await signed(t.app, creator, 'PUT', `/api/companies/${companyId}/treasury`, {
        treasuryAddress: treasury.address,
        acceptance: await accept(treasury, companyId),
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data;
    },

    /** Mines the next block at `seconds` (Unix): the transactions that follow are stamped after it. */
    async at(seconds: number) {
      await testClient().setNextBlockTimestamp({ timestamp: BigInt(seconds) });
      await testClient().mine({ blocks: 1 });
    },

    /** Mints `amount` USDC (base units) to `to` in a block stamped `seconds` (dev account 0 owns the mock). */
    async mintAt(to: Address, amount: bigint, seconds: number) {
      await testClient().setNextBlockTimestamp({ timestamp: BigInt(seconds) });
      const hash = await t.chain.wallet(0).writeContract({
        address: t.chain.chain.contracts.usdc!,
        abi: MockUSDCAbi,
        functionName: 'mint',
        args: [to, amount],
      });
      expect((await t.chain.chain.publicClient.waitForTransactionReceipt({ hash })).status).toBe('success');
    },

    /** Runs the treasury stream until it has caught up with the chain. */
    async index() {
      const follower = followStream(t.container, treasuryTransfers, { confirmations: 0 })!;
      for (let i = 0; i < 20; i++) if ((await follower.pollOnce()).caughtUp) return;
      throw new Error('the treasury stream did not catch up');
    },
  };
}
