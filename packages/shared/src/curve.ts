// The token launcher's bonding curve in bigint: the arithmetic of contracts/tokens/BondingCurve.sol, step for step and
// rounding for rounding, so what the web app works out before a trade is what the launcher will do.
// test/contracts/bonding-curve.test.ts holds each function to the deployed launcher over seeded random curves,
// fees and amounts. A constant-product curve with virtual reserves (USDC and tokens, k their product); rounding
// always favours the curve (the reserve left after a trade is rounded up, a fee is rounded up).

/** The basis points a fee is counted in. */
export const BPS = 10_000n;
/** Every company token's supply (1,000,000 with 18 decimals): TokenLauncher's TOTAL_SUPPLY. */
export const TOTAL_SUPPLY = 1_000_000n * 10n ** 18n;
/** The curve's token reserve at launch, 4/3 of the supply: TokenLauncher's INITIAL_VIRTUAL_TOKENS. */
export const INITIAL_VIRTUAL_TOKENS = (TOTAL_SUPPLY * 4n) / 3n;

/** a / b rounded up (OpenZeppelin's Math.ceilDiv), for a >= 0 and b > 0. */
export const ceilDiv = (a: bigint, b: bigint): bigint => (a === 0n ? 0n : (a - 1n) / b + 1n);

/** The fee on `amount` USDC at `bps` basis points, rounded up. */
export const feeOn = (amount: bigint, bps: bigint): bigint => ceilDiv(amount * bps, BPS);

/**
 * Splits `available` USDC of a buy into what moves the curve and the fee on it, taking at most `needed` for the
 * curve (what completes it: the rest of the buy goes on to the pool the graduation creates).
 */
export function buySplit(available: bigint, needed: bigint, bps: bigint): { curveIn: bigint; fee: bigint } {
  const neededFee = feeOn(needed, bps);
  if (available >= needed + neededFee) return { curveIn: needed, fee: neededFee };
  const curveIn = (available * BPS) / (BPS + bps);
  return { curveIn, fee: available - curveIn };
}

/** The token reserve that goes with a USDC reserve of `virtualUsdc`, rounded up. */
export const tokenReserveAt = (k: bigint, virtualUsdc: bigint): bigint => ceilDiv(k, virtualUsdc);

/** A curve's reserves. */
export interface Reserves {
  k: bigint;
  virtualUsdc: bigint;
  virtualTokens: bigint;
}

/** A buy of `usdcIn` (its fee excluded) on the curve: its reserves after the buy and the tokens it gives. */
export function curveBuy(
  { k, virtualUsdc, virtualTokens }: Reserves,
  usdcIn: bigint,
): { virtualUsdc: bigint; virtualTokens: bigint; tokensOut: bigint } {
  const newVirtualUsdc = virtualUsdc + usdcIn;
  const newVirtualTokens = tokenReserveAt(k, newVirtualUsdc);
  return { virtualUsdc: newVirtualUsdc, virtualTokens: newVirtualTokens, tokensOut: virtualTokens - newVirtualTokens };
}

/**
 * A sale of `tokensIn` to the curve: its reserves after the sale and the USDC it pays before the fee, which may be
 * more than the curve holds (the launcher then refuses the sale).
 */
export function curveSell(
  { k, virtualUsdc, virtualTokens }: Reserves,
  tokensIn: bigint,
): { virtualUsdc: bigint; virtualTokens: bigint; gross: bigint } {
  const newVirtualTokens = virtualTokens + tokensIn;
  const newVirtualUsdc = ceilDiv(k, newVirtualTokens);
  return { virtualUsdc: newVirtualUsdc, virtualTokens: newVirtualTokens, gross: virtualUsdc - newVirtualUsdc };
}

/** USDC base units per whole token (1e18 base units) at the curve's reserves, rounded down. */
export const curvePrice = (virtualUsdc: bigint, virtualTokens: bigint): bigint =>
  (virtualUsdc * 10n ** 18n) / virtualTokens;

/** The value of `supply` tokens at the curve's price, in USDC base units, rounded down. */
export const curveMarketCap = (virtualUsdc: bigint, virtualTokens: bigint, supply: bigint): bigint =>
  (virtualUsdc * supply) / virtualTokens;

/** The integer square root of `x`, rounded up (OpenZeppelin's Math.sqrt with Rounding.Ceil). */
export function sqrtCeil(x: bigint): bigint {
  if (x < 2n) return x;
  let r = x;
  let next = (x + 1n) / 2n;
  while (next < r) {
    r = next;
    next = (r + x / r) / 2n;
  }
  return r * r < x ? r + 1n : r;
}

/**
 * The smallest virtual USDC reserve V at which V * supply / ceil(k / V) reaches `threshold`: sqrt(G k / S) rounded
 * up, then stepped up past the rounding of the token reserve. 0 when eight steps do not reach it.
 */
export function graduationVirtualUsdc(k: bigint, threshold: bigint, supply: bigint = TOTAL_SUPPLY): bigint {
  let v = sqrtCeil((threshold * k) / supply);
  for (let i = 0; v * supply < threshold * ceilDiv(k, v); i++) {
    if (i === 8) return 0n;
    v++;
  }
  return v;
}

/** A curve as TokenLauncher's `launch` opens it for a graduation threshold of `threshold` USDC base units. */
export function launchedCurve(
  threshold: bigint,
): Reserves & { graduationVirtualUsdc: bigint; initialVirtualUsdc: bigint } {
  const v0 = threshold / 3n;
  const k = v0 * INITIAL_VIRTUAL_TOKENS;
  return {
    k,
    virtualUsdc: v0,
    virtualTokens: INITIAL_VIRTUAL_TOKENS,
    graduationVirtualUsdc: graduationVirtualUsdc(k, threshold),
    initialVirtualUsdc: v0,
  };
}

/**
 * What `quoteSell` answers for a token on its curve: the sale's USDC after the fee, its payout capped at what the
 * curve holds (`realUsdc`).
 */
export function curveSellQuote(reserves: Reserves & { realUsdc: bigint }, bps: bigint, tokensIn: bigint): bigint {
  let { gross } = curveSell(reserves, tokensIn);
  if (gross > reserves.realUsdc) gross = reserves.realUsdc;
  const fee = feeOn(gross, bps);
  return gross > fee ? gross - fee : 0n;
}
