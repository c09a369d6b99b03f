// The hard limits on what a company's agents trade (docs/api/decisions.md "Limits"): the company's
// toolkitConfig.limits over the platform's defaults. They are checked in code before anything is signed, whatever a
// model wrote.
import { parseUnits } from 'viem';
import { TRADING_LIMITS_DEFAULT, USDC_DECIMALS } from '../../constants.ts';
import type { ToolkitConfig } from '../../db/schema/companies.ts';

export interface Limits {
  /** Largest share of the wallet's balance a buy or a stake may use, in basis points. */
  maxTradeBps: number;
  /** Largest USDC notional (base units) the company's agents trade in one chain day. */
  maxDailyNotional: bigint;
  /** Largest value of one token (USDC base units) the company's agents may hold after a buy. */
  maxPosition: bigint;
  /** Largest slippage accepted from the quote, in basis points. */
  maxSlippageBps: number;
}

export function limitsOf(toolkit: ToolkitConfig | null | undefined): Limits {
  const set = { ...TRADING_LIMITS_DEFAULT, ...(toolkit?.limits ?? {}) };
  return {
    maxTradeBps: set.maxTradeBps,
    maxDailyNotional: parseUnits(set.maxDailyNotionalUsdc, USDC_DECIMALS),
    maxPosition: parseUnits(set.maxPositionUsdc, USDC_DECIMALS),
    maxSlippageBps: set.maxSlippageBps,
  };
}

/** The limits as the models and the API show them: decimal strings for money. */
export const limitsView = (toolkit: ToolkitConfig | null | undefined) => ({
  ...TRADING_LIMITS_DEFAULT,
  ...(toolkit?.limits ?? {}),
});
