// Operational routes: GET /api/health (the dependencies, for dashboards and monitors), GET /api/live (liveness) and
// GET /api/ready (readiness; docs/operations.md), and GET /api/chain (docs/decisions.md "Service").
import { Type } from 'typebox';
import { createChainRoles } from '../../chain/chain-roles.ts';
import { chainDateForReads } from '../../chain/time.ts';
import { VERSION } from '../../version.ts';
import { ok } from '../envelope.ts';
import { internalErrors, internalOk } from '../schemas/common.ts';
import { ChainResponse, HealthResponse } from '../schemas/system.ts';
import type { ApiDeps, App, RouteOptions } from '../types.ts';

async function probe(check: () => Promise<unknown>, timeoutMs: number): Promise<'ok' | 'down'> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
      }),
    ]);
    return 'ok';
  } catch {
    return 'down';
  } finally {
    clearTimeout(timer);
  }
}

/** How long one answer of the dependency probe serves /api/health and /api/ready. */
export const PROBE_CACHE_MS = 1000;

async function healthOf(deps: ApiDeps) {
  const [db, chain] = await Promise.all([
    probe(() => deps.database.ping(), 3000),
    probe(() => deps.chain.publicClient.getBlockNumber({ cacheTime: 0 }), deps.config.rpcTimeoutMs),
  ]);
  const status = db === 'down' ? 'down' : chain === 'down' ? 'degraded' : 'ok';
  return { status, db, chain, version: VERSION } as const;
}

type Health = Awaited<ReturnType<typeof healthOf>>;

/**
 * The dependency probe of /api/health and /api/ready, asked at most once per PROBE_CACHE_MS whatever the request
 * rate: callers within that time share one probe (the one in flight, or its answer), so polling the routes never
 * turns into load on the database or the RPC provider.
 */
function createHealthProbe(deps: ApiDeps): () => Promise<Health> {
  let last: { at: number; health: Promise<Health> } | undefined;
  return () => {
    const now = performance.now();
    if (last === undefined || now - last.at >= PROBE_CACHE_MS) last = { at: now, health: healthOf(deps) };
    return last.health;
  };
}

const LiveResponse = internalOk(
  Type.Object({
    alive: Type.Literal(true),
    state: Type.Union([Type.Literal('starting'), Type.Literal('ready'), Type.Literal('stopping')]),
    uptimeSeconds: Type.Integer({ minimum: 0 }),
  }),
);

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

export default async function systemRoutes(app: App, { deps }: RouteOptions) {
  const probe = createHealthProbe(deps);
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

  const roles = createChainRoles(deps.chain);
  app.get(
    '/api/chain',
    {
      schema: {
        tags: ['system'],
        summary: 'The chain the platform runs on and its contract addresses',
        response: { 200: ChainResponse, ...internalErrors },
      },
    },
    async () => {
      const { chain } = deps;
      // CHAIN_RPC_URL may carry a provider key: a real chain's RPC is named only as PUBLIC_RPC_URL says.
      const rpcUrl = deps.config.publicRpcUrl ?? (chain.local ? chain.rpcUrl : undefined);
      return ok({
        chainId: chain.chainId,
        now: (await chainDateForReads(chain.publicClient)).toISOString(),
        ...(rpcUrl ? { rpcUrl } : {}),
        explorerUrl: chain.explorerUrl,
        contracts: chain.contracts,
        roles: await roles(),
      });
    },
  );
}
