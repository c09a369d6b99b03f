// A company's linked wallets (docs/api/fortune.md "Linked wallets"): its creator, its treasuries (the current one
// and every one it proved before) and its agents' wallets. Their trading of the company's own token is not volume,
// and their trading of a token an agent holds makes that holding's PnL count for nothing.
//
// The creator follows the card stream, which applies a card transfer as soon as it reads it, finalized or not. So
// that a transfer in a block that is not final (one a reorg may still take back) cannot change what counts, a
// company's creator is every creator it had since its finalized block: the current one and each one an unfinalized
// card transfer replaced (the journal keeps their old values until the batch is final, src/chain/journal.ts).
// Excluding both is the conservative reading: a wallet's volume counts only if it was not the creator on either side.
import { sql } from 'drizzle-orm';

/**
 * The body of a `linked (company_id, wallet)` CTE: every linked wallet of every company, in lower case (a wallet may
 * appear more than once: the CTE serves anti-joins).
 */
export function linkedWallets() {
  return sql`
    select id as company_id, lower(creator_address) as wallet from companies
    union all
    select key->>'id', lower(old->>'creator_address') from chain_journal
      where table_name = 'companies' and op = 'U' and old ? 'creator_address'
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
      or exists (select 1 from chain_journal lj where lj.table_name = 'companies' and lj.op = 'U'
        and lj.key->>'id' = ${companyId} and lower(lj.old->>'creator_address') = ${trader})
      or exists (select 1 from company_treasuries lt where lt.company_id = ${companyId} and lower(lt.address) = ${trader})
      or exists (select 1 from agents la where lower(la.on_chain_address) = ${trader} and la.company_id = ${companyId})
    )`);
}
