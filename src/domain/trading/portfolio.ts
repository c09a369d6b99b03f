// An agent wallet's portfolio (GET /api/agents/{id}/portfolio) and a company's, the sum of its agents' (GET
// /api/companies/{id}/portfolio): balances read from the chain at one block, and per company token the position at
// average cost from the indexed trades (trader_positions), valued at the launcher's price. Realised PnL is what sales
// made against that cost; unrealised is what the tokens still held from buys are worth now against what they cost,
// both at the price (the mark) and at the exit value: what selling the whole position now would return (the
// launcher's quoteSell of the balance, its price impact and fees included), which is what the tokens can be turned into.
// A company with custody (custody.ts) holds its money in its Safe, which is the trader the chain sees: its portfolio
// is the Safe's, with whatever its agents' own wallets still hold beside it. A company moved into custody finds the
// tokens its agents had bought in the Safe's positions at their cost: the token stream carries a position along the
// sweep's transfer (src/domain/tokens/apply.ts).
import { eq, inArray } from 'drizzle-orm';
import { type Address, formatUnits } from 'viem';
import { readMarket } from '../../chain/contracts/launcher.ts';
import { quoteTrade, readHoldings } from '../../chain/contracts/wallet-actions.ts';
import { COMPANY_TOKEN_DECIMALS, USDC_DECIMALS } from '../../constants.ts';
import { agents } from '../../db/schema/agents.ts';
import { companies } from '../../db/schema/companies.ts';
import { traderPositions } from '../../db/schema/tokens.ts';
import { getAgent } from '../agents/queries.ts';
import { requireCompany } from '../companies/queries.ts';
import type { Deps } from '../deps.ts';

type PortfolioDeps = Pick<Deps, 'database' | 'chain'>;

const usdc = (v: bigint) => formatUnits(v, USDC_DECIMALS);
const units = (v: bigint) => formatUnits(v, COMPANY_TOKEN_DECIMALS);

export interface PositionView {
  token: string;
  symbol: string | null;
  companyId: string;
  /** Tokens the wallet holds now. */
  balance: string;
  /** Tokens bought and not yet sold (what the cost basis covers). */
  quantity: string;
  costUsdc: string;
  averageCostUsdc: string;
  priceUsdc: string;
  valueUsdc: string;
  /** USDC selling the whole balance now would return (price impact and fees included); null when it cannot be quoted. */
  exitValueUsdc: string | null;
  realizedPnlUsdc: string;
  unrealizedPnlUsdc: string;
  /** Unrealised PnL at the exit value: what the bought tokens still held would sell for now, less what they cost. */
  exitUnrealizedPnlUsdc: string | null;
}

export interface PortfolioView {
  agentId: string;
  role: string | null;
  address: string | null;
  balances: {
    nativeWei: string;
    usdc: string;
    primary: string;
    emission: string;
    staked: string;
    pendingEmission: string;
  } | null;
  positions: PositionView[];
  totals: Totals;
}

interface Totals {
  /** USDC plus the value of the company tokens held. */
  valueUsdc: string;
  /** USDC plus what selling each token position now would return. */
  exitValueUsdc: string;
  realizedPnlUsdc: string;
  unrealizedPnlUsdc: string;
  exitUnrealizedPnlUsdc: string;
}

interface Sums {
  value: bigint;
  exit: bigint;
  realized: bigint;
  unrealized: bigint;
  exitUnrealized: bigint;
}

const NO_SUMS: Sums = { value: 0n, exit: 0n, realized: 0n, unrealized: 0n, exitUnrealized: 0n };

const totalsOf = (s: Sums): Totals => ({
  valueUsdc: usdc(s.value),
  exitValueUsdc: usdc(s.exit),
  realizedPnlUsdc: usdc(s.realized),
  unrealizedPnlUsdc: usdc(s.unrealized),
  exitUnrealizedPnlUsdc: usdc(s.exitUnrealized),
});

type AgentRow = { id: string; role: string | null; onChainAddress: string | null };

type Portfolio = { view: PortfolioView; sums: Sums };

/**
 * The portfolios of `team`, in its order: their positions in one query, each token's price read once however
 * many of the wallets hold it, and each wallet's balances (one JSON-RPC batch each, all at once). Every chain read
 * is at block `at` (the latest when absent), so an answer is the state of one block.
 */
async function portfoliosOf(deps: PortfolioDeps, team: readonly AgentRow[], at?: bigint): Promise<Portfolio[]> {
  const addresses = team.flatMap((a) => (a.onChainAddress ? [a.onChainAddress.toLowerCase()] : []));
  const rows =
    addresses.length === 0
      ? []
      : await deps.database.db
          .select({
            trader: traderPositions.trader,
            token: traderPositions.tokenAddress,
            companyId: traderPositions.companyId,
            symbol: companies.tokenSymbol,
            quantity: traderPositions.quantity,
            cost: traderPositions.costUsdc,
            realized: traderPositions.realizedPnlUsdc,
          })
          .from(traderPositions)
          .innerJoin(companies, eq(companies.id, traderPositions.companyId))
          .where(inArray(traderPositions.trader, addresses))
          .orderBy(traderPositions.trader, traderPositions.tokenAddress);
  const tokens = [...new Set(rows.map((r) => r.token as Address))];
  const [markets, holdings] = await Promise.all([
    Promise.all(tokens.map((t) => readMarket(deps.chain, t, at))).then(
      (read) => new Map(tokens.map((t, i) => [t, read[i]!.price])),
    ),
    Promise.all(
      team.map((a) =>
        a.onChainAddress
          ? readHoldings(
              deps.chain,
              a.onChainAddress as Address,
              rows.filter((r) => r.trader === a.onChainAddress!.toLowerCase()).map((r) => r.token as Address),
              [],
              at,
            )
          : undefined,
      ),
    ),
  ]);
  // What selling each position whole would return, at the same block; a quote that fails leaves the exit unknown.
  const exits = new Map<string, bigint | null>();
  await Promise.all(
    team.map(async (agent, i) => {
      const held = holdings[i];
      if (!agent.onChainAddress || !held) return;
      for (const [token, balance] of held.tokens) {
        const key = `${agent.onChainAddress.toLowerCase()}:${token.toLowerCase()}`;
        if (balance === 0n) exits.set(key, 0n);
        else {
          exits.set(key, await quoteTrade(deps.chain, 'sell', token, balance, at).catch(() => null));
        }
      }
    }),
  );
  return team.map((agent, i) => {
    const held = holdings[i];
    if (!agent.onChainAddress || !held) {
      const view = { agentId: agent.id, role: agent.role, address: null, balances: null, positions: [] };
      return { view: { ...view, totals: totalsOf(NO_SUMS) }, sums: NO_SUMS };
    }
    const own = rows.filter((r) => r.trader === agent.onChainAddress!.toLowerCase());
    const exitOf = (token: string) => exits.get(`${agent.onChainAddress!.toLowerCase()}:${token.toLowerCase()}`);
    return walletPortfolio(agent, agent.onChainAddress as Address, held, own, markets, exitOf);
  });
}

type PositionRow = {
  token: string;
  companyId: string;
  symbol: string | null;
  quantity: bigint;
  cost: bigint;
  realized: bigint;
};

function walletPortfolio(
  agent: AgentRow,
  address: Address,
  holdings: Awaited<ReturnType<typeof readHoldings>>,
  rows: readonly PositionRow[],
  prices: Map<Address, bigint>,
  exitOf: (token: string) => bigint | null | undefined,
): Portfolio {
  const sums = { value: holdings.usdc, exit: holdings.usdc, realized: 0n, unrealized: 0n, exitUnrealized: 0n };
  const positions = rows.map((r) => {
    const balance = holdings.tokens.get(r.token as Address) ?? 0n;
    const price = prices.get(r.token as Address)!;
    // What the cost covers and the wallet still holds (tokens sent away since have no value here).
    const held = balance < r.quantity ? balance : r.quantity;
    const heldCost = r.quantity === 0n ? 0n : (r.cost * held) / r.quantity;
    const value = (balance * price) / 10n ** 18n;
    const unrealized = (held * price) / 10n ** 18n - heldCost;
    // The exit value covers the whole balance; the cost basis its bought part, in proportion.
    const exit = exitOf(r.token) ?? null;
    const exitUnrealized = exit === null ? null : balance === 0n ? 0n : (exit * held) / balance - heldCost;
    sums.value += value;
    // An exit that cannot be quoted counts at the mark in the totals, so they never drop the position.
    sums.exit += exit ?? value;
    sums.realized += r.realized;
    sums.unrealized += unrealized;
    sums.exitUnrealized += exitUnrealized ?? unrealized;
    return {
      token: r.token,
      symbol: r.symbol,
      companyId: r.companyId,
      balance: units(balance),
      quantity: units(r.quantity),
      costUsdc: usdc(r.cost),
      averageCostUsdc: usdc(r.quantity === 0n ? 0n : (r.cost * 10n ** 18n) / r.quantity),
      priceUsdc: usdc(price),
      valueUsdc: usdc(value),
      exitValueUsdc: exit === null ? null : usdc(exit),
      realizedPnlUsdc: usdc(r.realized),
      unrealizedPnlUsdc: usdc(unrealized),
      exitUnrealizedPnlUsdc: exitUnrealized === null ? null : usdc(exitUnrealized),
    };
  });
  return {
    view: {
      agentId: agent.id,
      role: agent.role,
      address,
      balances: {
        nativeWei: holdings.native.toString(),
        usdc: usdc(holdings.usdc),
        primary: units(holdings.primary),
        emission: units(holdings.emission),
        staked: units(holdings.staked),
        pendingEmission: units(holdings.pendingEmission),
      },
      positions,
      totals: totalsOf(sums),
    },
    sums,
  };
}

/**
 * The wallets of a team as the decision engine reads them, in its order. With `safe` (the company's custody) every
 * agent acts with the Safe's money, so each is shown the Safe's holdings (read once), at the Safe's address.
 */
export async function walletStates(deps: PortfolioDeps, team: readonly AgentRow[], safe?: Address | null) {
  if (!safe) return (await portfoliosOf(deps, team)).map((p) => p.view);
  const [held] = await portfoliosOf(deps, [{ id: '', role: null, onChainAddress: safe }]);
  return team.map((a) => ({ ...held!.view, agentId: a.id, role: a.role }));
}

export async function agentPortfolio(deps: PortfolioDeps, agentId: string, at?: bigint): Promise<PortfolioView> {
  const { agent } = await getAgent(deps.database.db, agentId);
  return (await portfoliosOf(deps, [agent], at))[0]!.view;
}

/**
 * Every agent of the company with a wallet (terminated ones too: their funds are still the company's) and the
 * company's Safe when it has custody, summed.
 */
export async function companyPortfolio(deps: PortfolioDeps, idOrSlug: string, at?: bigint) {
  const db = deps.database.db;
  const company = await requireCompany(db, idOrSlug);
  const team = await db
    .select({ id: agents.id, role: agents.role, onChainAddress: agents.onChainAddress })
    .from(agents)
    .where(eq(agents.companyId, company.id))
    .orderBy(agents.createdAt, agents.id);
  const safe = company.safeAddress && company.rolesModuleAddress ? company.safeAddress : null;
  const read = await portfoliosOf(
    deps,
    [...team.filter((a) => a.onChainAddress), ...(safe ? [{ id: '', role: null, onChainAddress: safe }] : [])],
    at,
  );
  const each = safe ? read.slice(0, -1) : read;
  const safeView = safe ? read.at(-1)!.view : null;
  const sums = read.reduce(
    (s, p) => ({
      value: s.value + p.sums.value,
      exit: s.exit + p.sums.exit,
      realized: s.realized + p.sums.realized,
      unrealized: s.unrealized + p.sums.unrealized,
      exitUnrealized: s.exitUnrealized + p.sums.exitUnrealized,
    }),
    NO_SUMS,
  );
  return {
    companyId: company.id,
    agents: each.map((p) => p.view),
    safe: safeView && {
      address: safeView.address!,
      balances: safeView.balances,
      positions: safeView.positions,
      totals: safeView.totals,
    },
    totals: totalsOf(sums),
  };
}
