// Which addresses may be a company's treasury (docs/api/companies.md "Treasury"). The treasury score counts the
// USDC an address holds, so it must be money the company controls: never the zero address, a platform contract
// (the launcher holds every curve's reserves), a company token, an agent wallet (agents' money is theirs to trade)
// or the proven treasury of another company (one balance counted twice). An unproven one does not block: naming
// someone's wallet needs no consent, so it must not keep that wallet from its owner's company.

import { sql } from 'drizzle-orm';
import { type Address, getAddress, isAddressEqual, zeroAddress } from 'viem';
import type { Chain } from '../../chain/client.ts';
import { rowsOf, type Tx } from '../../db/client.ts';
import { badRequest, forbidden } from '../../errors.ts';

/** 400 BAD_REQUEST or 403 FORBIDDEN, naming why, when `treasury` may not be company `companyId`'s treasury. */
export async function refuseForbiddenTreasury(
  deps: { chain: Pick<Chain, 'contracts'>; database: { db: Tx } },
  companyId: string | undefined,
  treasury: Address,
): Promise<void> {
  if (isAddressEqual(treasury, zeroAddress)) {
    throw badRequest('treasuryAddress must not be the zero address: rewards minted there are lost');
  }
  const contract = Object.entries(deps.chain.contracts).find(
    ([, address]) => address && isAddressEqual(address, treasury),
  );
  if (contract) {
    throw badRequest(
      `treasuryAddress ${treasury} is the platform's ${contract[0]} contract: a treasury must be money the company controls`,
    );
  }
  // Company addresses are stored checksummed (their indexes are on the column), agent wallets by lower case.
  const checksummed = getAddress(treasury);
  const [found] = rowsOf<{ token: string | null; agent: string | null; company: string | null }>(
    await deps.database.db.execute(sql`
      select
        (select id from companies where token_address = ${checksummed} limit 1) as token,
        (select id from agents where lower(on_chain_address) = ${checksummed.toLowerCase()} limit 1) as agent,
        (select id from companies
          where treasury_address = ${checksummed} and treasury_proven_at is not null and id <> ${companyId ?? ''}
          limit 1) as company`),
  );
  if (found?.token) {
    throw badRequest(`treasuryAddress ${treasury} is the token of company ${found.token}, not a treasury`);
  }
  if (found?.agent) {
    throw badRequest(
      `treasuryAddress ${treasury} is the wallet of agent ${found.agent}: an agent's funds are its own to trade, not a treasury`,
    );
  }
  if (found?.company) {
    throw forbidden(`${treasury} is the treasury of company ${found.company}: a treasury belongs to one company`);
  }
}
