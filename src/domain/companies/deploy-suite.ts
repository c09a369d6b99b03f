import { and, eq, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import type { Address } from 'viem';
import { AGENT_ROLES } from '../../constants.ts';
import { rowsOf } from '../../db/client.ts';
import { agents } from '../../db/schema/agents.ts';
import type { companies } from '../../db/schema/companies.ts';
import { badRequest } from '../../errors.ts';
import { insertSeats } from '../agents/store.ts';
import { requireCardHolder } from '../cards/holder.ts';
import { PLATFORM_GAS_ESTIMATES, requireGasBudget } from '../costs/gas-budget.ts';
import type { Deps as DomainDeps } from '../deps.ts';
import { type PipelineResult, provisionAgent } from '../identity/pipeline.ts';
import { C_SUITE } from './c-suite.ts';
import { setUpCustody } from './custody.ts';
import { requireCompany } from './queries.ts';
import { finishHiring, markHiring, recordMachine } from './store.ts';

/** Statuses from which deploy-suite may run (docs/api/companies.md "deploy-suite"): everything before the token launch. */
const DEPLOYABLE = ['INCORPORATING', 'HIRING', 'PRIVATE'];
/** Agents the pipeline still has to finish. */
const UNDEPLOYED = ['PENDING', 'DEPLOYING', 'FAILED'];

type Deps = Pick<DomainDeps, 'chain' | 'database' | 'outbox' | 'wallets' | 'now' | 'config' | 'compute'> & {
  log?: { warn(o: object, m: string): void };
};

export async function deploySuite(deps: Deps, idOrSlug: string, signer: Address | undefined) {
  const db = deps.database.db;
  const company = await requireCompany(db, idOrSlug);
  await requireCardHolder(deps, company, signer);
  if (!DEPLOYABLE.includes(company.status)) {
    throw badRequest(
      `Company status ${company.status} does not allow deploy-suite (allowed: ${DEPLOYABLE.join(', ')})`,
    );
  }
  // The identities to make: a role without a live agent, or an agent the pipeline has not finished.
  const [work] = rowsOf<{ identities: number }>(
    await db.execute(sql`
      select (${AGENT_ROLES.length} - count(distinct role) filter (where status <> 'TERMINATED'))
        + count(*) filter (where status in ('PENDING', 'DEPLOYING', 'FAILED')) as identities
      from ${agents} where company_id = ${company.id}`),
  );
  const identities = BigInt(work?.identities ?? AGENT_ROLES.length);
  await requireGasBudget(
    deps,
    company.id,
    identities * PLATFORM_GAS_ESTIMATES.agentProvision,
    `hiring ${identities} agents`,
  );
  await markHiring(db, company.id);

  const created = await insertSeats(
    db,
    AGENT_ROLES.map((role) => ({
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
  );
  const createdRoles = new Set(created.map((a) => a.role));
  const skipped = AGENT_ROLES.filter((r) => !createdRoles.has(r));

  // Every agent of the company the pipeline has not finished: the new ones, and earlier failures to retry.
  const pending = await db
    .select({ id: agents.id })
    .from(agents)
    .where(and(eq(agents.companyId, company.id), inArray(agents.status, UNDEPLOYED)));
  const dualityResults: Record<string, PipelineResult> = {};
  for (const agent of pending) dualityResults[agent.id] = await provisionAgent(deps, agent.id);

  await finishHiring(db, company.id);
  // COMPANY_CUSTODY=safe: the company's Safe and Roles module, after its agent keys exist (their memberships).
  await setUpCustody(deps, await requireCompany(db, company.id));
  await startMachine(deps, company);

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

/**
 * Finishes the deploy-suites a crash (or a stopped process) left half done: company agents still PENDING or
 * DEPLOYING whose last change is older than `olderThanMs` go through the identity pipeline again, which completes
 * each step once (the outbox returns a registration already sent), and every company whose seven roles are all
 * held moves to PRIVATE (also one whose agents finished before the crash cut its own move off). FAILED
 * agents are left to the creator's next deploy-suite. Run at start (olderThanMs 0: nothing of this process is in
 * flight yet) and every minute (30 s, so requests still running keep their agents; running one twice is safe).
 */
export async function repairAgentDeployments(deps: Deps, { olderThanMs = 30_000, limit = 100 } = {}): Promise<number> {
  const db = deps.database.db;
  const stuck = await db
    .select({ id: agents.id, companyId: agents.companyId })
    .from(agents)
    .where(
      and(
        inArray(agents.status, ['PENDING', 'DEPLOYING']),
        isNotNull(agents.companyId),
        lt(agents.updatedAt, new Date(deps.now() - olderThanMs)),
      ),
    )
    .orderBy(agents.updatedAt)
    .limit(limit);
  for (const agent of stuck) {
    const result = await provisionAgent(deps, agent.id);
    if (result.status === 'FAILED') deps.log?.warn({ agentId: agent.id, errors: result.errors }, 'agent repair failed');
  }
  // Also companies whose agents all finished but whose own move was cut off.
  await finishHiring(db);
  return stuck.length;
}

/** Starts the company's compute machine once, when a compute provider is configured. */
async function startMachine(deps: Deps, company: typeof companies.$inferSelect) {
  if (!deps.compute || company.machineId) return;
  try {
    const machineId = await deps.compute.startMachine(company);
    await recordMachine(deps.database.db, company.id, machineId);
  } catch (err) {
    deps.log?.warn({ err, companyId: company.id }, 'compute machine not started; the next deploy-suite retries');
  }
}
