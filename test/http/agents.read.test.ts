// GET /api/agents (filters, pagination, bounds), GET /api/agents/{id} (the detail view, its company join and an
// ERC-8004 id of "0") and GET /api/agents/{id}/registration.json.
import { createId } from '@paralleldrive/cuid2';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import {
  AGENT_REGISTRATION_CACHE_CONTROL,
  AGENTS_PAGE_SIZE_DEFAULT,
  AGENTS_PAGE_SIZE_MAX,
  PAGE_MAX,
} from '../../src/constants.ts';
import { agents } from '../../src/db/schema/agents.ts';
import { companies } from '../../src/db/schema/companies.ts';
import { useTestApp } from '../helpers/app.ts';
import { serializeBody, signedRequest } from '../helpers/security.ts';

const BASE_URL = 'https://agents.example.test';
const alice = devAccount(2);

const t = useTestApp({ chain: { baseUrl: BASE_URL }, env: { BASE_URL, RATE_LIMIT_MAX: '100000' } });

const get = (url: string) => t.app.inject({ method: 'GET', url });
const freshAddress = () => privateKeyToAccount(generatePrivateKey()).address;

/** Writes an agent row directly, as deploy-suite and the identity pipeline would. */
async function insertAgent(values: Partial<typeof agents.$inferInsert> = {}) {
  const [row] = await t.database.db
    .insert(agents)
    .values({
      id: createId(),
      name: 'Direct agent',
      creatorAddress: alice.address,
      persona: { role: 'Analyst', description: 'Reads charts.' },
      skills: ['charts'],
      strategy: { type: 'momentum', preset: 'AGGRESSIVE' },
      ...values,
    })
    .returning();
  return row!;
}

let nextCard = 100;
async function insertCompany(values: Partial<typeof companies.$inferInsert> = {}) {
  const id = createId();
  const [row] = await t.database.db
    .insert(companies)
    .values({
      id,
      name: 'Acme Yield',
      slug: `acme-${id}`,
      category: 'DEFI_YIELD',
      creatorAddress: alice.address,
      cardTokenId: nextCard++,
      ...values,
    })
    .returning();
  return row!;
}

function expectError(res: { statusCode: number; json(): any }, status: number, code: string) {
  expect(res.statusCode).toBe(status);
  const body = res.json();
  expect(Object.keys(body).sort()).toEqual(['error', 'success']);
  expect(body.success).toBe(false);
  expect(body.error.code).toBe(code);
  return body.error;
}

const LIST_FIELDS = [
  'companyId',
  'createdAt',
  'creatorAddress',
  'decisionsCount',
  'description',
  'erc8004Id',
  'id',
  'lastActiveAt',
  'name',
  'onChainAddress',
  'persona',
  'role',
  'skills',
  'status',
  'strategy',
  'walletAddress',
];

describe('GET /api/agents', () => {
  it(`answers { success, data, pagination } with page 1 and limit ${AGENTS_PAGE_SIZE_DEFAULT} by default`, async () => {
    await insertAgent();
    const res = await get('/api/agents');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'pagination', 'success']);
    expect(body.success).toBe(true);
    expect(body.pagination).toMatchObject({ page: 1, limit: AGENTS_PAGE_SIZE_DEFAULT });
    expect(body.pagination.total).toBeGreaterThanOrEqual(1);
    expect(body.data.length).toBe(Math.min(body.pagination.total, AGENTS_PAGE_SIZE_DEFAULT));
    for (const item of body.data) expect(Object.keys(item).sort()).toEqual(LIST_FIELDS);
  });

  it('renders the list view: nulls, the wallet alias, an ERC-8004 id of "0", ISO timestamps', async () => {
    const creator = freshAddress();
    const wallet = freshAddress();
    const lastActiveAt = new Date('2025-03-04T05:06:07.089Z');
    const row = await insertAgent({
      creatorAddress: creator,
      onChainAddress: wallet,
      erc8004TokenId: '0',
      status: 'ACTIVE',
      role: 'CTO',
      description: 'Builds.',
      decisionsCount: 7,
      lastActiveAt,
    });
    const bare = await insertAgent({ creatorAddress: creator });
    const { data } = (await get(`/api/agents?creator=${creator}`)).json();
    expect(data.map((a: { id: string }) => a.id)).toEqual([bare.id, row.id]);
    expect(data[1]).toEqual({
      id: row.id,
      name: 'Direct agent',
      description: 'Builds.',
      role: 'CTO',
      status: 'ACTIVE',
      companyId: null,
      creatorAddress: creator,
      onChainAddress: wallet,
      walletAddress: wallet,
      erc8004Id: '0',
      persona: { role: 'Analyst', description: 'Reads charts.' },
      skills: ['charts'],
      strategy: { type: 'momentum', preset: 'AGGRESSIVE' },
      decisionsCount: 7,
      lastActiveAt: '2025-03-04T05:06:07.089Z',
      createdAt: row.createdAt.toISOString(),
    });
    expect(data[0]).toMatchObject({
      description: null,
      role: null,
      status: 'PENDING',
      onChainAddress: null,
      walletAddress: null,
      erc8004Id: null,
      lastActiveAt: null,
    });
  });

  it('orders newest first, ties broken by id, and pages with total and hasMore', async () => {
    const creator = freshAddress();
    const base = Date.parse('2025-01-01T00:00:00Z');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      // Two agents share each timestamp but the last, so the id decides between them.
      const createdAt = new Date(base + Math.floor(i / 2) * 1000);
      ids.push((await insertAgent({ creatorAddress: creator, createdAt })).id);
    }
    const expected = [...ids]
      .map((id, i) => ({ id, at: Math.floor(i / 2) }))
      .sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1))
      .map((x) => x.id);
    const page = async (p: number, limit: number) =>
      (await get(`/api/agents?creator=${creator}&page=${p}&limit=${limit}`)).json();

    const first = await page(1, 2);
    expect(first.data.map((a: { id: string }) => a.id)).toEqual(expected.slice(0, 2));
    expect(first.pagination).toEqual({ page: 1, limit: 2, total: 5, hasMore: true });
    const second = await page(2, 2);
    expect(second.data.map((a: { id: string }) => a.id)).toEqual(expected.slice(2, 4));
    expect(second.pagination).toEqual({ page: 2, limit: 2, total: 5, hasMore: true });
    const third = await page(3, 2);
    expect(third.data.map((a: { id: string }) => a.id)).toEqual(expected.slice(4));
    expect(third.pagination).toEqual({ page: 3, limit: 2, total: 5, hasMore: false });
    const beyond = await page(4, 2);
    expect(beyond.data).toEqual([]);
    expect(beyond.pagination).toEqual({ page: 4, limit: 2, total: 5, hasMore: false });
    expect((await page(1, 5)).pagination.hasMore).toBe(false);
    expect((await page(1, 4)).pagination.hasMore).toBe(true);
  });

  it('filters by creator written lowercase, uppercase or checksummed (stored checksummed)', async () => {
    const creator = freshAddress();
    const other = freshAddress();
    const mine = [await insertAgent({ creatorAddress: creator }), await insertAgent({ creatorAddress: creator })];
    await insertAgent({ creatorAddress: other });
    const expected = mine.map((a) => a.id).reverse();
    const hex = creator.slice(2);
    for (const spelled of [creator, creator.toLowerCase(), `0x${hex.toUpperCase()}`]) {
      const res = await get(`/api/agents?creator=${spelled}`);
      expect(res.statusCode, spelled).toBe(200);
      const body = res.json();
      expect(body.data.map((a: { id: string }) => a.id)).toEqual(expected);
      expect(body.pagination.total).toBe(2);
      for (const a of body.data) expect(a.creatorAddress).toBe(creator);
    }
    const nobody = (await get(`/api/agents?creator=${freshAddress().toLowerCase()}`)).json();
    expect(nobody.data).toEqual([]);
    expect(nobody.pagination).toEqual({ page: 1, limit: AGENTS_PAGE_SIZE_DEFAULT, total: 0, hasMore: false });
  });

  it('refuses a creator in mixed case with a wrong EIP-55 checksum (400 VALIDATION_ERROR)', async () => {
    const hex = freshAddress().slice(2);
    // Every letter's case flipped: mixed case whose checksum is wrong, most likely a mistyped copy.
    const flipped = [...hex].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
    const res = await get(`/api/agents?creator=0x${flipped}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ path: 'query.creator', message: expect.stringContaining('EIP-55') }],
    });
  });

  it('finds the agents a signer created through POST by the lowercase creator', async () => {
    const bob = devAccount(3);
    const body = {
      name: 'Posted',
      persona: { role: 'CMO', description: '' },
      skills: ['ads'],
      strategy: { type: 'growth', preset: 'BALANCED' },
    };
    const headers = await signedRequest(bob, 'POST', '/api/agents', body, Math.floor(t.container.now() / 1000));
    const created = await t.app.inject({ method: 'POST', url: '/api/agents', headers, payload: serializeBody(body) });
    expect(created.statusCode).toBe(201);
    const { data } = (await get(`/api/agents?creator=${bob.address.toLowerCase()}`)).json();
    expect(data.map((a: { id: string }) => a.id)).toContain(created.json().data.id);
  });

  it('filters by status, alone and with creator', async () => {
    const creator = freshAddress();
    const paused = await insertAgent({ creatorAddress: creator, status: 'PAUSED' });
    const failed = await insertAgent({ creatorAddress: creator, status: 'FAILED' });
    await insertAgent({ creatorAddress: creator, status: 'PENDING' });
    const both = (await get(`/api/agents?creator=${creator}&status=PAUSED`)).json();
    expect(both.data.map((a: { id: string }) => a.id)).toEqual([paused.id]);
    expect(both.pagination.total).toBe(1);
    const alone = (await get(`/api/agents?status=FAILED&limit=${AGENTS_PAGE_SIZE_MAX}`)).json();
    expect(alone.data.map((a: { id: string }) => a.id)).toContain(failed.id);
    for (const a of alone.data) expect(a.status).toBe('FAILED');
    expect((await get(`/api/agents?creator=${creator}&status=TERMINATED`)).json().pagination.total).toBe(0);
  });

  it(`accepts page 1..${PAGE_MAX} and limit 1..${AGENTS_PAGE_SIZE_MAX}`, async () => {
    for (const q of ['page=1', `page=${PAGE_MAX}`, 'limit=1', `limit=${AGENTS_PAGE_SIZE_MAX}`]) {
      const res = await get(`/api/agents?${q}`);
      expect(res.statusCode, q).toBe(200);
    }
    expect((await get(`/api/agents?limit=${AGENTS_PAGE_SIZE_MAX}`)).json().pagination.limit).toBe(AGENTS_PAGE_SIZE_MAX);
  });

  it('answers 400 VALIDATION_ERROR for page 0, limit 0 and 101, and other bad query values', async () => {
    const cases: [string, string][] = [
      ['page=0', 'query.page'],
      [`page=${PAGE_MAX + 1}`, 'query.page'],
      ['page=-1', 'query.page'],
      ['page=1.5', 'query.page'],
      ['page=abc', 'query.page'],
      ['limit=0', 'query.limit'],
      [`limit=${AGENTS_PAGE_SIZE_MAX + 1}`, 'query.limit'],
      ['limit=1e2', 'query.limit'],
      ['status=active', 'query.status'],
      ['status=DELETED', 'query.status'],
      ['creator=0x1234', 'query.creator'],
      [`creator=${'0x'.padEnd(42, 'g')}`, 'query.creator'],
      [`creator=${freshAddress().slice(2)}`, 'query.creator'],
      [`creator=${freshAddress()}0`, 'query.creator'],
      ['creator=alice.eth', 'query.creator'],
      ['page=1&page=2', 'query.page'],
    ];
    for (const [q, path] of cases) {
      const error = expectError(await get(`/api/agents?${q}`), 400, 'VALIDATION_ERROR');
      expect(
        error.details.map((d: { path: string }) => d.path),
        q,
      ).toContain(path);
    }
    const status = expectError(await get('/api/agents?status=nope'), 400, 'VALIDATION_ERROR');
    expect(status.message).toContain('PENDING, DEPLOYING, ACTIVE, PAUSED, TERMINATED, FAILED');
  });
});

describe('GET /api/agents/{id}', () => {
  it('renders the detail view of a company agent: identity with id "0", metrics, company, updatedAt', async () => {
    const company = await insertCompany({ name: 'Acme Yield', category: 'DEFI_YIELD' });
    const wallet = freshAddress();
    const registry = t.chain.chain.contracts.identityRegistry!;
    const row = await insertAgent({
      companyId: company.id,
      name: 'Acme CFO',
      role: 'CFO',
      status: 'ACTIVE',
      walletIndex: 0,
      onChainAddress: wallet,
      erc8004TokenId: '0',
      trustRegistryAddress: registry,
      decisionsCount: 12,
      llmCallsTotal: 340,
      toolCallsTotal: 56,
      lastActiveAt: new Date('2025-06-01T12:00:00.000Z'),
      lastErrors: ['never shown'],
    });
    const res = await get(`/api/agents/${row.id}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'success']);
    expect(body.data).toEqual({
      id: row.id,
      name: 'Acme CFO',
      description: null,
      role: 'CFO',
      status: 'ACTIVE',
      companyId: company.id,
      creatorAddress: alice.address,
      onChainAddress: wallet,
      walletAddress: wallet,
      erc8004Id: '0',
      persona: { role: 'Analyst', description: 'Reads charts.' },
      skills: ['charts'],
      strategy: { type: 'momentum', preset: 'AGGRESSIVE' },
      decisionsCount: 12,
      lastActiveAt: '2025-06-01T12:00:00.000Z',
      createdAt: row.createdAt.toISOString(),
      identity: { erc8004TokenId: '0', trustRegistryAddress: registry },
      metrics: {
        decisionsExecuted: 12,
        llmCallsTotal: 340,
        toolCallsTotal: 56,
        lastActiveAt: '2025-06-01T12:00:00.000Z',
      },
      company: { id: company.id, name: 'Acme Yield', slug: company.slug, category: 'DEFI_YIELD' },
      updatedAt: row.updatedAt.toISOString(),
    });
  });

  it('shows identity null and company null for a stand-alone agent not yet registered', async () => {
    const row = await insertAgent();
    const { data } = (await get(`/api/agents/${row.id}`)).json();
    expect(data.identity).toBeNull();
    expect(data.company).toBeNull();
    expect(data.companyId).toBeNull();
    expect(data.erc8004Id).toBeNull();
    expect(data.metrics).toEqual({ decisionsExecuted: 0, llmCallsTotal: 0, toolCallsTotal: 0, lastActiveAt: null });
  });

  it('answers 404 NOT_FOUND in the internal envelope for an unknown id', async () => {
    for (const id of [createId(), 'nope', 'x'.repeat(150), '%E2%9C%93']) {
      const error = expectError(await get(`/api/agents/${id}`), 404, 'NOT_FOUND');
      expect(error.message).toMatch(/^Agent ".*" not found$/);
    }
  });
});

describe('GET /api/agents/{id}/registration.json', () => {
  it('describes a stand-alone agent: no image, no registrations, not active', async () => {
    const row = await insertAgent({ name: 'Loner', description: null, status: 'PENDING' });
    const res = await get(`/api/agents/${row.id}/registration.json`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe(AGENT_REGISTRATION_CACHE_CONTROL);
    expect(res.json()).toEqual({
      type: 'https://eips.ethereum.org/EIPS/eip-8004#registration-v1',
      name: 'Loner',
      description: 'Reads charts.',
      image: null,
      services: [{ name: 'web', endpoint: `${BASE_URL}/api/agents/${row.id}` }],
      x402Support: false,
      active: false,
      registrations: [],
      supportedTrust: ['reputation'],
    });
  });

  it('describes a registered company agent: card image, agent id 0 in the registry of the chain, active', async () => {
    const company = await insertCompany({ logoUrl: null });
    const registry = t.chain.chain.contracts.identityRegistry!;
    const row = await insertAgent({
      companyId: company.id,
      description: 'Runs the treasury.',
      role: 'CFO',
      status: 'ACTIVE',
      onChainAddress: freshAddress(),
      erc8004TokenId: '0',
      trustRegistryAddress: registry,
    });
    const body = (await get(`/api/agents/${row.id}/registration.json`)).json();
    expect(body).toMatchObject({
      description: 'Runs the treasury.',
      image: `${BASE_URL}/api/nft/image/${company.cardTokenId}`,
      active: true,
      registrations: [{ agentId: 0, agentRegistry: `eip155:${t.chain.chain.chainId}:${registry}` }],
    });
    expect(t.chain.chain.chainId).toBe(31337);
  });

  it("uses the company's logo when it has one, and the chain's registry when none is stored", async () => {
    const company = await insertCompany({ logoUrl: 'https://cdn.example.test/acme.png' });
    const row = await insertAgent({ companyId: company.id, status: 'PAUSED', erc8004TokenId: '17' });
    const body = (await get(`/api/agents/${row.id}/registration.json`)).json();
    expect(body.image).toBe('https://cdn.example.test/acme.png');
    expect(body.active).toBe(false);
    expect(body.registrations).toEqual([
      { agentId: 17, agentRegistry: `eip155:31337:${t.chain.chain.contracts.identityRegistry}` },
    ]);
  });

  it('answers 404 NOT_FOUND in the internal envelope for an unknown agent', async () => {
    const res = await get(`/api/agents/${createId()}/registration.json`);
    expectError(res, 404, 'NOT_FOUND');
    expect(res.headers['cache-control']).toBeUndefined();
  });
});

describe('OpenAPI', () => {
  it('documents every agent route under the agents tag; the changing ones need a wallet signature', async () => {
    const doc = (await get('/api/openapi.json')).json();
    const ops = {
      list: doc.paths['/api/agents'].get,
      create: doc.paths['/api/agents'].post,
      detail: doc.paths['/api/agents/{id}'].get,
      update: doc.paths['/api/agents/{id}'].put,
      terminate: doc.paths['/api/agents/{id}'].delete,
      registration: doc.paths['/api/agents/{id}/registration.json'].get,
    };
    for (const [name, op] of Object.entries(ops)) {
      expect(op.tags, name).toEqual(['agents']);
      expect(op.summary, name).toEqual(expect.any(String));
      expect(op.responses['500'].content['application/json'].schema.$ref, name).toContain('InternalError');
    }
    for (const op of [ops.create, ops.update, ops.terminate]) expect(op.security).toEqual([{ wallet: [] }]);
    for (const op of [ops.list, ops.detail, ops.registration]) expect(op.security).toEqual([]);
    expect(Object.keys(ops.create.responses)).toContain('201');
    expect(
      Object.keys(ops.detail.responses['200'].content['application/json'].schema.properties.data.properties),
    ).toEqual(expect.arrayContaining([...LIST_FIELDS, 'identity', 'metrics', 'company', 'updatedAt']));
    expect(ops.list.parameters.map((p: { name: string }) => p.name).sort()).toEqual([
      'creator',
      'limit',
      'page',
      'status',
    ]);
  });
});
