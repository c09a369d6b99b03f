// The simulation's owner setters (bench/economy/params.ts applyContractParams) on the chain: the owner's call lands in
// a block later than the one its gas was estimated in. `Staking.setEmissionPerSecond` updates every pool first, and a
// pool last updated in the latest block's second costs nothing to update in that block but a storage write in a later
// one: a limit from an estimate in the latest block's conditions ran out of gas (docs/economics.md, the emission
// sweep at seed 7 that did not run).

import { StakingAbi } from '@ai-economy/shared/abis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyContractParams } from '../../bench/economy/params.ts';
import type { Ctx } from '../../scripts/demo/context.ts';
import { devAccount } from '../../src/chain/client.ts';
import { anvilTestClient, startTestChain, type TestChain } from '../helpers/chain.ts';

let chain: TestChain;
beforeAll(async () => {
  chain = await startTestChain();
});
afterAll(async () => {
  await chain?.stop();
});

describe("the simulation's owner setters", () => {
  it('sets the emission when the call lands a block after the pools were last updated', async () => {
    const staking = chain.chain.contracts.staking!;
    const client = chain.chain.publicClient;
    const test = anvilTestClient(chain.node.rpcUrl);
    const latest = await client.getBlock({ blockTag: 'latest' });
    // The pool is updated in the latest block (as the deployment's addPool was, when the deployment's last
    // transactions were mined in the same second) ...
    await test.setNextBlockTimestamp({ timestamp: latest.timestamp + 1n });
    const poke = await chain.wallet(1).writeContract({
      address: staking,
      abi: StakingAbi,
      functionName: 'poke',
      args: [0n, devAccount(2).address],
      gas: 1_000_000n,
    });
    await client.waitForTransactionReceipt({ hash: poke });
    const [, , updated] = await client.readContract({
      address: staking,
      abi: StakingAbi,
      functionName: 'poolInfo',
      args: [0n],
    });
    expect(updated).toBe(latest.timestamp + 1n);
    // ... and the owner's call lands seconds later.
    await test.setNextBlockTimestamp({ timestamp: latest.timestamp + 5n });
    const ctx = { client, rpcUrl: chain.node.rpcUrl, contracts: { staking } } as unknown as Ctx;
    const lines: string[] = [];
    await applyContractParams(ctx, { emissionPerYear: 12_500 }, (line) => lines.push(line));
    expect(await client.readContract({ address: staking, abi: StakingAbi, functionName: 'emissionPerSecond' })).toBe(
      (12_500n * 10n ** 18n) / 31_536_000n,
    );
    expect(lines).toEqual([expect.stringContaining('owner parameter emissionPerYear = 12500')]);
  });
});
