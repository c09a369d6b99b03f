// An honest trading company: a token, a modest treasury, a master directive, and USDC its agents trade in their
// scheduled rounds (the agents' own buy rules decide what they buy): with custody, the service's default, they trade
// from the company's Safe, which is its treasury, so small limits size their trades as the demo's trading company
// does (1% of the Safe a trade, a daily notional near the USDC meant for trading); without, from the CFO's wallet.
import type { Actor } from '../actor.ts';
import type { Rng } from '../rng.ts';
import type { Party, World } from '../world.ts';

export function tradingCompany(n: number, party: Party, rng: Rng): Actor {
  const tag = String(n).padStart(3, '0');
  return {
    party,
    async setup(world: World) {
      const treasuryUsdc = Math.round(Math.min(Math.max(rng.logNormal(10_000, 0.5), 1_000), 100_000));
      const cfoUsdc = Math.round(Math.min(Math.max(rng.logNormal(300, 0.4), 100), 2_000));
      await world.addCompanies(party, [
        {
          slug: `sim-trader-${tag}`,
          name: `Trading Desk ${tag}`,
          category: rng.pick(['SPOT_TRADING', 'DERIVATIVES', 'PRE_MARKET'] as const),
          description: 'Trades the platform tokens with its agents: a simulated honest trading company.',
          treasuryUsdc,
          masterDirective: 'Trade only liquid tokens; never risk more than 5% of the wallet per trade.',
          token: { name: `Trading Desk ${tag}`, symbol: `T${tag}`, graduate: false, targetShare: 0 },
          cfoUsdc,
          limits: { maxTradeBps: 100, maxDailyNotionalUsdc: String(cfoUsdc) },
        },
      ]);
    },
  };
}
