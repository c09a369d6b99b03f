// The epoch rewards family (docs/api/epochs.md): the running epoch read on-chain, a company's claimable rewards, a
// leaf's proof (each with a v1 twin, registered by v1.ts from the same definition), the claim (signed by the card's
// holder, under /api and /api/v1), and, with the scheduler's or the admin's secret, the distribution and the daily
// score snapshot on demand.
import { type AnyRoute, registerRoute } from '../../route.ts';
import type { App, RouteOptions } from '../../types.ts';
import claim from './claim.ts';
import claimable from './claimable.ts';
import current from './current.ts';
import distribute from './distribute.ts';
import proof from './proof.ts';
import scoreSnapshot from './score-snapshot.ts';

/** The family's reads with a v1 twin, in the order the v1 document lists the twins. */
export const epochReads: AnyRoute[] = [current, claimable, proof];

/** The family's signed writes, each with a v1 twin. */
export const epochWrites: AnyRoute[] = [claim];

export default async function epochRoutes(app: App, options: RouteOptions) {
  for (const def of [...epochReads, ...epochWrites, distribute, scoreSnapshot]) {
    registerRoute(app, options, def, 'internal');
  }
}
