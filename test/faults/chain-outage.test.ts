// Fault: the chain node stops answering mid-run. The app talks to anvil through a loopback proxy that is switched
// to black-hole mode and back: chain routes answer 503 CHAIN_UNAVAILABLE within a few RPC timeouts, database-only
// routes keep answering 200, and once the node answers again the chain routes recover without restarting the app.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Chain, createChainClients } from '../../src/chain/client.ts';
import type { Database } from '../../src/db/client.ts';
import { createApiKey } from '../../src/domain/auth/api-keys.ts';
import { jobs, runJobOnce } from '../../src/jobs/scheduler.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { startTestChain, type TestChain } from '../helpers/chain.ts';
import { companyBody, mintCard, signed } from '../helpers/companies.ts';
import { primaryTestDatabase } from '../helpers/db.ts';
import { disagreementsWithChain } from '../helpers/exactly-once.ts';
import { type RpcProxy, startRpcProxy } from '../helpers/rpc-proxy.ts';

const TIMEOUT_MS = 1000;
/** viem retries once, so a dead node costs up to two timeouts plus the retry delay; allow about three. */
const DEADLINE_MS = TIMEOUT_MS * 3 + 500;

let chain: TestChain;
let database: Database;
let proxy: RpcProxy;
let t: TestApp;
let apiKey: string;
let company: { id: string; slug: string };
/** The chain as this file found it: the exactly-once checker scans from the next block. */
let fromBlock: bigint;

beforeAll(async () => {
  [chain, database] = await Promise.all([startTestChain(), primaryTestDatabase.open()]);
  fromBlock = (await chain.chain.publicClient.getBlockNumber()) + 1n;
  proxy = await startRpcProxy(chain.node.rpcUrl);
  // The app's clients go through the proxy; the test's own wallets (chain.wallet) talk to anvil directly.
  const proxied: Chain = {
    ...chain.chain,
    ...createChainClients({ chainId: 31337, rpcUrl: proxy.url, local: true, timeoutMs: TIMEOUT_MS }),
  };
  t = await startTestApp({
    database,
    chain: { ...chain, chain: proxied },
    env: { RPC_TIMEOUT_MS: String(TIMEOUT_MS) },
  });
  apiKey = (await createApiKey(database.db, 'faults')).key;
  await mintCard(chain, 1);
  const created = await signed(t.app, 1, 'POST', '/api/companies', companyBody({ name: 'Outage Co' }));
  expect(created.statusCode).toBe(201);
  company = { id: created.json().data.id, slug: created.json().data.slug };
  const launched = await signed(t.app, 1, 'POST', `/api/companies/${company.id}/token`, {
    name: 'Outage',
    symbol: 'OUT',
  });
  expect(launched.statusCode).toBe(201);
}, 60_000);

afterAll(async () => {
  await t?.close();
  await proxy?.close();
  await database?.close();
  await chain?.stop();
});

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
const chainRoutes = () => [`/api/companies/${company.slug}/token`, '/api/staking/stats', '/api/epochs/current'];
const databaseRoutes = (): { url: string; headers: Record<string, string> }[] => [
  { url: `/api/companies/${company.id}`, headers: {} },
  { url: '/api/v1/tokens', headers: { 'x-api-key': apiKey } },
  { url: '/api/fortune-list', headers: {} },
  { url: '/api/agents', headers: {} },
  { url: '/api/health', headers: {} },
];

async function expectAllChainRoutesOk() {
  for (const url of chainRoutes()) {
    const res = await get(url);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  }
}

/**
 * Asks the chain routes until each answers 200, failing if one takes longer than DEADLINE_MS after the node is back.
 * The first answers may still be 503: viem shares an in-flight eth_blockNumber (health's probe gives up on it at the
 * RPC timeout while viem's retry keeps it alive), so a read right after the resume can join a call that was sent
 * into the outage. That call ends within two timeouts; the app is never restarted.
 */
async function expectChainRoutesRecover(resumedAt: number) {
  for (const url of chainRoutes()) {
    for (;;) {
      const res = await get(url);
      if (res.statusCode === 200) break;
      expect(res.statusCode, `${url}: ${res.body}`).toBe(503);
      expect(Date.now() - resumedAt, `${url} still 503 after the node came back`).toBeLessThan(DEADLINE_MS);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  // Recovered for good: every route answers 200 straight away now.
  await expectAllChainRoutesOk();
}

describe('chain outage behind a black-holed RPC', () => {
  it('serves the chain routes while the node answers', async () => {
    await expectAllChainRoutesOk();
    const token = (await get(`/api/companies/${company.slug}/token`)).json().data;
    expect(token.status).toBe('BONDING');
  });

  it('answers 503 CHAIN_UNAVAILABLE on chain routes within the RPC timeout once the node stops answering', async () => {
    proxy.pause();
    // The routes are asked at once, as concurrent clients would; each must fail fast on its own.
    const results = await Promise.all(
      chainRoutes().map(async (url) => {
        const started = Date.now();
        const res = await get(url);
        return { url, res, ms: Date.now() - started };
      }),
    );
    for (const { url, res, ms } of results) {
      expect(res.statusCode, `${url}: ${res.body}`).toBe(503);
      expect(res.json(), url).toEqual({
        success: false,
        error: { code: 'CHAIN_UNAVAILABLE', message: 'The chain RPC did not answer in time; try again shortly' },
      });
      expect(ms, url).toBeLessThan(DEADLINE_MS);
    }
  });

  it('keeps answering 200 on database-only routes during the outage', async () => {
    expect(proxy.paused).toBe(true);
    for (const { url, headers } of databaseRoutes()) {
      const started = Date.now();
      const res = await get(url, headers);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      expect(Date.now() - started, url).toBeLessThan(DEADLINE_MS);
    }
    const company1 = (await get(`/api/companies/${company.id}`)).json().data;
    expect(company1).toMatchObject({ id: company.id, slug: company.slug });
    const tokens = (await get('/api/v1/tokens', { 'x-api-key': apiKey })).json().data;
    expect(tokens.map((d: { id: string }) => d.id)).toContain(company.id);
    expect((await get('/api/health')).json().data).toMatchObject({ status: 'degraded', db: 'ok', chain: 'down' });
  });

  it('recovers on the chain routes when the node answers again, without restarting the app', async () => {
    const resumedAt = Date.now();
    proxy.resume();
    await expectChainRoutesRecover(resumedAt);
    const token = (await get(`/api/companies/${company.slug}/token`)).json().data;
    expect(token.status).toBe('BONDING');
    // Health's probe can join the eth_blockNumber it sent into the outage (see expectChainRoutesRecover) when the
    // routes recover fast: it says ok within the same deadline.
    for (;;) {
      const health = (await get('/api/health')).json().data;
      if (health.chain === 'ok') break;
      expect(Date.now() - resumedAt, 'health still degraded after the node came back').toBeLessThan(DEADLINE_MS);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await get('/api/health')).json().data).toMatchObject({ db: 'ok', chain: 'ok' });
  });

  it('fails and recovers again on a second outage', async () => {
    proxy.pause();
    const started = Date.now();
    const res = await get('/api/staking/stats');
    expect(res.statusCode).toBe(503);
    expect(Date.now() - started).toBeLessThan(DEADLINE_MS);
    proxy.resume();
    await expectChainRoutesRecover(Date.now());
  });

  it('leaves every outbox row agreeing with the chain once settle-outbox ran after the outages', async () => {
    expect(await runJobOnce(jobs.find((j) => j.name === 'settle-outbox')!, t.container)).toBe(true);
    expect(await disagreementsWithChain(database.db, chain.chain.publicClient, fromBlock)).toEqual([]);
  });
});
