// An honest builder: a company with a real treasury (log-normal, around 20,000 USDC) that grows a little every day
// from its creator's own money, a token, and the C-suite's scheduled rounds. Its token is a product's, with users:
// the outside market trades it more than a token nobody uses (outside-traders.ts followProduct).

import { erc20Abi } from 'viem';
import { send } from '../../../scripts/demo/context.ts';
import { units } from '../../../scripts/demo/units.ts';
import type { Actor } from '../actor.ts';
import type { Rng } from '../rng.ts';
import type { Party, SimCompany, World } from '../world.ts';
import { followProduct } from './outside-traders.ts';

/** The builders' treasuries are log-normal around this median (whole USDC). */
export const BUILDER_TREASURY_MEDIAN_USDC = 20_000;

/** The treasury grows by this share of itself each day. */
const DAILY_GROWTH = 0.005;

export function builder(n: number, party: Party, rng: Rng, days: number): Actor {
  const treasuryUsdc = Math.round(Math.min(Math.max(rng.logNormal(BUILDER_TREASURY_MEDIAN_USDC, 0.6), 2_000), 200_000));
  const growth = Math.round(treasuryUsdc * DAILY_GROWTH);
  let company: SimCompany | undefined;
  const tag = String(n).padStart(3, '0');
  return {
    party,
    async setup(world: World) {
      [company] = await world.addCompanies(party, [
        {
          slug: `sim-builder-${tag}`,
          name: `Builder ${tag}`,
          category: rng.pick(['DEFI_YIELD', 'RWA', 'AI_TOKENS'] as const),
          description: 'Builds a product and keeps its treasury in the company: a simulated honest builder.',
          treasuryUsdc,
          token: { name: `Builder ${tag}`, symbol: `B${tag}`, graduate: false, targetShare: 0 },
        },
      ]);
      followProduct(world, company!.plan.slug);
      // The growth to come, sent to the creator now.
      await world.fund(party, company!.plan.account, growth * days);
    },
    async startDay(world: World) {
      if (!company || growth === 0) return;
      await send(world.ctx, company.plan.account, 'grow the treasury', {
        address: world.ctx.contracts.usdc,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [world.treasuryOf(company), units(growth, 6)],
      });
    },
  };
}
