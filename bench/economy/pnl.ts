// Who paid: the honest companies' agents' PnL (GET /api/companies/{id}/portfolio: realised and unrealised, at
// average cost, its agents' wallets and, with custody, its Safe, summed by the route) and the outside market's, its wallets' USDC plus what their tokens would sell for now on the
// launcher (quoteSell), against the USDC they were given.
import { TokenLauncherAbi } from '@ai-economy/shared/abis';
import type { World } from './world.ts';

export async function honestAgentsPnl(world: World): Promise<{ realizedUsdc: number; unrealizedUsdc: number }> {
  let realizedUsdc = 0;
  let unrealizedUsdc = 0;
  for (const c of world.companies.filter((x) => x.party.honest)) {
    const { totals } = await world.ctx.api.data('GET', `/api/companies/${c.plan.slug}/portfolio`);
    realizedUsdc += Number(totals.realizedPnlUsdc);
    unrealizedUsdc += Number(totals.unrealizedPnlUsdc);
  }
  return { realizedUsdc: round(realizedUsdc), unrealizedUsdc: round(unrealizedUsdc) };
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
