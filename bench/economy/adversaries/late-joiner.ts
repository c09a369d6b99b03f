// Late joiners and sybil cards: on day `joinDay` the attacker mints `cards` cards and creates as many companies,
// each with a filled profile, a C-suite running its rounds and `treasuryUsdc` held in a proven treasury until the
// end. joinDay 0 is the plain sybil (extra companies for the whole run); a late day is the last-day join that the
// epoch's whole-day rule closed. Cost: the cards, and the interest on the money held.
import { type Actor, interest, type Strategy } from '../actor.ts';
import type { Party, World } from '../world.ts';

type Params = { joinDay: number; cards: number; treasuryUsdc: number };

let made = 0;

export const lateJoiner: Strategy<Params> = {
  name: 'late-joiner',
  summary: 'cards bought late in the epoch (or at its start: sybils), each a company holding money in its treasury',
  grid: { joinDay: [0, 2, 4, 6], cards: [1, 2, 3], treasuryUsdc: [0, 10_000, 50_000] },
  // Only a day the run reaches (joinDay 0 always does).
  fits: (params, days) => params.joinDay < days,
  create(params: Params, party: Party, _rng, days: number): Actor {
    return {
      party,
      async startDay(world: World, day: number) {
        if (day !== params.joinDay) return;
        const specs = Array.from({ length: params.cards }, () => {
          const tag = String(made++).padStart(3, '0');
          return {
            slug: `sim-late-${tag}`,
            name: `Late Joiner ${tag}`,
            category: 'AI_TOKENS' as const,
            description: 'Joins late with a full profile and money held for the snapshots.',
            treasuryUsdc: params.treasuryUsdc,
          };
        });
        await world.addCompanies(party, specs);
        party.financing += interest(params.treasuryUsdc * params.cards, days - params.joinDay);
      },
    };
  },
};
