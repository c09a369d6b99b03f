// PUT /api/agents/{id} (partial update, persona/strategy merge, status rules) and DELETE /api/agents/{id} (soft,
// idempotent termination): creator checks, 404 before 403, and the shared wallet-signature security suite.
import { createId } from '@paralleldrive/cuid2';
import { eq, sql } from 'drizzle-orm';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { AGENT_DESCRIPTION_MAX, AGENT_NAME_MAX, AGENT_SKILLS_MAX } from '../../src/constants.ts';
import { agents } from '../../src/db/schema/agents.ts';
import { companies } from '../../src/db/schema/companies.ts';
import { useTestApp } from '../helpers/app.ts';
import { mintCard } from '../helpers/companies.ts';
import { type HttpMethod, type MessageSigner, runCommonRouteTests, sendSigned } from '../helpers/security.ts';

const alice = devAccount(5);
const bob = devAccount(6);

const t = useTestApp({ env: { RATE_LIMIT_MAX: '100000' } });

// Each signed call gets its own timestamp, so two identical calls are never refused as a replay.
const signed = (account: MessageSigner, method: HttpMethod, url: string, body?: unknown) =>
  sendSigned({ app: t.app, now: t.container.now }, account, method, url, body);
const put = (id: string, body: unknown, account: MessageSigner = alice) =>
  signed(account, 'PUT', `/api/agents/${id}`, body);
const del = (id: string, account: MessageSigner = alice) => signed(account, 'DELETE', `/api/agents/${id}`);
const detail = async (id: string) => (await t.app.inject({ method: 'GET', url: `/api/agents/${id}` })).json().data;
const freshAddress = () => privateKeyToAccount(generatePrivateKey()).address;

/**
 * A stand-alone agent of alice, created through POST as a client would. Her earlier agents are dated two days back
 * first, so the daily allowance of stand-alone agents (test/attacks/agent-list-spam.test.ts) never refuses one here.
 */
async function postAgent(): Promise<string> {
  await t.database.db
    .update(agents)
    .set({ createdAt: sql`now() - interval '2 days'` })
    .where(eq(agents.creatorAddress, alice.address));
  const res = await signed(alice, 'POST', '/api/agents', {
    name: 'Original',
    description: 'First words.',
    persona: { role: 'CFO', description: 'Careful.' },
    skills: ['defi'],
    strategy: { type: 'yield', preset: 'CONSERVATIVE' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id;
}

async function insertAgent(values: Partial<typeof agents.$inferInsert> = {}) {
  const [row] = await t.database.db
    .insert(agents)
    .values({
      id: createId(),
      name: 'Direct',
      creatorAddress: alice.address,
      persona: { role: 'CFO', description: 'Careful.' },
      skills: ['defi'],
      strategy: { type: 'yield', preset: 'BALANCED' },
      ...values,
    })
    .returning();
  return row!;
}

const rowOf = async (id: string) => (await t.database.db.select().from(agents).where(eq(agents.id, id)))[0]!;

function expectError(res: { statusCode: number; json(): any }, status: number, code: string, message?: RegExp) {
  expect(res.statusCode, JSON.stringify(res.json())).toBe(status);
  const body = res.json();
  expect(body.success).toBe(false);
  expect(body.error.code).toBe(code);
  if (message) expect(body.error.message).toMatch(message);
  return body.error;
}

describe('PUT /api/agents/{id}', () => {
  it('changes only the fields given and answers the detail view; updatedAt moves, createdAt does not', async () => {
    const id = await postAgent();
    const before = await detail(id);
    const res = await put(id, { name: 'Renamed' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'success']);
    const { updatedAt, ...rest } = body.data;
    const { updatedAt: oldUpdatedAt, ...oldRest } = before;
    expect(rest).toEqual({ ...oldRest, name: 'Renamed' });
    expect(Date.parse(updatedAt)).toBeGreaterThan(Date.parse(oldUpdatedAt));
    expect(body.data.createdAt).toBe(before.createdAt);
    expect(await detail(id)).toEqual(body.data);
  });

  it('sets description and replaces skills', async () => {
    const id = await postAgent();
    const res = await put(id, { description: 'd'.repeat(AGENT_DESCRIPTION_MAX), skills: ['a', 'b', 'c'] });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ description: 'd'.repeat(AGENT_DESCRIPTION_MAX), skills: ['a', 'b', 'c'] });
    expect((await put(id, { description: '' })).json().data.description).toBe('');
  });

  it('merges persona key by key; a stand-alone agent’s role follows persona.role', async () => {
    const id = await postAgent();
    let data = (await put(id, { persona: { description: 'Bold now.' } })).json().data;
    expect(data.persona).toEqual({ role: 'CFO', description: 'Bold now.' });
    expect(data.role).toBe('CFO');
    data = (await put(id, { persona: { role: 'cto' } })).json().data;
    expect(data.persona).toEqual({ role: 'cto', description: 'Bold now.' });
    expect(data.role).toBe('CTO');
    data = (await put(id, { persona: { role: 'Trader' } })).json().data;
    expect(data.role).toBeNull();
    data = (await put(id, { persona: { role: 'CRO', description: 'Both.' } })).json().data;
    expect(data.persona).toEqual({ role: 'CRO', description: 'Both.' });
    expect(data.role).toBe('CRO');
  });

  it('keeps the seat role of a company agent when its persona changes', async () => {
    const [company] = await t.database.db
      .insert(companies)
      .values({
        id: createId(),
        name: 'Seat Co',
        slug: `seat-${createId()}`,
        category: 'RWA',
        creatorAddress: alice.address,
        // A card alice really holds: changes to a company's agents check the holder on-chain.
        cardTokenId: Number(await mintCard(t.chain, 5)),
      })
      .returning();
    const row = await insertAgent({ companyId: company!.id, role: 'CFO' });
    const data = (await put(row.id, { persona: { role: 'CMO' } })).json().data;
    expect(data.persona.role).toBe('CMO');
    expect(data.role).toBe('CFO');
    expect(data.company).toMatchObject({ id: company!.id, name: 'Seat Co' });
  });

  it('merges strategy key by key', async () => {
    const id = await postAgent();
    let data = (await put(id, { strategy: { preset: 'AGGRESSIVE' } })).json().data;
    expect(data.strategy).toEqual({ type: 'yield', preset: 'AGGRESSIVE' });
    data = (await put(id, { strategy: { type: 'arbitrage' } })).json().data;
    expect(data.strategy).toEqual({ type: 'arbitrage', preset: 'AGGRESSIVE' });
  });

  it('pauses an agent that is not deployed, but refuses to make it ACTIVE (400 BAD_REQUEST "not deployed yet")', async () => {
    const id = await postAgent();
    expect((await put(id, { status: 'PAUSED' })).json().data.status).toBe('PAUSED');
    const before = await rowOf(id);
    expectError(await put(id, { status: 'ACTIVE', name: 'Never' }), 400, 'BAD_REQUEST', /not deployed yet/);
    const after = await rowOf(id);
    expect(after).toEqual(before);
  });

  it('moves a deployed agent between ACTIVE and PAUSED, from any state but TERMINATED', async () => {
    for (const status of ['PENDING', 'DEPLOYING', 'FAILED', 'PAUSED', 'ACTIVE'] as const) {
      const row = await insertAgent({ status, onChainAddress: freshAddress(), walletIndex: null });
      expect((await put(row.id, { status: 'ACTIVE' })).json().data.status, status).toBe('ACTIVE');
      expect((await put(row.id, { status: 'PAUSED' })).json().data.status).toBe('PAUSED');
      expect((await put(row.id, { status: 'ACTIVE' })).json().data.status).toBe('ACTIVE');
    }
  });

  it('answers 400 VALIDATION_ERROR for a status other than ACTIVE or PAUSED', async () => {
    const id = await postAgent();
    for (const status of ['TERMINATED', 'PENDING', 'DEPLOYING', 'FAILED', 'active', '', null]) {
      const error = expectError(await put(id, { status }), 400, 'VALIDATION_ERROR');
      expect(error.details.map((d: { path: string }) => d.path)).toContain('body.status');
      if (typeof status === 'string') expect(error.message).toContain('ACTIVE, PAUSED');
    }
    expect((await detail(id)).status).toBe('PENDING');
  });

  it('answers 400 VALIDATION_ERROR for bad bodies: empty, unknown fields, bounds', async () => {
    const id = await postAgent();
    const cases: [unknown, string][] = [
      [{}, 'body'],
      [{ persona: {} }, 'body.persona'],
      [{ strategy: {} }, 'body.strategy'],
      [{ color: 'red' }, 'body.color'],
      [{ name: 'ok', creatorAddress: bob.address }, 'body.creatorAddress'],
      [{ persona: { role: 'CFO', mood: 'calm' } }, 'body.persona.mood'],
      [{ strategy: { preset: 'BALANCED', risk: 1 } }, 'body.strategy.risk'],
      [{ name: '' }, 'body.name'],
      [{ name: 'n'.repeat(AGENT_NAME_MAX + 1) }, 'body.name'],
      [{ description: 'd'.repeat(AGENT_DESCRIPTION_MAX + 1) }, 'body.description'],
      [{ skills: [] }, 'body.skills'],
      [{ skills: Array.from({ length: AGENT_SKILLS_MAX + 1 }, (_, i) => `s${i}`) }, 'body.skills'],
      [{ skills: ['s'.repeat(101)] }, 'body.skills.0'],
      [{ strategy: { preset: 'YOLO' } }, 'body.strategy.preset'],
      [{ persona: { role: '' } }, 'body.persona.role'],
    ];
    for (const [body, path] of cases) {
      const error = expectError(await put(id, body), 400, 'VALIDATION_ERROR');
      expect(
        error.details.map((d: { path: string }) => d.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    expect((await detail(id)).name).toBe('Original');
    // Just inside the bounds.
    expect((await put(id, { name: 'n'.repeat(AGENT_NAME_MAX) })).statusCode).toBe(200);
    expect((await put(id, { name: 'n' })).statusCode).toBe(200);
    expect((await put(id, { skills: Array.from({ length: AGENT_SKILLS_MAX }, (_, i) => `s${i}`) })).statusCode).toBe(
      200,
    );
  });

  it('answers 403 FORBIDDEN to another signer and changes nothing', async () => {
    const id = await postAgent();
    const before = await rowOf(id);
    expectError(await put(id, { name: 'Hijacked' }, bob), 403, 'FORBIDDEN', /Only the creator/);
    expectError(await put(id, { status: 'PAUSED' }, bob), 403, 'FORBIDDEN');
    expect(await rowOf(id)).toEqual(before);
  });

  it('compares the creator case-insensitively', async () => {
    const row = await insertAgent({ creatorAddress: alice.address.toLowerCase() });
    expect((await put(row.id, { name: 'Mine' })).statusCode).toBe(200);
    expectError(await put(row.id, { name: 'Not mine' }, bob), 403, 'FORBIDDEN');
  });

  it('answers 404 NOT_FOUND for an unknown id, whoever signs', async () => {
    const id = createId();
    expectError(await put(id, { name: 'x' }), 404, 'NOT_FOUND', /not found/);
    expectError(await put(id, { name: 'x' }, bob), 404, 'NOT_FOUND');
  });

  it('answers 400 BAD_REQUEST for a TERMINATED agent and changes nothing', async () => {
    const id = await postAgent();
    expect((await del(id)).statusCode).toBe(200);
    const before = await rowOf(id);
    for (const body of [{ name: 'Zombie' }, { status: 'ACTIVE' }, { status: 'PAUSED' }]) {
      expectError(await put(id, body), 400, 'BAD_REQUEST', /TERMINATED.*cannot be updated/);
    }
    expect(await rowOf(id)).toEqual(before);
    // The creator check still comes first.
    expectError(await put(id, { name: 'Zombie' }, bob), 403, 'FORBIDDEN');
  });

  it('never revives an agent terminated at the same moment', async () => {
    for (let i = 0; i < 3; i++) {
      const row = await insertAgent({ onChainAddress: freshAddress() });
      const [update, termination] = await Promise.all([put(row.id, { status: 'ACTIVE' }), del(row.id)]);
      expect(termination.statusCode).toBe(200);
      expect([200, 400]).toContain(update.statusCode);
      expect((await rowOf(row.id)).status).toBe('TERMINATED');
    }
  });

  runCommonRouteTests(
    () => ({ app: t.app, now: t.container.now }),
    () => ({ method: 'PUT', url: `/api/agents/${createId()}`, body: { name: 'Secure', status: 'PAUSED' } }),
  );
});

describe('DELETE /api/agents/{id}', () => {
  it('terminates softly: answers { id, status: TERMINATED } and keeps the record', async () => {
    const id = await postAgent();
    const before = await detail(id);
    const res = await del(id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { id, status: 'TERMINATED' } });
    const after = await detail(id);
    expect(after).toMatchObject({ ...before, status: 'TERMINATED', updatedAt: after.updatedAt });
    expect(Date.parse(after.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
    const listed = (
      await t.app.inject({ method: 'GET', url: `/api/agents?status=TERMINATED&creator=${alice.address}&limit=100` })
    ).json();
    expect(listed.data.map((a: { id: string }) => a.id)).toContain(id);
    for (const a of listed.data) expect(a.status).toBe('TERMINATED');
  });

  it('is idempotent: terminating again answers the same and changes nothing', async () => {
    const id = await postAgent();
    const first = await del(id);
    const row = await rowOf(id);
    const second = await del(id);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    expect(await rowOf(id)).toEqual(row);
  });

  it('answers 403 FORBIDDEN to another signer and leaves the agent as it was', async () => {
    const row = await insertAgent({ status: 'ACTIVE', onChainAddress: freshAddress() });
    expectError(await del(row.id, bob), 403, 'FORBIDDEN', /Only the creator/);
    expect((await rowOf(row.id)).status).toBe('ACTIVE');
    expect((await del(row.id)).statusCode).toBe(200);
  });

  it('answers 404 NOT_FOUND for an unknown id, whoever signs', async () => {
    const id = createId();
    expectError(await del(id), 404, 'NOT_FOUND');
    expectError(await del(id, bob), 404, 'NOT_FOUND');
  });

  runCommonRouteTests(
    () => ({ app: t.app, now: t.container.now }),
    () => ({ method: 'DELETE', url: `/api/agents/${createId()}` }),
  );
});
