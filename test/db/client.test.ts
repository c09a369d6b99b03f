// The database layer on each test database: migrations apply, re-apply as a no-op, and run once when two
// processes start together; transactions roll back as a whole.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase, rowsOf } from '../../src/db/client.ts';
import { apiKeys } from '../../src/db/schema/auth.ts';
import { testDatabases } from '../helpers/db.ts';

describe.each(testDatabases)('database on $name', ({ name, open }) => {
  let database: Database;
  beforeAll(async () => {
    database = await open();
  });
  afterAll(async () => {
    await database?.close();
  });

  it('applies the migrations: the tables exist with their indexes', async () => {
    const tables = rowsOf<{ tablename: string }>(
      await database.db.execute(sql`select tablename from pg_tables where schemaname = 'public' order by tablename`),
    ).map((r) => r.tablename);
    expect(tables).toEqual(expect.arrayContaining(['api_keys', 'signature_replays']));
    const indexes = rowsOf<{ indexname: string }>(
      await database.db.execute(sql`select indexname from pg_indexes where schemaname = 'public'`),
    ).map((r) => r.indexname);
    expect(indexes).toEqual(expect.arrayContaining(['api_keys_key_hash_unique', 'signature_replays_expires_idx']));
  });

  it('rolls a failed transaction back as a whole', async () => {
    await expect(
      database.db.transaction(async (tx) => {
        await tx.insert(apiKeys).values({ id: 'k1', name: 'a', prefix: 'aie_x', keyHash: 'h1' });
        await tx.insert(apiKeys).values({ id: 'k2', name: 'b', prefix: 'aie_y', keyHash: 'h1' });
      }),
    ).rejects.toThrow();
    const rows = await database.db.select().from(apiKeys).where(sql`${apiKeys.id} in ('k1', 'k2')`);
    expect(rows).toEqual([]);
  });

  it('answers ping', async () => {
    await expect(database.ping()).resolves.toBeUndefined();
  });

  if (name === 'postgres') {
    it('migrates once when several processes open the same database together', async () => {
      const url = new URL(process.env.TEST_DATABASE_URL!);
      const dbName = `aie_test_mig_${Date.now()}`;
      await database.db.execute(sql.raw(`create database ${dbName}`));
      url.pathname = `/${dbName}`;
      try {
        const opened = await Promise.all([1, 2, 3].map(() => openDatabase({ url: url.toString(), poolSize: 2 })));
        const migrations = rowsOf<{ n: string }>(
          await opened[0]!.db.execute(sql`select count(*)::text as n from drizzle.__drizzle_migrations`),
        );
        expect(Number(migrations[0]!.n)).toBeGreaterThan(0);
        for (const d of opened) await d.close();
        // Opening again applies nothing new.
        const again = await openDatabase({ url: url.toString(), poolSize: 1 });
        const after = rowsOf<{ n: string }>(
          await again.db.execute(sql`select count(*)::text as n from drizzle.__drizzle_migrations`),
        );
        expect(after[0]!.n).toBe(migrations[0]!.n);
        await again.close();
      } finally {
        await database.db.execute(sql.raw(`drop database if exists ${dbName} with (force)`));
      }
    });
  }
});

describe('PGlite on disk', () => {
  it('keeps data across a reopen of the same directory', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(`${tmpdir()}/aie-pglite-`);
    try {
      const first = await openDatabase({ dataDir: dir });
      await first.db.insert(apiKeys).values({ id: 'persist', name: 'p', prefix: 'aie_p', keyHash: 'hp' });
      await first.close();
      const second = await openDatabase({ dataDir: dir });
      // A second opener of a directory in use is refused: PGlite has no lock of its own.
      await expect(openDatabase({ dataDir: dir })).rejects.toThrow(/is in use by process/);
      const rows = await second.db.select().from(apiKeys);
      expect(rows.map((r) => r.id)).toEqual(['persist']);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
