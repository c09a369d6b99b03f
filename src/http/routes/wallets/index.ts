// The wallets family: what one wallet did and owns on the platform, for the web app's account and agent pages (its
// trades across every company token with its realised PnL over time, with a v1 twin registered by v1.ts from the same
// definition, and the companies it created), and the names of addresses. Public reads: all of it is on-chain or
// derived from the chain.
import { type AnyRoute, registerRoute } from '../../route.ts';
import type { App, RouteOptions } from '../../types.ts';
import companies from './companies.ts';
import names from './names.ts';
import trades from './trades.ts';

/** The family's reads with a v1 twin, in the order the v1 document lists the twins. */
export const walletReads: AnyRoute[] = [trades];

export default async function walletRoutes(app: App, options: RouteOptions) {
  for (const def of [trades, companies, names] as AnyRoute[]) registerRoute(app, options, def, 'internal');
}
