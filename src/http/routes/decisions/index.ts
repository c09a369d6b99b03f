// The decisions family (docs/api/decisions.md): a company's rounds and latest budget (with a v1 twin, registered by
// v1.ts from the same definition), running a round now (signed by the card's holder, under /api and /api/v1), one
// round, and verifying a round's hash on-chain.
import { type AnyRoute, registerRoute } from '../../route.ts';
import { registerSignedWrite, type SignedWrite } from '../../signed-writes.ts';
import type { ApiDeps, App, RouteOptions } from '../../types.ts';
import detail from './detail.ts';
import list from './list.ts';
import { runWrite } from './run.ts';
import verify from './verify.ts';

/** The family's reads with a v1 twin, in the order the v1 document lists the twins. */
export const decisionReads: AnyRoute[] = [list];

/** The family's signed writes, under /api here and under /api/v1 by v1.ts (signed-writes.ts). */
export const decisionWrites = (deps: ApiDeps, log: App['log']): SignedWrite[] => [runWrite(deps, log)];

export default async function decisionRoutes(app: App, options: RouteOptions) {
  registerRoute(app, options, list, 'internal');
  for (const write of decisionWrites(options.deps, app.log)) registerSignedWrite(app, options.deps, write, 'internal');
  registerRoute(app, options, detail, 'internal');
  registerRoute(app, options, verify, 'internal');
}
