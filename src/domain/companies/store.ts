// The one writer of the companies table (docs/architecture.md "One writer per shared table"). Every change to a
// company row goes through a function here: its creation, its settings, its hiring and machine, its card's lock
// and holder, its proven treasury, and its token's launch, graduation and spot price as the indexer applies them.
// Reads stay where they are used; the rules that decide a change stay with the operation that makes it.
import { createId } from '@paralleldrive/cuid2';
import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { AGENT_ROLES } from '../../constants.ts';
import { rowsOf, type Tx } from '../../db/client.ts';
import { companies } from '../../db/schema/companies.ts';
import { scoreSnapshots } from '../../db/schema/scores.ts';
import { publishEventsFrom } from '../events/store.ts';
import type { CompanyRow } from './queries.ts';

export type NewCompanyRow = Omit<typeof companies.$inferInsert, 'id'>;
/** The columns an owner's settings may change (PATCH /api/companies/{id} and .../engine). */
export type CompanySettings = Partial<
  Pick<
    CompanyRow,
    | 'ceoPrompt'
    | 'ceoPromptSigner'
    | 'ceoPromptTokens'
    | 'masterDirectiveTokens'
    | 'directiveSetAt'
    | 'directiveSetBlock'
    | 'autonomyLevel'
    | 'league'
    | 'engineConfig'
    | 'toolkitConfig'
    | 'enginePreset'
    | 'dailyModelSpendCap'
    | 'masterDirective'
    | 'masterDirectiveSigner'
    | 'unsignedSettings'
  >
>;

/** A new company; the unique indexes (slug, card) answer a concurrent duplicate with their constraint's error. */
export async function insertCompany(db: Tx, values: NewCompanyRow): Promise<CompanyRow> {
  const [row] = await db
    .insert(companies)
    .values({ id: createId(), ...values })
    .returning();
  return row!;
}

/** Saves the owner's settings and answers the row as it now is. */
export async function saveCompanySettings(db: Tx, id: string, changes: CompanySettings): Promise<CompanyRow> {
  const [row] = await db
    .update(companies)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(companies.id, id))
    .returning();
  return row!;
}

// ---------------------------------------------------------------- hiring and the compute machine

/** INCORPORATING -> HIRING, when deploy-suite starts hiring; any later status is left as it is. */
export async function markHiring(db: Tx, id: string): Promise<void> {
  await db
    .update(companies)
    .set({ status: 'HIRING', updatedAt: new Date() })
    .where(and(eq(companies.id, id), eq(companies.status, 'INCORPORATING')));
}

/**
 * INCORPORATING or HIRING -> PRIVATE for every company (or the one given) whose seven roles all hold a live agent,
 * in one statement.
 */
export async function finishHiring(db: Tx, companyId?: string): Promise<void> {
  await db.execute(sql`
    update companies c set status = 'PRIVATE', updated_at = now()
    where c.status in ('INCORPORATING', 'HIRING')
      ${companyId === undefined ? sql`` : sql`and c.id = ${companyId}`}
      and (select count(distinct a.role) from agents a
           where a.company_id = c.id and a.status <> 'TERMINATED'
             and a.role in (${sql.join(
               AGENT_ROLES.map((r) => sql`${r}`),
               sql`, `,
             )})) = ${AGENT_ROLES.length}`);
}

/** Records the company's compute machine once: a machine already recorded is kept. */
export async function recordMachine(db: Tx, id: string, machineId: string): Promise<void> {
  await db
    .update(companies)
    .set({ machineId })
    .where(and(eq(companies.id, id), isNull(companies.machineId)));
}

/** The company's custody is set up (its Safe, module and owner contract); set once, never changed. */
export async function recordCustody(
  db: Tx,
  id: string,
  custody: { safe: string; roles: string; owner: string },
): Promise<void> {
  await db
    .update(companies)
    .set({ safeAddress: custody.safe, rolesModuleAddress: custody.roles, safeOwnerAddress: custody.owner })
    .where(and(eq(companies.id, id), isNull(companies.safeAddress)));
}

// ---------------------------------------------------------------- the access card

/** The card's on-chain lock is confirmed. */
export async function markCardLocked(db: Tx, id: string, at: Date): Promise<void> {
  await db.update(companies).set({ cardLockedAt: at }).where(eq(companies.id, id));
}

/**
 * Moves each company bound to a card in `moves` (a `(card_token_id, holder, block)` values list) to the card's
 * holder, unless the company already records a later block; answers, per company moved, whether its creator
 * changed. One statement.
 */
export async function moveCompaniesToCardHolders(tx: Tx, moves: SQL): Promise<{ changed: boolean }[]> {
  return rowsOf<{ changed: boolean }>(
    await tx.execute(sql`
      with moved as (
        select companies.id, moves.holder, moves.block, companies.creator_address <> moves.holder as changed
        from companies, ${moves}
        where companies.card_token_id = moves.card_token_id
          and companies.owner_block < moves.block
      )
      update companies
      set owner_block = moved.block,
          creator_address = moved.holder,
          updated_at = case when moved.changed then now() else companies.updated_at end
      from moved
      where companies.id = moved.id
      returning moved.changed`),
  );
}

// ---------------------------------------------------------------- the treasury

/** Locks the company's row for the rest of the transaction, so that two changes of one company take turns. */
export async function lockCompany(tx: Tx, id: string): Promise<CompanyRow | undefined> {
  const [row] = await tx.select().from(companies).where(eq(companies.id, id)).for('update');
  return row;
}

/** The company's treasury is `treasury`, proven from `provenAt`. */
export async function recordProvenTreasury(tx: Tx, id: string, treasury: string, provenAt: Date): Promise<CompanyRow> {
  const [row] = await tx
    .update(companies)
    .set({ treasuryAddress: treasury, treasuryProvenAt: provenAt, updatedAt: new Date() })
    .where(eq(companies.id, id))
    .returning();
  return row!;
}

// ---------------------------------------------------------------- the token

/**
 * Records the token a launch request asks for, once: only a PRE_PUBLIC company with no launch requested yet is
 * changed. Answers the row, or undefined when a concurrent request recorded its launch first.
 */
export async function recordLaunchRequest(
  db: Tx,
  id: string,
  token: Pick<
    CompanyRow,
    'tokenName' | 'tokenSymbol' | 'tokenAddress' | 'tokenGraduationThreshold' | 'tokenLaunchRequestedAt'
  >,
): Promise<CompanyRow | undefined> {
  const [row] = await db
    .update(companies)
    .set({ ...token, updatedAt: new Date() })
    .where(and(eq(companies.id, id), eq(companies.tokenStatus, 'PRE_PUBLIC'), isNull(companies.tokenLaunchRequestedAt)))
    .returning();
  return row;
}

/** A company whose token moved: what its trade event names. */
export interface MovedCompany {
  id: string;
  slug: string;
  symbol: string | null;
  token: string;
}

/**
 * PRE_PUBLIC -> BONDING and the company PUBLIC, for each `(token, tx_hash, block_time, block, price, market_cap)` of
 * `values`. Answers the companies moved; a launch applied before moves nothing. `price` and `market_cap` (the curve's opening ones) stand
 * until the token's first trade; a price already recorded (a trade applied first) is kept.
 */
export async function markTokensLaunched(tx: Tx, values: SQL): Promise<MovedCompany[]> {
  return rowsOf<MovedCompany>(
    await tx.execute(sql`
      update companies c
      set token_status = 'BONDING', status = 'PUBLIC', token_launch_tx_hash = v.tx_hash,
          token_public_at = v.block_time, token_launch_block = v.block, updated_at = now(),
          token_price = coalesce(c.token_price, v.price), token_market_cap = coalesce(c.token_market_cap, v.market_cap)
      from (values ${values}) as v (token, tx_hash, block_time, block, price, market_cap)
      where c.token_address = v.token and c.token_status = 'PRE_PUBLIC'
      returning c.id, c.slug, c.token_symbol as symbol, c.token_address as token`),
  );
}

/**
 * Every company's token back to before its launch was mined (the token stream's state before its first block, for
 * `cli reconcile`): what its launch request recorded stays, what the launcher's and the pool's logs set is cleared,
 * and a PUBLIC company is PRIVATE again (the launch makes it PUBLIC).
 */
export async function resetTokenMarkets(tx: Tx): Promise<void> {
  await tx.execute(sql`
    update companies set token_status = 'PRE_PUBLIC', status = case when status = 'PUBLIC' then 'PRIVATE' else status end,
      token_launch_tx_hash = null, token_public_at = null, token_launch_block = null, token_price = null,
      token_market_cap = null, token_price_block = null, token_price_log = null, token_curve_usdc = null,
      token_graduated_at = null, token_pool_id = null
    where token_status <> 'PRE_PUBLIC' or token_price is not null or token_launch_block is not null`);
}

/**
 * Every company's card as of before the card stream's first block (for `cli reconcile`): no transfer applied yet, so
 * replaying them all moves each company to its card's last holder; a card never transferred keeps its creator.
 */
export async function resetCardOwnerBlocks(tx: Tx): Promise<void> {
  await tx.execute(sql`update companies set owner_block = 0 where owner_block <> 0`);
}

/** BONDING -> GRADUATED with the pool id and the time, for each `(token, pool_id, block_time)` of `values`. */
export async function markTokensGraduated(tx: Tx, values: SQL): Promise<MovedCompany[]> {
  return rowsOf<MovedCompany>(
    await tx.execute(sql`
      update companies c
      set token_status = 'GRADUATED', token_graduated_at = v.block_time, token_pool_id = v.pool_id,
          updated_at = now()
      from (values ${values}) as v (token, pool_id, block_time)
      where c.token_address = v.token and c.token_status <> 'GRADUATED'
      returning c.id, c.slug, c.token_symbol as symbol, c.token_address as token`),
  );
}

/**
 * The token's spot price, market cap and the curve's real USDC after its latest trade, for each `(company_id, price,
 * market_cap, virtual_usdc, block, log)` of `values` (virtual_usdc null after graduation: the curve's USDC is kept);
 * a price from an earlier trade than the one recorded (a replayed batch) is ignored.
 */
export async function recordSpotPrices(tx: Tx, values: SQL): Promise<void> {
  await tx.execute(sql`
    update companies c set token_price = v.price, token_market_cap = v.market_cap, token_price_block = v.block,
      token_price_log = v.log,
      token_curve_usdc = coalesce(v.virtual_usdc - c.token_graduation_threshold / 3, c.token_curve_usdc)
    from (values ${values}) as v (company_id, price, market_cap, virtual_usdc, block, log)
    where c.id = v.company_id
      and (c.token_price_block is null or (c.token_price_block, c.token_price_log) < (v.block, v.log))`);
}

/**
 * Sets platformScore to the snapshot's overall where it differs and publishes a `score` event for each of those
 * companies, best first, in the same statement (100,000 events at 100,000 companies never leave the database);
 * returns how many changed. The payload (docs/api/events.md "Payloads"): platformScore, previousScore (0 when there was none), rank, and
 * snapshotDate, the date of the snapshot that set it.
 */
export function applyPlatformScores(tx: Tx, date: string): Promise<number> {
  return publishEventsFrom(
    tx,
    sql`
      update ${companies} c set platform_score = x.overall
      from (
        select s.company_id, s.overall::float8 as overall, s.rank, p.platform_score as previous
        from ${scoreSnapshots} s join ${companies} p on p.id = s.company_id
        where s.snapshot_date = ${date}::date and p.platform_score is distinct from s.overall::float8
      ) x
      where c.id = x.company_id
      returning x.rank as ord, 'score'::text as type, c.id as company_id,
        jsonb_build_object('platformScore', x.overall, 'previousScore', coalesce(x.previous, 0), 'rank', x.rank,
          'snapshotDate', ${date}::text) as data`,
  );
}
