// An honest trading company: a token, a modest treasury, a master directive, and USDC its agents trade in their
// scheduled rounds. Its category is SPOT_TRADING, the one whose built-in strategy trades on its own (momentum: the
// token that rose most over 24 h among those the buy rules let it buy, never its own; a stop loss at -10%, half sold
// at +15%: src/domain/engine/models/builtin/trading.ts); the other trading categories trade only what the owner
// directs, so before, two of three trading companies drew one that never traded. The platform's buy rules decide
// what it may buy (a token at least 24 h old, ten outside traders in 24 h, a buy at most 2% of the USDC behind the
// token): with custody, the service's default, its agents trade the company's Safe, which is its treasury, so its
// limits size its buys to the thin markets of young tokens, as a real desk's would: 1% of the Safe a trade, and a
// daily notional log-normal around 40 USDC, of which the strategy spends a quarter a buy (about 10 USDC, within 2%
// of a curve holding 500 USDC, what a product's token's market puts in it in a day or two).
import type { Actor } from '../actor.ts';
import type { Rng } from '../rng.ts';
import type { Party, World } from '../world.ts';

/** A trading company's treasury is log-normal around this median (whole USDC). */
export const TRADING_TREASURY_MEDIAN_USDC = 10_000;

export function tradingCompany(n: number, party: Party, rng: Rng): Actor {
  const tag = String(n).padStart(3, '0');
  return {
    party,
    async setup(world: World) {
      const treasuryUsdc = Math.round(
        Math.min(Math.max(rng.logNormal(TRADING_TREASURY_MEDIAN_USDC, 0.5), 1_000), 100_000),
      );
      const cfoUsdc = Math.round(Math.min(Math.max(rng.logNormal(300, 0.4), 100), 2_000));
      const dailyUsdc = Math.round(Math.min(Math.max(rng.logNormal(40, 0.3), 10), 150));
      await world.addCompanies(party, [
        {
          slug: `sim-trader-${tag}`,
          name: `Trading Desk ${tag}`,
          category: 'SPOT_TRADING',
          description: 'Trades the platform tokens with its agents: a simulated honest trading company.',
          treasuryUsdc,
          // It also names a token it waits for, not launched yet: what a directive squatter looks for
          // (adversaries/symbol-tricks.ts); a token launched after the directive named it is never bought for it.
          masterDirective: `Trade only liquid tokens; never risk more than 5% of the wallet per trade. Buy 20 USDC of N${tag} once it launches.`,
          token: { name: `Trading Desk ${tag}`, symbol: `T${tag}`, graduate: false, targetShare: 0 },
          cfoUsdc,
          limits: { maxTradeBps: 100, maxDailyNotionalUsdc: String(dailyUsdc) },
        },
      ]);
    },
  };
}
