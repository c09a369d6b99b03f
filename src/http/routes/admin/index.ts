// The admin family (Authorization: Bearer ADMIN_SECRET): API keys, so `npm run cli -- api-keys ...` works while the
// service holds the embedded database (PGlite admits one process). Rate-limited like every route; the key is in the
// body of the creation's answer only, and never logged.
import { type AnyRoute, registerRoute } from '../../route.ts';
import type { App, RouteOptions } from '../../types.ts';
import createApiKey from './create-api-key.ts';
import listApiKeys from './list-api-keys.ts';
import revokeApiKey from './revoke-api-key.ts';

export default async function adminRoutes(app: App, options: RouteOptions) {
  const routes: AnyRoute[] = [createApiKey, listApiKeys, revokeApiKey];
  for (const def of routes) registerRoute(app, options, def, 'internal');
}
