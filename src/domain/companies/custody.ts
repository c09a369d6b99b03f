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
// outbox under a key of its own, so an interrupted change finishes when run again and none is sent twice; the
// reconcile-custody job (reconcileCustody, below) finishes what a request left undone. A module the platform may not
// change (its key not a member of the manage role) gets no transaction: the request answers 409 (NoManageRole)
// saying what the holder does, and setUpCustody warns and goes on.
import { and, eq, isNotNull, ne, sql } from 'drizzle-orm';
import { type Address, formatUnits, parseUnits } from 'viem';
import { type CustodySender, setUpCompanyCustody } from '../../chain/custody.ts';
import {
  allowanceChangeTx,
  dailyAllowanceLeft,
  isRoleMember,
  maxTradeChangeTx,
  readDailyAllowance,
  readMaxTrade,
} from '../../chain/custody-roles.ts';
import { type CompanyCustody, ONE_DAY_S, STAKE_ROLE, TRADE_ROLE } from '../../chain/custody-scopes.ts';
import { chainTime } from '../../chain/time.ts';
import { TRADING_LIMITS_DEFAULT, USDC_DECIMALS } from '../../constants.ts';
import type { Database, Tx } from '../../db/client.ts';
import { createGate, type Gate } from '../../db/gate.ts';
import { agents } from '../../db/schema/agents.ts';
import { companies } from '../../db/schema/companies.ts';
import { AppError } from '../../errors.ts';
import {
  type CustodyRow,
  NoManageRole,
  requireManageRole,
  requireSuccess,
  type SyncDeps,
  syncCustodyMembers,
} from '../agents/custody.ts';
import type { Deps as DomainDeps } from '../deps.ts';
import { refuseForbiddenTreasury } from '../treasuries/rules.ts';
import { recordCustody } from './store.ts';
import { proveTreasury } from './treasury.ts';

type Deps = Pick<DomainDeps, 'chain' | 'database' | 'outbox' | 'config'> & { log?: Warn };
type Warn = { warn(o: object, m: string): void };

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
    // Set up before: agents hired or terminated since, and limits changed since, reach the module. A module the
    // platform may not change does not stop the setup (deploy-suite, the move): warned, and left to the holder.
    for (const sync of [syncCustodyMembers, syncCustodyLimits]) {
      try {
        await sync(deps, company);
      } catch (err) {
        if (!(err instanceof NoManageRole)) throw err;
        deps.log?.warn({ companyId: company.id, reason: err.message }, 'custody module not kept in step');
      }
    }
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

/** Tail of each key's in-process turn: the limits' changes of one company one after another in this process. */
const turns = new Map<string, Promise<unknown>>();

/**
 * How many companies' changes hold their lock at once in this process. Each holds a pooled connection while it waits
 * on the chain, and its outbox send takes a second one: left unbounded, as many changes as the pool has connections
 * (ten deploy-suites retried at once) would each wait for a connection none gives back (src/db/gate.ts). Two at most,
 * and fewer on a small pool, so that at least two connections stay free for everything else (a pool of 2, the least
 * DATABASE_POOL_SIZE allows, still runs one). A change that waits more than `LOCK_WAIT_MS` (a receipt's timeout: a
 * change ahead of it may wait that long on the chain) for its turn is answered 503 with a Retry-After instead of
 * holding its request open behind the others; the reconcile-custody job finishes what a refused change left.
 */
export const lockHoldersOf = (poolSize: number) => Math.min(2, Math.max(1, Math.floor((poolSize - 2) / 2)));
const LOCK_WAIT_MS = 60_000;
const LOCK_RETRY_AFTER_S = 5;
const lockGates = new WeakMap<Database, Gate>();

function lockHolders(database: Database): Gate {
  let gate = lockGates.get(database);
  if (!gate) {
    gate = createGate(lockHoldersOf(database.poolSize), {
      waitMs: LOCK_WAIT_MS,
      busy: () =>
        new AppError(
          'DATABASE_UNAVAILABLE',
          `Other custody changes are using this server's database connections; retry after ${LOCK_RETRY_AFTER_S} s`,
          { headers: { 'retry-after': String(LOCK_RETRY_AFTER_S) } },
        ),
    });
    lockGates.set(database, gate);
  }
  return gate;
}

/**
 * Runs `fn` alone for `key`: one at a time in this process, and, on PostgreSQL, under a transaction-scoped advisory
 * lock, so across processes too (PGlite serves one process). `fn` is given the handle to read under the lock.
 */
async function alone<T>(deps: Pick<SyncDeps, 'database'>, key: string, fn: (db: Tx) => Promise<T>): Promise<T> {
  const before = turns.get(key) ?? Promise.resolve();
  const run = before
    .catch(() => undefined)
    .then(() =>
      deps.database.kind === 'pglite'
        ? fn(deps.database.db)
        : lockHolders(deps.database)(() =>
            deps.database.db.transaction(async (tx) => {
              await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`);
              return fn(tx);
            }),
          ),
    );
  turns.set(key, run);
  try {
    return await run;
  } finally {
    if (turns.get(key) === run) turns.delete(key);
  }
}

const usdcText = (v: bigint) => formatUnits(v, USDC_DECIMALS);

/**
 * Pushes the company's limits as they are saved now to its module: the daily allowance (refill and most: the day's
 * notional; what is left today: the new amount less what the day's buys spent already) and the largest buy. The
 * limits are read from the database under a per-company lock, not taken from the caller: of two changes made
 * together, the module ends on the one saved last, never on an older one whose sync ran late. Nothing is sent for
 * what the chain already holds. A company without custody is left alone; one whose module the platform may not
 * change gets NoManageRole (409) when a change is due, and nothing is sent.
 */
export async function syncCustodyLimits(deps: SyncDeps, company: CustodyRow): Promise<void> {
  const roles = company.rolesModuleAddress as Address | null;
  if (!roles) return;
  await alone(deps, `custody-limits:${company.id}`, async (db) => {
    const [saved] = await db
      .select({ toolkitConfig: companies.toolkitConfig })
      .from(companies)
      .where(eq(companies.id, company.id));
    const want = custodyLimits(saved?.toolkitConfig ?? null);
    const read = deps.chain.publicClient;
    const allowance = async () => {
      const a = await readDailyAllowance(deps.chain, roles);
      return [a.refill, a.maxRefill, a.period] as const;
    };
    const allowanceDone = async () => {
      const [refill, maxRefill, period] = await allowance();
      return refill === want.dailyNotional && maxRefill === want.dailyNotional && period === ONE_DAY_S;
    };
    const maxTradeDone = async () => (await readMaxTrade(deps.chain, deps.chain.contracts, roles)) === want.maxTrade;
    const [allowanceOk, maxTradeOk] = await Promise.all([allowanceDone(), maxTradeDone()]);
    if (allowanceOk && maxTradeOk) return;
    await requireManageRole(
      deps,
      company,
      roles,
      `its limits are saved as ${usdcText(want.dailyNotional)} USDC a day and ${usdcText(want.maxTrade)} USDC a buy, and its module does not hold them yet`,
      `setAllowance(daily-notional, balance, ${want.dailyNotional}, ${want.dailyNotional}, 86400, start of the day) and the trading role's scopeFunction for the launcher's buy`,
    );
    await sendUntil(deps, `custody:${company.id}:allowance:${want.dailyNotional}`, allowanceDone, async () => {
      const [, maxRefill] = await allowance();
      const now = await chainTime(read);
      const left = await dailyAllowanceLeft(deps.chain, roles, now);
      const spent = maxRefill > left ? maxRefill - left : 0n;
      const balance = want.dailyNotional > spent ? want.dailyNotional - spent : 0n;
      return allowanceChangeTx(roles, want.dailyNotional, balance, now - (now % ONE_DAY_S));
    });
    await sendUntil(deps, `custody:${company.id}:max-trade:${want.maxTrade}`, maxTradeDone, async () =>
      maxTradeChangeTx(deps.chain.contracts, roles, want.maxTrade),
    );
  });
}

/**
 * The reconcile job's work (src/jobs/scheduler.ts "reconcile-custody"): every company with custody whose module
 * differs from what the database says (a live agent's key not a member of both roles, a terminated one still a
 * member, the daily allowance or the largest buy not the saved limits) is brought in step by syncCustodyMembers and
 * syncCustodyLimits. It finishes what a request left undone (a node that did not answer after the database was
 * written, a process stopped) and what waited for the holder to give the manage role back. Cheap when nothing
 * changed: two queries, then every company's reads at once (the chain client sends concurrent calls as one JSON-RPC
 * batch) and nothing sent. A company whose module the platform may not change is named in `waiting` (and warned).
 */
export async function reconcileCustody(
  deps: SyncDeps & { log?: Warn },
): Promise<{ companies: number; synced: string[]; waiting: string[] }> {
  const db = deps.database.db;
  const rows = await db
    .select({ id: companies.id, rolesModuleAddress: companies.rolesModuleAddress, toolkit: companies.toolkitConfig })
    .from(companies)
    .where(isNotNull(companies.rolesModuleAddress));
  const keys = await db
    .select({ companyId: agents.companyId, address: agents.onChainAddress, status: agents.status })
    .from(agents)
    .innerJoin(companies, eq(companies.id, agents.companyId))
    .where(and(isNotNull(companies.rolesModuleAddress), isNotNull(agents.onChainAddress)));
  const member = (roles: Address, role: `0x${string}`, key: string) =>
    isRoleMember(deps.chain, roles, role, key as Address);
  const state = await Promise.all(
    rows.map(async (row) => {
      const roles = row.rolesModuleAddress as Address;
      const want = custodyLimits(row.toolkit);
      const team = keys.filter((k) => k.companyId === row.id);
      const [allowance, maxTrade, memberships] = await Promise.all([
        readDailyAllowance(deps.chain, roles),
        readMaxTrade(deps.chain, deps.chain.contracts, roles),
        Promise.all(
          team.map(async (k) => {
            const live = k.status !== 'TERMINATED';
            const [trade, stake] = await Promise.all([
              member(roles, TRADE_ROLE, k.address!),
              member(roles, STAKE_ROLE, k.address!),
            ]);
            return trade === live && stake === live;
          }),
        ),
      ]);
      const limits =
        allowance.refill !== want.dailyNotional ||
        allowance.maxRefill !== want.dailyNotional ||
        allowance.period !== ONE_DAY_S ||
        maxTrade !== want.maxTrade;
      return { row, members: memberships.some((ok) => !ok), limits };
    }),
  );
  const synced: string[] = [];
  const waiting: string[] = [];
  const failed: unknown[] = [];
  for (const { row, members, limits } of state) {
    if (!members && !limits) continue;
    try {
      if (members) await syncCustodyMembers(deps, row);
      if (limits) await syncCustodyLimits(deps, row);
      synced.push(row.id);
    } catch (err) {
      if (err instanceof NoManageRole) {
        waiting.push(row.id);
        deps.log?.warn({ companyId: row.id, reason: err.message }, 'custody module not kept in step');
      } else failed.push(err);
    }
  }
  // Every company had its turn; a failure (a node that did not answer) fails the run, and the next one retries.
  if (failed.length > 0) throw failed[0];
  return { companies: rows.length, synced, waiting };
}
