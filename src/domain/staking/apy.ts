// The staking APY (docs/api/staking.md "Position", "Stats" and "APY"), computed in whole numbers from the staking
// contract's state and turned into a percentage with 2 decimals only at the end.
//
// Base APY of pool 0 = emission a year attributed to the pool / the pool's effective stake, in percent:
//   emissionPerSecond * 31,536,000 * allocPoint / totalAllocPoint / max(totalEffective, APY_REFERENCE_STAKE) * 100
// - The emission token and the primary token both have 18 decimals and are valued 1:1 here (no price feed), so
//   the ratio of the two wei amounts is the yield.
// - Rewards are shared per unit of effective stake (stake * card multiplier), so the base APY is what one
//   primary token earns at 1x, and a staker's APY is base * multiplier.
// - The floor: below APY_REFERENCE_STAKE of effective stake the pool is priced as if it held exactly that much.
//   An empty pool would otherwise show an infinite APY, and a nearly empty one a figure that vanishes with the
//   next deposit. The default emission rate was tuned for this reference (125,000 tokens a year on 1,000,000
//   tokens = 12.5%), so at the default rate the base APY never reads above 12.5%; below the floor the actual
//   yield is higher than shown.
// - Rounding: the base APY is rounded half up to hundredths of a percent (basis points); the effective APY is the
//   rounded base times the multiplier, so `effectiveApy === baseApy * multiplier` holds exactly to 2 decimals.
import { parseUnits } from 'viem';

export const SECONDS_PER_YEAR = 31_536_000n;

/** The effective stake the default emission rate was tuned for; the APY's denominator never goes below it. */
export const APY_REFERENCE_STAKE = parseUnits('1000000', 18);

const BPS_PER_UNIT = 10_000n;

export interface PoolRate {
  emissionPerSecond: bigint;
  allocPoint: bigint;
  totalAllocPoint: bigint;
  /** Total effective stake of the pool (wei). */
  totalEffective: bigint;
}

/** Base APY of the pool in basis points (hundredths of a percent), rounded half up. */
export function baseApyBps(rate: PoolRate): bigint {
  if (rate.totalAllocPoint === 0n || rate.allocPoint === 0n || rate.emissionPerSecond === 0n) return 0n;
  const stake = rate.totalEffective > APY_REFERENCE_STAKE ? rate.totalEffective : APY_REFERENCE_STAKE;
  const num = rate.emissionPerSecond * SECONDS_PER_YEAR * rate.allocPoint * BPS_PER_UNIT;
  const den = rate.totalAllocPoint * stake;
  return (2n * num + den) / (2n * den);
}

/** Basis points as a percentage number with at most 2 decimals (781n -> 7.81). */
export const bpsToPercent = (bps: bigint): number => Number(bps) / 100;
