// Creating a company (docs/api/companies.md POST /api/companies): the signer's unused access card is bound to the new
// company in the database first, then locked on-chain; a lock interrupted by a crash or an outage is finished
// by repairCardLocks, and the card's unique binding means it can never be bound twice.
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { type Address, getAddress, isAddressEqual } from 'viem';
import { chainTime } from '../../chain/time.ts';
import { COMPANY_SLUG_MAX, COMPANY_SLUG_MIN, RECORD_ID_PATTERN } from '../../constants.ts';
import type { Tx } from '../../db/client.ts';
import { uniqueViolation } from '../../db/errors.ts';
import { companies } from '../../db/schema/companies.ts';
import { badRequest, conflict, validationError } from '../../errors.ts';
import { gasToday } from '../costs/gas-budget.ts';
import type { Deps } from '../deps.ts';
import { refuseForbiddenTreasury } from '../treasuries/rules.ts';
import { lockCompanyCard, pickUnusedCard } from './card.ts';
import type { CompanyRow } from './queries.ts';
import { insertCompany } from './store.ts';
import { proveTreasury } from './treasury.ts';
import { companyView } from './views.ts';

export interface CreateCompanyInput {
  name: string;
  slug?: string | undefined;
  category: string;
  description?: string | undefined;
  logoUrl?: string | undefined;
  treasuryAddress?: string | undefined;
  referrerCompanyId?: string | undefined;
}

/** A slug from the name: lowercase ASCII letters and digits joined by single dashes, 3-48 characters. */
export function slugFromName(name: string): string {
  let slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, COMPANY_SLUG_MAX)
    .replace(/-+$/, '');
  if (slug.length < COMPANY_SLUG_MIN) slug = `${slug ? `${slug}-` : 'co-'}${randomBytes(3).toString('hex')}`;
  // A name that reads like an id gives a slug that does not: slugs and ids share the routes' lookups.
  if (RECORD_ID_PATTERN.test(slug)) slug = `${slug}-co`;
  return slug;
}

export async function createCompany(
  deps: Pick<Deps, 'chain' | 'database' | 'outbox' | 'now' | 'config'> & {
    log?: { warn(o: object, m: string): void };
  },
  signer: Address,
  input: CreateCompanyInput,
  /** Runs in the insert's transaction with the new company's id (an Idempotency-Key's recovery point). */
  recordRecovery?: (tx: Tx, companyId: string) => Promise<void>,
) {
  const db = deps.database.db;
  if (input.slug !== undefined && RECORD_ID_PATTERN.test(input.slug)) {
    throw validationError(
      'body.slug',
      'must not have the shape of a company id (24 lowercase letters and digits, the first a letter): routes take an id or a slug in one place; add a dash or pick another',
    );
  }
  const slug = input.slug ?? slugFromName(input.name);
  if (input.referrerCompanyId !== undefined) {
    const [referrer] = await db
      .select({ id: companies.id })
      .from(companies)
      .where(eq(companies.id, input.referrerCompanyId));
    if (!referrer) throw badRequest(`referrerCompanyId ${input.referrerCompanyId} is not a company`);
  }
  const [taken] = await db.select({ id: companies.id }).from(companies).where(eq(companies.slug, slug));
  if (taken) throw slugTaken(slug);
  const treasury = input.treasuryAddress ? getAddress(input.treasuryAddress) : null;
  if (treasury) await refuseForbiddenTreasury(deps, undefined, treasury);

  const { tokenId: cardTokenId, block } = await pickUnusedCard(deps, signer);
  let row: CompanyRow;
  try {
    row = await db.transaction(async (tx) => {
      const inserted = await insertCompany(tx, {
        name: input.name,
        slug,
        category: input.category,
        description: input.description ?? null,
        logoUrl: input.logoUrl ?? null,
        // Proven below when it is the creator's own wallet; any other address stays unproven (it scores nothing)
        // until its acceptance is given with PUT /api/companies/{id}/treasury, which names the company it accepts.
        treasuryAddress: treasury,
        referrerCompanyId: input.referrerCompanyId ?? null,
        creatorAddress: getAddress(signer),
        cardTokenId,
        ownerBlock: block,
      });
      await recordRecovery?.(tx, inserted.id);
      return inserted;
    });
  } catch (err) {
    const constraint = uniqueViolation(err);
    if (constraint === 'companies_slug_unique') throw slugTaken(slug);
    if (constraint === 'companies_card_token_id_unique') {
      throw conflict(`Access card #${cardTokenId} is being bound to another company by a concurrent request; retry`);
    }
    throw err;
  }

  if (treasury && isAddressEqual(treasury, signer)) {
    try {
      row = await proveTreasury(deps, row, treasury, await chainTime(deps.chain.publicClient));
    } catch (err) {
      // The company exists; its treasury stays UNPROVEN until PUT /api/companies/{id}/treasury proves it.
      deps.log?.warn({ err, companyId: row.id }, 'treasury proof deferred');
    }
  }
  try {
    await lockCompanyCard(deps, row);
    row = { ...row, cardLockedAt: new Date(deps.now()) };
  } catch (err) {
    // The company exists and its card is bound; the on-chain lock is retried by repairCardLocks.
    deps.log?.warn({ err, companyId: row.id }, 'card lock deferred');
  }
  return companyView(row, [], await gasToday(deps, db, row.id));
}

const slugTaken = (slug: string) => conflict(`The slug "${slug}" is taken: choose another`);
