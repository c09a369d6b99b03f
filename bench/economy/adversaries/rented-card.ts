// A rented card: a staker with `stakeTokens` staked at 1x borrows a card for one transaction (the card's holder
// sends it, the staker refreshes its boost, sends it back), every `everyDays` days, hoping the boost outlives the
// loan. The access card tells the staking contract of every transfer, which ends the boost in that block, so the
// stake earns what 1x earns. Cost: the card (the lender is the attacker's own wallet). Earned: the emission its
// boost added (emission tokens).

import { AccessCardAbi, StakingAbi } from '@ai-economy/shared/abis';
import { encodeFunctionData } from 'viem';
import { type Ctx, send } from '../../../scripts/demo/context.ts';
import { units } from '../../../scripts/demo/units.ts';
import { gasLimit } from '../../../src/chain/outbox-reads.ts';
import type { Actor, Strategy } from '../actor.ts';
import { type Party, STAKING_GAS, stake, type World } from '../world.ts';
import { cardHolder, harvestBoost } from './staking-cards.ts';

type Params = { stakeTokens: number; everyDays: number };

export const rentedCard: Strategy<Params> = {
  name: 'rented-card',
  summary: 'a card lent to a staker for the one transaction that refreshes its boost (earns emission tokens)',
  grid: { stakeTokens: [100_000, 1_000_000], everyDays: [1, 3] },
  create(params: Params, party: Party): Actor {
    let lender: number | undefined;
    let stakerIndex: number | undefined;
    let cardId: bigint | undefined;
    const transfer = async (world: World, from: number, to: number) => lendCard(world.ctx, from, to, cardId!);
    return {
      party,
      async setup(world: World) {
        lender = await cardHolder(world, party);
        cardId = await world.ctx.client.readContract({
          address: world.ctx.contracts.accessCard,
          abi: AccessCardAbi,
          functionName: 'tokenOfOwnerByIndex',
          args: [world.address(lender), 0n],
        });
        stakerIndex = await world.freshWallet(party, 0);
        await world.fundPrimary(stakerIndex, params.stakeTokens);
        await stake(world, stakerIndex, units(params.stakeTokens, 18), { boost: false });
      },
      async startDay(world: World, day: number) {
        if (lender === undefined || stakerIndex === undefined || day % params.everyDays !== 0) return;
        await transfer(world, lender, stakerIndex);
        await send(world.ctx, stakerIndex, 'refresh the boost with the borrowed card', {
          address: world.ctx.contracts.staking,
          abi: StakingAbi,
          functionName: 'refreshBoost',
          args: [0n],
          gas: STAKING_GAS,
        });
        await transfer(world, stakerIndex, lender);
      },
      async finish(world: World) {
        if (stakerIndex !== undefined) party.earnedEmission += await harvestBoost(world, stakerIndex);
      },
    };
  },
};

/**
 * Account `from` sends card `cardId` to account `to`, with a gas limit made in the next block's conditions (the
 * outbox's, src/chain/outbox-reads.ts: 20% headroom). The access card reports the transfer to the staking contract,
 * and a card that boosts its sender's stake has the pool updated and the sender's emission banked: storage writes in a
 * block stamped later than the pool's last update (the staker's refreshBoost just before, when the card goes back),
 * nothing in that update's second. anvil's own estimate (viem's, for this local key) is made in the second it is asked
 * in, so a limit from it runs out of gas whenever the next second begins between the estimate and the transfer's block:
 * not seen in a simulation run, where the window is milliseconds, but reproduced by
 * test/chain/economy-sim-rented-card.test.ts.
 */
export async function lendCard(ctx: Ctx, from: number, to: number, cardId: bigint) {
  const request = {
    address: ctx.contracts.accessCard,
    abi: AccessCardAbi,
    functionName: 'transferFrom',
    args: [ctx.account(from).address, ctx.account(to).address, cardId],
  } as const;
  const data = encodeFunctionData(request);
  const gas = await gasLimit(ctx.client as Parameters<typeof gasLimit>[0], ctx.account(from).address, {
    to: request.address,
    data,
  });
  return send(ctx, from, 'lend the card', { ...request, gas });
}
