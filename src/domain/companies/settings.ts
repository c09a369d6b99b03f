// Changing a company's settings: the CEO directive and autonomy (PATCH /api/companies/{id}), the engine
// (PATCH /api/companies/{id}/engine, which also reaches the company's compute machine). The treasury is set by
// domain/treasuries/set.ts.
import type { Address } from 'viem';
import type { EngineConfig, ToolkitConfig } from '../../db/schema/companies.ts';
import { requireCardHolder } from '../cards/holder.ts';
import { machineStep } from '../compute/provider.ts';
import type { Deps as DomainDeps } from '../deps.ts';
import { requireCompany } from './queries.ts';
import { leagueOf } from './rules.ts';
import { type CompanySettings, saveCompanySettings } from './store.ts';

type Deps = Pick<DomainDeps, 'database' | 'compute' | 'chain' | 'config' | 'now'>;

export interface DirectiveInput {
  ceoPrompt?: string | null;
  autonomyLevel?: string;
  engineConfig?: EngineConfig | null;
  toolkitConfig?: ToolkitConfig | null;
}

/** `signer` is undefined when COMPANY_PATCH_AUTH=ip lets the route through unsigned. */
export async function updateDirective(
  deps: Deps,
  idOrSlug: string,
  signer: Address | undefined,
  input: DirectiveInput,
  requireSigner: boolean,
) {
  const company = await requireCompany(deps.database.db, idOrSlug);
  if (requireSigner) await requireCardHolder(deps, company, signer);
  const changes: CompanySettings = {};
  if (input.ceoPrompt !== undefined) changes.ceoPrompt = input.ceoPrompt;
  // docs/api/companies.md "Directive and engine": setting a directive without naming a level hands control to the human.
  const autonomyLevel = input.autonomyLevel ?? (typeof input.ceoPrompt === 'string' ? 'HUMAN_DIRECTED' : undefined);
  if (autonomyLevel !== undefined) {
    changes.autonomyLevel = autonomyLevel;
    changes.league = leagueOf(autonomyLevel);
  }
  if (input.engineConfig !== undefined) changes.engineConfig = input.engineConfig;
  if (input.toolkitConfig !== undefined) changes.toolkitConfig = input.toolkitConfig;
  const row =
    Object.keys(changes).length === 0 ? company : await saveCompanySettings(deps.database.db, company.id, changes);
  return {
    id: row.id,
    autonomyLevel: row.autonomyLevel,
    ceoPrompt: row.ceoPrompt,
    league: row.league,
    engineConfig: row.engineConfig ?? null,
    toolkitConfig: row.toolkitConfig ?? null,
  };
}

export interface EngineInput {
  enginePreset?: string;
  autonomyLevel?: string;
  masterDirective?: string;
}

export async function updateEngine(
  deps: Deps & { log?: { warn(o: object, m: string): void } },
  idOrSlug: string,
  signer: Address | undefined,
  input: EngineInput,
) {
  const company = await requireCompany(deps.database.db, idOrSlug);
  await requireCardHolder(deps, company, signer);
  const changes: CompanySettings = {};
  if (input.enginePreset !== undefined) changes.enginePreset = input.enginePreset;
  if (input.masterDirective !== undefined) changes.masterDirective = input.masterDirective;
  if (input.autonomyLevel !== undefined) {
    changes.autonomyLevel = input.autonomyLevel;
    changes.league = leagueOf(input.autonomyLevel);
  }
  const row = await saveCompanySettings(deps.database.db, company.id, changes);
  const onError = (step: string) => (err: unknown) =>
    deps.log?.warn({ err, companyId: company.id, step }, 'machine step failed');
  const resize =
    input.enginePreset === undefined
      ? 'skipped'
      : await machineStep(
          deps.compute,
          row.machineId,
          (p, id) => p.resizeMachine(id, row.enginePreset),
          onError('resize'),
        );
  const envUpdate = await machineStep(
    deps.compute,
    row.machineId,
    (p, id) =>
      p.updateEnv(id, {
        ENGINE_PRESET: row.enginePreset,
        AUTONOMY_LEVEL: row.autonomyLevel,
        MASTER_DIRECTIVE: row.masterDirective ?? '',
      }),
    onError('envUpdate'),
  );
  return {
    autonomyLevel: row.autonomyLevel,
    masterDirective: row.masterDirective,
    machineResults: { resize, envUpdate },
  };
}
