// An honest quiet company: no token, a small treasury, and nothing but its C-suite's scheduled rounds.
import type { Actor } from '../actor.ts';
import type { Rng } from '../rng.ts';
import type { Party, World } from '../world.ts';

/** A quiet company's treasury is log-normal around this median (whole USDC); a staker's company holds the same. */
export const QUIET_TREASURY_MEDIAN_USDC = 3_000;

export function quietCompany(n: number, party: Party, rng: Rng): Actor {
  const tag = String(n).padStart(3, '0');
  return {
    party,
    async setup(world: World) {
      await world.addCompanies(party, [
        {
          slug: `sim-quiet-${tag}`,
          name: `Quiet Works ${tag}`,
          category: rng.pick(['MULTICHAIN', 'RWA', 'AI_TOKENS'] as const),
          description: 'Runs its decision rounds and reports: a simulated quiet company.',
          treasuryUsdc: Math.round(Math.min(Math.max(rng.logNormal(QUIET_TREASURY_MEDIAN_USDC, 0.5), 500), 20_000)),
        },
      ]);
    },
  };
}
