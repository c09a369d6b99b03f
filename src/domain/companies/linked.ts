// A company's linked wallets (docs/api/fortune.md "Linked wallets"): its creator, its treasuries (the current one
// and every one it proved before) and its agents' wallets. Their trading of the company's own token is not volume,
// and their trading of a token an agent holds makes that holding's PnL count for nothing.
import { sql } from 'drizzle-orm';

/**
 * The body of a `linked (company_id, wallet)` CTE: every linked wallet of every company, in lower case (a wallet may
 * appear more than once: the CTE serves anti-joins).
 */
export function linkedWallets() {
  return sql`
    select id as company_id, lower(creator_address) as wallet from companies
    union all
    select id, lower(treasury_address) from companies where treasury_address is not null
    union all
    select company_id, lower(address) from company_treasuries
    union all
    select company_id, lower(on_chain_address) from agents where company_id is not null and on_chain_address is not null`;
}

/**
 * A condition true when `trader` (a lower-case SQL expression) is a linked wallet of the company `companyId` (an
 * SQL expression naming a company id), by indexed lookups: for the few rows of one company at a time.
 */
export function isLinkedWallet(trader: string, companyId: string) {
  return sql.raw(`(
      exists (select 1 from companies lc where lc.id = ${companyId}
        and (lower(lc.creator_address) = ${trader} or lower(lc.treasury_address) = ${trader}))
      or exists (select 1 from company_treasuries lt where lt.company_id = ${companyId} and lower(lt.address) = ${trader})
      or exists (select 1 from agents la where lower(la.on_chain_address) = ${trader} and la.company_id = ${companyId})
    )`);
}
