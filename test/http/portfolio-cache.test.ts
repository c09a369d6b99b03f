// The portfolio routes read the chain at its latest block and keep their answer per block (read-cache.ts keyed by
// the block): two reads in one block make one set of chain reads, a new block gives a fresh answer, and both stay
// under the API's rate limit.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createId } from '@paralleldrive/cuid2';
import { numberToHex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChainClients, devAccount } from '../../src/chain/client.ts';
import { agents } from '../../src/db/schema/agents.ts';
import { companies } from '../../src/db/schema/companies.ts';
import { startTestApp, type TestApp, useTestApp } from '../helpers/app.ts';
import { anvilTestClient } from '../helpers/chain.ts';

const t = useTestApp();

type RpcCall = { method: string; params: unknown[] };
/** A JSON-RPC proxy in front of anvil that records every call. */
let proxy: Server;
let proxied: TestApp;
const calls: RpcCall[] = [];
const wallet = privateKeyToAccount(generatePrivateKey()).address;
let agentId: string;
let companyId: string;

beforeAll(async () => {
  proxy = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const parsed = JSON.parse(body);
    calls.push(...((Array.isArray(parsed) ? parsed : [parsed]) as RpcCall[]));
    const upstream = await fetch(t.chain.node.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(await upstream.text());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const rpcUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  const clients = createChainClients({ chainId: t.chain.chain.chainId, rpcUrl, local: true, timeoutMs: 2_000 });
  proxied = await startTestApp({
    database: t.database,
    chain: { ...t.chain, chain: { ...t.chain.chain, ...clients } },
    env: { RATE_LIMIT_MAX: '100000' },
  });
  companyId = createId();
  await t.database.db.insert(companies).values({
    id: companyId,
    name: 'Portfolio Co',
    slug: `portfolio-${companyId}`,
    category: 'DEFI_YIELD',
    creatorAddress: devAccount(1).address,
    cardTokenId: 950,
  });
  agentId = createId();
  await t.database.db.insert(agents).values({
    id: agentId,
    companyId,
    name: 'Portfolio CFO',
    role: 'CFO',
    status: 'ACTIVE',
    creatorAddress: devAccount(1).address,
    onChainAddress: wallet,
    persona: { role: 'CFO', description: 'Runs the treasury.' },
    skills: ['treasury'],
    strategy: { type: 'treasury', preset: 'BALANCED' },
  });
});
afterAll(async () => {
  await proxied?.close();
  await new Promise((resolve) => proxy?.close(resolve));
});

/** The answer to a GET and the chain calls it made. */
async function read(url: string) {
  calls.length = 0;
  const res = await proxied.app.inject({ method: 'GET', url });
  expect(res.statusCode, res.body).toBe(200);
  return { body: res.json(), methods: calls.map((c) => c.method), calls: [...calls] };
}
const stateReads = (methods: string[]) => methods.filter((m) => m !== 'eth_blockNumber' && m !== 'eth_chainId');
const testClient = () => anvilTestClient(t.chain.node.rpcUrl);

describe.each([
  ['agent', () => `/api/agents/${agentId}/portfolio`],
  ['company', () => `/api/companies/${companyId}/portfolio`],
])('GET the %s portfolio', (_name, url) => {
  it('makes one set of chain reads for two reads in one block, and answers the same', async () => {
    await testClient().mine({ blocks: 1 });
    const first = await read(url());
    expect(stateReads(first.methods).length).toBeGreaterThan(0);
    const second = await read(url());
    expect(second.methods).toEqual(['eth_blockNumber']);
    expect(second.body).toEqual(first.body);
  });

  it('answers a conditional request whose tag still matches with 304 and no call to the node', async () => {
    await testClient().mine({ blocks: 1 });
    const first = await proxied.app.inject({ method: 'GET', url: url() });
    calls.length = 0;
    for (let i = 0; i < 10; i++) {
      const res = await proxied.app.inject({
        method: 'GET',
        url: url(),
        headers: { 'if-none-match': String(first.headers.etag) },
      });
      expect(res.statusCode).toBe(304);
    }
    expect(calls).toEqual([]);
  });

  it('reads afresh in a new block, every call at that block', async () => {
    const client = testClient();
    await read(url());
    const wei = BigInt(Math.floor(Math.random() * 1e9) + 1) * 10n ** 9n;
    await client.setBalance({ address: wallet, value: wei });
    await client.mine({ blocks: 1 });
    const block = numberToHex(await client.getBlockNumber({ cacheTime: 0 }));
    const fresh = await read(url());
    const reads = fresh.calls.filter((c) => stateReads([c.method]).length > 0);
    expect(reads.length).toBeGreaterThan(0);
    for (const c of reads) expect(c.params.at(-1), c.method).toBe(block);
    const view = 'agents' in fresh.body.data ? fresh.body.data.agents[0] : fresh.body.data;
    expect(view.balances.nativeWei).toBe(wei.toString());
  });

  it('shares one read among concurrent requests in one block', async () => {
    await testClient().mine({ blocks: 1 });
    calls.length = 0;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => proxied.app.inject({ method: 'GET', url: url() })),
    );
    for (const a of answers) expect(a.statusCode).toBe(200);
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    const methods = calls.map((c) => c.method);
    expect(methods.filter((m) => m === 'eth_getBalance')).toHaveLength(1);
    // One eth_blockNumber running and at most one waiting behind it (coalesce.ts).
    expect(methods.filter((m) => m === 'eth_blockNumber').length).toBeLessThanOrEqual(2);
  });

  it('answers 404 for an unknown id, and nothing is kept for it', async () => {
    const path = url().replace(url().includes('/agents/') ? agentId : companyId, 'nobody');
    for (let i = 0; i < 2; i++) {
      const res = await proxied.app.inject({ method: 'GET', url: path });
      expect(res.statusCode).toBe(404);
    }
  });
});

describe('GET a company token status', () => {
  it('is kept per block the same way: a matching conditional request makes no chain call', async () => {
    await testClient().mine({ blocks: 1 });
    const url = `/api/companies/${companyId}/token`;
    const first = await proxied.app.inject({ method: 'GET', url });
    expect(first.statusCode, first.body).toBe(200);
    calls.length = 0;
    const again = await proxied.app.inject({
      method: 'GET',
      url,
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(calls).toEqual([]);
  });
});

describe('rate limit', () => {
  it('counts portfolio reads, cached or not, against the per-client limit', async () => {
    const limited = await startTestApp({ database: t.database, chain: t.chain, env: { RATE_LIMIT_MAX: '3' } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const url = i % 2 === 0 ? `/api/agents/${agentId}/portfolio` : `/api/companies/${companyId}/portfolio`;
        statuses.push((await limited.app.inject({ method: 'GET', url })).statusCode);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});
