// The decisions family (docs/api/decisions.md): a company's rounds and latest budget (with a v1 twin, registered by
// v1.ts from the same definition), running a round now (signed by the card's holder, under /api and /api/v1), one
// round, and verifying a round's hash on-chain.
import { type AnyRoute, registerRoute } from '../../route.ts';
import type { App, RouteOptions } from '../../types.ts';
import detail from './detail.ts';
import list from './list.ts';
import run from './run.ts';
import verify from './verify.ts';

/** The family's reads with a v1 twin, in the order the v1 document lists the twins. */
export const decisionReads: AnyRoute[] = [list];

/** The family's signed writes, each with a v1 twin. */
export const decisionWrites: AnyRoute[] = [run];

export default async function decisionRoutes(app: App, options: RouteOptions) {
  for (const def of [list, run, detail, verify] as AnyRoute[]) registerRoute(app, options, def, 'internal');
}
