// The gas a trading action is estimated at against the company's daily gas budget, before it is signed.
import type { TRADE_TOOLS } from '../../constants.ts';

type TradeTool = (typeof TRADE_TOOLS)[number];

/** Gas each action is estimated at against the company's daily budget (approval included). */
const GAS_ESTIMATE: Record<TradeTool, bigint> = {
  buy_token: 400_000n,
  sell_token: 400_000n,
  stake_primary: 300_000n,
  unstake_primary: 250_000n,
  harvest_emission: 150_000n,
};

/**
 * The same through the company's Roles module, which adds about 40,000 to 95,000 gas a call (docs/contracts.md
 * "Custody": a first buy 203,028 and its USDC approval 107,947; a stake up to 191,583 and its approval about 108,000).
 */
const CUSTODY_GAS_ESTIMATE: Record<TradeTool, bigint> = {
  buy_token: 450_000n,
  sell_token: 400_000n,
  stake_primary: 400_000n,
  unstake_primary: 300_000n,
  harvest_emission: 250_000n,
};

/** The estimate of `tool`, through the company's Roles module when `custody`. */
export const actionGasEstimate = (tool: TradeTool, custody: boolean): bigint =>
  (custody ? CUSTODY_GAS_ESTIMATE : GAS_ESTIMATE)[tool];
