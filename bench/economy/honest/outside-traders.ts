// The outside market: wallets linked to no company that trade every launched token. At each slot each token sees a
// Poisson number of orders, each from a different trader; a buy's size is log-normal (a few whales twenty times
// larger), a sale sells part of what a trader who bought the token holds. A product's token (a builder's: a company
// with users, marked by `followProduct`) draws more orders than a token nobody uses: enough distinct traders in a
// day, weighed by money, that it passes the agents' buy rules (a token at least 24 h old, 10 outside traders in
// 24 h, at least 5 of them by money, no one trader over half of it: src/domain/trading/buy-window.ts) on most days,
// as a token with a real market does; a whale's day is one a single trader moved, and the rules leave it alone.
import type { Address } from 'viem';
import { buy, sell } from '../../../scripts/demo/market.ts';
import { type Actor, inParallel, tolerant } from '../actor.ts';
import type { Rng } from '../rng.ts';
import type { Party, World } from '../world.ts';

export interface MarketParams {
  traders: number;
  /** Mean orders per token and slot. */
  ordersPerSlot: number;
  /** Mean orders per slot of a product's token (followProduct). */
  productOrdersPerSlot: number;
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

/**
 * Forty traders, so a product's token can see ten distinct ones in a day without the same wallets counting twice;
 * a product's token draws seven orders a slot (two slots a day: about ten distinct traders over the 24 h a round
 * looks back, of which at 30% sales some sell), any other token 1.5.
 */
export const DEFAULT_MARKET: MarketParams = {
  traders: 40,
  ordersPerSlot: 1.5,
  productOrdersPerSlot: 7,
  medianUsdc: 40,
  sigma: 0.8,
  whaleShare: 0.05,
  sellShare: 0.3,
  walletUsdc: 3_000,
};

/** Per world, the company slugs whose tokens are products with users (a builder's). */
const products = new WeakMap<World, Set<string>>();

/** Marks the company's token as a product's: the outside market trades it as a token with users. */
export function followProduct(world: World, slug: string) {
  const set = products.get(world) ?? new Set<string>();
  products.set(world, set);
  set.add(slug);
}

export interface Order {
  trader: number;
  token: Address;
  /** Percent of the trader's holding sold. */
  sell?: bigint;
  buyUsdc?: number;
}

/**
 * One slot's orders (pure: the PRNG's draws in the tokens' order, by slug). Each token's orders come from distinct
 * traders; a sale comes from a trader who bought the token before (`holders`), a buy when none holds it.
 */
export function drawOrders(
  rng: Rng,
  params: MarketParams,
  wallets: readonly number[],
  tokens: readonly { slug: string; token: Address; product: boolean }[],
  holders: Map<Address, Set<number>>,
): Order[] {
  const orders: Order[] = [];
  for (const { token, product } of [...tokens].sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0))) {
    const count = Math.min(rng.poisson(product ? params.productOrdersPerSlot : params.ordersPerSlot), wallets.length);
    const free = [...wallets];
    const held = holders.get(token) ?? new Set<number>();
    for (let k = 0; k < count; k++) {
      const sells = held.size > 0 && rng.next() < params.sellShare;
      const pool = sells ? free.filter((w) => held.has(w)) : free;
      if (pool.length === 0) continue;
      const trader = rng.pick(pool);
      free.splice(free.indexOf(trader), 1);
      if (sells) {
        orders.push({ trader, token, sell: BigInt(rng.int(20, 80)) });
        continue;
      }
      const whale = rng.next() < params.whaleShare ? 20 : 1;
      const size = Math.max(1, Math.round(rng.logNormal(params.medianUsdc, params.sigma) * whale));
      orders.push({ trader, token, buyUsdc: size });
    }
  }
  return orders;
}

export function outsideTraders(
  party: Party,
  rng: Rng,
  params: MarketParams = DEFAULT_MARKET,
): Actor & {
  trades: () => number;
} {
  const wallets: number[] = [];
  const holders = new Map<Address, Set<number>>();
  let trades = 0;
  return {
    party,
    trades: () => trades,
    async setup(world: World) {
      for (let i = 0; i < params.traders; i++) wallets.push(await world.freshWallet(party, params.walletUsdc));
    },
    async slot(world: World) {
      const followed = products.get(world) ?? new Set<string>();
      const tokens = world.tokens().map((t) => ({ slug: t.slug, token: t.token, product: followed.has(t.slug) }));
      const orders = drawOrders(rng, params, wallets, tokens, holders);
      // In waves of orders of distinct traders and distinct tokens, each wave's orders at once: a wallet's trades one
      // at a time (two at once would take the same nonce), and a token's too (a buy quoted while another moved its
      // curve reverts on its 1% slippage bound: at once, a product's token lost about a third of its orders so).
      // Sequential, a 30-company run's slot took 86 s of its market here.
      for (const wave of waves(orders)) {
        await inParallel(wave, MARKET_LANES, async (o) => {
          if (o.sell !== undefined) {
            let sold = false;
            await tolerant(async () => {
              sold = await sell(world.ctx, o.trader, o.token, o.sell!);
            });
            if (sold) trades++;
            return;
          }
          const cash = Number((await world.usdcOf(world.address(o.trader))) / 10n ** 6n);
          if (cash < o.buyUsdc!) return;
          if (await tolerant(() => buy(world.ctx, o.trader, o.token, o.buyUsdc!))) {
            trades++;
            const held = holders.get(o.token) ?? new Set<number>();
            holders.set(o.token, held);
            held.add(o.trader);
          }
        });
      }
    },
  };
}

/**
 * The orders in waves (pure): each order goes to the first wave that has neither its trader nor its token, so a
 * wave's orders can be sent at once and each trader's and each token's stay in the drawn order.
 */
export function waves(orders: readonly Order[]): Order[][] {
  const out: { orders: Order[]; traders: Set<number>; tokens: Set<string> }[] = [];
  const lastOf = new Map<string, number>();
  for (const o of orders) {
    // After the trader's and the token's last wave, so their orders keep their order.
    const after = Math.max(lastOf.get(`t${o.trader}`) ?? -1, lastOf.get(o.token.toLowerCase()) ?? -1);
    let i = after + 1;
    while (i < out.length && (out[i]!.traders.has(o.trader) || out[i]!.tokens.has(o.token.toLowerCase()))) i++;
    if (i === out.length) out.push({ orders: [], traders: new Set(), tokens: new Set() });
    out[i]!.orders.push(o);
    out[i]!.traders.add(o.trader);
    out[i]!.tokens.add(o.token.toLowerCase());
    lastOf.set(`t${o.trader}`, i);
    lastOf.set(o.token.toLowerCase(), i);
  }
  return out.map((w) => w.orders);
}
