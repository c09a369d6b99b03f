// GET /metrics: the process's Prometheus metrics in the text exposition format (docs/operations.md). Never
// rate-limited (scrapers); behind `Authorization: Bearer <METRICS_TOKEN>` when that is set, and in production only
// with it, or not at all on this port when METRICS_PORT is set (metricsExposure). Registered by hand: route() has no
// hidden route, no way to lift the rate limit, and no answer but JSON.
import { AppError } from '../../../errors.ts';
import { bearerMatches, metricsExposure } from '../../../metrics.ts';
import { BEARER_CHALLENGE } from '../../auth/index.ts';
import type { App, RouteOptions } from '../../types.ts';

export function registerMetrics(app: App, { deps }: RouteOptions) {
  const { metrics, config } = deps;
  if (!metricsExposure({ ...config, roles: new Set(['api']) }).onApi) return;
  app.get(
    '/metrics',
    {
      // Scrapers poll on a fixed interval from few addresses; a 429 would leave gaps in every series.
      config: { rateLimit: false },
      schema: {
        // For Prometheus, not for API clients: not in the OpenAPI document (docs/operations.md describes it).
        hide: true,
        tags: ['system'],
        summary: 'Prometheus metrics (text format 0.0.4); needs Authorization: Bearer <METRICS_TOKEN> when it is set',
      },
    },
    async (request, reply) => {
      if (config.metricsToken && !bearerMatches(request.headers.authorization, config.metricsToken)) {
        reply.header('www-authenticate', BEARER_CHALLENGE);
        throw new AppError(
          'UNAUTHORIZED',
          request.headers.authorization
            ? 'Invalid metrics token'
            : 'Missing metrics token: send Authorization: Bearer <METRICS_TOKEN>',
        );
      }
      const text = await metrics.render();
      return reply.type(metrics.contentType).send(text);
    },
  );
}
