// Changing a company's settings: the CEO directive and autonomy (PATCH /api/companies/{id}), the engine
// (PATCH /api/companies/{id}/engine, which also reaches the company's compute machine). The treasury is set by
// domain/companies/treasury.ts.
import { and, eq, isNotNull } from 'drizzle-orm';
import type { Address } from 'viem';
import { readHoldings } from '../../chain/contracts/wallet-actions.ts';
import { chainMoment } from '../../chain/time.ts';
import { COMPANY_MODEL_SPEND_CAP_MAX_MICRO_USD, TRADE_TOOLS } from '../../constants.ts';
import { agents } from '../../db/schema/agents.ts';
import type { EngineConfig, ToolkitConfig } from '../../db/schema/companies.ts';
import { unauthorized, validationError } from '../../errors.ts';
import { requireCardHolder } from '../cards/holder.ts';
import { machineStep } from '../compute/provider.ts';
import { companyCap, parseUsd, usdText } from '../costs/model-spend.ts';
import type { Deps as DomainDeps } from '../deps.ts';
import { syncCustodyLimits } from './custody.ts';
import { resolveNamedTokens } from './directive-tokens.ts';
import { requireCompany } from './queries.ts';
import { leagueOf } from './rules.ts';
import { type CompanySettings, saveCompanySettings } from './store.ts';

/**
 * When a directive is set: the chain's clock and its latest block. A token launched in a later block came after the
 * directive (docs/api/agents.md "Buy rules"); the block orders what the time cannot within one second.
 */
async function directiveClock(deps: Pick<DomainDeps, 'chain'>) {
  const { time, latestBlock } = await chainMoment(deps.chain.publicClient);
  return { directiveSetAt: new Date(Number(time) * 1000), directiveSetBlock: latestBlock };
}

type Deps = Pick<DomainDeps, 'database' | 'compute' | 'chain' | 'config' | 'now'> & Partial<Pick<DomainDeps, 'models'>>;
/** A change of the limits reaches a custody company's module through the outbox. */
type DirectiveDeps = Deps & Pick<DomainDeps, 'outbox'>;

export interface DirectiveInput {
  ceoPrompt?: string | null;
  autonomyLevel?: string;
  engineConfig?: EngineConfig | null;
  toolkitConfig?: ToolkitConfig | null;
}

/** Whether a toolkit leaves any trading or staking tool enabled (tools.ts enabledTools: all unless narrowed). */
function tradesWith(toolkit: ToolkitConfig | null | undefined): boolean {
  const allow = toolkit?.enabledTools && toolkit.enabledTools.length > 0 ? new Set(toolkit.enabledTools) : undefined;
  const deny = new Set(toolkit?.disabledTools ?? []);
  return TRADE_TOOLS.some((t) => (!allow || allow.has(t)) && !deny.has(t));
}

/**
 * Why the company's agents can move funds, or null when they cannot: a trading or staking tool enabled before or
 * after the change, funds (USDC, the primary token, a stake) in an agent wallet or in the company's Safe, or, with
 * custody, a change of the limits its Roles module enforces (the platform's key would write them on-chain).
 * docs/api/companies.md "Directive and engine": such a company needs its creator's signature on PATCH in every mode.
 */
async function fundsCanMove(
  deps: Deps,
  company: {
    id: string;
    toolkitConfig: ToolkitConfig | null;
    safeAddress: string | null;
    rolesModuleAddress: string | null;
  },
  input: DirectiveInput,
): Promise<string | null> {
  const after = input.toolkitConfig === undefined ? company.toolkitConfig : input.toolkitConfig;
  if (tradesWith(company.toolkitConfig) || tradesWith(after)) {
    return 'its agents can trade or stake (trading or staking tools are enabled)';
  }
  if (company.rolesModuleAddress && input.toolkitConfig !== undefined) {
    return "its limits are enforced on-chain by its Safe's Roles module, and this changes them";
  }
  const wallets = await deps.database.db
    .select({ address: agents.onChainAddress })
    .from(agents)
    .where(and(eq(agents.companyId, company.id), isNotNull(agents.onChainAddress)));
  const holders = [
    ...(company.safeAddress ? [{ address: company.safeAddress, name: 'Safe' }] : []),
    ...wallets.map(({ address }) => ({ address: address as string, name: 'agent wallet' })),
  ];
  const holdings = await Promise.all(holders.map((h) => readHoldings(deps.chain, h.address as Address)));
  const funded = holders.find(
    (_, i) => holdings[i]!.usdc > 0n || holdings[i]!.primary > 0n || holdings[i]!.staked > 0n,
  );
  return funded ? `its ${funded.name} ${funded.address} holds funds` : null;
}

/**
 * 400 VALIDATION_ERROR for a chosen model the configured provider does not serve (its `/models` list, when it has
 * one, does not name it; or no endpoint serves its provider). Any model id a provider serves may be chosen.
 */
async function requireServedModels(deps: Deps, config: EngineConfig): Promise<void> {
  for (const [phase, model] of Object.entries(config)) {
    if (typeof model !== 'string') continue;
    const answer = await deps.models?.serves?.(model);
    if (answer && !answer.served) {
      throw validationError(
        `body.engineConfig.${phase}`,
        `${model} is not served by the configured provider: ${answer.reason}`,
      );
    }
  }
}

/**
 * PATCH /api/companies/{id}. `signer` is undefined for an unsigned request, which only COMPANY_PATCH_AUTH=ip lets
 * through (`requireSigner` false), and then only for a company whose agents cannot move funds: no unsigned request
 * may lead to a movement of funds (401 naming the reason). A signed request must come from the card's holder.
 * The signer of a new ceoPrompt is recorded with the chain's time: only a signed directive may name a token that
 * fails the buy rules, and a token launched after the directive was set is not the one it named.
 */
export async function updateDirective(
  deps: DirectiveDeps,
  idOrSlug: string,
  signer: Address | undefined,
  input: DirectiveInput,
  requireSigner: boolean,
) {
  const company = await requireCompany(deps.database.db, idOrSlug);
  if (signer === undefined && !requireSigner) {
    const reason = await fundsCanMove(deps, company, input);
    if (reason) {
      throw unauthorized(
        `Company ${company.id} needs its creator's wallet signature on this request in every mode: ${reason}, and no unsigned request may lead to a movement of funds`,
      );
    }
  } else {
    await requireCardHolder(deps, company, signer);
  }
  const changes: CompanySettings = {};
  if (input.ceoPrompt !== undefined) {
    changes.ceoPrompt = input.ceoPrompt;
    changes.ceoPromptSigner = signer ?? null;
    // The tokens the text names, fixed now: no later edit of another field re-dates them.
    changes.ceoPromptTokens = await resolveNamedTokens(deps.database.db, input.ceoPrompt);
    Object.assign(changes, await directiveClock(deps));
  }
  // docs/api/companies.md "Directive and engine": setting a directive without naming a level hands control to the human.
  const autonomyLevel = input.autonomyLevel ?? (typeof input.ceoPrompt === 'string' ? 'HUMAN_DIRECTED' : undefined);
  if (autonomyLevel !== undefined) {
    changes.autonomyLevel = autonomyLevel;
    changes.league = leagueOf(autonomyLevel);
  }
  if (input.engineConfig !== undefined) {
    if (input.engineConfig) await requireServedModels(deps, input.engineConfig);
    changes.engineConfig = input.engineConfig;
  }
  if (input.toolkitConfig !== undefined) changes.toolkitConfig = input.toolkitConfig;
  const unsigned = unsignedAfter(company.unsignedSettings, Object.keys(changes), signer !== undefined);
  if (unsigned.join() !== company.unsignedSettings.join()) changes.unsignedSettings = unsigned;
  const row =
    Object.keys(changes).length === 0 ? company : await saveCompanySettings(deps.database.db, company.id, changes);
  // Limits given: a company with custody has its module's daily allowance and largest buy follow them (docs/contracts.md
  // "Custody"), as saved last (read again under a lock: of two changes made together, the later one wins on-chain
  // too). Saved first, so a failure here is finished by the same request again or by the reconcile job; a module the
  // platform may not change answers 409 (NoManageRole) with the settings saved.
  if (input.toolkitConfig !== undefined && company.rolesModuleAddress) await syncCustodyLimits(deps, company);
  return {
    id: row.id,
    autonomyLevel: row.autonomyLevel,
    ceoPrompt: row.ceoPrompt,
    /** The launched token each symbol the ceoPrompt names resolved to when its text was set. */
    ceoPromptTokens: row.ceoPromptTokens ?? {},
    league: row.league,
    engineConfig: row.engineConfig ?? null,
    toolkitConfig: row.toolkitConfig ?? null,
    unsignedSettings: row.unsignedSettings,
  };
}

/** The settings a round acts on with money, in the order they are named. */
export const MONEY_SETTINGS = ['ceoPrompt', 'autonomyLevel', 'engineConfig', 'toolkitConfig'] as const;

/**
 * The money-relevant settings last set unsigned after a change of `changed` fields: a signed change clears the
 * fields it sets, an unsigned one adds them; the others keep what they were.
 */
function unsignedAfter(before: readonly string[], changed: readonly string[], isSigned: boolean): string[] {
  const set = new Set(before);
  for (const field of changed) {
    if (!(MONEY_SETTINGS as readonly string[]).includes(field)) continue;
    if (isSigned) set.delete(field);
    else set.add(field);
  }
  return MONEY_SETTINGS.filter((f) => set.has(f));
}

/**
 * A creator's daily model-spend cap as micro-USD: a USD decimal string up to the platform's maximum per company
 * (400 VALIDATION_ERROR past it), or null for that maximum.
 */
function spendCapOf(text: string | null): bigint | null {
  if (text === null) return null;
  const cap = parseUsd(text);
  if (cap === undefined || cap > COMPANY_MODEL_SPEND_CAP_MAX_MICRO_USD) {
    throw validationError(
      'body/dailyModelSpendCap',
      `must be a USD amount (decimal string, at most 6 decimals) of at most ${usdText(COMPANY_MODEL_SPEND_CAP_MAX_MICRO_USD)}, the platform's maximum per company; got "${text}"`,
    );
  }
  return cap;
}

export interface EngineInput {
  enginePreset?: string;
  autonomyLevel?: string;
  masterDirective?: string;
  /** USD decimal string, or null for the platform's maximum per company. */
  dailyModelSpendCap?: string | null;
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
  if (input.dailyModelSpendCap !== undefined) changes.dailyModelSpendCap = spendCapOf(input.dailyModelSpendCap);
  if (input.masterDirective !== undefined) {
    changes.masterDirective = input.masterDirective;
    changes.masterDirectiveSigner = signer ?? null;
    changes.masterDirectiveTokens = await resolveNamedTokens(deps.database.db, input.masterDirective);
    Object.assign(changes, await directiveClock(deps));
  }
  if (input.autonomyLevel !== undefined) {
    changes.autonomyLevel = input.autonomyLevel;
    changes.league = leagueOf(input.autonomyLevel);
    // PATCH /engine is always signed: the level it sets is the creator's.
    changes.unsignedSettings = company.unsignedSettings.filter((f) => f !== 'autonomyLevel');
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
    masterDirectiveTokens: row.masterDirectiveTokens ?? {},
    dailyModelSpendCap: usdText(companyCap(row)),
    machineResults: { resize, envUpdate },
  };
}
