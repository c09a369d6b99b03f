// Phase 1 of a decision round: the round's world, read once (the company, its active C-suite with their wallets and
// holdings, its limits, the tokens its agents may trade, its treasury and token market, and the chain's clock), and
// the part of it each later phase is given. Only the execution phase reads again, and only what must be fresh at
// the moment of signing (balances and allowances, in one batched read per action). Chain reads that fail leave
// their fields null rather than fail the round.
import type { Tracer } from '@opentelemetry/api';
import { and, desc, eq, inArray } from 'drizzle-orm';
import { type Address, formatUnits } from 'viem';
import { readMarket } from '../../chain/contracts/launcher.ts';
import { usdcBalanceOf } from '../../chain/contracts/usdc.ts';
import { chainDate } from '../../chain/time.ts';
import { AGENT_ROLES } from '../../constants.ts';
import { agents } from '../../db/schema/agents.ts';
import { companies } from '../../db/schema/companies.ts';
import { decisionRounds } from '../../db/schema/decisions.ts';
import { signedDirectiveNames } from '../companies/directive-tokens.ts';
import type { Deps } from '../deps.ts';
import { tokenMovers, tokenTradeStats } from '../tokens/queries.ts';
import { graduationProgress } from '../tokens/views.ts';
import { TRADE_TOOLS } from '../trading/actions.ts';
import { buyRulesOf } from '../trading/buy-rules.ts';
import { broadChangePct, coolingOff, depthBroken, marketDepths } from '../trading/buy-window.ts';
import { limitsOf, limitsView } from '../trading/limits.ts';
import { walletStates as readWallets } from '../trading/portfolio.ts';
import type { AgentWalletState, ModelProvider, Role, RoundContext } from './models/types.ts';
import { readHeadroom, readHistory } from './standing.ts';
import { enabledTools, type Tool } from './tools.ts';

/** What the engine is given: the chain, the database, the clock and the models. */
export type EngineDeps = Pick<Deps, 'chain' | 'database' | 'now' | 'wallets' | 'outbox' | 'config'> & {
  models: ModelProvider;
  log?: { warn(o: object, m: string): void };
  /** Spans of rounds, phases and model calls (none recorded when absent). */
  tracer?: Tracer;
};

export type CompanyRow = typeof companies.$inferSelect;
export interface ActiveAgent {
  id: string;
  companyId: string | null;
  role: Role;
  name: string;
  strategy: { preset: string };
  walletIndex: number | null;
  onChainAddress: string | null;
}

/** What every later phase works from: the world as the round read it. */
export interface RoundInputs {
  company: CompanyRow;
  active: ActiveAgent[];
  /** The whole situation, as the brief's model reads it. */
  context: RoundContext;
  tools: Tool[];
  /** The chain's clock when the round read its world. */
  chainNow: Date;
  /** The wallets of every agent of the company, whatever its status (what its agents hold counts against limits). */
  walletAddresses: Address[];
}

export class PhaseError extends Error {
  constructor(
    readonly phase: string,
    message: string,
  ) {
    super(message);
  }
}

export async function gatherContext(deps: EngineDeps, companyId: string, cycle: number): Promise<RoundInputs> {
  const db = deps.database.db;
  const [company] = await db.select().from(companies).where(eq(companies.id, companyId));
  if (!company) throw new PhaseError('context', `company ${companyId} no longer exists`);
  const team = await db
    .select({
      id: agents.id,
      companyId: agents.companyId,
      role: agents.role,
      name: agents.name,
      strategy: agents.strategy,
      walletIndex: agents.walletIndex,
      onChainAddress: agents.onChainAddress,
      status: agents.status,
    })
    .from(agents)
    .where(eq(agents.companyId, company.id));
  const active = team
    .filter(
      (a): a is typeof a & { role: Role } =>
        a.status === 'ACTIVE' && (AGENT_ROLES as readonly string[]).includes(a.role ?? ''),
    )
    .map(({ status: _, ...agent }) => agent)
    // In the C-suite's order, whatever order the rows came in: every model sees the roles the same way.
    .sort((a, b) => AGENT_ROLES.indexOf(a.role) - AGENT_ROLES.indexOf(b.role));
  const walletAddresses = team.flatMap((a) => (a.onChainAddress ? [a.onChainAddress as Address] : []));
  // A company with custody trades from its Safe: what it holds counts against the limits with the rest.
  const safe = custodySafe(company);
  if (safe) walletAddresses.push(safe);
  const tools = enabledTools(company.toolkitConfig ?? null);
  // Trades carry their block's time: the day is counted back from the chain's clock (the server's when it is down).
  const chainNow = await chainDate(deps.chain.publicClient).catch(() => new Date(deps.now()));
  const context = await readContext(deps, company, active, cycle, tools, chainNow, walletAddresses);
  return { company, active, context, tools, chainNow, walletAddresses };
}

async function readContext(
  deps: EngineDeps,
  company: CompanyRow,
  team: ActiveAgent[],
  cycle: number,
  tools: Tool[],
  chainNow: Date,
  walletAddresses: Address[],
): Promise<RoundContext> {
  const db = deps.database.db;
  const since = new Date(chainNow.getTime() - 86_400_000);
  const launched = company.tokenStatus !== 'PRE_PUBLIC' && company.tokenAddress;
  const trades = tools.some((t) => (TRADE_TOOLS as readonly string[]).includes(t.name));
  const rules = buyRulesOf(company.toolkitConfig);
  const [market, treasury, volume, [last], movers, wallets, cooling, history] = await Promise.all([
    launched && deps.chain.contracts.tokenLauncher
      ? readMarket(deps.chain, company.tokenAddress as Address).catch(() => undefined)
      : undefined,
    company.treasuryAddress && deps.chain.contracts.usdc
      ? usdcBalanceOf(deps.chain, company.treasuryAddress as Address).catch(() => undefined)
      : undefined,
    tokenTradeStats(db, company.id, since),
    db
      .select({ directive: decisionRounds.directive })
      .from(decisionRounds)
      .where(and(eq(decisionRounds.companyId, company.id), inArray(decisionRounds.status, ['COMPLETE'])))
      .orderBy(desc(decisionRounds.cycle))
      .limit(1),
    tokenMovers(db, since, MARKET_TOKENS_SHOWN),
    trades ? walletStates(deps, team, custodySafe(company)).catch(() => []) : [],
    coolingOff(db, company.id, chainNow),
    readHistory(db, company.id),
  ]);
  const headroom = await readHeadroom(
    deps,
    company.id,
    limitsOf(company.toolkitConfig),
    wallets,
    walletAddresses,
    chainNow,
  ).catch(() => undefined);
  const depths = await marketDepths(
    db,
    movers.map((m) => m.companyId),
    since,
  );
  return {
    company: {
      id: company.id,
      name: company.name,
      slug: company.slug,
      category: company.category,
      status: company.status,
      autonomyLevel: company.autonomyLevel as RoundContext['company']['autonomyLevel'],
      ceoPrompt: company.ceoPrompt,
      masterDirective: company.masterDirective,
      platformScore: company.platformScore,
    },
    treasuryUsdc: treasury === undefined ? null : formatUnits(treasury, 6),
    token: {
      status: company.tokenStatus as RoundContext['token']['status'],
      symbol: company.tokenStatus === 'PRE_PUBLIC' ? null : company.tokenSymbol,
      price: market ? formatUnits(market.price, 6) : null,
      marketCap: market ? formatUnits(market.marketCap, 6) : null,
      graduationProgress: market
        ? graduationProgress(company.tokenStatus, market.marketCap, company.tokenGraduationThreshold ?? 0n)
        : company.tokenStatus === 'GRADUATED'
          ? 100
          : 0,
      volume24hUsdc: formatUnits(volume.volume, 6),
      trades24h: volume.trades,
    },
    agents: team.map((a) => ({ id: a.id, role: a.role, name: a.name, strategy: a.strategy.preset })),
    market: movers.map((m) => {
      const ageHours = m.publicAt ? Math.floor((chainNow.getTime() - m.publicAt.getTime()) / 3_600_000) : 0;
      const change = m.firstPrice === 0n ? 0 : Number(((m.lastPrice - m.firstPrice) * 10_000n) / m.firstPrice) / 100;
      const depth = depths.get(m.companyId);
      return {
        symbol: m.symbol,
        status: m.status,
        priceUsdc: formatUnits(m.lastPrice, 6),
        change24hPct: change,
        broadChange24hPct: broadChangePct(change, depth),
        volume24hUsdc: formatUnits(m.volume, 6),
        trades24h: m.trades,
        traders24h: m.traders,
        ageHours,
        // The buy rules a round can know before it buys (docs/api/agents.md "Buy rules"): age, a market weighed by
        // money that no one wallet made, and the company's cool-off; the liquidity shares are checked at the buy.
        buyable:
          signedDirectiveNames(company, m) ||
          (ageHours >= rules.minTokenAgeHours &&
            depthBroken(m.symbol, depth ?? NO_DEPTH, rules.minDistinctTraders) === null &&
            !cooling.has(m.companyId)),
      };
    }),
    wallets,
    limits: limitsView(company.toolkitConfig),
    lastDirective: last?.directive ?? null,
    cycle,
    date: chainNow.toISOString(),
    history,
    ...(headroom && { headroom }),
  };
}

const NO_DEPTH = { traders: 0, moneyTraders: 0, topShareBps: 0 };

/** How many of the platform's most traded tokens a round's context lists. */
const MARKET_TOKENS_SHOWN = 10;

/** The company's Safe when its agents act through it (its custody set up), else null. */
const custodySafe = (company: CompanyRow) =>
  company.safeAddress && company.rolesModuleAddress ? (company.safeAddress as Address) : null;

/**
 * What each active agent's wallet holds (one batch of reads per wallet, all at once); with custody, what the
 * company's Safe holds, which is what each agent acts with.
 */
async function walletStates(deps: EngineDeps, team: ActiveAgent[], safe: Address | null): Promise<AgentWalletState[]> {
  const withWallet = team.filter((a) => a.onChainAddress);
  const states = await readWallets(deps, withWallet, safe);
  return states.flatMap((view, i) =>
    view.balances
      ? [
          {
            role: withWallet[i]!.role,
            address: view.address!,
            usdc: view.balances.usdc,
            primary: view.balances.primary,
            staked: view.balances.staked,
            pendingEmission: view.balances.pendingEmission,
            positions: view.positions
              .filter((p) => p.balance !== '0')
              .map((p) => ({
                symbol: p.symbol ?? '',
                tokens: p.balance,
                costUsdc: p.costUsdc,
                valueUsdc: p.valueUsdc,
              })),
          },
        ]
      : [],
  );
}
