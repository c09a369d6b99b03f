// Herding the platform's agents into a pumped token: the attacker's company launches a token, `wallets` fresh
// wallets each buy `walletUsdc` of it on the first day (a market of several traders by money, so the token passes
// the agents' buy rules once it is a day old), then on day 1 a pump wallet buys `pumpUsdc` (a top mover) and holds it
// `holdDays` days while the honest trading companies' agents may buy into it; then every wallet sells. What it
// takes from the agents shows in the report's attribution (who lost on its token). Cost: the card, the curve fees
// and the price impact of its own round trips.
import type { Address } from 'viem';
import { buy, sell } from '../../../scripts/demo/market.ts';
import { type Actor, type Strategy, tolerant } from '../actor.ts';
import type { Party, World } from '../world.ts';

type Params = { wallets: number; walletUsdc: number; pumpUsdc: number; holdDays: number };

let made = 0;

export const herding: Strategy<Params> = {
  name: 'herding',
  summary: "a token with a market of fresh wallets, pumped to the top of the movers while the agents' rounds run",
  grid: { wallets: [5, 10], walletUsdc: [100, 400], pumpUsdc: [1_000, 3_000], holdDays: [1, 3] },
  // The pump comes on day 1 and is sold `holdDays` later, within the run.
  fits: (params, days) => 1 + params.holdDays < days,
  create(params: Params, party: Party): Actor {
    const wallets: number[] = [];
    let pump: number | undefined;
    let token: Address | undefined;
    // A trade left out (its slippage bound) is logged: the run then traded less than its setting says.
    const dropped = (world: World, what: string) => (why: string) =>
      world.log(`${party.name}: ${what} left out: ${why}`);
    const sellAll = async (world: World) => {
      if (!token) return;
      for (const index of [...wallets, ...(pump === undefined ? [] : [pump])]) {
        await tolerant(() => sell(world.ctx, index, token!, 100n), dropped(world, `wallet ${index}'s sale`));
      }
    };
    return {
      party,
      async setup(world: World) {
        const tag = String(made++).padStart(3, '0');
        const [company] = await world.addCompanies(party, [
          {
            slug: `sim-herd-${tag}`,
            name: `Herd Magnet ${tag}`,
            category: 'AI_TOKENS',
            description: 'A token pumped where the agents look.',
            treasuryUsdc: 0,
            token: { name: `Herd Magnet ${tag}`, symbol: `H${tag}`, graduate: false, targetShare: 0 },
          },
        ]);
        token = world.ctx.companies.get(company!.plan.slug).tokenAddress as Address;
        for (let i = 0; i < params.wallets; i++) wallets.push(await world.freshWallet(party, params.walletUsdc + 1));
        pump = await world.freshWallet(party, params.pumpUsdc + 1);
      },
      async slot(world: World, day: number, slot: number) {
        if (!token || slot !== 0) return;
        if (day === 0)
          for (const index of wallets)
            await tolerant(
              () => buy(world.ctx, index, token!, params.walletUsdc),
              dropped(world, `wallet ${index}'s buy of ${params.walletUsdc} USDC`),
            );
        if (day === 1 && pump !== undefined)
          await tolerant(
            () => buy(world.ctx, pump!, token!, params.pumpUsdc),
            dropped(world, `the pump's buy of ${params.pumpUsdc} USDC`),
          );
        if (day === 1 + params.holdDays) await sellAll(world);
      },
      async finish(world: World) {
        await sellAll(world);
      },
    };
  },
};
