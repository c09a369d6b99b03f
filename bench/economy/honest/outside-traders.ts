// The outside market: wallets linked to no company that trade every launched token. At each slot each token sees a
// Poisson number of orders; a buy's size is log-normal (a few whales twenty times larger), a sale sells part of
// what the trader holds.
import type { Address } from 'viem';
import { buy, sell } from '../../../scripts/demo/market.ts';
import { type Actor, tolerant } from '../actor.ts';
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
      for (const { token } of world.tokens()) {
        const orders = rng.poisson(params.ordersPerSlot);
        for (let k = 0; k < orders; k++) {
          const trader = rng.pick(wallets);
          if (rng.next() < params.sellShare) {
            const share = BigInt(rng.int(20, 80));
            if (await tolerant(() => sell(world.ctx, trader, token as Address, share))) trades++;
            continue;
          }
          const whale = rng.next() < params.whaleShare ? 20 : 1;
          const size = Math.max(1, Math.round(rng.logNormal(params.medianUsdc, params.sigma) * whale));
          const cash = Number((await world.usdcOf(world.address(trader))) / 10n ** 6n);
          if (cash < size) continue;
          if (await tolerant(() => buy(world.ctx, trader, token as Address, size))) trades++;
        }
      }
    },
  };
}
