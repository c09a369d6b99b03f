// Which way a company's agents act (docs/contracts.md "Custody"): a company with custody set up (its Safe and Roles
// module recorded on its row) trades, stakes and unstakes from its Safe, each agent key calling the module's
// `execTransactionWithRole`; a company without trades from its agents' own wallets.
import { eq } from 'drizzle-orm';
import type { Address } from 'viem';
import { companies } from '../../db/schema/companies.ts';
import type { Deps } from '../deps.ts';

export interface TradingCustody {
  /** The company's Safe: what it holds is what its agents trade with, and the trader the chain sees. */
  safe: Address;
  /** The company's Roles module, the agents' only way to the Safe. */
  roles: Address;
}

/** The custody columns as a caller may already hold them (undefined: not read yet). */
export interface CustodyColumns {
  id: string;
  safeAddress?: string | null;
  rolesModuleAddress?: string | null;
}

/** The company's custody, or null when its agents trade from their own wallets. */
export async function tradingCustody(
  deps: Pick<Deps, 'database'>,
  company: CustodyColumns,
): Promise<TradingCustody | null> {
  let { safeAddress, rolesModuleAddress } = company;
  if (safeAddress === undefined || rolesModuleAddress === undefined) {
    const [row] = await deps.database.db
      .select({ safe: companies.safeAddress, roles: companies.rolesModuleAddress })
      .from(companies)
      .where(eq(companies.id, company.id));
    safeAddress = row?.safe ?? null;
    rolesModuleAddress = row?.roles ?? null;
  }
  return safeAddress && rolesModuleAddress
    ? { safe: safeAddress as Address, roles: rolesModuleAddress as Address }
    : null;
}
