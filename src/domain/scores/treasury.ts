// Treasury balances for the score snapshot: every treasury's USDC balance, read at one pinned block so all
// companies are valued at the same moment (chain/contracts/usdc.ts reads 500 to an eth_call).
import { type Address, isAddress } from 'viem';
import { usdcBalancesAt } from '../../chain/contracts/usdc.ts';
import { isChainUnavailable } from '../../errors.ts';
import type { Deps } from '../deps.ts';

export interface TreasuryRead {
  /** USDC base units by company id, for companies with a treasury. */
  balances: Map<string, bigint>;
  block: bigint;
}

/**
 * Reads the USDC balance of each company's treasury at the latest block. Returns undefined when the chain does
 * not answer (the snapshot then keeps the last values); any other failure, such as no USDC contract configured,
 * throws.
 */
export async function readTreasuryBalances(
  deps: Pick<Deps, 'chain'>,
  treasuries: readonly { companyId: string; treasuryAddress: string }[],
): Promise<TreasuryRead | undefined> {
  const usdc = deps.chain.contracts.usdc;
  if (!usdc) throw new Error('the usdc contract is not configured: treasury balances cannot be read');
  // A treasury shared by several companies is read once; an address that is not one (never stored, but cheap to
  // rule out) counts as an empty treasury.
  const addresses = [...new Set(treasuries.map((t) => t.treasuryAddress.toLowerCase()))].filter((a) =>
    isAddress(a, { strict: false }),
  ) as Address[];
  try {
    const { balances: byAddress, block } = await usdcBalancesAt(deps.chain, addresses);
    const balances = new Map<string, bigint>();
    for (const t of treasuries) {
      const balance = byAddress.get(t.treasuryAddress.toLowerCase());
      if (balance !== undefined) balances.set(t.companyId, balance);
    }
    return { balances, block };
  } catch (err) {
    if (isChainUnavailable(err)) return undefined;
    throw err;
  }
}
