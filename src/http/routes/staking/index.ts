// The staking family (docs/api/staking.md): live reads of the staking contract, pinned to one block and sent as one
// JSON-RPC batch (domain/staking/reads.ts), kept per block (block-reads.ts): repeated reads within one block make one
// batch, and a conditional request whose tag still matches is answered 304 without a call to the node. Public; the
// global rate limit applies; an RPC that does not answer, 503 CHAIN_UNAVAILABLE. Each read has a v1 twin
// (registered by v1.ts from the same definition).
import { ADDRESS_RULE } from '../../../address.ts';
import { badRequest } from '../../../errors.ts';
import { type AnyRoute, registerRoute } from '../../route.ts';
import type { App, RouteOptions } from '../../types.ts';
import position from './position.ts';
import stats from './stats.ts';

/** The family's reads, in the order the v1 document lists their twins. */
export const stakingReads: AnyRoute[] = [stats, position];

export default async function stakingRoutes(app: App, options: RouteOptions) {
  const answerPosition = registerRoute(app, options, position, 'internal');
  // Without these, an empty wallet (`/api/staking/position/`), one longer than the router's parameter limit or
  // one with a slash in it would be an unknown route (404), not a bad wallet.
  app.get('/api/staking/position', { schema: { hide: true } }, async () => {
    throw badRequest(`Missing wallet address; expected ${ADDRESS_RULE}`);
  });
  app.get<{ Params: { '*': string } }>('/api/staking/position/*', { schema: { hide: true } }, (request, reply) => {
    request.params = { wallet: request.params['*'] } as never;
    return answerPosition(request, reply);
  });
  registerRoute(app, options, stats, 'internal');
}
