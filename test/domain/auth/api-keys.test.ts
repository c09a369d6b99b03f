import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Database, rowsOf } from '../../../src/db/client.ts';
import { apiKeys } from '../../../src/db/schema/auth.ts';
import {
  API_KEY_PATTERN,
  createApiKey,
  createApiKeyVerifier,
  hashApiKey,
  listApiKeys,
  revokeApiKey,
} from '../../../src/domain/auth/api-keys.ts';
import { testDatabases } from '../../helpers/db.ts';

describe.each(testDatabases)('API keys on $name', (testDatabase) => {
  let database: Database;
  beforeAll(async () => {
    database = await testDatabase.open();
  });
  afterAll(async () => {
    await database?.close();
  });
  beforeEach(async () => {
    await database.db.delete(apiKeys);
  });

  describe('createApiKey', () => {
    it('creates a key of the form aie_ + 43 base64url characters, different each time', async () => {
      const a = await createApiKey(database.db, 'ci');
      const b = await createApiKey(database.db, 'ci');
      expect(a.key).toMatch(/^aie_[A-Za-z0-9_-]{43}$/);
      expect(a.key).toMatch(API_KEY_PATTERN);
      expect(a.key).not.toBe(b.key);
      expect(a.id).not.toBe(b.id);
      expect(a.name).toBe('ci');
      expect(a.revokedAt).toBeNull();
      expect(a.key.startsWith(a.prefix)).toBe(true);
      expect(a.prefix).toMatch(/^aie_.{6}$/);
    });

    it('stores only the sha256 of the key: no column of any row holds the key', async () => {
      const { key, id } = await createApiKey(database.db, 'partner');
      const rows = rowsOf<Record<string, unknown>>(await database.db.execute(sql`select * from api_keys`));
      expect(rows).toHaveLength(1);
      const dump = JSON.stringify(rows);
      expect(dump).not.toContain(key);
      expect(dump).not.toContain(key.slice(4)); // nor its random part
      expect(rows[0]!.id).toBe(id);
      expect(rows[0]!.key_hash).toBe(createHash('sha256').update(key).digest('hex'));
      expect(rows[0]!.key_hash).toBe(hashApiKey(key));
    });

    it('trims the name and refuses an empty or over-long one', async () => {
      expect((await createApiKey(database.db, '  ops  ')).name).toBe('ops');
      await expect(createApiKey(database.db, '   ')).rejects.toThrow(/1-100 characters/);
      await expect(createApiKey(database.db, 'x'.repeat(101))).rejects.toThrow(/1-100 characters/);
      expect((await createApiKey(database.db, 'x'.repeat(100))).name).toHaveLength(100);
    });
  });

  describe('listApiKeys', () => {
    it('lists id, name, prefix and dates, newest first, never the key or its hash', async () => {
      const first = await createApiKey(database.db, 'first');
      const second = await createApiKey(database.db, 'second');
      const list = await listApiKeys(database.db);
      expect(list.map((k) => k.name)).toEqual(['second', 'first']);
      for (const [record, created] of [
        [list[0]!, second],
        [list[1]!, first],
      ] as const) {
        expect(Object.keys(record).sort()).toEqual(['createdAt', 'id', 'name', 'prefix', 'revokedAt']);
        expect(record.prefix).toBe(created.prefix);
        expect(record.createdAt).toBeInstanceOf(Date);
        expect(JSON.stringify(record)).not.toContain(created.key);
        expect(JSON.stringify(record)).not.toContain(hashApiKey(created.key));
      }
    });
  });

  describe('listApiKeys order', () => {
    it('lists keys made at the same database time (one transaction, or one tick of a coarse clock) newest first', async () => {
      const [a, b] = await database.db.transaction(async (tx) => [
        await createApiKey(tx, 'same-tick-a'),
        await createApiKey(tx, 'same-tick-b'),
      ]);
      const names = (await listApiKeys(database.db)).map((k) => k.name);
      expect(names.indexOf('same-tick-b')).toBeLessThan(names.indexOf('same-tick-a'));
      expect([a!.name, b!.name]).toEqual(['same-tick-a', 'same-tick-b']);
    });
  });

  describe('revokeApiKey', () => {
    it('revokes an active key once; unknown ids and second revocations answer false', async () => {
      const { id } = await createApiKey(database.db, 'old');
      expect(await revokeApiKey(database.db, id)).toBe(true);
      expect(await revokeApiKey(database.db, id)).toBe(false);
      expect(await revokeApiKey(database.db, 'no-such-id')).toBe(false);
      const [record] = await listApiKeys(database.db);
      expect(record!.revokedAt).toBeInstanceOf(Date);
    });
  });

  describe('createApiKeyVerifier', () => {
    it('verifies an active key to its id and name', async () => {
      const created = await createApiKey(database.db, 'svc');
      const verifier = createApiKeyVerifier(database.db, { cacheMs: 0 });
      expect(await verifier.verify(created.key)).toEqual({ id: created.id, name: 'svc' });
    });

    it('answers null for unknown and malformed keys', async () => {
      const created = await createApiKey(database.db, 'svc');
      const verifier = createApiKeyVerifier(database.db, { cacheMs: 0 });
      const last = created.key.at(-1) === 'A' ? 'B' : 'A';
      for (const key of [
        `aie_${'A'.repeat(43)}`, // well-formed, unknown
        created.key.slice(0, -1) + last, // one character off
        created.key.slice(0, -1), // too short
        `${created.key}A`, // too long
        created.key.replace('aie_', 'AIE_'),
        created.key.replace('aie_', 'sk_'),
        ` ${created.key}`,
        created.prefix,
        hashApiKey(created.key),
        '',
      ]) {
        expect(await verifier.verify(key), key).toBeNull();
      }
    });

    it('stops accepting a revoked key once the cache is cleared', async () => {
      const created = await createApiKey(database.db, 'svc');
      const verifier = createApiKeyVerifier(database.db, { cacheMs: 60_000 });
      expect(await verifier.verify(created.key)).not.toBeNull();
      await revokeApiKey(database.db, created.id);
      expect(await verifier.verify(created.key)).not.toBeNull(); // still cached
      verifier.clear();
      expect(await verifier.verify(created.key)).toBeNull();
    });

    it('stops accepting a revoked key when the cache TTL passes (injected clock)', async () => {
      let clock = 1_000_000;
      const created = await createApiKey(database.db, 'svc');
      const verifier = createApiKeyVerifier(database.db, { cacheMs: 10_000, now: () => clock });
      expect(await verifier.verify(created.key)).not.toBeNull();
      await revokeApiKey(database.db, created.id);
      clock += 9_999;
      expect(await verifier.verify(created.key)).not.toBeNull();
      clock += 1;
      expect(await verifier.verify(created.key)).toBeNull();
    });

    it('accepts a key created elsewhere once a cached "unknown" answer expires', async () => {
      let clock = 0;
      const verifier = createApiKeyVerifier(database.db, { cacheMs: 1000, now: () => clock });
      const key = `aie_${randomBytes(32).toString('base64url')}`;
      expect(await verifier.verify(key)).toBeNull();
      // Another process (the CLI) stores the key after this one asked about it.
      await database.db
        .insert(apiKeys)
        .values({ id: 'k1', name: 'late', prefix: key.slice(0, 10), keyHash: hashApiKey(key) });
      expect(await verifier.verify(key)).toBeNull(); // the cached answer
      clock += 1000;
      expect(await verifier.verify(key)).toEqual({ id: 'k1', name: 'late' });
    });

    it('anyActive tells whether any unrevoked key exists', async () => {
      let clock = 0;
      const verifier = createApiKeyVerifier(database.db, { cacheMs: 1000, now: () => clock });
      expect(await verifier.anyActive()).toBe(false);
      const created = await createApiKey(database.db, 'svc');
      expect(await verifier.anyActive()).toBe(false); // cached
      clock += 1000;
      expect(await verifier.anyActive()).toBe(true);
      await revokeApiKey(database.db, created.id);
      verifier.clear();
      expect(await verifier.anyActive()).toBe(false);
      await createApiKey(database.db, 'again');
      verifier.clear();
      expect(await verifier.anyActive()).toBe(true);
    });
  });
});
