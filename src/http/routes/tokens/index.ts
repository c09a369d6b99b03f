// The company-token family (docs/api/tokens.md): the launch (signed by the card's holder, with a v1 twin), the token's
// status, candles, trades, holders, the token board and a wallet's position under /api, and under /api/v1 with a key
// the token's detail, the board, candles, trades and the trade feed, a quote and a position (registered by v1.ts,
// the twins from the same definitions as their internal routes).
import { sharedMarketStats } from '../../../domain/tokens/market.ts';
import { sharedTokenPages, TOKEN_PAGE_TABLES } from '../../../domain/tokens/queries.ts';
import { type AnyRoute, registerRoute } from '../../route.ts';
import type { App, RouteOptions } from '../../types.ts';
import candles from './candles.ts';
import companyTrades from './company-trades.ts';
import detail from './detail.ts';
import feed from './feed.ts';
import holders from './holders.ts';
import launch from './launch.ts';
import list from './list.ts';
import { marketsOf } from './market.ts';
import position from './position.ts';
import quote from './quote.ts';
import status from './status.ts';
import trades from './trades.ts';

/** The token market under /api/v1, in the order the v1 document lists it. */
export const tokenMarket: AnyRoute[] = [detail, list, candles, companyTrades, feed];

/** A quote and a position under /api/v1, listed by the v1 document after a company's decisions. */
export const tokenReads: AnyRoute[] = [quote, position];

/** The family's signed writes, each with a v1 twin. */
export const tokenWrites: AnyRoute[] = [launch];

export default async function tokenRoutes(app: App, options: RouteOptions) {
  marketsOf(options.deps).reader = sharedMarketStats(options.reads.changesOf(['token_trades']));
  marketsOf(options.deps).pages = sharedTokenPages(options.reads.changesOf(TOKEN_PAGE_TABLES));
  for (const def of [launch, status, candles, trades, holders, list, position] as AnyRoute[]) {
    registerRoute(app, options, def, 'internal');
  }
}
