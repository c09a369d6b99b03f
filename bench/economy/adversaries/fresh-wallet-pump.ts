// A fresh wallet pumps what the company's agents hold: the attacker's company trades (a master directive, USDC in
// its Safe, `tradeBps` of it a trade), and at each trading slot a wallet linked to no company buys `pumpUsdc` of the
// token its agents hold most of (by cost), so their position shows a gain when their round sells it, for the trading
// score; the pump wallet sells back `holdSlots` slots later. The pumper's loss is the agents' gain (the owner's
// money either way): the cost is the curve's fees on the legs, and what the rest of the market paid or took on the
// price shows in the attribution. Without a position to pump, it buys nothing that slot.
import type { Address } from 'viem';
import { buy, sell } from '../../../scripts/demo/market.ts';
import { type Actor, interest, type Strategy, tolerant } from '../actor.ts';
import type { Party, SimCompany, World } from '../world.ts';

type Params = { pumpUsdc: number; holdSlots: number; tradeUsdc: number };

let made = 0;

export const freshWalletPump: Strategy<Params> = {
  name: 'fresh-wallet-pump',
  summary: "a wallet linked to no company pumps the token its company's agents hold, for the trading score",
  grid: { pumpUsdc: [500, 1_200, 3_000], holdSlots: [1, 2], tradeUsdc: [800, 2_000] },
  create(params: Params, party: Party, _rng, days: number): Actor {
    let company: SimCompany | undefined;
    let pumper: number | undefined;
    let slots = 0;
    const held: { token: Address; soldAt: number }[] = [];
    return {
      party,
      async setup(world: World) {
        const tag = String(made++).padStart(3, '0');
        [company] = await world.addCompanies(party, [
          {
            slug: `sim-pump-${tag}`,
            name: `Pump Desk ${tag}`,
            category: 'SPOT_TRADING',
            description: 'Trades the platform tokens while a wallet of its owner pumps what it holds.',
            treasuryUsdc: 0,
            masterDirective: 'Trade the most liquid tokens; take profits quickly.',
            cfoUsdc: params.tradeUsdc,
            limits: { maxTradeBps: 2_500, maxDailyNotionalUsdc: String(params.tradeUsdc) },
          },
        ]);
        pumper = await world.freshWallet(party, params.pumpUsdc * 2 * days + 5);
        party.financing += interest(params.tradeUsdc, days);
      },
      async slot(world: World) {
        if (!company || pumper === undefined) return;
        slots++;
        for (const h of held.filter((x) => x.soldAt === slots)) {
          await tolerant(() => sell(world.ctx, pumper!, h.token, 100n));
        }
        const { safe } = await world.ctx.api.data('GET', `/api/companies/${company.plan.slug}/portfolio`);
        const positions = ((safe?.positions ?? []) as { token: Address; balance: string; costUsdc: string }[])
          .filter((p) => Number(p.balance) > 0)
          .sort((a, b) => Number(b.costUsdc) - Number(a.costUsdc));
        const target = positions[0];
        if (!target) return;
        if (await tolerant(() => buy(world.ctx, pumper!, target.token, params.pumpUsdc))) {
          held.push({ token: target.token, soldAt: slots + params.holdSlots });
        }
      },
      async finish(world: World) {
        if (pumper === undefined) return;
        for (const h of held) await tolerant(() => sell(world.ctx, pumper!, h.token, 100n));
      },
    };
  },
};
