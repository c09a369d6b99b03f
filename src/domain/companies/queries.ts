// Reading companies: by id or slug, with their live (non-terminated) agents.
import { and, desc, eq, ne, or, sql } from 'drizzle-orm';
import { type Address, getAddress } from 'viem';
import type { COMPANY_STATUSES, LEAGUES, TOKEN_STATUSES } from '../../constants.ts';
import type { Tx } from '../../db/client.ts';
import { preparedOn } from '../../db/prepared.ts';
import { agents } from '../../db/schema/agents.ts';
import { companyGasDays } from '../../db/schema/chain.ts';
import { companies } from '../../db/schema/companies.ts';
import { notFound } from '../../errors.ts';
import { dayOf, gasDay } from '../costs/gas-budget.ts';
import type { Deps } from '../deps.ts';
import { companyView } from './views.ts';

export type CompanyRow = typeof companies.$inferSelect;
type LiveAgent = Pick<typeof agents.$inferSelect, 'id' | 'name' | 'role' | 'status'>;

/**
 * The company whose id or slug is `idOrSlug`, or 404 NOT_FOUND. The id wins: a slug can never take another
 * company's place (slugs with the shape of an id are refused, and a migration renamed any that collided).
 */
export async function requireCompany(db: Tx, idOrSlug: string): Promise<CompanyRow> {
  const [row] = await db
    .select()
    .from(companies)
    .where(or(eq(companies.id, idOrSlug), eq(companies.slug, idOrSlug)))
    .orderBy(sql`${companies.id} = ${idOrSlug} desc`)
    .limit(1);
  if (!row) throw notFound(`Company ${idOrSlug} not found`);
  return row;
}

export async function liveAgentsOf(db: Tx, companyId: string): Promise<LiveAgent[]> {
  return db
    .select({ id: agents.id, name: agents.name, role: agents.role, status: agents.status })
    .from(agents)
    .where(and(eq(agents.companyId, companyId), ne(agents.status, 'TERMINATED')));
}

/**
 * The company and its live agents in one prepared statement (the agents as a JSON array, oldest first). The outer
 * column is written qualified: Drizzle renders `companies.id` unqualified in a one-table select, which inside the
 * subquery would mean the agent's own id.
 */
function companyWithAgents(db: Tx) {
  return preparedOn(db, 'company_view', (name) =>
    db
      .select({
        company: companies,
        agents: sql<LiveAgent[]>`coalesce((
          select json_agg(json_build_object('id', a.id, 'name', a.name, 'role', a.role, 'status', a.status)
            order by a.created_at, a.id)
          from ${agents} a where a.company_id = "companies"."id" and a.status <> 'TERMINATED'), '[]'::json)`,
        gas: sql<{ gasUsed: string; costWei: string } | null>`(
          select json_build_object('gasUsed', g.gas_used::text, 'costWei', g.cost_wei::text)
          from ${companyGasDays} g where g.company_id = "companies"."id" and g.day = ${sql.placeholder('day')}::date)`,
      })
      .from(companies)
      .where(or(eq(companies.id, sql.placeholder('id')), eq(companies.slug, sql.placeholder('id'))))
      // The id wins over a slug, as in requireCompany.
      .orderBy(sql`"companies"."id" = ${sql.placeholder('id')} desc`)
      .limit(1)
      .prepare(name),
  );
}

/**
 * The company view, read in one statement with its agents and the platform gas of the chain's day at `chainNowMs`
 * (src/chain/time.ts `chainDateForReads`: the route reads it once for its cache key too).
 */
export async function getCompanyView(deps: Pick<Deps, 'database' | 'config'>, idOrSlug: string, chainNowMs: number) {
  const day = dayOf(chainNowMs);
  const [row] = await companyWithAgents(deps.database.db).execute({ id: idOrSlug, day });
  if (!row) throw notFound(`Company ${idOrSlug} not found`);
  const gas = gasDay(
    deps,
    day,
    row.gas ? { gasUsed: BigInt(row.gas.gasUsed), costWei: BigInt(row.gas.costWei) } : undefined,
  );
  return companyView(row.company, row.agents, gas);
}

/** The company bound to access card `tokenId`, or null (GET /api/cards/{tokenId}). */
export async function companyOfCard(db: Tx, tokenId: number) {
  const [row] = await db
    .select({ id: companies.id, slug: companies.slug, name: companies.name })
    .from(companies)
    .where(eq(companies.cardTokenId, tokenId))
    .limit(1);
  return { cardTokenId: tokenId, company: row ?? null };
}

/** The companies `creator` created, newest first (companies_creator_idx). */
export async function companiesCreatedBy(db: Tx, creator: Address) {
  const rows = await db
    .select()
    .from(companies)
    .where(eq(companies.creatorAddress, getAddress(creator)))
    .orderBy(desc(companies.createdAt), desc(companies.id));
  return rows.map((c) => ({
    id: c.id,
    slug: c.slug,
    name: c.name,
    status: c.status as (typeof COMPANY_STATUSES)[number],
    league: c.league as (typeof LEAGUES)[number],
    cardTokenId: c.cardTokenId,
    tokenStatus: c.tokenStatus as (typeof TOKEN_STATUSES)[number],
    tokenSymbol: c.tokenSymbol,
    createdAt: c.createdAt.toISOString(),
  }));
}
