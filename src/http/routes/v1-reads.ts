// The v1 twins of the internal reads, under /api/v1 with a key and the v1 envelope (registered by v1.ts), each from
// its family's route() definitions: a company's detail and decisions, a quote of a trade, a wallet's position and
// PnL, the reward epochs and staking; and the API changelog. Each answers what its internal twin answers (the same
// loader), so the two stay one data.
import { registerRoute } from '../route.ts';
import type { App, RouteOptions } from '../types.ts';
import { companyReads } from './companies/index.ts';
import { decisionReads } from './decisions/index.ts';
import { epochReads } from './epochs/index.ts';
import { stakingReads } from './staking/index.ts';
import { registerChangelog } from './system/index.ts';
import { tokenReads } from './tokens/index.ts';
import { walletReads } from './wallets/index.ts';

export default async function v1ReadRoutes(app: App, options: RouteOptions) {
  // The twins of the company, decision, token (a quote, a position), wallet, epoch and staking reads, from their
  // families' definitions, in the order the v1 document lists them.
  for (const def of [
    ...companyReads,
    ...decisionReads,
    ...tokenReads,
    ...walletReads,
    ...epochReads,
    ...stakingReads,
  ]) {
    registerRoute(app, options, def, 'v1');
  }
  registerChangelog(app);
}
