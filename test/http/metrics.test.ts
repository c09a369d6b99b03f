// GET /metrics (Prometheus text format: the HTTP histogram by route pattern, SSE gauges, RPC errors, process
// defaults; METRICS_TOKEN) and GET /api/ready (readiness apart from liveness).
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onChain } from '../../src/chain/errors.ts';
import { AppError, chainUnavailable } from '../../src/errors.ts';
import { ok } from '../../src/http/envelope.ts';
import { PROBE_CACHE_MS } from '../../src/http/routes/system/probe.ts';
import { runStartupJobs } from '../../src/jobs/scheduler.ts';
import { countingRpcErrors, createMetrics, metricsExposure, serveMetrics } from '../../src/metrics.ts';
import { startTestApp, type TestApp, useTestApp } from '../helpers/app.ts';
import { primaryTestDatabase } from '../helpers/db.ts';
import { openStream } from '../helpers/sse-client.ts';

const TIMEOUT_MS = 500;

const t = useTestApp({
  chain: { timeoutMs: TIMEOUT_MS, own: true },
  env: { RPC_TIMEOUT_MS: String(TIMEOUT_MS) },
  extraRoutes: (app, container) => {
    app.get('/api/probe/block', async () =>
      ok({ block: (await onChain(() => container.chain.publicClient.getBlockNumber({ cacheTime: 0 }))).toString() }),
    );
  },
});

async function scrape(app: TestApp['app'] = t.app, headers: Record<string, string> = {}) {
  const res = await app.inject({ method: 'GET', url: '/metrics', headers });
  expect(res.statusCode).toBe(200);
  return res.body;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The value of one sample, its labels given in the order the registry prints them; undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const rendered = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .join(',');
  const pattern = new RegExp(`^${escapeRe(name)}${rendered ? escapeRe(`{${rendered}}`) : ''} (\\S+)$`, 'm');
  const m = pattern.exec(text);
  return m ? Number(m[1]) : undefined;
}

describe('GET /metrics', () => {
  it('answers the Prometheus text format with the service series and the process defaults', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    for (const name of [
      'http_request_duration_seconds',
      'aie_sse_connections',
      'aie_sse_clients',
      'aie_indexer_lag_blocks',
      'aie_indexer_seconds_since_poll',
      'aie_job_duration_seconds',
      'aie_job_failures_total',
      'aie_rpc_errors_total',
      'process_cpu_user_seconds_total',
      'nodejs_eventloop_lag_seconds',
    ]) {
      expect(res.body).toContain(`# TYPE ${name} `);
    }
    expect(sample(res.body, 'aie_rpc_errors_total', { source: 'http' })).toBe(0);
  });

  it('is never rate-limited', async () => {
    const limited = await startTestApp({
      database: t.database,
      chain: t.chain,
      env: { RATE_LIMIT_MAX: '2' },
    });
    try {
      for (let i = 0; i < 5; i++) await scrape(limited.app);
    } finally {
      await limited.close();
    }
  });

  it('records a request under its route pattern and status class, never the raw URL', async () => {
    const url = '/api/nft/metadata/4242';
    const before = sample(await scrape(), 'http_request_duration_seconds_count', {
      method: 'GET',
      route: '/api/nft/metadata/:tokenId',
      status_class: '2xx',
    });
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/nft/metadata/0' })).statusCode).toBe(400);
    await t.app.inject({ method: 'GET', url: '/api/no-such-route/123' });
    const text = await scrape();
    expect(
      sample(text, 'http_request_duration_seconds_count', {
        method: 'GET',
        route: '/api/nft/metadata/:tokenId',
        status_class: '2xx',
      }),
    ).toBe((before ?? 0) + 1);
    expect(
      sample(text, 'http_request_duration_seconds_count', {
        method: 'GET',
        route: '/api/nft/metadata/:tokenId',
        status_class: '4xx',
      }),
    ).toBe(1);
    expect(
      sample(text, 'http_request_duration_seconds_bucket', {
        le: '+Inf',
        method: 'GET',
        route: '/api/nft/metadata/:tokenId',
        status_class: '2xx',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'http_request_duration_seconds_count', {
        method: 'GET',
        route: 'unmatched',
        status_class: '4xx',
      }),
    ).toBeGreaterThanOrEqual(1);
    // The path's values never become labels (a number may still occur in a sample's value).
    const labels = [...text.matchAll(/\{[^}]*\}/g)].map((m) => m[0]).join('\n');
    expect(labels).toContain('/api/nft/metadata/:tokenId');
    expect(labels).not.toContain('4242');
    expect(text).not.toContain('no-such-route');
  });

  it('reports the open event streams of the hub, read on each scrape', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    expect(sample(await scrape(), 'aie_sse_connections')).toBe(0);
    const streams = await Promise.all([1, 2].map(() => openStream(`${base}/api/v1/events`)));
    try {
      for (const s of streams) {
        expect(s.status).toBe(200);
        await s.waitFor(1, (m) => m.event === 'connected');
      }
      const text = await scrape();
      expect(sample(text, 'aie_sse_connections')).toBe(2);
      expect(sample(text, 'aie_sse_clients')).toBe(1);
    } finally {
      for (const s of streams) s.close();
    }
    await Promise.all(streams.map((s) => s.ended));
    await expect.poll(async () => sample(await scrape(), 'aie_sse_connections')).toBe(0);
  });

  it('reports each followed stream lag, and job runs with their outcome', async () => {
    const metrics = createMetrics({ defaultMetrics: false });
    let lag: bigint | undefined;
    metrics.watchFollower({ name: 'access-card-transfers', lag: () => lag });
    expect(await metrics.render()).not.toContain('aie_indexer_lag_blocks{');
    lag = 12n;
    expect(sample(await metrics.render(), 'aie_indexer_lag_blocks', { stream: 'access-card-transfers' })).toBe(12);
    // The time since the last successful poll grows while polls fail (an RPC outage), where the lag holds still.
    metrics.watchFollower({ name: 'token-trades', lag: () => 0n, lastPolledAt: () => Date.now() - 90_000 });
    expect(
      sample(await metrics.render(), 'aie_indexer_seconds_since_poll', { stream: 'token-trades' }),
    ).toBeGreaterThanOrEqual(90);
    expect(await metrics.render()).not.toContain('aie_indexer_seconds_since_poll{stream="access-card-transfers"}');
    metrics.observeJob('settle-outbox', 0.2, 'ok');
    metrics.observeJob('settle-outbox', 0.1, 'failed');
    const text = await metrics.render();
    expect(sample(text, 'aie_job_duration_seconds_count', { job: 'settle-outbox', outcome: 'ok' })).toBe(1);
    expect(sample(text, 'aie_job_failures_total', { job: 'settle-outbox' })).toBe(1);
  });
});

describe('jobs and background loops', () => {
  it('records each start-up job run with its duration and outcome', async () => {
    const errors: object[] = [];
    await runStartupJobs(t.container, { debug: () => {}, error: (o) => errors.push(o) });
    const text = await scrape();
    for (const job of ['settle-outbox', 'repair-card-locks', 'score-snapshot']) {
      const runs =
        (sample(text, 'aie_job_duration_seconds_count', { job, outcome: 'ok' }) ?? 0) +
        (sample(text, 'aie_job_duration_seconds_count', { job, outcome: 'failed' }) ?? 0);
      expect(runs).toBe(1);
    }
    expect(sample(text, 'aie_job_failures_total', { job: 'settle-outbox' }) ?? 0).toBe(
      errors.filter((e) => (e as { job?: string }).job === 'settle-outbox').length,
    );
  });

  it('counts the CHAIN_UNAVAILABLE failures a follower or the engine logs, and nothing else', async () => {
    const metrics = createMetrics({ defaultMetrics: false });
    const logged: string[] = [];
    const log = countingRpcErrors(
      { debug: (_o, m) => logged.push(m), warn: (_o, m) => logged.push(m) },
      metrics,
      'indexer',
    );
    log.warn({ err: chainUnavailable(new Error('timeout')) }, 'chain RPC unavailable; log follower retries');
    log.warn({ err: new AppError('BAD_REQUEST', 'no') }, 'log follower poll failed; retries');
    log.warn({ err: new Error('relation missing') }, 'log follower poll failed; retries');
    log.debug({}, 'applied chain logs');
    expect(logged).toHaveLength(4);
    const text = await metrics.render();
    expect(sample(text, 'aie_rpc_errors_total', { source: 'indexer' })).toBe(1);
    expect(sample(text, 'aie_rpc_errors_total', { source: 'http' })).toBe(0);
  });

  it('serves /metrics alone on its own port for processes without the api role', async () => {
    const metrics = createMetrics({ defaultMetrics: false });
    const server = await serveMetrics(metrics, { host: '127.0.0.1', port: 0, token: 'tok' });
    try {
      const base = `http://127.0.0.1:${server.port}`;
      expect((await fetch(`${base}/metrics`)).status).toBe(401);
      expect((await fetch(`${base}/api/health`)).status).toBe(404);
      const res = await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer tok' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect(await res.text()).toContain('# TYPE aie_indexer_lag_blocks gauge');
    } finally {
      await server.close();
    }
  });
});

describe('METRICS_TOKEN', () => {
  let guarded: TestApp;
  beforeAll(async () => {
    guarded = await startTestApp({ database: t.database, chain: t.chain, env: { METRICS_TOKEN: 'scrape-secret' } });
  });
  afterAll(async () => {
    await guarded?.close();
  });

  it('asks for the bearer token when it is set', async () => {
    const none = await guarded.app.inject({ method: 'GET', url: '/metrics' });
    expect(none.statusCode).toBe(401);
    expect(none.json().error.code).toBe('UNAUTHORIZED');
    const wrong = await guarded.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer nope' },
    });
    expect(wrong.statusCode).toBe(401);
    const text = await scrape(guarded.app, { authorization: 'Bearer scrape-secret' });
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
  });
});

describe('in production', () => {
  const production = (env: Record<string, string>) =>
    startTestApp({ database: t.database, chain: t.chain, env: { NODE_ENV: 'production', ...env } });

  it('is not served on the API port without METRICS_TOKEN', async () => {
    const app = await production({});
    try {
      const res = await app.app.inject({ method: 'GET', url: '/metrics' });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('http_request_duration_seconds');
    } finally {
      await app.close();
    }
  });

  it('needs METRICS_TOKEN on the API port when it is set', async () => {
    const app = await production({ METRICS_TOKEN: 'scrape-secret' });
    try {
      expect((await app.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
      expect(await scrape(app.app, { authorization: 'Bearer scrape-secret' })).toContain('# TYPE');
    } finally {
      await app.close();
    }
  });

  it('is served only on METRICS_PORT when that is set, even with a token', async () => {
    const app = await production({ METRICS_TOKEN: 'scrape-secret', METRICS_PORT: '9464' });
    try {
      const res = await app.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: 'Bearer scrape-secret' },
      });
      expect(res.statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });

  it('metricsExposure: where each kind of process serves /metrics', () => {
    const api = new Set(['api', 'indexer']);
    const indexer = new Set(['indexer']);
    const of = (nodeEnv: string, roles: Set<string>, metricsToken?: string, metricsPort?: number) =>
      metricsExposure({ nodeEnv, roles, metricsToken, metricsPort });
    expect(of('development', api)).toEqual({ onApi: true, port: undefined, hidden: undefined });
    expect(of('development', indexer, undefined, 9464)).toEqual({ onApi: false, port: 9464, hidden: undefined });
    expect(of('production', api, 'tok')).toEqual({ onApi: true, port: undefined, hidden: undefined });
    expect(of('production', api, 'tok', 9464)).toEqual({ onApi: false, port: 9464, hidden: undefined });
    expect(of('production', api, undefined, 9464)).toEqual({ onApi: false, port: 9464, hidden: undefined });
    expect(of('production', indexer, 'tok', 9464)).toEqual({ onApi: false, port: 9464, hidden: undefined });
    const nowhere = of('production', api);
    expect(nowhere).toMatchObject({ onApi: false, port: undefined });
    expect(nowhere.hidden).toMatch(/METRICS_TOKEN .* or METRICS_PORT/);
  });
});

describe('GET /api/ready', () => {
  it('answers 503 until start-up finished, 200 once ready, 503 again while stopping', async () => {
    const app = await startTestApp({ database: t.database, chain: t.chain });
    try {
      const starting = await app.app.inject({ method: 'GET', url: '/api/ready' });
      expect(starting.statusCode).toBe(503);
      expect(starting.json()).toEqual({
        success: true,
        data: { ready: false, state: 'starting', db: 'ok', chain: 'ok' },
      });
      app.container.lifecycle.state = 'ready';
      const ready = await app.app.inject({ method: 'GET', url: '/api/ready' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json().data).toEqual({ ready: true, state: 'ready', db: 'ok', chain: 'ok' });
      app.container.lifecycle.state = 'stopping';
      expect((await app.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(503);
      // Liveness is not readiness: the process is alive throughout.
      expect((await app.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('GET /api/ready with its database gone', () => {
  let database: Awaited<ReturnType<typeof primaryTestDatabase.open>>;
  let app: TestApp;
  // Opened here, not in the test: a fresh database with its migrations takes seconds on a busy machine.
  beforeAll(async () => {
    database = await primaryTestDatabase.open();
    app = await startTestApp({ database, chain: t.chain });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers 503 while the database does not answer (within the probe cache period)', async () => {
    app.container.lifecycle.state = 'ready';
    expect((await app.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
    await database.close();
    // The dependency probe is shared for up to PROBE_CACHE_MS: the outage shows in the next probe.
    await new Promise((r) => setTimeout(r, PROBE_CACHE_MS));
    const down = await app.app.inject({ method: 'GET', url: '/api/ready' });
    expect(down.statusCode).toBe(503);
    expect(down.json().data).toMatchObject({ ready: false, state: 'ready', db: 'down' });
  });
});

// Last: it stops the chain node.
describe('RPC errors', () => {
  it('counts a 503 CHAIN_UNAVAILABLE under source "http"; readiness stays up with the chain reported down', async () => {
    t.container.lifecycle.state = 'ready';
    await t.chain.stop();
    const res = await t.app.inject({ method: 'GET', url: '/api/probe/block' });
    expect(res.statusCode).toBe(503);
    expect(res.json().error.code).toBe('CHAIN_UNAVAILABLE');
    const text = await scrape();
    expect(sample(text, 'aie_rpc_errors_total', { source: 'http' })).toBe(1);
    expect(
      sample(text, 'http_request_duration_seconds_count', {
        method: 'GET',
        route: '/api/probe/block',
        status_class: '5xx',
      }),
    ).toBe(1);
    const ready = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().data).toEqual({ ready: true, state: 'ready', db: 'ok', chain: 'down' });
  });
});
