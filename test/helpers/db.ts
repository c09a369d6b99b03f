// Test databases: PGlite in memory always, and a throwaway database on a real PostgreSQL server when
// TEST_DATABASE_URL is set. Database suites run once per entry of `testDatabases`. A server database is a copy of the
// run's migrated template when the global setup serves one (test/helpers/broker.ts), so its migrations find nothing
// to do. A PGlite database loads a dump of one migrated in the same process (the worker's first open), which skips
// PGlite's initdb: about 0.5 s of CPU an open instead of 1.4 s, and its queries run as fast (docs/benchmarks.md
// "Test suite"). TEST_DB_TEMPLATE=0 turns both templates off (every database created empty and migrated), to time
// it.
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { type Database, MIGRATIONS_FOLDER, openDatabase } from '../../src/db/client.ts';
import { askBroker } from './broker.ts';

/** Whether files copy the run's migrated templates (TEST_DB_TEMPLATE=0: no, each database is migrated anew). */
export const useDatabaseTemplates = process.env.TEST_DB_TEMPLATE !== '0';

export interface TestDatabase {
  name: 'pglite' | 'postgres';
  open(): Promise<Database>;
}

/**
 * A new database with a random name on the PostgreSQL server at `serverUrl` (a copy of the run's migrated template
 * when `fromTemplate` and the global setup serves one): its URL, and how to drop it.
 */
export async function createServerDatabase(
  serverUrl: string,
  options: { fromTemplate?: boolean } = {},
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `aie_test_${randomBytes(6).toString('hex')}`;
  const template =
    options.fromTemplate && useDatabaseTemplates ? await askBroker<{ name: string }>('/postgres-template') : undefined;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}${template ? ` template ${template.name}` : ''}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** Creates a fresh database on the server of TEST_DATABASE_URL and drops it when closed. */
async function openServerDatabase(serverUrl: string): Promise<Database> {
  const created = await createServerDatabase(serverUrl, { fromTemplate: true });
  const database = await openDatabase({ url: created.url, poolSize: 5 });
  return {
    ...database,
    close: async () => {
      await database.close();
      await created.drop();
    },
  };
}

// A dump of a migrated PGlite data directory, made once a worker process.
let pgliteTemplate: Promise<Blob> | undefined;

async function migratedPgliteDump(): Promise<Blob> {
  const client = await PGlite.create();
  try {
    await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });
    return await client.dumpDataDir('none');
  } finally {
    await client.close();
  }
}

/** A new in-memory PGlite database, migrated. */
async function openPglite(): Promise<Database> {
  if (!useDatabaseTemplates) return openDatabase({});
  pgliteTemplate ??= migratedPgliteDump().catch((err) => {
    pgliteTemplate = undefined;
    throw err;
  });
  return openDatabase({ loadDataDir: await pgliteTemplate });
}

export const testDatabases: TestDatabase[] = [
  { name: 'pglite', open: openPglite },
  ...(process.env.TEST_DATABASE_URL
    ? [{ name: 'postgres' as const, open: () => openServerDatabase(process.env.TEST_DATABASE_URL!) }]
    : []),
];

/** The database an HTTP test runs on: the real server when configured (the production database), else PGlite. */
export const primaryTestDatabase: TestDatabase = testDatabases[testDatabases.length - 1]!;
