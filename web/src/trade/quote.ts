// What a trade will do, worked out from the launcher's own state before it is sent: the route (the curve, the pool,
// or the curve then the pool when a buy completes the curve and graduates the token in the same transaction), the
// USDC each part takes, the fees, the average price and the price impact. The expected output is the launcher's own
// quote (quoteBuy / quoteSell, which repeat the contract's arithmetic step for step), so the quote is what the chain
// does; the split into curve and pool is the launcher's own arithmetic (its BondingCurve library), from
// @ai-economy/shared/curve.
import { BPS, buySplit, curveBuy, curveSell, feeOn } from '@ai-economy/shared/curve';

/** TokenLauncher's `curveOf` (the fields used here). */
export interface CurveState {
  k: bigint;
  virtualUsdc: bigint;
  realUsdc: bigint;
  virtualTokens: bigint;
  graduationVirtualUsdc: bigint;
  graduated: boolean;
}

export type Route = 'curve' | 'pool' | 'curve-then-pool';

export interface Quote {
  side: 'buy' | 'sell';
  /** USDC (buy) or tokens (sell) in, base units. */
  amountIn: bigint;
  /** Tokens (buy) or USDC (sell) expected, base units: the launcher's quote. */
  out: bigint;
  route: Route;
  /** A buy that completes the curve: the token graduates in this transaction. */
  graduates: boolean;
  /** USDC that moves the curve (a buy's, before its fee) or that the curve pays (a sale's, before its fee). */
  curveUsdc: bigint;
  /** USDC that goes into (buy) or comes out of (sale) the v4 pool. */
  poolUsdc: bigint;
  curveFeeUsdc: bigint;
  /** The pool hook's 2.5% of the output, in USDC at the trade's price (taken in tokens on a buy). */
  poolFeeUsdc: bigint;
  /** USDC per whole token, fees included, base units of USDC. */
  averagePrice: bigint;
  /** How much worse than the current price the trade's own price is (fees excluded), in basis points. */
  impactBps: number;
}

/** PlatformFeeHook's fee on a swap's output. */
export const POOL_FEE_BPS = 250n;
const WAD = 10n ** 18n;

/** What a net amount was before the hook took its share of it. */
const grossOfPoolOutput = (net: bigint) => (net * BPS) / (BPS - POOL_FEE_BPS);

function impactOf(side: 'buy' | 'sell', usdcExFees: bigint, tokensExFees: bigint, spot: bigint): number {
  if (tokensExFees === 0n || spot === 0n) return 0;
  const execution = (usdcExFees * WAD) / tokensExFees;
  const bps = side === 'buy' ? ((execution - spot) * BPS) / spot : ((spot - execution) * BPS) / spot;
  return Math.max(0, Number(bps));
}

/**
 * A buy of `usdcIn`: `quoted` is quoteBuy's answer, `spot` priceOf's price (USDC base units per whole token) and
 * `feeBps` the curve fee, all read at one block.
 */
export function buyQuote(curve: CurveState, feeBps: bigint, spot: bigint, usdcIn: bigint, quoted: bigint): Quote {
  let curveIn = 0n;
  let curveFee = 0n;
  let curveTokens = 0n;
  let graduates = false;
  if (!curve.graduated) {
    const needed = curve.graduationVirtualUsdc - curve.virtualUsdc;
    ({ curveIn, fee: curveFee } = buySplit(usdcIn, needed, feeBps));
    // The split takes all the curve needs only when the buy covers that and its fee: the buy graduates the token.
    graduates = curveIn === needed;
    curveTokens = curveBuy(curve, curveIn).tokensOut;
  }
  const poolIn = usdcIn - curveIn - curveFee;
  const poolTokens = quoted - curveTokens;
  const poolFee = (poolIn * POOL_FEE_BPS) / BPS;
  return {
    side: 'buy',
    amountIn: usdcIn,
    out: quoted,
    route: curve.graduated ? 'pool' : poolIn > 0n ? 'curve-then-pool' : 'curve',
    graduates,
    curveUsdc: curveIn,
    poolUsdc: poolIn,
    curveFeeUsdc: curveFee,
    poolFeeUsdc: poolFee,
    averagePrice: quoted > 0n ? (usdcIn * WAD) / quoted : 0n,
    impactBps: impactOf('buy', curveIn + poolIn, curveTokens + grossOfPoolOutput(poolTokens), spot),
  };
}

/**
 * The USDC a buy must pay for the token to graduate: what completes the curve (its graduation reserve less the
 * reserve now) and the curve's fee on it, as `buyQuote` splits a buy that graduates. 0 once graduated.
 */
export function usdcToGraduation(curve: CurveState, feeBps: bigint): bigint {
  if (curve.graduated) return 0n;
  const needed = curve.graduationVirtualUsdc - curve.virtualUsdc;
  return needed <= 0n ? 0n : needed + feeOn(needed, feeBps);
}

/** A sale of `tokensIn`; `quoted` is quoteSell's answer. Throws when the curve cannot pay for it. */
export function sellQuote(curve: CurveState, feeBps: bigint, spot: bigint, tokensIn: bigint, quoted: bigint): Quote {
  let gross: bigint;
  let curveFee = 0n;
  let poolFee = 0n;
  if (curve.graduated) {
    gross = grossOfPoolOutput(quoted);
    poolFee = gross - quoted;
  } else {
    gross = curveSell(curve, tokensIn).gross;
    // quoteSell caps the payout at what the curve holds; the sale itself reverts (LauncherInsufficientReserve).
    if (gross > curve.realUsdc) throw new CurveReserveError(gross, curve.realUsdc);
    curveFee = feeOn(gross, feeBps);
  }
  return {
    side: 'sell',
    amountIn: tokensIn,
    out: quoted,
    route: curve.graduated ? 'pool' : 'curve',
    graduates: false,
    curveUsdc: curve.graduated ? 0n : gross,
    poolUsdc: curve.graduated ? gross : 0n,
    curveFeeUsdc: curveFee,
    poolFeeUsdc: poolFee,
    averagePrice: tokensIn > 0n ? (quoted * WAD) / tokensIn : 0n,
    impactBps: impactOf('sell', gross, tokensIn, spot),
  };
}

/** A sale larger than the USDC the curve holds. */
export class CurveReserveError extends Error {
  constructor(
    readonly requested: bigint,
    readonly available: bigint,
  ) {
    super('the curve holds less USDC than this sale would take');
  }
}

/** The least a trade may give: the quote less the slippage allowed, in millionths. */
export const minimumOut = (out: bigint, slippagePpm: bigint) => (out * (1_000_000n - slippagePpm)) / 1_000_000n;

/**
 * What changed between the quote on screen and a fresh one read just before sending, or undefined when the fresh
 * one is as good: a lower minimum than the one shown (at the same slippage) or another route (a buy that another
 * trader's graduation moved from the curve to the pool). The form then shows "Price updated" and asks again.
 */
export function priceUpdate(
  shown: Quote,
  shownMinimum: bigint,
  fresh: Quote,
  slippagePpm: bigint,
): { minimum: bigint; worse: boolean; rerouted: boolean } | undefined {
  const minimum = minimumOut(fresh.out, slippagePpm);
  const worse = minimum < shownMinimum;
  const rerouted = fresh.route !== shown.route;
  return worse || rerouted ? { minimum, worse, rerouted } : undefined;
}
