// Staking position and stats (docs/api/staking.md "Position" and "Stats"), from the
// staking contract's readings (chain/contracts/staking.ts: one block, one JSON-RPC batch): the tier of the boosting
// card and the APYs.

import type { Address } from 'viem';
import { readPools, readPosition } from '../../chain/contracts/staking.ts';
import { CARD_TOKEN_ID_MAX, NO_CARD_MULTIPLIER, type TierName } from '../../constants.ts';
import { tierOf } from '../cards/tiers.ts';
import type { Deps as DomainDeps } from '../deps.ts';
import { baseApyBps, bpsToPercent } from './apy.ts';

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

/**
 * The tier of the card the contract recorded as the wallet's boost in pool 0 (card 0: none). The position shows
 * what the contract pays, not what the wallet holds: a card only boosts once `refreshBoost(0)` has recorded it.
 */
export function tierOfCard(cardId: bigint): StakingTier {
  if (cardId === 0n || cardId > BigInt(CARD_TOKEN_ID_MAX)) return 'NONE';
  return tierOf(Number(cardId))?.name ?? 'NONE';
}

/**
 * The multiplier in effect: effective stake / staked amount, rounded down to 2 decimals (a card boosts only up to its
 * tier's cap, so a stake above the cap earns less than the tier's multiplier). Without a stake, the card's recorded
 * multiplier (what a stake within the cap would get); 1 when none is recorded.
 */
export function multiplierInEffect(amount: bigint, effective: bigint, recorded: bigint): number {
  if (amount === 0n) return Number(recorded === 0n ? BigInt(NO_CARD_MULTIPLIER) : recorded);
  return Number((effective * 100n) / amount) / 100;
}

/** The position at block `at` (the latest when not given). */
export async function readStakingPosition(deps: Deps, wallet: Address, at?: bigint): Promise<StakingPosition> {
  const { amount, effective, multiplier: recorded, cardId, pending, rate } = await readPosition(deps.chain, wallet, at);
  const multiplier = multiplierInEffect(amount, effective, recorded);
  const bps = baseApyBps(rate);
  return {
    wallet,
    stakedPrimary: amount.toString(),
    effectiveStake: effective.toString(),
    pendingEmission: pending.toString(),
    tier: tierOfCard(cardId),
    multiplier,
    baseApy: bpsToPercent(bps),
    // The exact product of the two, as one division: base (hundredths of a percent) times the multiplier's hundredths.
    effectiveApy: Number(bps * BigInt(Math.round(multiplier * 100))) / 10_000,
  };
}

/** The stats at block `at` (the latest when not given). */
export async function readStakingStats(deps: Deps, at?: bigint): Promise<StakingStats> {
  const { emissionSupply, rate, otherAllocPoints } = await readPools(deps.chain, at);
  const active = (rate.allocPoint > 0n ? 1 : 0) + otherAllocPoints.filter((points) => points > 0n).length;
  return {
    totalStakedPrimary: rate.totalEffective.toString(),
    emissionPerSecond: rate.emissionPerSecond.toString(),
    totalEmissionDistributed: emissionSupply.toString(),
    currentBaseApy: bpsToPercent(baseApyBps(rate)),
    poolCount: active,
  };
}
