// The dependency probe of GET /api/health and GET /api/ready: the database and the chain, each asked with a timeout,
// the answer shared by the callers of one PROBE_CACHE_MS.
import { VERSION } from '../../../version.ts';
import type { ApiDeps } from '../../types.ts';

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

export type Health = Awaited<ReturnType<typeof healthOf>>;

/**
 * The dependency probe of /api/health and /api/ready, asked at most once per PROBE_CACHE_MS whatever the request
 * rate: callers within that time share one probe (the one in flight, or its answer), so polling the routes never
 * turns into load on the database or the RPC provider.
 */
export function createHealthProbe(deps: ApiDeps): () => Promise<Health> {
  let last: { at: number; health: Promise<Health> } | undefined;
  return () => {
    const now = performance.now();
    if (last === undefined || now - last.at >= PROBE_CACHE_MS) last = { at: now, health: healthOf(deps) };
    return last.health;
  };
}
