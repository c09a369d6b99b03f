// The agents family (docs/api/agents.md GET/POST /api/agents, GET/PUT/DELETE /api/agents/{id}) and the ERC-8004
// registration file GET /api/agents/{id}/registration.json. Reads are public; changes need the creator's wallet
// signature.
import { type AnyRoute, registerRoute } from '../../route.ts';
import type { App, RouteOptions } from '../../types.ts';
import create from './create.ts';
import detail from './detail.ts';
import list from './list.ts';
import registration from './registration.ts';
import terminate from './terminate.ts';
import update from './update.ts';

export default async function agentRoutes(app: App, options: RouteOptions) {
  const routes: AnyRoute[] = [list, detail, registration, create, update, terminate];
  for (const def of routes) registerRoute(app, options, def, 'internal');
}
