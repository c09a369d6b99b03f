// When the chain node stops answering, routes that need it answer 503 CHAIN_UNAVAILABLE within the RPC
// timeout, and routes that need no chain keep serving.
import { describe, expect, it } from 'vitest';
import { onChain } from '../../src/chain/errors.ts';
import { ok } from '../../src/http/envelope.ts';
import { underV1, useTestApp } from '../helpers/app.ts';

const TIMEOUT_MS = 500;

const t = useTestApp({
  chain: { timeoutMs: TIMEOUT_MS, own: true },
  env: { RPC_TIMEOUT_MS: String(TIMEOUT_MS) },
  extraRoutes: async (app, container) => {
    const block = async () =>
      (await onChain(() => container.chain.publicClient.getBlockNumber({ cacheTime: 0 }))).toString();
    app.get('/api/probe/block', async () => ok({ block: await block() }));
    await underV1(app, (v1App) => {
      v1App.get('/probe/block', async () => ({ data: { block: await block() }, meta: { timestamp: '' } }));
    });
  },
});

describe('chain outage', () => {
  it('serves chain reads while the node answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/probe/block' });
    expect(res.statusCode).toBe(200);
  });

  it('answers 503 CHAIN_UNAVAILABLE once the node is gone, while other routes keep working', async () => {
    await t.chain.stop();
    const started = Date.now();
    const res = await t.app.inject({ method: 'GET', url: '/api/probe/block' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      success: false,
      error: { code: 'CHAIN_UNAVAILABLE', message: 'The chain RPC did not answer in time; try again shortly' },
    });
    // A 503 says when to try again.
    expect(res.headers['retry-after']).toBe('5');
    // One retry is allowed, so the answer comes within about two timeouts.
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS * 2 + 1500);

    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json().data).toMatchObject({ status: 'degraded', db: 'ok', chain: 'down' });
    expect((await t.app.inject({ method: 'GET', url: '/api/chain' })).statusCode).toBe(200);

    // The same in the v1 envelope, with its Retry-After.
    const v1 = await t.app.inject({ method: 'GET', url: '/api/v1/probe/block' });
    expect(v1.statusCode).toBe(503);
    expect(v1.json().error.code).toBe('CHAIN_UNAVAILABLE');
    expect(Object.keys(v1.json()).sort()).toEqual(['error', 'meta']);
    expect(v1.headers['retry-after']).toBe('5');
  });
});
