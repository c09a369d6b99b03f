// A company's custody (docs/contracts.md "Custody"): with COMPANY_CUSTODY=safe, deploy-suite gives the company its own
// Safe, controlled by the holder of its access card, and a Roles module whose trading and staking roles its agent
// keys are members of, with the daily allowance and the largest buy of its hard limits. Every transaction goes
// through the outbox under a key of the company's setup, so an interrupted setup finishes on the next deploy-suite
// and sends nothing twice; the gas is the platform's own (like the chain's singletons), not the company's budget.
// A company with no treasury gets its Safe as its proven treasury (the Fortune List counts the Safe's money): the
// platform deployed it for the company's card, which alone controls it, so it needs no acceptance of its own.
import { and, eq, ne } from 'drizzle-orm';
import { type Address, parseUnits } from 'viem';
import { type CompanyCustody, type CustodySender, setUpCompanyCustody } from '../../chain/custody.ts';
import { chainTime } from '../../chain/time.ts';
import { TRADING_LIMITS_DEFAULT, USDC_DECIMALS } from '../../constants.ts';
import { agents } from '../../db/schema/agents.ts';
import type { companies } from '../../db/schema/companies.ts';
import type { Deps as DomainDeps } from '../deps.ts';
import { refuseForbiddenTreasury } from '../treasuries/rules.ts';
import { recordCustody } from './store.ts';
import { proveTreasury } from './treasury.ts';

type Deps = Pick<DomainDeps, 'chain' | 'database' | 'outbox' | 'config'>;

/**
 * The module's two numbers from the company's hard limits (toolkitConfig.limits over the defaults, as the trading
 * code reads them): the day's buys, and the largest single buy, which is the per-token position limit (no one buy
 * can sensibly spend more; the percentage-of-balance rule stays in code, the module cannot read a balance) and never
 * above the day.
 */
export function custodyLimits(toolkit: (typeof companies.$inferSelect)['toolkitConfig']) {
  const set = { ...TRADING_LIMITS_DEFAULT, ...(toolkit?.limits ?? {}) };
  const dailyNotional = parseUnits(set.maxDailyNotionalUsdc, USDC_DECIMALS);
  const position = parseUnits(set.maxPositionUsdc, USDC_DECIMALS);
  return { dailyNotional, maxTrade: position < dailyNotional ? position : dailyNotional };
}

/**
 * Sets up (or finishes setting up) the company's custody, and makes its Safe its treasury when it has none; a
 * company that has both already is left alone.
 */
export async function setUpCustody(
  deps: Deps,
  company: typeof companies.$inferSelect,
): Promise<CompanyCustody | undefined> {
  if (deps.config.companyCustody !== 'safe') return undefined;
  const custody =
    company.safeAddress && company.rolesModuleAddress && company.safeOwnerAddress
      ? {
          safe: company.safeAddress as Address,
          roles: company.rolesModuleAddress as Address,
          owner: company.safeOwnerAddress as Address,
        }
      : await deployCustody(deps, company);
  if (!company.treasuryAddress) {
    await refuseForbiddenTreasury(deps, company.id, custody.safe);
    await proveTreasury(deps, company, custody.safe, await chainTime(deps.chain.publicClient));
  }
  return custody;
}

async function deployCustody(deps: Deps, company: typeof companies.$inferSelect): Promise<CompanyCustody> {
  const db = deps.database.db;
  const keys = await db
    .select({ address: agents.onChainAddress })
    .from(agents)
    .where(and(eq(agents.companyId, company.id), ne(agents.status, 'TERMINATED')));
  const sender: CustodySender = (key, tx) => deps.outbox.send(`custody:${company.id}:${key}`, () => tx);
  const custody = await setUpCompanyCustody(deps.chain, deps.chain.contracts, {
    cardId: BigInt(company.cardTokenId),
    // Every agent of the C-suite may trade and stake; what each does is the engine's decision, within the roles.
    agents: keys
      .filter((k): k is { address: string } => k.address !== null)
      .map((k) => ({ address: k.address as Address, trade: true, stake: true })),
    limits: custodyLimits(company.toolkitConfig),
    tokens: company.tokenAddress ? [company.tokenAddress as Address] : [],
    sender,
  });
  await recordCustody(db, company.id, custody);
  return { safe: custody.safe, roles: custody.roles, owner: custody.owner };
}
