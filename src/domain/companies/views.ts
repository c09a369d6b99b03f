// How a company is shown: the Company resource (docs/api/companies.md) with its live agents, built from database rows.

import type {
  AGENT_STATUSES,
  AUTONOMY_LEVELS,
  COMPANY_CATEGORIES,
  COMPANY_STATUSES,
  ENGINE_PRESETS,
  LEAGUES,
  TOKEN_STATUSES,
  TREASURY_STATUSES,
} from '../../constants.ts';
import { AGENT_ROLES } from '../../constants.ts';
import type { agents } from '../../db/schema/agents.ts';
import type { companies } from '../../db/schema/companies.ts';
import type { GasToday } from '../costs/gas-budget.ts';

// The columns hold these enums (the schemas validate every write); the view states it for the serializer.
type Of<T extends readonly string[]> = T[number];

type CompanyRow = typeof companies.$inferSelect;
type AgentRow = Pick<typeof agents.$inferSelect, 'id' | 'name' | 'role' | 'status'>;

const roleOrder = (role: string | null) => {
  const i = AGENT_ROLES.indexOf(role as (typeof AGENT_ROLES)[number]);
  return i === -1 ? AGENT_ROLES.length : i;
};

/** The gas the platform paid for the company today, with its budget (docs/api/companies.md "Gas the platform pays"). */
export function platformGasView(gas: GasToday) {
  return {
    day: gas.day,
    usedToday: gas.gasUsed.toString(),
    costTodayWei: gas.costWei.toString(),
    budget: gas.budget.toString(),
    resetsAt: gas.resetsAt,
  };
}

export function companyView(company: CompanyRow, companyAgents: AgentRow[], gas: GasToday) {
  return {
    id: company.id,
    name: company.name,
    slug: company.slug,
    description: company.description,
    status: company.status as Of<typeof COMPANY_STATUSES>,
    category: company.category as Of<typeof COMPANY_CATEGORIES>,
    league: company.league as Of<typeof LEAGUES>,
    platformScore: company.platformScore,
    autonomyLevel: company.autonomyLevel as Of<typeof AUTONOMY_LEVELS>,
    ceoPrompt: company.ceoPrompt,
    enginePreset: company.enginePreset as Of<typeof ENGINE_PRESETS>,
    engineConfig: company.engineConfig ?? null,
    toolkitConfig: company.toolkitConfig ?? null,
    masterDirective: company.masterDirective,
    tokenStatus: company.tokenStatus as Of<typeof TOKEN_STATUSES>,
    // Recorded when a launch is requested, shown once it is mined.
    tokenSymbol: company.tokenStatus === 'PRE_PUBLIC' ? null : company.tokenSymbol,
    tokenAddress: company.tokenStatus === 'PRE_PUBLIC' ? null : company.tokenAddress,
    creatorAddress: company.creatorAddress,
    // Set once its custody is set up (docs/contracts.md "Custody"): money in is a USDC transfer to the Safe.
    custody:
      company.safeAddress && company.rolesModuleAddress && company.safeOwnerAddress
        ? { safe: company.safeAddress, rolesModule: company.rolesModuleAddress, owner: company.safeOwnerAddress }
        : null,
    treasuryAddress: company.treasuryAddress,
    treasuryStatus: (company.treasuryAddress === null
      ? 'NONE'
      : company.treasuryProvenAt === null
        ? 'UNPROVEN'
        : 'PROVEN') as Of<typeof TREASURY_STATUSES>,
    treasuryProvenAt: company.treasuryProvenAt?.toISOString() ?? null,
    logoUrl: company.logoUrl,
    cardTokenId: company.cardTokenId,
    cardLocked: company.cardLockedAt !== null,
    referrerCompanyId: company.referrerCompanyId,
    agents: [...companyAgents]
      .sort((a, b) => roleOrder(a.role) - roleOrder(b.role))
      .map((a) => ({
        id: a.id,
        name: a.name,
        role: a.role as Of<typeof AGENT_ROLES> | null,
        status: a.status as Of<typeof AGENT_STATUSES>,
      })),
    platformGas: platformGasView(gas),
    createdAt: company.createdAt.toISOString(),
    updatedAt: company.updatedAt.toISOString(),
  };
}

export type CompanyView = ReturnType<typeof companyView>;
