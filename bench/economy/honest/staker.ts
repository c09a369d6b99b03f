// An honest staker: a quiet company (its rounds, a small treasury, no token) whose creator also stakes primary tokens
// (log-normal, around 50,000) in the staking contract's pool 0 with its card's boost, harvests its emission on the
// last day of each epoch (before the midnight that ends it) and after the last day. The emission it and every other
// staker were paid is checked against what the contract accrued, at each epoch's end and at the end (emission.ts).

import { StakingAbi } from '@ai-economy/shared/abis';
import { send } from '../../../scripts/demo/context.ts';
import { nextMidnight } from '../../../scripts/demo/days-plan.ts';
import { units } from '../../../scripts/demo/units.ts';
import { chainTime } from '../../../src/chain/time.ts';
import type { Actor } from '../actor.ts';
import type { Rng } from '../rng.ts';
import { type Party, type SimCompany, STAKING_GAS, stake, type World } from '../world.ts';
import { QUIET_TREASURY_MEDIAN_USDC } from './quiet.ts';

export function staker(n: number, party: Party, rng: Rng): Actor {
  const tag = String(n).padStart(3, '0');
  let company: SimCompany | undefined;
  const harvest = async (world: World) => {
    if (!company) return;
    await send(world.ctx, company.plan.account, 'harvest the emission', {
      address: world.ctx.contracts.staking,
      abi: StakingAbi,
      functionName: 'harvest',
      args: [0n],
      gas: STAKING_GAS,
    });
  };
  return {
    party,
    async setup(world: World) {
      const tokens = Math.round(Math.min(Math.max(rng.logNormal(50_000, 0.7), 5_000), 500_000));
      [company] = await world.addCompanies(party, [
        {
          slug: `sim-staker-${tag}`,
          name: `Staking Desk ${tag}`,
          category: rng.pick(['DEFI_YIELD', 'MULTICHAIN'] as const),
          description: 'Stakes the primary token with its card and runs its rounds: a simulated honest staker.',
          treasuryUsdc: Math.round(Math.min(Math.max(rng.logNormal(QUIET_TREASURY_MEDIAN_USDC, 0.5), 500), 20_000)),
        },
      ]);
      const account = company!.plan.account;
      await world.fundPrimary(account, tokens);
      await stake(world, account, units(tokens, 18), { boost: true });
    },
    async startDay(world: World) {
      // The epoch's last day: its end is at or before this day's midnight.
      const { endTime } = await world.ctx.api.data('GET', '/api/epochs/current');
      const now = Number(await chainTime(world.ctx.client));
      if (Number(endTime) <= nextMidnight(now)) await harvest(world);
    },
    async finish(world: World) {
      await harvest(world);
    },
  };
}
