// The built-in model's trading (docs/api/decisions.md "Built-in strategies"): what the CFO does with its own
// wallet and what the CRO vetoes, from the round's context alone, so the same context always trades the same way.
//   HUMAN_DIRECTED     the owner's prompt, read for "buy 50 USDC of SPRNT", "sell all SPRNT", "sell 10 SPRNT",
//                      "stake all", "stake 100", "unstake all", "harvest"; the code's limits still apply.
//   SPOT_TRADING       momentum on the platform's tokens: sell a position that lost 10% (stop loss) or half of one
//                      that gained 15% (take profit); else buy the token that rose most over 24 h among those the
//                      buy rules let it buy (old enough, a market of outside traders weighed by money, not moved
//                      by one wallet, not bought by the company in the cool-off; never the company's own token),
//                      ranked by the change one trader cannot make alone, with half of what the per-trade limit
//                      allows (the liquidity shares and the stop-loss cool-off are checked when it runs).
//   DEFI_YIELD         stake the primary token the wallet holds (up to the per-trade limit) and harvest the emission.
//   other categories   no trading unless the owner directs it.
// The CRO vetoes buys of any token that fell 20% or more in 24 h.
import { formatUnits, parseUnits } from 'viem';
import { TRADE_TOOLS, VETO_TOOL } from '../../../../constants.ts';
import type { AgentWalletState, Role, RoleAnswer, RoundContext, ToolSpec } from '../types.ts';

type Proposal = RoleAnswer['proposals'][number];

const TRADING = new Set<string>([...TRADE_TOOLS, VETO_TOOL]);

/** Whether a tool is one the trading strategies propose (the generic tool picker leaves them alone). */
export const isTradingTool = (name: string) => TRADING.has(name);

const STOP_LOSS_PCT = 10;
const TAKE_PROFIT_PCT = 15;
const CRASH_PCT = 20;
const MIN_BUY_USDC = 1_000_000n; // 1 USDC

const usdc = (v: bigint) => formatUnits(v, 6);
const units = (v: bigint) => formatUnits(v, 18);
const big = (decimal: string, decimals: number) => {
  try {
    return parseUnits(decimal, decimals);
  } catch {
    return 0n;
  }
};

export function tradingProposals(role: Role, tools: ToolSpec[], context: RoundContext): Proposal[] {
  const offered = new Set(tools.map((t) => t.name));
  const can = (name: string) => offered.has(name);
  if (role === 'CRO') return can(VETO_TOOL) ? vetoes(context) : [];
  if (role !== 'CFO') return [];
  const wallet = context.wallets.find((w) => w.role === 'CFO');
  if (!wallet) return [];
  const { autonomyLevel, ceoPrompt, masterDirective } = context.company;
  const human = autonomyLevel === 'HUMAN_DIRECTED' ? (ceoPrompt ?? masterDirective) : null;
  const proposals = human
    ? instructed(human)
    : context.company.category === 'SPOT_TRADING'
      ? momentum(context, wallet)
      : context.company.category === 'DEFI_YIELD'
        ? yieldFarming(context, wallet)
        : [];
  return proposals.filter((p) => can(p.tool)).slice(0, 2);
}

function vetoes(context: RoundContext): Proposal[] {
  return context.market
    .filter((m) => m.change24hPct <= -CRASH_PCT)
    .slice(0, 2)
    .map((m) => ({
      tool: VETO_TOOL,
      args: { tool: 'buy_token', token: m.symbol, reason: `${m.symbol} fell ${-m.change24hPct}% in 24 h` },
      rationale: `No buying into ${m.symbol} while it falls: ${m.change24hPct}% over 24 h.`,
    }));
}

/** A decimal amount cut to `decimals` places (what the tools' patterns allow). */
const cut = (amount: string, decimals: number) => {
  const [whole, fraction = ''] = amount.split('.');
  const f = fraction.slice(0, decimals).replace(/0+$/, '');
  return f ? `${whole}.${f}` : whole!;
};

/** The owner's standing instructions, in the order written. */
export function instructed(text: string): Proposal[] {
  const found: { at: number; proposal: Proposal }[] = [];
  const why = `The owner directs it: "${text.length > 120 ? `${text.slice(0, 117)}...` : text}".`;
  for (const m of text.matchAll(/\bbuy\s+(\d+(?:\.\d+)?)\s*usdc\s+(?:of|in|worth of)\s+\$?([a-z0-9]{2,10})\b/gi)) {
    const args = { token: m[2]!.toUpperCase(), usdc: cut(m[1]!, 6) };
    found.push({ at: m.index, proposal: { tool: 'buy_token', args, rationale: why } });
  }
  for (const m of text.matchAll(/\bsell\s+(all|\d+(?:\.\d+)?)\s+(?:of\s+)?\$?([a-z0-9]{2,10})\b/gi)) {
    const amount = m[1]!.toLowerCase() === 'all' ? 'all' : cut(m[1]!, 18);
    found.push({
      at: m.index,
      proposal: { tool: 'sell_token', args: { token: m[2]!.toUpperCase(), amount }, rationale: why },
    });
  }
  for (const m of text.matchAll(/\b(un)?stake\s+(all|\d+(?:\.\d+)?)/gi)) {
    const amount = m[2]!.toLowerCase() === 'all' ? 'all' : cut(m[2]!, 18);
    const tool = m[1] ? 'unstake_primary' : 'stake_primary';
    found.push({ at: m.index, proposal: { tool, args: { amount }, rationale: why } });
  }
  const harvest = /\bharvest\b/i.exec(text);
  if (harvest) found.push({ at: harvest.index, proposal: { tool: 'harvest_emission', args: {}, rationale: why } });
  return found.sort((a, b) => a.at - b.at).map((f) => f.proposal);
}

function momentum(context: RoundContext, wallet: AgentWalletState): Proposal[] {
  const proposals: Proposal[] = [];
  for (const p of wallet.positions) {
    const cost = big(p.costUsdc, 6);
    const value = big(p.valueUsdc, 6);
    const tokens = big(p.tokens, 18);
    if (cost === 0n || tokens === 0n) continue;
    const changePct = Number(((value - cost) * 10_000n) / cost) / 100;
    if (changePct <= -STOP_LOSS_PCT) {
      proposals.push({
        tool: 'sell_token',
        args: { token: p.symbol, amount: 'all' },
        rationale: `Stop loss: ${p.symbol} is ${-changePct}% below what it cost (${p.costUsdc} USDC).`,
      });
    } else if (changePct >= TAKE_PROFIT_PCT) {
      proposals.push({
        tool: 'sell_token',
        args: { token: p.symbol, amount: units(tokens / 2n) },
        rationale: `Take profit: ${p.symbol} is up ${changePct}% on its cost; selling half locks it in.`,
      });
    }
  }
  const cash = big(wallet.usdc, 6);
  const limits = context.limits;
  const perTrade = (cash * BigInt(limits.maxTradeBps)) / 10_000n / 2n;
  const room = big(limits.maxDailyNotionalUsdc, 6) / 4n;
  const spend = perTrade < room ? perTrade : room;
  const own = context.token.symbol;
  const stopped = new Set(proposals.filter((p) => p.args.amount === 'all').map((p) => p.args.token));
  const mover = context.market
    .filter(
      (m) =>
        m.symbol !== own && !stopped.has(m.symbol) && m.buyable && m.broadChange24hPct > 0 && m.status !== 'PRE_PUBLIC',
    )
    // Ranked by the change one trader cannot make alone.
    .sort((a, b) => b.broadChange24hPct - a.broadChange24hPct || (a.symbol < b.symbol ? -1 : 1))[0];
  const held = mover && wallet.positions.find((p) => p.symbol === mover.symbol);
  const positionRoom = big(limits.maxPositionUsdc, 6) - (held ? big(held.valueUsdc, 6) : 0n);
  const amount = spend < positionRoom ? spend : positionRoom;
  if (mover && amount >= MIN_BUY_USDC) {
    proposals.push({
      tool: 'buy_token',
      args: { token: mover.symbol, usdc: usdc(amount) },
      rationale: `Momentum: ${mover.symbol} is up ${mover.change24hPct}% over ${mover.trades24h} trades by ${mover.traders24h} traders in 24 h; ${usdc(amount)} USDC is half of what one trade may use.`,
    });
  }
  return proposals;
}

function yieldFarming(context: RoundContext, wallet: AgentWalletState): Proposal[] {
  const proposals: Proposal[] = [];
  const primary = big(wallet.primary, 18);
  const stake = (primary * BigInt(context.limits.maxTradeBps)) / 10_000n;
  if (stake > 0n) {
    proposals.push({
      tool: 'stake_primary',
      args: { amount: units(stake) },
      rationale: `Put idle primary tokens to work: stake ${units(stake)} of the ${wallet.primary} held to earn the emission.`,
    });
  }
  if (big(wallet.pendingEmission, 18) > 0n) {
    proposals.push({
      tool: 'harvest_emission',
      args: {},
      rationale: `Harvest the ${wallet.pendingEmission} emission tokens the stake has earned.`,
    });
  }
  return proposals;
}
