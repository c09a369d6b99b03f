// A new or revoked API key took up to API_KEY_CACHE_MS (10 s) to count: creating the first key left the
// event stream open that long, and a revoked key kept working. Now creating and revoking clear the verifier's cache in
// the process at once, and on every other process through a database notification (API_KEYS_CHANNEL; PGlite has one
// process, where the notification arrives in-process all the same).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, revokeApiKey } from '../../src/domain/auth/api-keys.ts';
import { startTestApp, type TestApp, useTestApp } from '../helpers/app.ts';

const ADMIN = 'admin-secret-for-the-test-0123456789';
// An hour of cache: only the clearing can make a change count within the test.
const env = { API_KEY_CACHE_MS: '3600000', ADMIN_SECRET: ADMIN };
const t = useTestApp({ env });
let other: TestApp;

beforeAll(async () => {
  other = await startTestApp({ database: t.database, chain: t.chain, env });
});
afterAll(async () => {
  await other?.close();
});

const read = (app: TestApp, key: string) =>
  app.app.inject({ method: 'GET', url: '/api/v1/tokens', headers: { 'x-api-key': key } });
const settle = () => t.database.caughtUp();

describe('an API key created or revoked', () => {
  it('counts at once in the process that changed it and in another one on the same database', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/api-keys',
      headers: { authorization: `Bearer ${ADMIN}` },
      payload: { name: 'first' },
    });
    expect(res.statusCode).toBe(201);
    const { id, key } = res.json().data as { id: string; key: string };
    // Both processes had cached "no such key" before? Ask first, as a client would have.
    expect((await read(t, key)).statusCode).toBe(200);
    expect((await read(other, key)).statusCode).toBe(200);

    const revoked = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/api-keys/${id}`,
      headers: { authorization: `Bearer ${ADMIN}` },
    });
    expect(revoked.statusCode).toBe(200);
    expect((await read(t, key)).statusCode).toBe(401);
    await settle();
    expect((await read(other, key)).statusCode).toBe(401);
  });

  it('from the command line straight on the database (no route), counts at once in every process', async () => {
    const created = await createApiKey(t.database.db, 'cli');
    const unknown = `${created.key.slice(0, -1)}${created.key.endsWith('A') ? 'B' : 'A'}`;
    expect((await read(other, unknown)).statusCode).toBe(401);
    expect((await read(other, created.key)).statusCode).toBe(200);
    expect((await read(t, created.key)).statusCode).toBe(200);
    expect(await revokeApiKey(t.database.db, created.id)).toBe(true);
    await settle();
    expect((await read(t, created.key)).statusCode).toBe(401);
    expect((await read(other, created.key)).statusCode).toBe(401);
  });
});
