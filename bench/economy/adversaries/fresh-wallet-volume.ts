// Fresh-wallet volume: the attacker's company launches a token, and `wallets` fresh wallets linked to no company
// trade it every day for `usdcPerDay` in all: half of them buy while the other half sell what they bought the day
// before, so each leg counts on its day as a position change. Cost: the curve's fee and the price impact of every
// round trip, the card, and the interest on the treasury held.
import type { Address } from 'viem';
import { buy, sell } from '../../../scripts/demo/market.ts';
import { type Actor, inParallel, interest, type Strategy, tolerant } from '../actor.ts';
import type { Party, World } from '../world.ts';

type Params = { wallets: number; usdcPerDay: number; treasuryUsdc: number };

let made = 0;

export const freshWalletVolume: Strategy<Params> = {
  name: 'fresh-wallet-volume',
  summary: 'fresh wallets, none linked to the company, buy and sell its token daily for the volume score',
  grid: { wallets: [4, 10], usdcPerDay: [100, 400, 2_000], treasuryUsdc: [0, 10_000] },
  create(params: Params, party: Party, _rng, days: number): Actor {
    const wallets: number[] = [];
    let token: Address | undefined;
    const each = Math.max(1, Math.round(params.usdcPerDay / Math.ceil(params.wallets / 2)));
    const sellAll = async (world: World, index: number) => {
      if (token) await tolerant(() => sell(world.ctx, index, token!, 100n));
    };
    return {
      party,
      async setup(world: World) {
        const tag = String(made++).padStart(3, '0');
        const [company] = await world.addCompanies(party, [
          {
            slug: `sim-volume-${tag}`,
            name: `Volume Maker ${tag}`,
            category: 'SPOT_TRADING',
            description: 'A token whose volume comes from its own fresh wallets.',
            treasuryUsdc: params.treasuryUsdc,
            token: { name: `Volume Maker ${tag}`, symbol: `V${tag}`, graduate: false, targetShare: 0 },
          },
        ]);
        token = world.ctx.companies.get(company!.plan.slug).tokenAddress as Address;
        for (let i = 0; i < params.wallets; i++) wallets.push(await world.freshWallet(party, each * 2));
        party.financing += interest(params.treasuryUsdc, days);
      },
      async slot(world: World, day: number, slot: number) {
        if (slot !== 0 || !token) return;
        // Each wallet its own leg, all at once.
        await inParallel([...wallets.entries()], 6, async ([i, index]) => {
          if (i % 2 === day % 2) await tolerant(() => buy(world.ctx, index, token!, each));
          else await sellAll(world, index);
        });
      },
      async finish(world: World) {
        for (const index of wallets) await sellAll(world, index);
      },
    };
  },
};
