// Staking position and stats, read from the staking contract (SPEC.md "GET /api/staking/position/{wallet}",
// "GET /api/staking/stats"). Every read of one request is pinned to one block: the block number is read first,
// then all contract calls go out at once at that block, so viem's batching transport sends them in one JSON-RPC
// batch (one HTTP round trip) and the figures form a consistent snapshot (a stake and the total it is part of
// come from the same state). An RPC that does not answer becomes 503 CHAIN_UNAVAILABLE (onChain).

import type { Address } from 'viem';
import { requireContract } from '../../chain/contracts/addresses.ts';
import { onChain } from '../../chain/errors.ts';
import { EmissionTokenAbi, StakingAbi } from '../../chain/generated/abis.ts';
import { CARD_TOKEN_ID_MAX, NO_CARD_MULTIPLIER, type TierName } from '../../constants.ts';
import { tierOf } from '../cards/tiers.ts';
import type { Deps as DomainDeps } from '../deps.ts';
import { baseApyBps, bpsToPercent, type PoolRate } from './apy.ts';

/** Pool 0 stakes the primary token (DESIGN.md "Contract functions that clients call"). */
export const PRIMARY_POOL_ID = 0n;

export type StakingTier = TierName | 'NONE';

export interface StakingPosition {
  wallet: Address;
  stakedPrimary: string;
  effectiveStake: string;
  pendingEmission: string;
  tier: StakingTier;
  multiplier: number;
  baseApy: number;
  effectiveApy: number;
}

export interface StakingStats {
  totalStakedPrimary: string;
  emissionPerSecond: string;
  totalEmissionDistributed: string;
  currentBaseApy: number;
  poolCount: number;
}

type Deps = Pick<DomainDeps, 'chain'>;

function contract(deps: Deps, key: 'staking' | 'emissionToken'): Address {
  return requireContract(deps.chain.contracts, key);
}

/** The latest block, never a cached number: a read right after a transaction must see it. */
const pinBlock = (deps: Deps) => deps.chain.publicClient.getBlockNumber({ cacheTime: 0 });

/** Pool 0's share of the emission and its effective stake, at `blockNumber` (4 calls for the caller's batch). */
function readPoolRate(deps: Deps, staking: Address, blockNumber: bigint): Promise<PoolRate> {
  const client = deps.chain.publicClient;
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
 * The tier of the card the contract recorded as the wallet's boost in pool 0 (card 0: none). The position shows
 * what the contract pays, not what the wallet holds: a card only boosts once `refreshBoost(0)` has recorded it.
 */
export function tierOfCard(cardId: bigint): StakingTier {
  if (cardId === 0n || cardId > BigInt(CARD_TOKEN_ID_MAX)) return 'NONE';
  return tierOf(Number(cardId))?.name ?? 'NONE';
}

export async function readStakingPosition(deps: Deps, wallet: Address): Promise<StakingPosition> {
  const staking = contract(deps, 'staking');
  const client = deps.chain.publicClient;
  return onChain(async () => {
    const blockNumber = await pinBlock(deps);
    const at = { address: staking, abi: StakingAbi, blockNumber } as const;
    const [user, pending, rate] = await Promise.all([
      client.readContract({ ...at, functionName: 'userInfo', args: [PRIMARY_POOL_ID, wallet] }),
      client.readContract({ ...at, functionName: 'pendingEmission', args: [PRIMARY_POOL_ID, wallet] }),
      readPoolRate(deps, staking, blockNumber),
    ]);
    const [amount, effective, recordedMultiplier, cardId] = user;
    // userInfo already reads an unset multiplier as 1; the guard keeps a malformed answer from zeroing the APY.
    const multiplier = recordedMultiplier === 0n ? BigInt(NO_CARD_MULTIPLIER) : recordedMultiplier;
    const bps = baseApyBps(rate);
    return {
      wallet,
      stakedPrimary: amount.toString(),
      effectiveStake: effective.toString(),
      pendingEmission: pending.toString(),
      tier: tierOfCard(cardId),
      multiplier: Number(multiplier),
      baseApy: bpsToPercent(bps),
      effectiveApy: bpsToPercent(bps * multiplier),
    };
  });
}

export async function readStakingStats(deps: Deps): Promise<StakingStats> {
  const staking = contract(deps, 'staking');
  const emissionToken = contract(deps, 'emissionToken');
  const client = deps.chain.publicClient;
  return onChain(async () => {
    const blockNumber = await pinBlock(deps);
    const at = { address: staking, abi: StakingAbi, blockNumber } as const;
    const [poolLength, supply, rate] = await Promise.all([
      client.readContract({ ...at, functionName: 'poolLength' }),
      client.readContract({ address: emissionToken, abi: EmissionTokenAbi, functionName: 'totalSupply', blockNumber }),
      readPoolRate(deps, staking, blockNumber),
    ]);
    // Pool 0 is in the batch above; further pools (added by the owner, few) take one more batch at the same block.
    const others = await Promise.all(
      Array.from({ length: Math.max(0, Number(poolLength) - 1) }, (_, i) =>
        client.readContract({ ...at, functionName: 'poolInfo', args: [BigInt(i + 1)] }),
      ),
    );
    const active = (rate.allocPoint > 0n ? 1 : 0) + others.filter((pool) => pool[1] > 0n).length;
    return {
      totalStakedPrimary: rate.totalEffective.toString(),
      emissionPerSecond: rate.emissionPerSecond.toString(),
      totalEmissionDistributed: supply.toString(),
      currentBaseApy: bpsToPercent(baseApyBps(rate)),
      poolCount: active,
    };
  });
}
