// One wallet's position in one company token at average cost, from its indexed trades (trader_positions, keyed by
// trader and token): what the web app's trade form shows beside the wallet's on-chain balance. One primary-key read.
import { and, eq } from 'drizzle-orm';
import { type Address, formatUnits, getAddress } from 'viem';
import { COMPANY_TOKEN_DECIMALS, USDC_DECIMALS } from '../../constants.ts';
import type { Tx } from '../../db/client.ts';
import { traderPositions } from '../../db/schema/tokens.ts';
import { requireCompany } from '../companies/queries.ts';

const WAD = 10n ** 18n;

/**
 * The wallet's position in the company's token: tokens bought and not yet sold, their cost, the average cost per
 * token (USDC per whole token) and the PnL its sales realised. Zeros for a wallet that never traded it, or a
 * company without a token.
 */
export async function tokenPositionOf(db: Tx, idOrSlug: string, wallet: Address) {
  const company = await requireCompany(db, idOrSlug);
  const [row] = company.tokenAddress
    ? await db
        .select({
          quantity: traderPositions.quantity,
          cost: traderPositions.costUsdc,
          realized: traderPositions.realizedPnlUsdc,
        })
        .from(traderPositions)
        .where(
          and(
            eq(traderPositions.trader, wallet.toLowerCase()),
            eq(traderPositions.tokenAddress, getAddress(company.tokenAddress)),
          ),
        )
    : [];
  const quantity = row?.quantity ?? 0n;
  const cost = row?.cost ?? 0n;
  return {
    companyId: company.id,
    wallet: getAddress(wallet),
    quantity: formatUnits(quantity, COMPANY_TOKEN_DECIMALS),
    costUsdc: formatUnits(cost, USDC_DECIMALS),
    averageCostUsdc: formatUnits(quantity === 0n ? 0n : (cost * WAD) / quantity, USDC_DECIMALS),
    realizedPnlUsdc: formatUnits(row?.realized ?? 0n, USDC_DECIMALS),
  };
}
