// The sharing of identical reads through the real routes : concurrent identical requests all get the full
// answer, v1 bodies each with their own valid meta.timestamp, and a read started before a write never answers a
// request sent after it.
import { createId } from '@paralleldrive/cuid2';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import { agents } from '../../src/db/schema/agents.ts';
import { companies } from '../../src/db/schema/companies.ts';
import { createApiKey } from '../../src/domain/auth/api-keys.ts';
import { useTestApp } from '../helpers/app.ts';

const t = useTestApp({ env: { RATE_LIMIT_MAX: '100000' } });
const freshAddress = () => privateKeyToAccount(generatePrivateKey()).address;

let apiKey: string;
let nextCard = 7000;
async function insertCompany(league: 'MACHINE' | 'HUMAN') {
  const id = createId();
  await t.database.db.insert(companies).values({
    id,
    name: `Shared ${id}`,
    slug: `shared-${id}`,
    category: 'RWA',
    league,
    creatorAddress: freshAddress(),
    cardTokenId: nextCard++,
  });
  return id;
}

async function insertAgent(creatorAddress: string) {
  const [row] = await t.database.db
    .insert(agents)
    .values({
      id: createId(),
      name: 'Shared agent',
      creatorAddress,
      persona: { role: 'Analyst', description: 'Reads.' },
      skills: ['charts'],
      strategy: { type: 'momentum', preset: 'BALANCED' },
    })
    .returning();
  return row!;
}

beforeAll(async () => {
  apiKey = (await createApiKey(t.database.db, 'sharing')).key;
});

describe('identical concurrent reads', () => {
  it('GET /api/v1/fortune: every request gets the whole page and its own meta.timestamp', async () => {
    for (let i = 0; i < 3; i++) await insertCompany('HUMAN');
    const started = Date.now();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.app.inject({ method: 'GET', url: '/api/v1/fortune?league=HUMAN&limit=2', headers: { 'x-api-key': apiKey } }),
      ),
    );
    const bodies = responses.map((res) => {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['x-request-id']).toEqual(expect.any(String));
      return res.json();
    });
    const ids = new Set(responses.map((res) => res.headers['x-request-id']));
    expect(ids.size).toBe(20);
    for (const body of bodies) {
      expect(Object.keys(body)).toEqual(['data', 'pagination', 'meta']);
      expect(body.data).toEqual(bodies[0].data);
      expect(body.data.map((d: { rank: number }) => d.rank)).toEqual([1, 2]);
      expect(body.pagination).toEqual({ page: 1, limit: 2, total: 3, hasMore: true, nextCursor: expect.any(String) });
      expect(body.meta.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(Date.parse(body.meta.timestamp)).toBeGreaterThanOrEqual(started - 1);
    }
  });

  it('GET /api/agents: a request sent after a write sees it, even while a read from before is running', async () => {
    const creator = freshAddress();
    const url = `/api/agents?creator=${creator}`;
    const before = t.app.inject({ method: 'GET', url });
    const written = await insertAgent(creator);
    const after = await Promise.all([t.app.inject({ method: 'GET', url }), t.app.inject({ method: 'GET', url })]);
    expect((await before).statusCode).toBe(200);
    for (const res of after) {
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.data.map((a: { id: string }) => a.id)).toEqual([written.id]);
      expect(body.pagination).toEqual({ page: 1, limit: 20, total: 1, hasMore: false });
    }
  });

  it('GET /api/companies/{id}: concurrent reads of one company all answer it, and an unknown one 404 each', async () => {
    const id = await insertCompany('MACHINE');
    const found = await Promise.all(
      Array.from({ length: 5 }, () => t.app.inject({ method: 'GET', url: `/api/companies/${id}` })),
    );
    for (const res of found) {
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ id, agents: [] });
    }
    const missing = await Promise.all(
      Array.from({ length: 3 }, () => t.app.inject({ method: 'GET', url: '/api/companies/no-such-company' })),
    );
    for (const res of missing) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
    }
  });
});
