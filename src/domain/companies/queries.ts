// Reading companies: by id or slug, with their live (non-terminated) agents.
import { and, eq, ne, or } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { agents, companies } from '../../db/schema/companies.ts';
import { notFound } from '../../errors.ts';
import { companyView } from './views.ts';

export type CompanyRow = typeof companies.$inferSelect;

/** The company whose id or slug is `idOrSlug`, or 404 NOT_FOUND. */
export async function requireCompany(db: Tx, idOrSlug: string): Promise<CompanyRow> {
  const [row] = await db
    .select()
    .from(companies)
    .where(or(eq(companies.id, idOrSlug), eq(companies.slug, idOrSlug)))
    .limit(1);
  if (!row) throw notFound(`Company ${idOrSlug} not found`);
  return row;
}

export async function liveAgentsOf(db: Tx, companyId: string) {
  return db
    .select({ id: agents.id, name: agents.name, role: agents.role, status: agents.status })
    .from(agents)
    .where(and(eq(agents.companyId, companyId), ne(agents.status, 'TERMINATED')));
}

export async function getCompanyView(db: Tx, idOrSlug: string) {
  const company = await requireCompany(db, idOrSlug);
  return companyView(company, await liveAgentsOf(db, company.id));
}
