// Late joiners and sybil cards: on day `joinDay` the attacker mints `cards` cards and creates as many companies,
// each with a filled profile, a C-suite running its rounds and `treasuryUsdc` held in a proven treasury until the
// end. joinDay 0 is the plain sybil (extra companies for the whole run); a late day is the last-day join that the
// epoch's whole-day rule closed. Cost: the cards, and the interest on the money held (capitalCost, report.ts).
// The money held is drawn within the honest field's range, at most what its median company holds
// (HONEST_FIELD_TREASURY_MEDIAN_USDC, honest/kinds.ts): money really held for the whole epoch is what the treasury
// score pays for, so a card holding more than the honest companies is a rich company, not an attack (borrowed money
// parked only around the snapshot is the parked-treasury strategy, which stays an attack). 0 is the pure sybil card.
import { type Actor, interest, type Strategy } from '../actor.ts';
import { HONEST_FIELD_TREASURY_MEDIAN_USDC } from '../honest/kinds.ts';
import type { Party, World } from '../world.ts';

type Params = { joinDay: number; cards: number; treasuryUsdc: number };

let made = 0;

export const lateJoiner: Strategy<Params> = {
  name: 'late-joiner',
  summary: 'cards bought late in the epoch (or at its start: sybils), each a company holding money in its treasury',
  grid: {
    joinDay: [0, 2, 4, 6],
    cards: [1, 2, 3],
    treasuryUsdc: [0, HONEST_FIELD_TREASURY_MEDIAN_USDC / 2, HONEST_FIELD_TREASURY_MEDIAN_USDC],
  },
  // Only a day the run reaches (joinDay 0 always does).
  fits: (params, days) => params.joinDay < days,
  // Each card is a company of the field: three sybil cards are three of its companies.
  cards: (params) => params.cards,
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
