// The prices of company tokens, in bigint: a trade's execution price (USDC base units per whole token, and to 18
// decimals), and the spot price and market cap of a token on its bonding curve or in its v4 pool.
import { curveMarketCap, curvePrice } from '@ai-economy/shared/curve';
import { formatUnits } from 'viem';
import { COMPANY_TOKEN_DECIMALS, USDC_DECIMALS } from '../../constants.ts';

/** Execution price in USDC base units per whole token. */
export const executionPrice = (usdcAmount: bigint, tokenAmount: bigint) =>
  tokenAmount === 0n ? 0n : (usdcAmount * 10n ** 18n) / tokenAmount;

/** Decimals of the full-precision prices (`priceExact`, the candles' `openExact`...): USDC per whole token. */
export const EXACT_PRICE_DECIMALS = 18;
export const EXACT_SCALE = 10n ** BigInt(EXACT_PRICE_DECIMALS + COMPANY_TOKEN_DECIMALS - USDC_DECIMALS);

/** USDC per whole token to EXACT_PRICE_DECIMALS decimals, rounded down. */
export function exactPrice(usdcAmount: bigint, tokenAmount: bigint): string {
  return tokenAmount === 0n ? '0' : formatUnits((usdcAmount * EXACT_SCALE) / tokenAmount, EXACT_PRICE_DECIMALS);
}

const WAD = 10n ** 18n;

/** Price and market cap of a curve after a trade, from its virtual reserves (TokenLauncher.priceOf while bonding). */
export function curveSpot(virtualUsdc: bigint, virtualTokens: bigint, supply: bigint) {
  if (virtualTokens === 0n) return { price: 0n, marketCap: 0n };
  return {
    price: curvePrice(virtualUsdc, virtualTokens),
    marketCap: curveMarketCap(virtualUsdc, virtualTokens, supply),
  };
}

/**
 * Price and market cap in a v4 pool from its sqrtPriceX96 (TokenLauncher.priceOf once graduated): currency1 per
 * currency0 is sqrtPrice^2 / 2^192 in raw units; the token is currency0 when its address sorts below USDC's.
 */
export function poolSpot(sqrtPriceX96: bigint, tokenIsCurrency0: boolean, supply: bigint) {
  const priceX128 = (sqrtPriceX96 * sqrtPriceX96) >> 64n;
  const Q128 = 1n << 128n;
  if (priceX128 === 0n) return { price: 0n, marketCap: 0n };
  return tokenIsCurrency0
    ? { price: (priceX128 * WAD) / Q128, marketCap: (priceX128 * supply) / Q128 }
    : { price: (Q128 * WAD) / priceX128, marketCap: (Q128 * supply) / priceX128 };
}
