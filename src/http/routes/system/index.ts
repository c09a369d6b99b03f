// The system family: the operational routes, GET /api/health (the dependencies, for dashboards and monitors),
// GET /api/live (liveness) and GET /api/ready (readiness; docs/operations.md), GET /api/chain (docs/decisions.md
// "Service") and GET /metrics (Prometheus); and, under /api/v1 (registered by v1.ts), the API changelog.
import { registerRoute } from '../../route.ts';
import type { App, RouteOptions } from '../../types.ts';
import chain from './chain.ts';
import { registerHealth } from './health.ts';
import { registerLive } from './live.ts';
import { registerMetrics } from './metrics.ts';
import { createHealthProbe } from './probe.ts';
import { registerReady } from './ready.ts';

export { registerChangelog } from './changelog.ts';

export default async function systemRoutes(app: App, options: RouteOptions) {
  // One probe for health and readiness: polling either never asks the dependencies more than once a second.
  const probe = createHealthProbe(options.deps);
  registerHealth(app, options, probe);
  registerLive(app, options);
  registerReady(app, options, probe);
  registerRoute(app, options, chain, 'internal');
  registerMetrics(app, options);
}
