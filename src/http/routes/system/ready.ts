// GET /api/ready (docs/operations.md): readiness, an orchestrator's probe. 503 until start-up finished, while
// shutting down, or while the database does not answer.
import { Type } from 'typebox';
import { ok } from '../../envelope.ts';
import { internalErrors, internalOk } from '../../schemas/common.ts';
import type { ApiDeps, App, RouteOptions } from '../../types.ts';
import type { Health } from './probe.ts';

const ReadyResponse = internalOk(
  Type.Object({
    ready: Type.Boolean(),
    state: Type.Union([Type.Literal('starting'), Type.Literal('ready'), Type.Literal('stopping')], {
      description: 'starting: start-up not finished; stopping: shutting down (draining)',
    }),
    db: Type.Union([Type.Literal('ok'), Type.Literal('down')]),
    chain: Type.Union([Type.Literal('ok'), Type.Literal('down')], {
      description: 'Reported only: a chain outage answers 503 CHAIN_UNAVAILABLE on the routes that need it',
    }),
  }),
);

/**
 * Ready when start-up finished (migrations, contracts, the event reader), the process is not shutting down, and the
 * database answers. The chain is reported but not required: every replica shares one RPC, so failing readiness on
 * it would take the whole API out of the load balancer instead of the chain routes alone.
 */
async function readinessOf(deps: ApiDeps, probe: () => Promise<Health>) {
  const state = deps.lifecycle.state;
  const health = await probe();
  return { ready: state === 'ready' && health.db === 'ok', state, db: health.db, chain: health.chain };
}

/** Registered by hand: route() has no answer but 200, no hidden route and no way to lift the rate limit. */
export function registerReady(app: App, { deps }: RouteOptions, probe: () => Promise<Health>) {
  app.get(
    '/api/ready',
    {
      // Not limited, as /api/live: the dependencies are asked through the shared probe, at most once a second.
      config: { rateLimit: false },
      schema: {
        // An orchestrator's probe, not part of the API contract (docs/operations.md); 503 is one of its answers.
        hide: true,
        tags: ['system'],
        summary: 'Readiness: 503 until start-up finished, while shutting down, or while the database does not answer',
        response: { 200: ReadyResponse, 503: ReadyResponse, ...internalErrors },
      },
    },
    async (_request, reply) => {
      const readiness = await readinessOf(deps, probe);
      return reply.status(readiness.ready ? 200 : 503).send(ok(readiness));
    },
  );
}
