// The database: a node-postgres pool when a URL is given, embedded PGlite otherwise. Both speak PostgreSQL,
// share one Drizzle schema and one set of migrations, which are applied here under an advisory lock.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A database handle or an open transaction on it: data-access functions accept either. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;

export interface Database {
  db: Db;
  kind: 'postgres' | 'pglite';
  /** The connections a process holds at most (PGlite serves one query at a time: 1). */
  poolSize: number;
  /** Runs a trivial query; throws when the database does not answer. */
  ping(): Promise<void>;
  /**
   * Calls `onNotify` with the payload of every NOTIFY on `channel`, delivered when the notifying transaction
   * commits; resolves once listening and returns the function that stops. On PostgreSQL one dedicated connection
   * (outside the pool) carries every channel and reconnects after a loss; what was notified meanwhile is lost, so
   * each listener is then called once with an empty payload to catch up by reading.
   */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  /**
   * Resolves once every NOTIFY committed before the call has been handed to the listeners (a round trip on the
   * listening connection: PostgreSQL delivers pending notifications before it reports the query done). Rejects
   * while that connection is lost, when notifications may have been missed.
   */
  caughtUp(): Promise<void>;
  close(): Promise<void>;
}

export const MIGRATIONS_FOLDER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
/** Advisory lock key held while migrating, so replicas starting together migrate once. */
const MIGRATION_LOCK_KEY = 7_214_001;

export interface DatabaseOptions {
  /** PostgreSQL URL; when absent PGlite is used. */
  url?: string | undefined;
  /** PGlite data directory; when absent PGlite keeps everything in memory. */
  dataDir?: string | undefined;
  /**
   * PGlite only: a dump of a data directory (PGlite's `dumpDataDir`) to start from instead of an empty one; the
   * migrations then apply only what it lacks. The tests start their in-memory databases from a migrated one.
   */
  loadDataDir?: Blob | undefined;
  poolSize?: number;
  onError?: (err: Error) => void;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) {
    const poolSize = options.poolSize ?? 10;
    const pool = new pg.Pool({
      connectionString: options.url,
      max: poolSize,
      connectionTimeoutMillis: 5000,
      idleTimeoutMillis: 30_000,
    });
    // A server restart ends every session (57P01, then the socket closes) and node-postgres emits 'error' on each
    // client: without a listener that kills the process. The pool listens on idle clients only and discards them;
    // a client checked out (a transaction in progress) has no listener of the pool's, so each client gets one of
    // its own for its lifetime: the statement in progress fails (503 DATABASE_UNAVAILABLE), the client is not
    // queryable any more and the pool discards it on release. New connections are made on demand once the server
    // is back; nothing is restarted.
    pool.on('connect', (client) => {
      let reported = false; // once per client: an ended session errs twice (57P01, then the closed socket)
      client.on('error', (err) => {
        if (!reported) options.onError?.(err);
        reported = true;
      });
    });
    pool.on('error', () => {}); // an idle client's error, already reported by the client's own listener
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    const client = await pool.connect();
    try {
      await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      try {
        await migratePg(drizzlePg(client, { schema }), { migrationsFolder: MIGRATIONS_FOLDER });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
      }
    } finally {
      client.release();
    }
    const notifications = createPgNotifications(options);
    return {
      db,
      kind: 'postgres',
      poolSize,
      ping: async () => {
        await pool.query('select 1');
      },
      listen: notifications.listen,
      caughtUp: notifications.caughtUp,
      close: async () => {
        await notifications.close();
        await pool.end();
      },
    };
  }
  const releaseLock = options.dataDir ? lockDataDir(options.dataDir) : () => {};
  let client: PGlite;
  try {
    client = new PGlite(options.dataDir, options.loadDataDir ? { loadDataDir: options.loadDataDir } : {});
    await client.waitReady;
  } catch (err) {
    releaseLock();
    throw err;
  }
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  await migratePglite(db as never, { migrationsFolder: MIGRATIONS_FOLDER });
  return {
    db,
    kind: 'pglite',
    poolSize: 1,
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    listen: async (channel, onNotify) => {
      const unlisten = await client.listen(channel, onNotify);
      return async () => {
        if (!client.closed) await unlisten();
      };
    },
    // PGlite runs in this process and hands a notification to its listeners before the notifying query resolves.
    caughtUp: async () => {},
    close: async () => {
      await client.close();
      releaseLock();
    },
  };
}

const LISTEN_RETRY_MIN_MS = 100;
const LISTEN_RETRY_MAX_MS = 5000;

/**
 * LISTEN on PostgreSQL: a pooled connection cannot hold a LISTEN, so one client of its own serves every channel of
 * this process, opened with the first listener, closed with the last, and reopened with backoff when it is lost.
 */
function createPgNotifications(options: DatabaseOptions) {
  const listeners = new Map<string, Set<(payload: string) => void>>();
  let client: pg.Client | undefined;
  let connecting: Promise<pg.Client> | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let retryMs = LISTEN_RETRY_MIN_MS;
  let closed = false;

  const listenSql = (c: pg.Client, verb: 'listen' | 'unlisten', channel: string) =>
    c.query(`${verb} ${c.escapeIdentifier(channel)}`);

  async function connect(): Promise<pg.Client> {
    const c = new pg.Client({
      connectionString: options.url,
      connectionTimeoutMillis: 5000,
      // A connection dropped without a word (a NAT, a failover) is noticed and replaced.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    c.on('notification', (msg) => {
      for (const onNotify of listeners.get(msg.channel) ?? []) onNotify(msg.payload ?? '');
    });
    c.on('error', (err) => {
      options.onError?.(err);
      lost(c);
    });
    c.on('end', () => lost(c));
    try {
      await c.connect();
      for (const channel of listeners.keys()) await listenSql(c, 'listen', channel);
    } catch (err) {
      c.end().catch(() => {});
      throw err;
    }
    return c;
  }

  function connected(): Promise<pg.Client> {
    if (client) return Promise.resolve(client);
    connecting ??= connect()
      .then((c) => {
        client = c;
        return c;
      })
      .finally(() => {
        connecting = undefined;
      });
    return connecting;
  }

  function lost(c: pg.Client) {
    if (client !== c) return;
    client = undefined;
    if (!closed && listeners.size > 0) reconnectLater();
  }

  function reconnectLater() {
    if (retryTimer) return;
    retryTimer = setTimeout(async () => {
      retryTimer = undefined;
      try {
        await connected();
        retryMs = LISTEN_RETRY_MIN_MS;
        for (const set of listeners.values()) for (const onNotify of set) onNotify('');
      } catch (err) {
        options.onError?.(err as Error);
        retryMs = Math.min(retryMs * 2, LISTEN_RETRY_MAX_MS);
        if (!closed && listeners.size > 0) reconnectLater();
      }
    }, retryMs);
    retryTimer.unref();
  }

  async function listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    if (closed) throw new Error('the database is closed');
    const fresh = !listeners.has(channel);
    const set = listeners.get(channel) ?? new Set<(payload: string) => void>();
    listeners.set(channel, set);
    set.add(onNotify);
    try {
      const c = await connected();
      if (fresh) await listenSql(c, 'listen', channel);
    } catch (err) {
      set.delete(onNotify);
      if (set.size === 0) listeners.delete(channel);
      throw err;
    }
    return async () => {
      if (!set.delete(onNotify) || set.size > 0) return;
      listeners.delete(channel);
      const c = client;
      if (!c) return;
      if (listeners.size === 0) {
        client = undefined;
        await c.end().catch(() => {});
      } else {
        await listenSql(c, 'unlisten', channel).catch(() => {});
      }
    };
  }

  async function caughtUp() {
    // Only on the connection already listening: one opened now would not know what was missed before it.
    const c = client;
    if (!c) throw new Error('not listening: the notification connection is lost');
    await c.query('select 1');
  }

  async function close() {
    closed = true;
    clearTimeout(retryTimer);
    listeners.clear();
    const c = client ?? (await connecting?.catch(() => undefined));
    client = undefined;
    await c?.end().catch(() => {});
  }

  return { listen, caughtUp, close };
}

/**
 * PGlite has no lock of its own: two processes on one data directory would corrupt it. A lock file holding the
 * owner's pid keeps a second process out; a lock left by a process that died is taken over.
 */
function lockDataDir(dataDir: string): () => void {
  // Beside the directory, not in it: PGlite initialises only an empty directory.
  mkdirSync(path.dirname(dataDir), { recursive: true });
  const file = `${dataDir.replace(/[\\/]+$/, '')}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => rmSync(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(readFileSync(file, 'utf8'));
      if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) {
        throw new Error(
          `the embedded database under ${dataDir} is in use by process ${pid}; stop it first, or set DATABASE_URL to share a PostgreSQL server`,
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new Error(`could not lock ${dataDir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Rows of a raw `db.execute` result, the same shape on both drivers. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
