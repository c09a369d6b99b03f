// The outside market: wallets linked to no company that trade every launched token. At each slot each token sees a
// Poisson number of orders; a buy's size is log-normal (a few whales twenty times larger), a sale sells part of
// what the trader holds.
import type { Address } from 'viem';
import { buy, sell } from '../../../scripts/demo/market.ts';
import { type Actor, inParallel, tolerant } from '../actor.ts';
import type { Rng } from '../rng.ts';
import type { Party, World } from '../world.ts';

export interface MarketParams {
  traders: number;
  /** Mean orders per token and slot. */
  ordersPerSlot: number;
  /** Median buy in whole USDC, and the log-scale spread. */
  medianUsdc: number;
  sigma: number;
  whaleShare: number;
  sellShare: number;
  /** Whole USDC each trader starts with. */
  walletUsdc: number;
}

/** Traders sending their orders at once. */
const MARKET_LANES = 6;

export const DEFAULT_MARKET: MarketParams = {
  traders: 12,
  ordersPerSlot: 1.5,
  medianUsdc: 40,
  sigma: 0.8,
  whaleShare: 0.05,
  sellShare: 0.3,
  walletUsdc: 3_000,
};

export function outsideTraders(
  party: Party,
  rng: Rng,
  params: MarketParams = DEFAULT_MARKET,
): Actor & {
  trades: () => number;
} {
  const wallets: number[] = [];
  let trades = 0;
  return {
    party,
    trades: () => trades,
    async setup(world: World) {
      for (let i = 0; i < params.traders; i++) wallets.push(await world.freshWallet(party, params.walletUsdc));
    },
    async slot(world: World) {
      // The slot's orders are drawn first, token by token in the PRNG's order; then every trader sends its own in
      // that order while the other traders send theirs at the same time (a wallet's trades one at a time: two at
      // once would take the same nonce). Sequential, a 30-company run's slot took 86 s of its market here.
      const orders: { trader: number; token: Address; sell?: bigint; buyUsdc?: number }[] = [];
      for (const { token } of world.tokens()) {
        const count = rng.poisson(params.ordersPerSlot);
        for (let k = 0; k < count; k++) {
          const trader = rng.pick(wallets);
          if (rng.next() < params.sellShare) {
            orders.push({ trader, token: token as Address, sell: BigInt(rng.int(20, 80)) });
            continue;
          }
          const whale = rng.next() < params.whaleShare ? 20 : 1;
          const size = Math.max(1, Math.round(rng.logNormal(params.medianUsdc, params.sigma) * whale));
          orders.push({ trader, token: token as Address, buyUsdc: size });
        }
      }
      const byTrader = new Map<number, typeof orders>();
      for (const o of orders) byTrader.set(o.trader, [...(byTrader.get(o.trader) ?? []), o]);
      await inParallel([...byTrader.values()], MARKET_LANES, async (mine) => {
        for (const o of mine) {
          if (o.sell !== undefined) {
            if (await tolerant(() => sell(world.ctx, o.trader, o.token, o.sell!))) trades++;
            continue;
          }
          const cash = Number((await world.usdcOf(world.address(o.trader))) / 10n ** 6n);
          if (cash < o.buyUsdc!) continue;
          if (await tolerant(() => buy(world.ctx, o.trader, o.token, o.buyUsdc!))) trades++;
        }
      });
    },
  };
}
