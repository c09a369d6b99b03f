// Fault: the process answering a keyed write dies between the write's commit and the answer, or the
// database refuses to store the answer. The client never heard back and retries under the same Idempotency-Key
// once the reservation went stale. At every write route that takes a key, the retry gets the first answer again,
// and nothing is created twice: the creating routes (an agent, a company, a decision round) answer from their
// recovery point without running again; the others are idempotent by their own rules and end in the same state.
// A kill leaves the key as it was when the handler's write committed: reserved, unanswered, with whatever the write
// recorded with it. The test puts the key in that state (its answer erased, its reservation aged past
// IDEMPOTENCY_IN_PROGRESS_STALE_MS), which is what a SIGKILL after the commit leaves in the database.
// Then a database that refuses the answer's storage or the key's release, and comes back: the key is settled on a
// later try, so the retry is answered (or runs) at once instead of facing 409 IDEMPOTENCY_KEY_IN_USE for 60 s.
import { randomUUID } from 'node:crypto';
import { and, count, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { IDEMPOTENCY_IN_PROGRESS_STALE_MS } from '../../src/constants.ts';
import { agents } from '../../src/db/schema/agents.ts';
import { idempotencyKeys } from '../../src/db/schema/auth.ts';
import { companies } from '../../src/db/schema/companies.ts';
import { decisionRounds } from '../../src/db/schema/decisions.ts';
import { startRound } from '../../src/domain/engine/pipeline.ts';
import { useTestApp } from '../helpers/app.ts';
import { companyBody, mintCard, staffedCompany } from '../helpers/companies.ts';
import { type HttpMethod, serializeBody, signedRequest } from '../helpers/security.ts';

const t = useTestApp({ env: { MANUAL_ROUND_COOLDOWN_S: '0' } });
const SIGNER = 3;
const signer = devAccount(SIGNER);

const startS = Math.floor(Date.now() / 1000);
let tsBack = 0;
/** One signed request with an Idempotency-Key; each call signs anew (a client re-signs its retry). */
async function keyed(method: HttpMethod, url: string, key: string, body?: unknown) {
  const headers = await signedRequest(signer, method, url, body, startS - tsBack++);
  const payload = serializeBody(body);
  return t.app.inject({
    method,
    url,
    headers: { ...headers, 'idempotency-key': key },
    ...(payload === undefined ? {} : { payload }),
  });
}

const ofKey = (key: string) =>
  and(eq(idempotencyKeys.signer, signer.address.toLowerCase()), eq(idempotencyKeys.key, key));

/** What a kill between the write's commit and the answer leaves: the key reserved, unanswered, and now stale. */
async function killedBeforeAnswer(key: string) {
  const rows = await t.database.db
    .update(idempotencyKeys)
    .set({
      status: null,
      headers: null,
      body: null,
      lockedAt: new Date(Date.now() - IDEMPOTENCY_IN_PROGRESS_STALE_MS - 1000),
    })
    .where(ofKey(key))
    .returning();
  expect(rows).toHaveLength(1);
}

const countOf = async (query: Promise<{ n: number }[]>) => (await query)[0]!.n;
const agentsOfSigner = () =>
  countOf(t.database.db.select({ n: count() }).from(agents).where(eq(agents.creatorAddress, signer.address)));
const companiesOfSigner = () =>
  countOf(t.database.db.select({ n: count() }).from(companies).where(eq(companies.creatorAddress, signer.address)));
const roundsOf = (companyId: string) =>
  countOf(t.database.db.select({ n: count() }).from(decisionRounds).where(eq(decisionRounds.companyId, companyId)));

let company: { id: string };
let agentId: string;
beforeAll(async () => {
  company = await staffedCompany(t, SIGNER, { treasuryAddress: signer.address });
  const [cfo] = await t.database.db.select().from(agents).where(eq(agents.companyId, company.id));
  agentId = cfo!.id;
});

/** The answer's data without the time of its last change: a route that re-applies a change moves only that. */
const withoutUpdatedAt = (data: Record<string, unknown>) => ({ ...data, updatedAt: undefined });

/**
 * Sends, kills before the answer, retries: the retry answers as the first did. `reapplies`: the route records no
 * recovery point and runs again (idempotent by its own rules), so only the time of the change may differ.
 */
async function killAndRetry(method: HttpMethod, url: string, body?: unknown, reapplies = false) {
  const key = randomUUID();
  const first = await keyed(method, url, key, body);
  expect(first.statusCode, first.body).toBeLessThan(300);
  await killedBeforeAnswer(key);
  const retry = await keyed(method, url, key, body);
  expect(retry.statusCode, retry.body).toBe(first.statusCode);
  if (reapplies) expect(withoutUpdatedAt(retry.json().data)).toEqual(withoutUpdatedAt(first.json().data));
  else expect(retry.json().data).toEqual(first.json().data);
  // The retry's answer is kept: a third try is a plain replay.
  const again = await keyed(method, url, key, body);
  expect(again.headers['idempotent-replayed']).toBe('true');
  expect(again.json().data).toEqual(retry.json().data);
  return { first, retry };
}

describe('a keyed write whose process died between its commit and its answer', () => {
  it('POST /api/agents: the retry answers the agent created, and no second agent exists', async () => {
    const before = await agentsOfSigner();
    const body = {
      name: 'Kill Probe',
      persona: { role: 'analyst', description: 'x' },
      skills: ['a'],
      strategy: { type: 'hold', preset: 'CONSERVATIVE' },
    };
    const { first } = await killAndRetry('POST', '/api/agents', body);
    expect(await agentsOfSigner()).toBe(before + 1);
    expect(first.json().data.name).toBe('Kill Probe');
  });

  it('POST /api/companies: the retry answers the company created, and its card binds no second one', async () => {
    await mintCard(t.chain, SIGNER);
    await mintCard(t.chain, SIGNER);
    const before = await companiesOfSigner();
    const { first } = await killAndRetry('POST', '/api/companies', companyBody());
    expect(first.statusCode).toBe(201);
    // A second card was free: a run again would have bound it to a second company.
    expect(await companiesOfSigner()).toBe(before + 1);
  });

  it('POST /api/companies/{id}/decisions/run: the retry answers the round run, and no second round runs', async () => {
    const before = await roundsOf(company.id);
    const { first } = await killAndRetry('POST', `/api/companies/${company.id}/decisions/run`);
    expect(first.statusCode).toBe(201);
    expect(await roundsOf(company.id)).toBe(before + 1);
  });

  it('PUT /api/agents/{id}, PATCH /api/companies/{id} and deploy-suite: the retry re-applies to the same state', async () => {
    await killAndRetry('PUT', `/api/agents/${agentId}`, { description: 'changed under a key' }, true);
    await killAndRetry('PATCH', `/api/companies/${company.id}`, { ceoPrompt: 'Grow steadily.' }, true);
    const staff = await countOf(
      t.database.db.select({ n: count() }).from(agents).where(eq(agents.companyId, company.id)),
    );
    await killAndRetry('POST', `/api/companies/${company.id}/deploy-suite`, undefined, true);
    expect(
      await countOf(t.database.db.select({ n: count() }).from(agents).where(eq(agents.companyId, company.id))),
    ).toBe(staff);
  });

  it('DELETE /api/agents/{id}: the retry answers the same termination', async () => {
    const create = await keyed('POST', '/api/agents', randomUUID(), {
      name: 'Doomed',
      persona: { role: 'analyst', description: 'x' },
      skills: ['a'],
      strategy: { type: 'hold', preset: 'CONSERVATIVE' },
    });
    await killAndRetry('DELETE', `/api/agents/${create.json().data.id}`);
  });
});

describe('a database that refuses to settle a key, then comes back', () => {
  const refuse = async (when: 'UPDATE' | 'DELETE') => {
    await t.database.db.execute(
      sql.raw(`create or replace function refuse_settle() returns trigger language plpgsql as $$
        begin raise exception 'database unavailable (test)'; end $$`),
    );
    await t.database.db.execute(
      sql.raw(`create trigger refuse_settle before ${when} on idempotency_keys for each row
        ${when === 'UPDATE' ? 'when (new.status is not null)' : ''} execute function refuse_settle()`),
    );
  };
  const restore = () => t.database.db.execute(sql.raw('drop trigger if exists refuse_settle on idempotency_keys'));
  const rowOf = async (key: string) => (await t.database.db.select().from(idempotencyKeys).where(ofKey(key)))[0];

  it('stores the answer on a later try, so a client that lost the 201 gets it replayed, not a second agent', async () => {
    const key = randomUUID();
    const body = {
      name: 'Blip Probe',
      persona: { role: 'analyst', description: 'x' },
      skills: ['a'],
      strategy: { type: 'hold', preset: 'CONSERVATIVE' },
    };
    const before = await agentsOfSigner();
    await refuse('UPDATE');
    let first: Awaited<ReturnType<typeof keyed>>;
    try {
      first = await keyed('POST', '/api/agents', key, body);
      expect(first.statusCode).toBe(201);
      expect((await rowOf(key))?.status).toBeNull();
    } finally {
      await restore();
    }
    await expect.poll(async () => (await rowOf(key))?.status, { timeout: 5000 }).toBe(201);
    const retry = await keyed('POST', '/api/agents', key, body);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json().data).toEqual(first.json().data);
    expect(await agentsOfSigner()).toBe(before + 1);
  });

  it('releases a key whose request failed on a later try, so the retry runs at once instead of 409 for 60 s', async () => {
    const key = randomUUID();
    const url = `/api/companies/${company.id}/decisions/run`;
    // A round of the company is running: the keyed run answers 409 CONFLICT, not a final answer, so its key is given up.
    const running = await startRound(t.container, company.id, 'SCHEDULED');
    await refuse('DELETE');
    try {
      const res = await keyed('POST', url, key);
      expect(res.statusCode).toBe(409);
      expect(res.json().error.code).toBe('CONFLICT');
      expect(await rowOf(key)).toBeDefined();
    } finally {
      await restore();
    }
    await t.database.db.update(decisionRounds).set({ status: 'FAILED' }).where(eq(decisionRounds.id, running.id));
    await expect.poll(async () => rowOf(key), { timeout: 5000 }).toBeUndefined();
    const retry = await keyed('POST', url, key);
    expect(retry.statusCode, retry.body).toBe(201);
  });
});
