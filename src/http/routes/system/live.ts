// GET /api/live (docs/operations.md): liveness, an orchestrator's probe. 200 while the process answers, whatever its
// database or chain do.
import { Type } from 'typebox';
import { ok } from '../../envelope.ts';
import { internalErrors, internalOk } from '../../schemas/common.ts';
import type { App, RouteOptions } from '../../types.ts';

const LiveResponse = internalOk(
  Type.Object({
    alive: Type.Literal(true),
    state: Type.Union([Type.Literal('starting'), Type.Literal('ready'), Type.Literal('stopping')]),
    uptimeSeconds: Type.Integer({ minimum: 0 }),
  }),
);

/** Registered by hand: route() has no hidden route and no way to lift the rate limit. */
export function registerLive(app: App, { deps }: RouteOptions) {
  app.get(
    '/api/live',
    {
      // Orchestrators probe every replica, often from one node address; a shared (Redis) limit would take healthy
      // replicas out of service. It asks no dependency, so it costs nothing to answer.
      config: { rateLimit: false },
      schema: {
        // An orchestrator's probe, like /api/ready (docs/operations.md).
        hide: true,
        tags: ['system'],
        summary: 'Liveness: 200 while the process answers, whatever its database or chain do',
        response: { 200: LiveResponse, ...internalErrors },
      },
    },
    // No dependency is asked: the pool and the chain client recover by themselves, so an outage of either must not
    // make an orchestrator restart healthy processes.
    async () => ok({ alive: true, state: deps.lifecycle.state, uptimeSeconds: Math.floor(process.uptime()) } as const),
  );
}
