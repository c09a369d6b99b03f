// Borrowed money held for a day (or hours): on each day the attacker borrows `usdc`, parks it in its company's
// proven treasury `hours` hours before the chain's midnight and takes it back just after the snapshot's day ends,
// hoping the day's treasury score counts it whole. The treasury is time-weighted over the day, so money parked for
// h hours counts h/24 of itself: exactly what holding it costs. Cost: the card, and the loan's interest for the
// hours it is held (CAPITAL_RATE_PER_YEAR, report.ts). With custody (the service's default) the treasury is the company's Safe: the money
// goes in by a plain transfer and comes back by the card holder's Safe withdrawal; without, the treasury is an
// address of the creator's.
import { erc20Abi } from 'viem';
import { send } from '../../../scripts/demo/context.ts';
import { treasuryIndex } from '../../../scripts/demo/plan.ts';
import { units } from '../../../scripts/demo/units.ts';
import { type Actor, interest, type Strategy } from '../actor.ts';
import type { Party, SimCompany, World } from '../world.ts';

type Params = { usdc: number; hours: number };

let made = 0;

export const parkedTreasury: Strategy<Params> = {
  name: 'parked-treasury',
  summary: 'money borrowed for hours and parked in the treasury before each snapshot, for the treasury score',
  grid: { usdc: [50_000, 250_000], hours: [6, 18] },
  create(params: Params, party: Party): Actor {
    let company: SimCompany | undefined;
    let parked = false;
    const treasury = () => treasuryIndex(company!.plan.account);
    return {
      party,
      async setup(world: World) {
        const tag = String(made++).padStart(3, '0');
        [company] = await world.addCompanies(party, [
          {
            slug: `sim-parked-${tag}`,
            name: `Parked Money ${tag}`,
            category: 'DEFI_YIELD',
            description: 'Parks borrowed money in its treasury for the hours before each snapshot.',
            treasuryUsdc: 0,
          },
        ]);
        // The loan, held by the creator between parkings; gas for the treasury, which sends it back.
        await world.fund(party, company!.plan.account, params.usdc);
        await world.fund(party, treasury(), 0);
      },
      async startDay(world: World) {
        // Just past midnight: the day before is over, the money goes back to the creator.
        if (!company || !parked) return;
        const creator = world.address(company.plan.account);
        if (world.safeOf(company.plan.slug)) await world.withdrawFromSafe(company, params.usdc, creator);
        else {
          await send(world.ctx, treasury(), 'take the parked money back', {
            address: world.ctx.contracts.usdc,
            abi: erc20Abi,
            functionName: 'transfer',
            args: [creator, units(params.usdc, 6)],
          });
        }
        parked = false;
      },
      async slot(world: World, _day: number, slot: number) {
        // The slots are at 06:00 and 18:00: park at the one that leaves `hours` hours to midnight.
        if (!company || parked || (params.hours >= 12 ? slot !== 0 : slot !== 1)) return;
        await send(world.ctx, company.plan.account, 'park the borrowed money', {
          address: world.ctx.contracts.usdc,
          abi: erc20Abi,
          functionName: 'transfer',
          args: [world.treasuryOf(company), units(params.usdc, 6)],
        });
        parked = true;
        party.financing += interest(params.usdc, params.hours / 24);
      },
      async finish(world: World) {
        await this.startDay?.(world, 0);
      },
    };
  },
};
