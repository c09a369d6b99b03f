// A quote of a trade of a company token before it is made: what a buy of `amount` USDC or a sale of `amount` tokens
// gives at the latest block, the spot price it starts from, the average price it gets and the difference (price
// impact), and the fee the venue takes. Read from the token launcher in one block; nothing is sent.
import { type Address, formatUnits } from 'viem';
import { readQuote } from '../../chain/contracts/launcher.ts';
import { COMPANY_TOKEN_DECIMALS, USDC_DECIMALS } from '../../constants.ts';
import { notFound } from '../../errors.ts';
import { requireCompany } from '../companies/queries.ts';
import type { Deps } from '../deps.ts';
import { exactPrice } from './prices.ts';

/** The v4 pool hook's fee on every swap (PlatformFeeHook.FEE_BIPS), in basis points. */
export const POOL_FEE_BPS = 250;

export async function tokenQuote(deps: Deps, idOrSlug: string, side: 'buy' | 'sell', amount: bigint) {
  const company = await requireCompany(deps.database.db, idOrSlug);
  if (company.tokenStatus === 'PRE_PUBLIC' || !company.tokenAddress) {
    throw notFound(`Company ${idOrSlug} has no token yet`);
  }
  const token = company.tokenAddress as Address;
  const { blockNumber, out, spot, graduated, curveFeeBps } = await readQuote(deps.chain, token, side, amount);
  const [usdcAmount, tokenAmount] = side === 'buy' ? [amount, out] : [out, amount];
  // USDC (base units) per whole token, full precision; spot is the launcher's, 6 decimals.
  const average = tokenAmount === 0n ? null : exactPrice(usdcAmount, tokenAmount);
  const spotExact = formatUnits(spot, USDC_DECIMALS);
  let impact: number | null = null;
  if (average !== null && spot > 0n) {
    const avg = Number(average);
    const s = Number(spotExact);
    impact = Math.round(((side === 'buy' ? avg - s : s - avg) / s) * 10_000) / 100;
  }
  const feeBps = graduated ? POOL_FEE_BPS : curveFeeBps;
  return {
    companyId: company.id,
    companySlug: company.slug,
    tokenAddress: token,
    side,
    venue: graduated ? ('POOL' as const) : ('CURVE' as const),
    blockNumber: Number(blockNumber),
    amountIn: formatUnits(amount, side === 'buy' ? USDC_DECIMALS : COMPANY_TOKEN_DECIMALS),
    amountInRaw: amount.toString(),
    amountOut: formatUnits(out, side === 'buy' ? COMPANY_TOKEN_DECIMALS : USDC_DECIMALS),
    amountOutRaw: out.toString(),
    spotPrice: spotExact,
    averagePrice: average,
    priceImpactPercent: impact,
    feeBps,
  };
}
