// Test databases: PGlite in memory always, and a throwaway database on a real PostgreSQL server when
// TEST_DATABASE_URL is set. Database suites run once per entry of `testDatabases`.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openDatabase } from '../../src/db/client.ts';

export interface TestDatabase {
  name: 'pglite' | 'postgres';
  open(): Promise<Database>;
}

/** Creates a fresh database on the server of TEST_DATABASE_URL and drops it when closed. */
async function openServerDatabase(url: string): Promise<Database> {
  const name = `aie_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${name}`;
  const database = await openDatabase({ url: dbUrl.toString(), poolSize: 5 });
  return {
    ...database,
    close: async () => {
      await database.close();
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export const testDatabases: TestDatabase[] = [
  { name: 'pglite', open: () => openDatabase({}) },
  ...(process.env.TEST_DATABASE_URL
    ? [{ name: 'postgres' as const, open: () => openServerDatabase(process.env.TEST_DATABASE_URL!) }]
    : []),
];

/** The database an HTTP test runs on: the real server when configured (the production database), else PGlite. */
export const primaryTestDatabase: TestDatabase = testDatabases[testDatabases.length - 1]!;
