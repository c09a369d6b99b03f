// The public v1 API, registered under /api/v1 as one encapsulated plugin: every answer of its routes, errors and
// unknown paths included, is in the v1 envelope (`{ data, meta }`, errors `{ error, meta }`), by its own handlers.
import { installErrorHandlers } from '../errors.ts';
import { v1OpenApi } from '../openapi-v1.ts';
import { registerRoute } from '../route.ts';
import type { App, RouteOptions } from '../types.ts';
import { companyWrites } from './companies/index.ts';
import { decisionWrites } from './decisions/index.ts';
import { epochWrites } from './epochs/index.ts';
import eventRoutes from './events/index.ts';
import { v1FortuneRoutes } from './fortune/index.ts';
import { tokenMarket, tokenWrites } from './tokens/index.ts';
import v1ReadRoutes from './v1-reads.ts';
import webhookRoutes from './webhooks/index.ts';

export default async function v1Routes(app: App, options: RouteOptions) {
  installErrorHandlers(app, 'v1');
  const routes = { deps: options.deps, reads: options.reads, chainHead: options.chainHead };
  for (const def of tokenMarket) registerRoute(app, routes, def, 'v1');
  await app.register(v1FortuneRoutes, routes);
  await app.register(eventRoutes, routes);
  await app.register(webhookRoutes, routes);
  await app.register(v1ReadRoutes, routes);
  // The signed writes of the internal routes, from the same definitions, in the v1 envelope with an API key beside
  // the signature (src/http/route.ts, docs/api/README.md "v1 writes").
  for (const def of [...companyWrites, ...tokenWrites, ...decisionWrites, ...epochWrites]) {
    registerRoute(app, routes, def, 'v1');
  }

  // The v1 routes' own OpenAPI document (src/http/openapi-v1.ts), public like the full one; cut once, on first read
  // (the routes are all known by then).
  let document: Record<string, unknown> | undefined;
  app.get('/openapi.json', { schema: { hide: true } }, async () => {
    document ??= v1OpenApi(app.swagger() as Record<string, unknown>);
    return document;
  });
}
