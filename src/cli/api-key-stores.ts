// The database behind the api-keys commands: PostgreSQL directly, or the embedded PGlite through the running
// service's admin routes when a service holds it (PGlite admits one process), else directly. Each says which.
// They never start the chain, and never create an empty embedded database.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import { type Database, openDatabase } from '../db/client.ts';
import { type ApiKeyRecord, createApiKey, listApiKeys, revokeApiKey } from '../domain/auth/api-keys.ts';
import { DEV_ADMIN_SECRET_FILE, readDevelopmentSecret } from '../domain/auth/dev-secret.ts';
import { readServiceFile } from '../service-file.ts';

/** A failure to report as one line, without a stack (exit code 1). */
export class CliFailure extends Error {}

export async function withDatabase<T>(config: Config, run: (database: Database) => Promise<T>): Promise<T> {
  const dataDir = path.join(config.dataDir, 'pg');
  let database: Database;
  try {
    database = await openDatabase({
      url: config.databaseUrl,
      dataDir: config.databaseUrl ? undefined : dataDir,
      poolSize: 1,
    });
  } catch (err) {
    const reason = (err as Error).message || String(err);
    // The URL may hold a password: never echo it.
    throw new CliFailure(
      config.databaseUrl
        ? `cannot open the database of DATABASE_URL: ${reason}`
        : `cannot open the embedded database under ${dataDir}: ${reason}. PGlite allows one process at a time on a data directory: stop the server (or another CLI) using it, then try again.`,
    );
  }
  try {
    return await run(database);
  } finally {
    await database.close();
  }
}

export function table(records: ApiKeyRecord[]): string {
  const rows = [
    ['ID', 'NAME', 'PREFIX', 'CREATED', 'REVOKED'],
    ...records.map((r) => [r.id, r.name, r.prefix, r.createdAt.toISOString(), r.revokedAt?.toISOString() ?? '-']),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows
    .map((row) => row.map((cell, i) => (i < row.length - 1 ? cell.padEnd(widths[i]!) : cell)).join('  '))
    .join('\n');
}

/** A URL with its password hidden, for output. */
export function redactedUrl(raw: string): string {
  try {
    const u = new URL(raw);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'DATABASE_URL (not a URL)';
  }
}

/** What the api-keys commands act on, and a line saying which database that is. */
export interface ApiKeyStore {
  describe: string;
  create(name: string): Promise<ApiKeyRecord & { key: string }>;
  list(): Promise<ApiKeyRecord[]>;
  revoke(id: string): Promise<boolean>;
}

export async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/api/live`, { signal: AbortSignal.timeout(2000) })).ok;
  } catch {
    return false;
  }
}

export type KeyJson = Omit<ApiKeyRecord, 'createdAt' | 'revokedAt'> & { createdAt: string; revokedAt: string | null };
export const recordOf = (k: KeyJson): ApiKeyRecord => ({
  ...k,
  createdAt: new Date(k.createdAt),
  revokedAt: k.revokedAt ? new Date(k.revokedAt) : null,
});

/** The running service's admin routes, authorized with its admin secret. */
export function serviceStore(url: string, secret: string, describe: string): ApiKeyStore {
  const call = async (method: string, route: string, body?: unknown) => {
    let res: Response;
    try {
      res = await fetch(`${url}${route}`, {
        method,
        headers: {
          authorization: `Bearer ${secret}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(10_000),
      });
    } catch (err) {
      throw new CliFailure(`the service at ${url} did not answer: ${(err as Error).message}`);
    }
    const json = (await res.json().catch(() => ({}))) as { data?: unknown; error?: { code: string; message: string } };
    return { status: res.status, json };
  };
  const fail = (r: { status: number; json: { error?: { message: string } } }) =>
    new CliFailure(
      r.status === 401
        ? `the service at ${url} refused the admin secret: set ADMIN_SECRET to the service's`
        : `the service at ${url} answered ${r.status}: ${r.json.error?.message ?? 'no message'}`,
    );
  return {
    describe,
    async create(name) {
      const r = await call('POST', '/api/admin/api-keys', { name });
      if (r.status !== 201) throw fail(r);
      const data = r.json.data as KeyJson & { key: string };
      return { ...recordOf(data), key: data.key };
    },
    async list() {
      const r = await call('GET', '/api/admin/api-keys');
      if (r.status !== 200) throw fail(r);
      return (r.json.data as KeyJson[]).map(recordOf);
    },
    async revoke(id) {
      const r = await call('DELETE', `/api/admin/api-keys/${encodeURIComponent(id)}`);
      if (r.status === 404) return false;
      if (r.status !== 200) throw fail(r);
      return true;
    },
  };
}

/**
 * Runs `use` with the store of the configured database: PostgreSQL directly; the embedded PGlite through the
 * service holding it, or directly when none does. Never creates an embedded database.
 */
export async function withApiKeyStore<T>(config: Config, use: (store: ApiKeyStore) => Promise<T>): Promise<T> {
  const direct = (describe: string) =>
    withDatabase(config, (d) =>
      use({
        describe,
        create: (name) => createApiKey(d.db, name),
        list: () => listApiKeys(d.db),
        revoke: (id) => revokeApiKey(d.db, id),
      }),
    );
  if (config.databaseUrl) return direct(`PostgreSQL at ${redactedUrl(config.databaseUrl)} (DATABASE_URL)`);
  const dir = path.join(config.dataDir, 'pg');
  const service = readServiceFile(config.dataDir);
  if (service && (await answers(service.url))) {
    const secret = config.adminSecret ?? readDevelopmentSecret(config.dataDir, DEV_ADMIN_SECRET_FILE);
    if (!secret) {
      throw new CliFailure(
        `the service at ${service.url} holds the embedded database under ${dir}: set ADMIN_SECRET to its admin secret to manage keys through it`,
      );
    }
    return use(
      serviceStore(
        service.url,
        secret,
        `the embedded PGlite under ${dir}, through the running service at ${service.url}`,
      ),
    );
  }
  if (!existsSync(dir)) {
    throw new CliFailure(
      `no database under ${dir} (DATA_DIR=${config.dataDir}). Start the service once (npm start creates it), or set DATA_DIR to the service's data directory, or DATABASE_URL.`,
    );
  }
  return direct(`the embedded PGlite under ${dir}`);
}
