// Who paid whom, token by token: every indexed trade of every launched token of the simulation
// (GET /api/companies/{id}/token/trades), grouped by the party its trader belongs to (an attacker's wallets, the
// outside market, a company's agents), each party's net USDC on that token (sale proceeds less purchases) plus
// what it still holds at the launcher's sale quote. On a curve these nets sum to minus the fees, so a party that
// ends up on a token took it from the others that lost on it. A token that graduated is different: the USDC its
// curve raised (about G/3, G the graduation threshold) went into its Uniswap v4 pool as liquidity nobody can ever
// withdraw, at half the curve's virtual depth, so its holders selling every token they bought back into the pool get
// at most two thirds of it: the nets then sum to minus the fees and what stays locked in the pool (up to G/9).

import { TokenLauncherAbi } from '@ai-economy/shared/abis';
import { type Address, erc20Abi } from 'viem';
import type { World } from './world.ts';

/** The pool hook's fee on every swap of a graduated token (PlatformFeeHook.FEE_BIPS; src/domain/tokens/quote.ts). */
export const POOL_FEE_BPS = 250n;

/**
 * The fee a trade paid, in USDC base units, from its indexed amount (`usdc`: paid on a buy, received on a sale, fees
 * included). On the curve (`CURVE`) the launcher's `curveFeeBps` in USDC: a buy's amount is the curve's part plus
 * the fee on it, a sale's the proceeds after the fee on the gross. In a graduated token's pool (`POOL`) the hook's
 * 2.5% instead, and no curve fee: a buy (exact input) pays it in tokens, 2.5% of what the pool gave, worth 2.5% of
 * the USDC paid at the trade's price; a sale pays it in USDC, 2.5% of the gross.
 */
export function tradeFee(side: 'buy' | 'sell', venue: 'CURVE' | 'POOL', usdc: bigint, curveFeeBps: bigint): bigint {
  if (venue === 'POOL')
    return side === 'buy' ? (usdc * POOL_FEE_BPS) / 10_000n : (usdc * POOL_FEE_BPS) / (10_000n - POOL_FEE_BPS);
  return side === 'buy'
    ? (usdc * curveFeeBps) / (10_000n + curveFeeBps)
    : (usdc * curveFeeBps) / (10_000n - curveFeeBps);
}

export interface TokenFlows {
  slug: string;
  symbol: string;
  /** Whether an honest company issued the token. */
  honestIssuer: boolean;
  /** Whole USDC per party name: its net on this token, what it holds valued at the sale quote. */
  pnlUsdc: Record<string, number>;
  /** Whole USDC per party name: the fees it paid on this token, the curve's and the pool's (part of its net above). */
  feesUsdc: Record<string, number>;
  /** Whether the token graduated into its pool by the end of the run. */
  graduated?: boolean;
  /** Whole USDC per party name: what it bought and sold on this token, on the curve and in the pool. */
  tradedUsdc?: Record<string, { curve: number; pool: number }>;
}

/** The party name of a trader that belongs to no party of the world: a company's agent wallet. */
export const agentsOf = (slug: string, honest: boolean) => `${honest ? 'honest' : 'attacker'} agents of ${slug}`;

const PAGE = 100;

/** Every trade of one company's token, oldest last (the route's order). */
async function allTrades(world: World, id: string) {
  const out: {
    side: 'buy' | 'sell';
    trader: string;
    usdcAmount: string;
    tokenAmount: string;
    venue?: 'CURVE' | 'POOL';
  }[] = [];
  for (let page = 1; ; page++) {
    const data = await world.ctx.api.data('GET', `/api/companies/${id}/token/trades?page=${page}&limit=${PAGE}`);
    out.push(...data.trades);
    if (!data.pagination.hasMore) return out;
  }
}

/** Addresses (lower case) to party names: every party's wallets, then every company's agents. */
async function owners(world: World): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const p of world.parties) for (const index of p.wallets) names.set(world.address(index).toLowerCase(), p.name);
  for (const c of world.companies) {
    const { agents } = await world.ctx.api.data('GET', `/api/companies/${c.plan.slug}`);
    for (const a of agents as { walletAddress?: string | null }[]) {
      if (a.walletAddress) names.set(a.walletAddress.toLowerCase(), agentsOf(c.plan.slug, c.party.honest));
    }
    // With custody the agents trade from the company's Safe.
    const safe = world.safeOf(c.plan.slug);
    if (safe) names.set(safe.toLowerCase(), agentsOf(c.plan.slug, c.party.honest));
  }
  return names;
}

export async function tokenFlows(world: World): Promise<TokenFlows[]> {
  const names = await owners(world);
  const feeBps = BigInt(
    await world.ctx.client.readContract({
      address: world.ctx.contracts.tokenLauncher,
      abi: TokenLauncherAbi,
      functionName: 'curveFeeBps',
    }),
  );
  const out: TokenFlows[] = [];
  for (const t of world.tokens()) {
    const net = new Map<string, bigint>();
    const fees = new Map<string, bigint>();
    const held = new Map<string, bigint>();
    const traded = new Map<string, { curve: bigint; pool: bigint }>();
    for (const trade of await allTrades(world, world.companyId(t.slug))) {
      const trader = trade.trader.toLowerCase();
      const usdc = BigInt(Math.round(Number(trade.usdcAmount) * 1e6));
      net.set(trader, (net.get(trader) ?? 0n) + (trade.side === 'sell' ? usdc : -usdc));
      const fee = tradeFee(trade.side, trade.venue ?? 'CURVE', usdc, feeBps);
      fees.set(trader, (fees.get(trader) ?? 0n) + fee);
      const volume = traded.get(trader) ?? { curve: 0n, pool: 0n };
      if (trade.venue === 'POOL') volume.pool += usdc;
      else volume.curve += usdc;
      traded.set(trader, volume);
    }
    for (const trader of net.keys()) {
      const balance = await world.ctx.client.readContract({
        address: t.token,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [trader as Address],
      });
      if (balance === 0n) continue;
      try {
        held.set(
          trader,
          await world.ctx.client.readContract({
            address: world.ctx.contracts.tokenLauncher,
            abi: TokenLauncherAbi,
            functionName: 'quoteSell',
            args: [t.token, balance],
          }),
        );
      } catch {
        // a sale the curve cannot quote is worth nothing here
      }
    }
    const byParty = new Map<string, bigint>();
    const feesByParty = new Map<string, bigint>();
    const tradedByParty = new Map<string, { curve: bigint; pool: bigint }>();
    for (const [trader, v] of net) {
      const name = names.get(trader) ?? 'unknown wallets';
      byParty.set(name, (byParty.get(name) ?? 0n) + v + (held.get(trader) ?? 0n));
      feesByParty.set(name, (feesByParty.get(name) ?? 0n) + (fees.get(trader) ?? 0n));
      const sum = tradedByParty.get(name) ?? { curve: 0n, pool: 0n };
      sum.curve += traded.get(trader)!.curve;
      sum.pool += traded.get(trader)!.pool;
      tradedByParty.set(name, sum);
    }
    const graduated = await world.ctx.client.readContract({
      address: world.ctx.contracts.tokenLauncher,
      abi: TokenLauncherAbi,
      functionName: 'graduated',
      args: [t.token],
    });
    out.push({
      slug: t.slug,
      symbol: t.symbol,
      honestIssuer: t.honest,
      pnlUsdc: wholeUsdc(byParty),
      feesUsdc: wholeUsdc(feesByParty),
      graduated,
      tradedUsdc: Object.fromEntries(
        [...tradedByParty].map(([k, v]) => [k, { curve: whole(v.curve), pool: whole(v.pool) }]),
      ),
    });
  }
  return out;
}

const whole = (v: bigint) => Math.round(Number(v) / 1e4) / 100;
const wholeUsdc = (m: Map<string, bigint>) => Object.fromEntries([...m].map(([k, v]) => [k, whole(v)]));

/** Sum of one party's figure over every token. */
export const partyTotal = (flows: TokenFlows[], party: string, field: 'pnlUsdc' | 'feesUsdc') =>
  Math.round(flows.reduce((sum, f) => sum + (f[field][party] ?? 0), 0) * 100) / 100;
