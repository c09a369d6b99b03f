// The cap of a lasting allowance the trade form offers: enough for several trades of the size being made, said in
// the form in words and units before anything is approved.

/** A lasting USDC allowance is at least this, in base units (1,000 USDC), and a whole number of thousands. */
const LASTING_USDC_STEP = 1_000_000_000n;

/**
 * The cap of a lasting allowance for a trade spending `value`: for USDC the next whole 1,000 USDC at or above it (at
 * least 1,000), so several trades fit; for the token the whole holding (a sale never needs more).
 */
export function lastingCap(side: 'buy' | 'sell', value: bigint, holding: bigint | undefined): bigint {
  if (side === 'sell') return holding !== undefined && holding > value ? holding : value;
  const steps = (value + LASTING_USDC_STEP - 1n) / LASTING_USDC_STEP;
  return (steps > 0n ? steps : 1n) * LASTING_USDC_STEP;
}
