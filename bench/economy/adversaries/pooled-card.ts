// A pooled card: a vault holds one card and stakes everyone's primary tokens under its own address, `pooledTokens`
// in all, so the card's multiplier would apply to the whole pool. The boost applies up to the tier's cap only
// (Staking.boostCap), so the pool earns what one holder staking the cap earns. Cost: the card; the pooled tokens are
// the depositors' and go back to them. Earned: the emission the boost added (emission tokens, not epoch rewards).

import { units } from '../../../scripts/demo/units.ts';
import type { Actor, Strategy } from '../actor.ts';
import { type Party, stake, type World } from '../world.ts';
import { cardHolder, harvestBoost } from './staking-cards.ts';

type Params = { pooledTokens: number };

export const pooledCard: Strategy<Params> = {
  name: 'pooled-card',
  summary: "one card's boost over a vault's pooled stake (earns emission tokens, counted as its tokens)",
  grid: { pooledTokens: [500_000, 1_000_000, 3_000_000] },
  create(params: Params, party: Party): Actor {
    let vault: number | undefined;
    return {
      party,
      async setup(world: World) {
        vault = await cardHolder(world, party);
        await world.fundPrimary(vault, params.pooledTokens);
        await stake(world, vault, units(params.pooledTokens, 18), { boost: true });
      },
      async finish(world: World) {
        if (vault !== undefined) party.earnedEmission += await harvestBoost(world, vault);
      },
    };
  },
};
