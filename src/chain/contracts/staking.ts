// The staking contract (contracts/Staking.sol) and its emission token, as the staking routes read them. Every read
// of one call is pinned to one block: the block number is read first, then all contract calls go out at once at
// that block, so viem's batching transport sends them in one JSON-RPC batch and the figures form a consistent
// snapshot. An unreachable node is CHAIN_UNAVAILABLE.

import { EmissionTokenAbi, StakingAbi } from '@ai-economy/shared/abis';
import type { Address } from 'viem';
import type { Chain } from '../client.ts';
import { onChain } from '../errors.ts';
import { requireContract } from './addresses.ts';

type StakingChain = Pick<Chain, 'publicClient' | 'contracts'>;

/** Pool 0 stakes the primary token (docs/contracts.md). */
export const PRIMARY_POOL_ID = 0n;

/** Pool 0's share of the emission and its effective stake. */
export interface PoolRateReading {
  emissionPerSecond: bigint;
  allocPoint: bigint;
  totalAllocPoint: bigint;
  totalEffective: bigint;
}

/** The latest block, never a cached number: a read right after a transaction must see it. */
const pinBlock = (chain: StakingChain) => chain.publicClient.getBlockNumber({ cacheTime: 0 });

function readPoolRate(chain: StakingChain, staking: Address, blockNumber: bigint): Promise<PoolRateReading> {
  const client = chain.publicClient;
  const at = { address: staking, abi: StakingAbi, blockNumber } as const;
  return Promise.all([
    client.readContract({ ...at, functionName: 'emissionPerSecond' }),
    client.readContract({ ...at, functionName: 'poolInfo', args: [PRIMARY_POOL_ID] }),
    client.readContract({ ...at, functionName: 'totalAllocPoint' }),
  ]).then(([emissionPerSecond, pool, totalAllocPoint]) => ({
    emissionPerSecond,
    allocPoint: pool[1],
    totalAllocPoint,
    totalEffective: pool[5],
  }));
}

/**
 * A wallet's stake in pool 0 (amount, effective stake, recorded multiplier and boosting card), its pending emission,
 * and the pool's rate, at `at` (the latest block when not given).
 */
export function readPosition(chain: StakingChain, wallet: Address, at?: bigint) {
  const staking = requireContract(chain.contracts, 'staking');
  const client = chain.publicClient;
  return onChain(async () => {
    const blockNumber = at ?? (await pinBlock(chain));
    const call = { address: staking, abi: StakingAbi, blockNumber } as const;
    const [user, pending, rate] = await Promise.all([
      client.readContract({ ...call, functionName: 'userInfo', args: [PRIMARY_POOL_ID, wallet] }),
      client.readContract({ ...call, functionName: 'pendingEmission', args: [PRIMARY_POOL_ID, wallet] }),
      readPoolRate(chain, staking, blockNumber),
    ]);
    const [amount, effective, multiplier, cardId] = user;
    return { amount, effective, multiplier, cardId, pending, rate };
  });
}

/** Pool 0's rate, the emission token's supply, and the allocation points of the other pools, at `at` (or the latest block). */
export function readPools(chain: StakingChain, at?: bigint) {
  const staking = requireContract(chain.contracts, 'staking');
  const emissionToken = requireContract(chain.contracts, 'emissionToken');
  const client = chain.publicClient;
  return onChain(async () => {
    const blockNumber = at ?? (await pinBlock(chain));
    const call = { address: staking, abi: StakingAbi, blockNumber } as const;
    const [poolLength, emissionSupply, rate] = await Promise.all([
      client.readContract({ ...call, functionName: 'poolLength' }),
      client.readContract({ address: emissionToken, abi: EmissionTokenAbi, functionName: 'totalSupply', blockNumber }),
      readPoolRate(chain, staking, blockNumber),
    ]);
    // Pool 0 is in the batch above; further pools (added by the owner, few) take one more batch at the same block.
    const others = await Promise.all(
      Array.from({ length: Math.max(0, Number(poolLength) - 1) }, (_, i) =>
        client.readContract({ ...call, functionName: 'poolInfo', args: [BigInt(i + 1)] }),
      ),
    );
    return { emissionSupply, rate, otherAllocPoints: others.map((pool) => pool[1]) };
  });
}
