// Who paid: the honest companies' agents' PnL, company by company (GET /api/companies/{id}/portfolio: realised and
// unrealised, at average cost, its agents' wallets and, with custody, its Safe, summed by the route), what of it they
// lost on attackers' tokens (attribution.ts: each party's net on each token, what it holds at the sale quote), and
// what their last rounds did with the trading tools (GET /api/companies/{id}/decisions: buys and sales done, and
// why buys were refused); and the outside market's value, its wallets' USDC plus what their tokens would sell for
// now on the launcher (quoteSell), against the USDC they were given.
import { TokenLauncherAbi } from '@ai-economy/shared/abis';
import { agentsOf, type TokenFlows } from './attribution.ts';
import type { World } from './world.ts';

export interface CompanyPnl {
  slug: string;
  /** Whole USDC, realised and unrealised at average cost (the portfolio route's totals). */
  realizedUsdc: number;
  unrealizedUsdc: number;
  /** Whole USDC its agents made (positive) or lost (negative) on the tokens attackers issued. */
  onAttackersTokensUsdc: number;
  /** Trading actions of its last rounds (the decisions route's last ten): done, and refused by reason. */
  buys: number;
  sells: number;
  refused: Record<string, number>;
}

export interface HonestAgentsPnl {
  realizedUsdc: number;
  unrealizedUsdc: number;
  /** Whole USDC the honest agents lost on attackers' tokens, net of what they made on others of them (>= 0). */
  lostToAttackersUsdc?: number;
  /** Per honest company with a trading action or a PnL (the others are left out). */
  companies?: CompanyPnl[];
}

/** A company's agents' net on the tokens attackers issued (pure; negative: a loss). */
export function onAttackersTokens(flows: readonly TokenFlows[], slug: string): number {
  const party = agentsOf(slug, true);
  return round(flows.filter((f) => !f.honestIssuer).reduce((sum, f) => sum + (f.pnlUsdc[party] ?? 0), 0));
}

/** The per-company figures summed (pure): a loss on attackers' tokens counts, a gain on one offsets only its own. */
export function sumHonestPnl(companies: readonly CompanyPnl[]): HonestAgentsPnl {
  let realizedUsdc = 0;
  let unrealizedUsdc = 0;
  let lost = 0;
  for (const c of companies) {
    realizedUsdc += c.realizedUsdc;
    unrealizedUsdc += c.unrealizedUsdc;
    if (c.onAttackersTokensUsdc < 0) lost -= c.onAttackersTokensUsdc;
  }
  return {
    realizedUsdc: round(realizedUsdc),
    unrealizedUsdc: round(unrealizedUsdc),
    lostToAttackersUsdc: round(lost),
    companies: companies.filter(
      (c) => c.buys + c.sells + Object.keys(c.refused).length > 0 || c.realizedUsdc !== 0 || c.unrealizedUsdc !== 0,
    ),
  };
}

/** A refusal's reason without its figures, so like reasons count together ("B000 is 5 h old" as "N h old"). */
export const reasonKind = (text: string) =>
  text
    .replace(/\b[A-Z][A-Z0-9]{1,9}\b/g, 'SYM')
    .replace(/\d+(\.\d+)?/g, 'N')
    .slice(0, 120);

const TRADE_TOOLS = new Set(['buy_token', 'sell_token']);

export async function honestAgentsPnl(world: World, flows: readonly TokenFlows[]): Promise<HonestAgentsPnl> {
  const out: CompanyPnl[] = [];
  for (const c of world.companies.filter((x) => x.party.honest)) {
    const { totals } = await world.ctx.api.data('GET', `/api/companies/${c.plan.slug}/portfolio`);
    const { rounds } = (await world.ctx.api.data(
      'GET',
      `/api/companies/${world.companyId(c.plan.slug)}/decisions`,
    )) as {
      rounds: { actions: { tool: string; outcome: { status: string; text: string | null } }[] }[];
    };
    let buys = 0;
    let sells = 0;
    const refused: Record<string, number> = {};
    for (const r of rounds) {
      for (const a of r.actions) {
        if (!TRADE_TOOLS.has(a.tool)) continue;
        if (a.outcome.status === 'done') {
          if (a.tool === 'buy_token') buys++;
          else sells++;
        } else {
          const why = `${a.tool} ${a.outcome.status}: ${reasonKind(a.outcome.text ?? '')}`;
          refused[why] = (refused[why] ?? 0) + 1;
        }
      }
    }
    out.push({
      slug: c.plan.slug,
      realizedUsdc: round(Number(totals.realizedPnlUsdc)),
      unrealizedUsdc: round(Number(totals.unrealizedPnlUsdc)),
      onAttackersTokensUsdc: onAttackersTokens(flows, c.plan.slug),
      buys,
      sells,
      refused,
    });
  }
  return sumHonestPnl(out);
}

/** USDC (base units) the wallets hold plus what their company tokens would sell for now. */
export async function walletsValue(world: World, wallets: Iterable<number>): Promise<bigint> {
  const tokens = world.tokens();
  let value = 0n;
  for (const index of wallets) {
    value += await world.usdcOf(world.address(index));
    for (const { token } of tokens) {
      const balance = await world.tokenBalance(token, index);
      if (balance === 0n) continue;
      try {
        value += await world.ctx.client.readContract({
          address: world.ctx.contracts.tokenLauncher,
          abi: TokenLauncherAbi,
          functionName: 'quoteSell',
          args: [token, balance],
        });
      } catch {
        // a sale the curve cannot quote is worth nothing here
      }
    }
  }
  return value;
}

const round = (x: number) => Math.round(x * 100) / 100;
