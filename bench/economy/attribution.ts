// Who paid whom, token by token: every indexed trade of every launched token of the simulation
// (GET /api/companies/{id}/token/trades), grouped by the party its trader belongs to (an attacker's wallets, the
// outside market, a company's agents), each party's net USDC on that token (sale proceeds less purchases) plus
// what it still holds at the launcher's sale quote. On one curve these nets sum to minus the fees and what the
// curve keeps, so a party that ends up on a token took it from the others that lost on it.

import { TokenLauncherAbi } from '@ai-economy/shared/abis';
import { type Address, erc20Abi } from 'viem';
import type { World } from './world.ts';

export interface TokenFlows {
  slug: string;
  symbol: string;
  /** Whether an honest company issued the token. */
  honestIssuer: boolean;
  /** Whole USDC per party name: its net on this token, what it holds valued at the sale quote. */
  pnlUsdc: Record<string, number>;
  /** Whole USDC per party name: the curve fees it paid on this token (part of its net above). */
  feesUsdc: Record<string, number>;
}

/** The party name of a trader that belongs to no party of the world: a company's agent wallet. */
export const agentsOf = (slug: string, honest: boolean) => `${honest ? 'honest' : 'attacker'} agents of ${slug}`;

const PAGE = 100;

/** Every trade of one company's token, oldest last (the route's order). */
async function allTrades(world: World, id: string) {
  const out: { side: 'buy' | 'sell'; trader: string; usdcAmount: string; tokenAmount: string }[] = [];
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
    for (const trade of await allTrades(world, world.companyId(t.slug))) {
      const trader = trade.trader.toLowerCase();
      const usdc = BigInt(Math.round(Number(trade.usdcAmount) * 1e6));
      net.set(trader, (net.get(trader) ?? 0n) + (trade.side === 'sell' ? usdc : -usdc));
      // A buy's amount is the curve's part plus the fee on it; a sale's is the proceeds after the fee on the gross.
      const fee = trade.side === 'buy' ? (usdc * feeBps) / (10_000n + feeBps) : (usdc * feeBps) / (10_000n - feeBps);
      fees.set(trader, (fees.get(trader) ?? 0n) + fee);
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
    for (const [trader, v] of net) {
      const name = names.get(trader) ?? 'unknown wallets';
      byParty.set(name, (byParty.get(name) ?? 0n) + v + (held.get(trader) ?? 0n));
      feesByParty.set(name, (feesByParty.get(name) ?? 0n) + (fees.get(trader) ?? 0n));
    }
    out.push({
      slug: t.slug,
      symbol: t.symbol,
      honestIssuer: t.honest,
      pnlUsdc: wholeUsdc(byParty),
      feesUsdc: wholeUsdc(feesByParty),
    });
  }
  return out;
}

const wholeUsdc = (m: Map<string, bigint>) =>
  Object.fromEntries([...m].map(([k, v]) => [k, Math.round(Number(v) / 1e4) / 100]));

/** Sum of one party's figure over every token. */
export const partyTotal = (flows: TokenFlows[], party: string, field: 'pnlUsdc' | 'feesUsdc') =>
  Math.round(flows.reduce((sum, f) => sum + (f[field][party] ?? 0), 0) * 100) / 100;
