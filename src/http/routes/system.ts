// Operational routes: GET /api/health and GET /api/chain (DESIGN.md "Routes added").
import type { Container } from '../../container.ts';
import { VERSION } from '../../version.ts';
import { ok } from '../envelope.ts';
import { internalErrors } from '../schemas/common.ts';
import { ChainResponse, HealthResponse } from '../schemas/system.ts';
import type { App, RouteOptions } from '../types.ts';

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

export async function healthOf(container: Container) {
  const [db, chain] = await Promise.all([
    probe(() => container.database.ping(), 3000),
    probe(() => container.chain.publicClient.getBlockNumber({ cacheTime: 0 }), container.config.rpcTimeoutMs),
  ]);
  const status = db === 'down' ? 'down' : chain === 'down' ? 'degraded' : 'ok';
  return { status, db, chain, version: VERSION } as const;
}

export default async function systemRoutes(app: App, { container }: RouteOptions) {
  app.get(
    '/api/health',
    {
      // Load balancers and orchestrators poll health; it must never answer 429.
      config: { rateLimit: false },
      schema: {
        tags: ['system'],
        summary: 'Liveness and dependencies: 503 when the database does not answer',
        response: { 200: HealthResponse, 503: HealthResponse, ...internalErrors },
      },
    },
    async (_request, reply) => {
      const health = await healthOf(container);
      return reply.status(health.db === 'ok' ? 200 : 503).send(ok(health));
    },
  );

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
      const { chain } = container;
      return ok({
        chainId: chain.chainId,
        ...(chain.local ? { rpcUrl: chain.rpcUrl } : {}),
        explorerUrl: chain.explorerUrl,
        contracts: chain.contracts,
      });
    },
  );
}
