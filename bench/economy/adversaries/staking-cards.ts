// What the staking attacks share: a card minted straight from the access card (no company: the boost is all it is
// for), primary tokens staked with its boost, and the emission a stake earned beyond what the same stake earns at 1x
// (the boost's part: harvested x (effective - amount) / effective), which is all a card can buy in staking.

import { AccessCardAbi, StakingAbi } from '@ai-economy/shared/abis';
import { ensureAllowance, send } from '../../../scripts/demo/context.ts';
import { type Party, STAKING_GAS, type World } from '../world.ts';

/** A fresh wallet of the party that holds one card (its price funded, and 5 USDC to spare). */
export async function cardHolder(world: World, party: Party): Promise<number> {
  const price = await world.ctx.client.readContract({
    address: world.ctx.contracts.accessCard,
    abi: AccessCardAbi,
    functionName: 'mintPrice',
  });
  const index = await world.freshWallet(party, Number(price / 10n ** 6n) + 5);
  await ensureAllowance(world.ctx, index, world.ctx.contracts.usdc, world.ctx.contracts.accessCard, price);
  await send(world.ctx, index, 'mint a card', {
    address: world.ctx.contracts.accessCard,
    abi: AccessCardAbi,
    functionName: 'mint',
    args: [price],
  });
  return index;
}

/** Harvests wallet `index`'s emission; answers the part of it its boost earned (emission wei). */
export async function harvestBoost(world: World, index: number): Promise<bigint> {
  const staking = { address: world.ctx.contracts.staking, abi: StakingAbi } as const;
  const address = world.address(index);
  const [amount, effective] = await world.ctx.client.readContract({
    ...staking,
    functionName: 'userInfo',
    args: [0n, address],
  });
  const pending = await world.ctx.client.readContract({
    ...staking,
    functionName: 'pendingEmission',
    args: [0n, address],
  });
  if (pending > 0n) {
    await send(world.ctx, index, 'harvest', { ...staking, functionName: 'harvest', args: [0n], gas: STAKING_GAS });
  }
  return effective > 0n ? (pending * (effective - amount)) / effective : 0n;
}
