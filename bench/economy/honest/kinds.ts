// The honest field: the kinds of honest company, how often a run draws each (after one of each), and the treasury
// each kind holds. The attackers' money is capped from it (adversaries/late-joiner.ts).
import { BUILDER_TREASURY_MEDIAN_USDC, builder } from './builder.ts';
import { QUIET_TREASURY_MEDIAN_USDC, quietCompany } from './quiet.ts';
import { staker } from './staker.ts';
import { TRADING_TREASURY_MEDIAN_USDC, tradingCompany } from './trading-company.ts';

export const HONEST_KINDS = [
  { kind: 'builder', weight: 0.35, treasuryMedianUsdc: BUILDER_TREASURY_MEDIAN_USDC, make: builder },
  { kind: 'trading', weight: 0.25, treasuryMedianUsdc: TRADING_TREASURY_MEDIAN_USDC, make: tradingCompany },
  { kind: 'quiet', weight: 0.25, treasuryMedianUsdc: QUIET_TREASURY_MEDIAN_USDC, make: quietCompany },
  { kind: 'staker', weight: 0.15, treasuryMedianUsdc: QUIET_TREASURY_MEDIAN_USDC, make: staker },
] as const;

/** The kind a draw `r` in [0, 1) picks, by weight. */
export function pickKind(r: number) {
  let left = r;
  for (const k of HONEST_KINDS) {
    left -= k.weight;
    if (left < 0) return k;
  }
  return HONEST_KINDS[0];
}

/** The median of the kinds' treasury medians, each counted by its weight: the treasury of the median honest company. */
export function fieldTreasuryMedian(kinds: readonly { weight: number; treasuryMedianUsdc: number }[]): number {
  const sorted = [...kinds].sort((a, b) => a.treasuryMedianUsdc - b.treasuryMedianUsdc);
  const total = sorted.reduce((sum, k) => sum + k.weight, 0);
  let below = 0;
  for (const k of sorted) {
    below += k.weight;
    if (below >= total / 2) return k.treasuryMedianUsdc;
  }
  return sorted[sorted.length - 1]!.treasuryMedianUsdc;
}

/** 10,000 USDC with the kinds above: 40% of the field holds about 3,000, 25% about 10,000, 35% about 20,000. */
export const HONEST_FIELD_TREASURY_MEDIAN_USDC = fieldTreasuryMedian(HONEST_KINDS);
