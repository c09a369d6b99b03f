// A pooled card: a vault holds one card and stakes everyone's primary tokens under its own address, `pooledTokens`
// in all, so the card's multiplier would apply to the whole pool. The boost applies up to the tier's cap only
// (Staking.boostCap), so the pool earns what one holder staking the cap earns. Cost: the card; the pooled tokens are
// the depositors' and go back to them. Earned: the emission the boost added (emission tokens, not epoch rewards).

import { PrimaryTokenAbi, StakingAbi } from '@ai-economy/shared/abis';
import { send } from '../../../scripts/demo/context.ts';
import { units } from '../../../scripts/demo/units.ts';
import type { Actor, Strategy } from '../actor.ts';
import type { Party, World } from '../world.ts';
import { cardHolder, harvestBoost, STAKING_GAS } from './staking-cards.ts';

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
        const amount = units(params.pooledTokens, 18);
        await send(world.ctx, vault, 'approve the pool', {
          address: world.ctx.contracts.primaryToken,
          abi: PrimaryTokenAbi,
          functionName: 'approve',
          args: [world.ctx.contracts.staking, amount],
        });
        await send(world.ctx, vault, 'stake the pool with the card', {
          address: world.ctx.contracts.staking,
          abi: StakingAbi,
          functionName: 'depositAndBoost',
          args: [0n, amount],
          gas: STAKING_GAS,
        });
      },
      async finish(world: World) {
        if (vault !== undefined) party.earnedEmission += await harvestBoost(world, vault);
      },
    };
  },
};
