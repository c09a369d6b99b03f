// Amounts in the demo: whole tokens or USDC to base units and back, and the small sums each idempotent step does
// (what is still missing to a target, a trade's minimum output).

/** Whole tokens (18 decimals) or USDC (6 decimals) to base units. */
export const units = (whole: bigint | number, decimals: number) =>
  BigInt(Math.round(Number(whole) * 100)) * 10n ** BigInt(decimals - 2);

/** Base units to a short decimal string: thousands separated, at most `places` decimals, trailing zeros cut. */
export function formatUnitsShort(value: bigint, decimals: number, places = 2): string {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const base = 10n ** BigInt(decimals);
  const whole = abs / base;
  const scale = 10n ** BigInt(Math.min(places, decimals));
  const fraction = (((abs % base) * scale) / base)
    .toString()
    .padStart(String(scale).length - 1, '0')
    .replace(/0+$/, '');
  const text = `${whole.toLocaleString('en-US')}${fraction ? `.${fraction}` : ''}`;
  return negative ? `-${text}` : text;
}

/** What is still missing to reach a target (never a withdrawal): a stake, a treasury balance. */
export const shortfall = (staked: bigint, target: bigint) => (staked >= target ? 0n : target - staked);

/** Minimum output of a trade: `slippageBps` below the quote. */
export const withSlippage = (quote: bigint, slippageBps = 100n) => (quote * (10_000n - slippageBps)) / 10_000n;
