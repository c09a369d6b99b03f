// The list routes place their 24-hour windows by the chain's clock, but never wait on a node that hangs: they take
// the last time the node gave (or the server's, when it never answered) within READ_CLOCK_WAIT_MS, where they used
// to wait the RPC timeout on every refresh of the clock (10.1 s for GET /api/v1/tokens with the chain down).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Chain, createChainClients } from '../../src/chain/client.ts';
import { READ_CLOCK_REUSE_MS } from '../../src/chain/time.ts';
import type { Database } from '../../src/db/client.ts';
import { createApiKey } from '../../src/domain/auth/api-keys.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { startTestChain, type TestChain } from '../helpers/chain.ts';
import { primaryTestDatabase } from '../helpers/db.ts';
import { type RpcProxy, startRpcProxy } from '../helpers/rpc-proxy.ts';

/** Long enough that waiting for it would fail the 1-second bound many times over. */
const RPC_TIMEOUT_MS = 4000;
const FAST_MS = 1000;

let chain: TestChain;
let database: Database;
let proxy: RpcProxy;
let apiKey: string;
const apps: TestApp[] = [];

async function proxiedApp(): Promise<TestApp> {
  const proxied: Chain = {
    ...chain.chain,
    ...createChainClients({ chainId: 31337, rpcUrl: proxy.url, local: true, timeoutMs: RPC_TIMEOUT_MS }),
  };
  const t = await startTestApp({
    database,
    chain: { ...chain, chain: proxied },
    env: { RPC_TIMEOUT_MS: String(RPC_TIMEOUT_MS), RATE_LIMIT_MAX: '100000' },
  });
  apps.push(t);
  return t;
}

beforeAll(async () => {
  [chain, database] = await Promise.all([startTestChain(), primaryTestDatabase.open()]);
  proxy = await startRpcProxy(chain.node.rpcUrl);
  apiKey = (await createApiKey(database.db, 'outage reads')).key;
}, 60_000);

afterAll(async () => {
  for (const t of apps) await t.close();
  await proxy?.close();
  await database?.close();
  await chain?.stop();
});

/** Status and milliseconds of one GET. */
async function timed(t: TestApp, url: string) {
  const started = performance.now();
  const res = await t.app.inject({ method: 'GET', url, headers: { 'x-api-key': apiKey } });
  return { status: res.statusCode, ms: performance.now() - started, res };
}

describe('list routes with the chain unreachable', () => {
  it('answer within a second from the last known chain time once the node hangs', async () => {
    const t = await proxiedApp();
    // The node answers: the clock is read.
    expect((await timed(t, '/api/v1/tokens')).status).toBe(200);
    proxy.pause();
    try {
      // Past the reuse period, so the next page must read the clock again; each URL new, so no cached page.
      await new Promise((r) => setTimeout(r, READ_CLOCK_REUSE_MS + 100));
      for (const url of [
        '/api/v1/tokens?limit=3',
        '/api/tokens?limit=4',
        '/api/v1/fortune?limit=5',
        '/api/v1/tokens?limit=6',
      ]) {
        const { status, ms, res } = await timed(t, url);
        expect(status, `${url}: ${res.body}`).toBe(200);
        expect(ms, url).toBeLessThan(FAST_MS);
      }
    } finally {
      proxy.resume();
    }
  }, 30_000);

  it('answer within a second in a process that never reached the node', async () => {
    proxy.pause();
    try {
      const t = await proxiedApp();
      // The process's first page also prepares its statements (over a second on PGlite): it is held only to not
      // waiting for the node; the pages after it to the second.
      const first = await timed(t, '/api/v1/tokens?limit=9');
      expect(first.status).toBe(200);
      expect(first.ms).toBeLessThan(RPC_TIMEOUT_MS);
      for (const url of ['/api/v1/tokens?limit=7', '/api/tokens?limit=8']) {
        const { status, ms, res } = await timed(t, url);
        expect(status, `${url}: ${res.body}`).toBe(200);
        expect(ms, url).toBeLessThan(FAST_MS);
      }
    } finally {
      proxy.resume();
    }
  }, 30_000);
});
