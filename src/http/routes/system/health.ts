// GET /api/health (docs/operations.md): the dependencies (database, chain) and the version, for dashboards and
// monitors; 503 when the database does not answer.
import { Type } from 'typebox';
import { ok } from '../../envelope.ts';
import { internalErrors, internalOk } from '../../schemas/common.ts';
import type { App, RouteOptions } from '../../types.ts';
import type { Health } from './probe.ts';

export const HealthData = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded'), Type.Literal('down')], {
    description: 'ok: database and chain answer; degraded: the chain does not; down: the database does not',
  }),
  db: Type.Union([Type.Literal('ok'), Type.Literal('down')]),
  chain: Type.Union([Type.Literal('ok'), Type.Literal('down')]),
  version: Type.String(),
});
export const HealthResponse = internalOk(HealthData);

/** Registered by hand: route() has no answer but 200 and no rate limit of the route's own. */
export function registerHealth(app: App, { deps }: RouteOptions, probe: () => Promise<Health>) {
  app.get(
    '/api/health',
    {
      // Monitors poll it, so it has a budget of its own (HEALTH_RATE_LIMIT_MAX per window and client), apart from the
      // API's; past it, 429 like any route. The answer is the shared probe's, so no rate reaches the dependencies.
      config: {
        rateLimit: { max: deps.config.healthRateLimitMax, timeWindow: deps.config.rateLimitWindowMs },
        rateLimitPolicy: 'health',
      },
      schema: {
        tags: ['system'],
        summary: 'The dependencies (database, chain) and the version: 503 when the database does not answer',
        response: { 200: HealthResponse, 503: HealthResponse, ...internalErrors },
      },
    },
    async (_request, reply) => {
      const health = await probe();
      return reply.status(health.db === 'ok' ? 200 : 503).send(ok(health));
    },
  );
}
