// An honest trading company: a token, a modest treasury, a master directive, and a CFO wallet with USDC that its
// agents trade in their scheduled rounds (the agents' own buy rules decide what they buy).
import type { Actor } from '../actor.ts';
import type { Rng } from '../rng.ts';
import type { Party, World } from '../world.ts';

export function tradingCompany(n: number, party: Party, rng: Rng): Actor {
  const tag = String(n).padStart(3, '0');
  return {
    party,
    async setup(world: World) {
      await world.addCompanies(party, [
        {
          slug: `sim-trader-${tag}`,
          name: `Trading Desk ${tag}`,
          category: rng.pick(['SPOT_TRADING', 'DERIVATIVES', 'PRE_MARKET'] as const),
          description: 'Trades the platform tokens with its agents: a simulated honest trading company.',
          treasuryUsdc: Math.round(Math.min(Math.max(rng.logNormal(10_000, 0.5), 1_000), 100_000)),
          masterDirective: 'Trade only liquid tokens; never risk more than 5% of the wallet per trade.',
          token: { name: `Trading Desk ${tag}`, symbol: `T${tag}`, graduate: false, targetShare: 0 },
          cfoUsdc: Math.round(Math.min(Math.max(rng.logNormal(300, 0.4), 100), 2_000)),
        },
      ]);
    },
  };
}
