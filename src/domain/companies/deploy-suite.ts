// deploy-suite (SPEC.md POST /api/companies/{id}/deploy-suite): hires every missing C-suite role, runs the
// identity pipeline for each agent not yet deployed, and moves the company INCORPORATING -> HIRING -> PRIVATE.
// Roles are claimed by one INSERT ... ON CONFLICT DO NOTHING against the partial unique index on
// (company, role), so two calls at once can never hire two agents for one role.
import { createId } from '@paralleldrive/cuid2';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Address } from 'viem';
import { AGENT_ROLES } from '../../constants.ts';
import type { Container } from '../../container.ts';
import { agents, companies } from '../../db/schema/companies.ts';
import { badRequest } from '../../errors.ts';
import { type PipelineResult, provisionAgent } from '../identity/pipeline.ts';
import { C_SUITE } from './c-suite.ts';
import { requireCompany } from './queries.ts';
import { requireCreator } from './rules.ts';

/** Statuses from which deploy-suite may run (DESIGN.md): everything before the token launch. */
const DEPLOYABLE = ['INCORPORATING', 'HIRING', 'PRIVATE'];
/** Agents the pipeline still has to finish. */
const UNDEPLOYED = ['PENDING', 'DEPLOYING', 'FAILED'];

type Deps = Pick<Container, 'chain' | 'database' | 'outbox' | 'wallets' | 'now' | 'config' | 'compute'> & {
  log?: { warn(o: object, m: string): void };
};

export async function deploySuite(c: Deps, idOrSlug: string, signer: Address | undefined) {
  const db = c.database.db;
  const company = await requireCompany(db, idOrSlug);
  requireCreator(company, signer);
  if (!DEPLOYABLE.includes(company.status)) {
    throw badRequest(
      `Company status ${company.status} does not allow deploy-suite (allowed: ${DEPLOYABLE.join(', ')})`,
    );
  }
  await db
    .update(companies)
    .set({ status: 'HIRING', updatedAt: new Date() })
    .where(and(eq(companies.id, company.id), eq(companies.status, 'INCORPORATING')));

  const created = await db
    .insert(agents)
    .values(
      AGENT_ROLES.map((role) => ({
        id: createId(),
        companyId: company.id,
        name: `${company.name} ${role}`,
        description: `${C_SUITE[role].title} of ${company.name}. ${C_SUITE[role].description}`,
        role,
        status: 'PENDING',
        creatorAddress: company.creatorAddress,
        persona: { role: C_SUITE[role].title, description: C_SUITE[role].description },
        skills: C_SUITE[role].skills,
        strategy: { type: 'C_SUITE', preset: 'BALANCED' },
      })),
    )
    .onConflictDoNothing({
      target: [agents.companyId, agents.role],
      where: sql`status <> 'TERMINATED' and company_id is not null and role is not null`,
    })
    .returning({ id: agents.id, name: agents.name, role: agents.role });
  const createdRoles = new Set(created.map((a) => a.role));
  const skipped = AGENT_ROLES.filter((r) => !createdRoles.has(r));

  // Every agent of the company the pipeline has not finished: the new ones, and earlier failures to retry.
  const pending = await db
    .select({ id: agents.id })
    .from(agents)
    .where(and(eq(agents.companyId, company.id), inArray(agents.status, UNDEPLOYED)));
  const dualityResults: Record<string, PipelineResult> = {};
  for (const agent of pending) dualityResults[agent.id] = await provisionAgent(c, agent.id);

  const live = await db
    .select({ role: agents.role })
    .from(agents)
    .where(and(eq(agents.companyId, company.id), ne(agents.status, 'TERMINATED')));
  if (AGENT_ROLES.every((role) => live.some((a) => a.role === role))) {
    await db
      .update(companies)
      .set({ status: 'PRIVATE', updatedAt: new Date() })
      .where(and(eq(companies.id, company.id), inArray(companies.status, ['INCORPORATING', 'HIRING'])));
  }
  await startMachine(c, company);

  return {
    created: created.map((a) => ({
      id: a.id,
      name: a.name,
      role: a.role!,
      status: dualityResults[a.id]?.status ?? 'PENDING',
    })),
    skipped,
    dualityResults,
  };
}

/** Starts the company's compute machine once, when a compute provider is configured. */
async function startMachine(c: Deps, company: typeof companies.$inferSelect) {
  if (!c.compute || company.machineId) return;
  try {
    const machineId = await c.compute.startMachine(company);
    await c.database.db
      .update(companies)
      .set({ machineId })
      .where(sql`${companies.id} = ${company.id} and ${companies.machineId} is null`);
  } catch (err) {
    c.log?.warn({ err, companyId: company.id }, 'compute machine not started; the next deploy-suite retries');
  }
}
