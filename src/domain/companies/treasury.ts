// Setting a company's treasury (PUT /api/companies/{id}/treasury, docs/api/companies.md "Treasury"): by the holder
// of the company's card, to an address that may be a treasury (rules.ts), with the treasury's own acceptance unless
// it is the creator's wallet or the company's own Safe (custody). The address is followed by the treasury stream from then on, and the company's span
// with its previous treasury ends when the new one begins (db/schema/treasuries.ts): the treasury score counts each
// for the time it was the company's.
import { createId } from '@paralleldrive/cuid2';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { type Address, getAddress, isAddressEqual } from 'viem';
import { chainTime } from '../../chain/time.ts';
import { uniqueViolation } from '../../db/errors.ts';
import { companyTreasuries } from '../../db/schema/treasuries.ts';
import { conflict, forbidden } from '../../errors.ts';
import { requireCardHolder } from '../cards/holder.ts';
import { gasToday } from '../costs/gas-budget.ts';
import type { Deps as DomainDeps } from '../deps.ts';
import { requireTreasuryAcceptance, type TreasuryAcceptance } from '../treasuries/acceptance.ts';
import { refuseForbiddenTreasury } from '../treasuries/rules.ts';
import { followTreasury } from '../treasuries/treasury-transfers.stream.ts';
import { type CompanyRow, liveAgentsOf, requireCompany } from './queries.ts';
import { lockCompany, recordProvenTreasury } from './store.ts';
import { companyView } from './views.ts';

type Deps = Pick<DomainDeps, 'database' | 'chain' | 'config' | 'now'>;

export interface TreasuryInput {
  treasuryAddress: string;
  acceptance?: TreasuryAcceptance | undefined;
}

export async function setTreasury(deps: Deps, idOrSlug: string, signer: Address | undefined, input: TreasuryInput) {
  const db = deps.database.db;
  const company = await requireCompany(db, idOrSlug);
  await requireCardHolder(deps, company, signer);
  const treasury = getAddress(input.treasuryAddress);
  await refuseForbiddenTreasury(deps, company.id, treasury);
  const now = await chainTime(deps.chain.publicClient);
  // The creator's own wallet, or the company's own Safe (deployed for its card, which alone controls it), needs no
  // acceptance; any other address signs one (an EOA, or an ERC-1271 wallet).
  const ownSafe = company.safeAddress !== null && isAddressEqual(treasury, company.safeAddress as Address);
  if (!isAddressEqual(treasury, signer!) && !ownSafe) {
    await requireTreasuryAcceptance(deps.chain, company.id, treasury, input.acceptance, now);
  }
  const row = await proveTreasury(deps, company, treasury, now);
  const [live, gas] = await Promise.all([liveAgentsOf(db, company.id), gasToday(deps, db, company.id)]);
  return companyView(row, live, gas);
}

const provenAlready = (company: CompanyRow, treasury: Address) =>
  company.treasuryProvenAt !== null &&
  company.treasuryAddress !== null &&
  isAddressEqual(company.treasuryAddress as Address, treasury);

/**
 * Records `treasury` as the company's proven treasury from the chain's time `now` (or from the block its balance was
 * first read at, when that is later), ending the span of the one before. Setting the proven treasury again changes
 * nothing. Also used at creation for a treasury that is the creator's own wallet.
 */
export async function proveTreasury(
  deps: Pick<Deps, 'database' | 'chain'>,
  company: CompanyRow,
  treasury: Address,
  now: bigint,
): Promise<CompanyRow> {
  if (provenAlready(company, treasury)) return company;
  const opened = await followTreasury(deps, treasury);
  const fromMs = Math.max(Number(now) * 1000, opened?.getTime() ?? 0);
  const from = new Date(fromMs);
  try {
    return await deps.database.db.transaction(async (tx) => {
      // The company's row first: two requests for one company take turns here.
      const current = await lockCompany(tx, company.id);
      if (provenAlready(current!, treasury)) return current!;
      await tx
        .update(companyTreasuries)
        .set({ untilTime: sql`greatest(${companyTreasuries.fromTime}, ${from.toISOString()}::timestamptz)` })
        .where(and(eq(companyTreasuries.companyId, company.id), isNull(companyTreasuries.untilTime)));
      await tx
        .insert(companyTreasuries)
        .values({ id: createId(), companyId: company.id, address: treasury, fromTime: from });
      return recordProvenTreasury(tx, company.id, treasury, from);
    });
  } catch (err) {
    const constraint = uniqueViolation(err);
    if (constraint === 'company_treasuries_current_address_unique') {
      throw forbidden(`${treasury} is the treasury of another company: a treasury belongs to one company`);
    }
    if (constraint === 'company_treasuries_current_unique') {
      throw conflict(`The treasury of company ${company.id} is being changed by a concurrent request; retry`);
    }
    throw err;
  }
}
