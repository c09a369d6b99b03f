// An honest staker: a quiet company (its rounds, a small treasury, no token) whose creator also stakes primary tokens
// (log-normal, around 50,000) in the staking contract's pool 0 with its card's boost, and harvests its emission after
// the last day. The emission it and every other staker were paid is checked against what the contract accrued
// (emission.ts).

import { PrimaryTokenAbi, StakingAbi } from '@ai-economy/shared/abis';
import { send } from '../../../scripts/demo/context.ts';
import { units } from '../../../scripts/demo/units.ts';
import type { Actor } from '../actor.ts';
import type { Rng } from '../rng.ts';
import type { Party, SimCompany, World } from '../world.ts';

export function staker(n: number, party: Party, rng: Rng): Actor {
  const tag = String(n).padStart(3, '0');
  let company: SimCompany | undefined;
  return {
    party,
    async setup(world: World) {
      const stake = Math.round(Math.min(Math.max(rng.logNormal(50_000, 0.7), 5_000), 500_000));
      [company] = await world.addCompanies(party, [
        {
          slug: `sim-staker-${tag}`,
          name: `Staking Desk ${tag}`,
          category: rng.pick(['DEFI_YIELD', 'MULTICHAIN'] as const),
          description: 'Stakes the primary token with its card and runs its rounds: a simulated honest staker.',
          treasuryUsdc: Math.round(Math.min(Math.max(rng.logNormal(3_000, 0.5), 500), 20_000)),
        },
      ]);
      const account = company!.plan.account;
      await world.fundPrimary(account, stake);
      const amount = units(stake, 18);
      await send(world.ctx, account, 'approve the primary token', {
        address: world.ctx.contracts.primaryToken,
        abi: PrimaryTokenAbi,
        functionName: 'approve',
        args: [world.ctx.contracts.staking, amount],
      });
      // A fixed gas limit: anvil's estimate can fall short for the boost's card scan (as the demo's).
      await send(world.ctx, account, 'stake with the card', {
        address: world.ctx.contracts.staking,
        abi: StakingAbi,
        functionName: 'depositAndBoost',
        args: [0n, amount],
        gas: 1_000_000n,
      });
    },
    async finish(world: World) {
      if (!company) return;
      await send(world.ctx, company.plan.account, 'harvest the emission', {
        address: world.ctx.contracts.staking,
        abi: StakingAbi,
        functionName: 'harvest',
        args: [0n],
        gas: 1_000_000n,
      });
    },
  };
}
