import { describe, expect, it, vi } from 'vitest';
import { PROBE_CACHE_MS } from '../../src/http/routes/system/probe.ts';
import { startTestApp, useTestApp } from '../helpers/app.ts';

const t = useTestApp();

describe('GET /api/health', () => {
  it('reports the database and the chain as ok with the version', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { status: 'ok', db: 'ok', chain: 'ok', version: '0.1.0' } });
  });
});

describe('the dependency probe of /api/health and /api/ready', () => {
  it('asks the database and the RPC at most once per second, however often it is polled', async () => {
    const { container } = t;
    // Past any answer an earlier test left cached.
    await new Promise((r) => setTimeout(r, PROBE_CACHE_MS));
    const rpc = vi.spyOn(container.chain.publicClient, 'getBlockNumber');
    const ping = vi.spyOn(container.database, 'ping');
    try {
      const poll = () =>
        Promise.all([
          ...Array.from({ length: 20 }, () => t.app.inject({ method: 'GET', url: '/api/health' })),
          ...Array.from({ length: 20 }, () => t.app.inject({ method: 'GET', url: '/api/ready' })),
        ]);
      const started = performance.now();
      for (const res of await poll()) expect([200, 503]).toContain(res.statusCode);
      for (const res of await poll()) expect([200, 503]).toContain(res.statusCode);
      // 80 requests, yet one probe per cache period begun (however slow a loaded machine makes them).
      const periods = Math.ceil((performance.now() - started) / PROBE_CACHE_MS);
      expect(rpc.mock.calls.length).toBeGreaterThanOrEqual(1);
      expect(rpc.mock.calls.length).toBeLessThanOrEqual(periods);
      expect(ping.mock.calls.length).toBe(rpc.mock.calls.length);
      // After the period the next request probes again.
      const before = rpc.mock.calls.length;
      await new Promise((r) => setTimeout(r, PROBE_CACHE_MS + 50));
      const res = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.json().data.chain).toBe('ok');
      expect(rpc.mock.calls.length).toBe(before + 1);
    } finally {
      rpc.mockRestore();
      ping.mockRestore();
    }
  });
});

describe('GET /api/live', () => {
  it('answers 200 without asking a dependency, never rate-limited, and stays out of the OpenAPI document', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/live' });
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data).toMatchObject({ alive: true, state: expect.stringMatching(/^(starting|ready|stopping)$/) });
    expect(Number.isInteger(data.uptimeSeconds)).toBe(true);
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(doc.paths['/api/live']).toBeUndefined();
  });
});

describe('GET /api/chain', () => {
  it('lists the access card and USDC addresses, checksummed, and the local RPC URL', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/chain' });
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data.chainId).toBe(31337);
    expect(data.rpcUrl).toBe(t.chain.node.rpcUrl);
    expect(data.contracts.accessCard).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(data.contracts.accessCard).toBe(t.chain.chain.contracts.accessCard);
    expect(data.contracts.usdc).not.toBe(data.contracts.usdc.toLowerCase());
  });

  it("names the chain's clock (`now`): the time of its next block, not the server's", async () => {
    const { data } = (await t.app.inject({ method: 'GET', url: '/api/chain' })).json();
    const latest = await t.chain.chain.publicClient.getBlock({ blockTag: 'latest' });
    expect(data.now).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Date.parse(data.now)).toBeGreaterThanOrEqual(Number(latest.timestamp) * 1000);
  });

  it("names the service's address, the oracle and the owner, read from the chain", async () => {
    const { data } = (await t.app.inject({ method: 'GET', url: '/api/chain' })).json();
    const chain = t.chain.chain;
    // The test chain keeps account 0 as owner of everything (test/helpers/chain.ts): no timelock, so no delay.
    expect(data.roles).toEqual({
      service: chain.platform.account.address,
      oracle: chain.oracle.account.address,
      owner: chain.platform.account.address,
      ownerDelaySeconds: null,
    });
  });

  it('names PUBLIC_RPC_URL when it is set, instead of the RPC the service itself uses', async () => {
    const other = await startTestApp({
      database: t.database,
      chain: t.chain,
      env: { PUBLIC_RPC_URL: 'https://rpc.example.org/public' },
    });
    try {
      const res = await other.app.inject({ method: 'GET', url: '/api/chain' });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.rpcUrl).toBe('https://rpc.example.org/public');
    } finally {
      await other.close();
    }
  });
});

describe('request ids', () => {
  it('answers every request with an x-request-id, keeping a well-formed one the client sent', async () => {
    const fresh = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const given = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'trace-123' } });
    expect(given.headers['x-request-id']).toBe('trace-123');
    const bad = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'no spaces <>' } });
    expect(bad.headers['x-request-id']).not.toBe('no spaces <>');
  });
});

describe('CORS', () => {
  it('lets browsers on any origin call, with the auth headers allowed and the request id exposed', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/health',
      headers: {
        origin: 'https://dapp.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-api-key',
      },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-headers']).toContain('x-api-key');
    expect(res.headers['access-control-allow-headers']).toContain('idempotency-key');
    const get = await t.app.inject({ method: 'GET', url: '/api/health', headers: { origin: 'https://dapp.example' } });
    expect(get.headers['access-control-expose-headers']).toContain('x-request-id');
    expect(get.headers['access-control-expose-headers']).toContain('idempotent-replayed');
  });
});

describe('unknown routes', () => {
  it('answer 404 NOT_FOUND in the internal envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      success: false,
      error: { code: 'NOT_FOUND', message: 'No route GET /api/nothing-here' },
    });
  });
  it('answer 404 NOT_FOUND in the v1 envelope under /api/v1', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/nothing' });
    expect(res.statusCode).toBe(404);
    const body = res.json();
    expect(body.error.code).toBe('NOT_FOUND');
    expect(Date.parse(body.meta.timestamp)).not.toBeNaN();
  });
});

describe('OpenAPI', () => {
  it('serves an OpenAPI 3.1 document listing the routes, and a docs page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/health', '/api/chain']));
    const page = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
  });
});
