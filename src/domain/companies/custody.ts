// A company's custody (docs/contracts.md "Custody"): with COMPANY_CUSTODY=safe, deploy-suite gives the company its own
// Safe, controlled by the holder of its access card, and a Roles module whose trading and staking roles its agent
// keys are members of, with the daily allowance and the largest buy of its hard limits. Every transaction goes
// through the outbox under a key of the company's setup, so an interrupted setup finishes on the next deploy-suite
// and sends nothing twice; the gas is the platform's own (like the chain's singletons), not the company's budget.
// A company with no treasury gets its Safe as its proven treasury (the Fortune List counts the Safe's money): the
// platform deployed it for the company's card, which alone controls it, so it needs no acceptance of its own.
// After the setup the platform keeps the module in step through its manage role: an agent hired later becomes a
// member of the trading and staking roles, a terminated one stops being one, and a change of the company's limits
// moves the daily allowance and the largest buy. Each change is read from the chain first and sent through the
// outbox under a key of its own, so an interrupted change finishes when run again and none is sent twice.
import { and, eq, ne } from 'drizzle-orm';
import { type Address, parseUnits, type TransactionReceipt } from 'viem';
import {
  allowanceChangeTx,
  type CompanyCustody,
  type CustodySender,
  dailyAllowanceLeft,
  maxTradeChangeTx,
  ONE_DAY_S,
  readDailyAllowance,
  readMaxTrade,
  setUpCompanyCustody,
} from '../../chain/custody.ts';
import { chainTime } from '../../chain/time.ts';
import { TRADING_LIMITS_DEFAULT, USDC_DECIMALS } from '../../constants.ts';
import { agents } from '../../db/schema/agents.ts';
import type { companies } from '../../db/schema/companies.ts';
import { syncCustodyMembers } from '../agents/custody.ts';
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
  const recorded = company.safeAddress && company.rolesModuleAddress && company.safeOwnerAddress;
  if (recorded) {
    // Set up before: agents hired or terminated since, and limits changed since, reach the module.
    await syncCustodyMembers(deps, company);
    await syncCustodyLimits(deps, company);
  }
  if (deps.config.companyCustody !== 'safe' && !recorded) return undefined;
  const custody = recorded
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

type SyncDeps = Pick<DomainDeps, 'chain' | 'database' | 'outbox'>;
type CustodyRow = Pick<typeof companies.$inferSelect, 'id' | 'rolesModuleAddress'>;

function requireSuccess(receipt: TransactionReceipt, what: string) {
  if (receipt.status !== 'success') throw new Error(`${what} reverted (${receipt.transactionHash})`);
}

/**
 * Sends the change for `key` unless `done()` reads it on the chain already. The same change can be asked for again
 * later (limits raised, lowered, raised again), so a key whose receipt left the chain short of it belongs to an
 * earlier change and the next number is tried: an interrupted change finds its own key again and sends nothing new.
 */
async function sendUntil(
  deps: SyncDeps,
  key: string,
  done: () => Promise<boolean>,
  build: () => Promise<{ to: Address; data: `0x${string}` }>,
): Promise<void> {
  const before = await deps.chain.publicClient.getBlockNumber({ cacheTime: 0 });
  for (let n = 0; !(await done()); n++) {
    const receipt = await deps.outbox.send(`${key}:${n}`, build);
    requireSuccess(receipt, key);
    // Mined just now and still short: this change's own transaction did not do it; sending more would not either.
    if (receipt.blockNumber > before && !(await done()))
      throw new Error(`${key} was mined but the chain does not show it`);
  }
}

/**
 * Pushes the company's limits as they are now to its module: the daily allowance (refill and most: the day's
 * notional; what is left today: the new amount less what the day's buys spent already) and the largest buy. Nothing
 * is sent for what the chain already holds. A company without custody is left alone.
 */
export async function syncCustodyLimits(
  deps: SyncDeps,
  company: CustodyRow & Pick<typeof companies.$inferSelect, 'toolkitConfig'>,
): Promise<void> {
  const roles = company.rolesModuleAddress as Address | null;
  if (!roles) return;
  const want = custodyLimits(company.toolkitConfig);
  const read = deps.chain.publicClient;
  const allowance = async () => {
    const a = await readDailyAllowance(deps.chain, roles);
    return [a.refill, a.maxRefill, a.period] as const;
  };
  await sendUntil(
    deps,
    `custody:${company.id}:allowance:${want.dailyNotional}`,
    async () => {
      const [refill, maxRefill, period] = await allowance();
      return refill === want.dailyNotional && maxRefill === want.dailyNotional && period === ONE_DAY_S;
    },
    async () => {
      const [, maxRefill] = await allowance();
      const now = await chainTime(read);
      const left = await dailyAllowanceLeft(deps.chain, roles, now);
      const spent = maxRefill > left ? maxRefill - left : 0n;
      const balance = want.dailyNotional > spent ? want.dailyNotional - spent : 0n;
      return allowanceChangeTx(roles, want.dailyNotional, balance, now - (now % ONE_DAY_S));
    },
  );
  await sendUntil(
    deps,
    `custody:${company.id}:max-trade:${want.maxTrade}`,
    async () => (await readMaxTrade(deps.chain, deps.chain.contracts, roles)) === want.maxTrade,
    async () => maxTradeChangeTx(deps.chain.contracts, roles, want.maxTrade),
  );
}
