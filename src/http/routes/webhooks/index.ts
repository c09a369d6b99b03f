// Webhook endpoints of the calling API key under /api/v1/webhooks (docs/api/webhooks.md): create, list, read, rotate
// the secret, disable and enable, and the deliveries and attempts of an endpoint. Registered by v1.ts.
import { type AnyRoute, registerRoute } from '../../route.ts';
import type { App, RouteOptions } from '../../types.ts';
import attempts from './attempts.ts';
import create from './create.ts';
import deliveries from './deliveries.ts';
import detail from './detail.ts';
import list from './list.ts';
import rotateSecret from './rotate-secret.ts';
import { disable, enable } from './status.ts';

export default async function webhookRoutes(app: App, options: RouteOptions) {
  const routes: AnyRoute[] = [create, list, detail, rotateSecret, disable, enable, deliveries, attempts];
  for (const def of routes) registerRoute(app, options, def, 'v1');
}
