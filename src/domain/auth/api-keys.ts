// API keys: `aie_` + 43 base64url characters, shown once, kept only as sha256. Verification is cached briefly
// in memory so a busy key costs no database round trip per request; a revocation takes effect within the TTL.
import { createHash, randomBytes } from 'node:crypto';
import { createId } from '@paralleldrive/cuid2';
import { desc, isNull, sql } from 'drizzle-orm';
import { API_KEY_PREFIX, API_KEY_RANDOM_BYTES } from '../../constants.ts';
import type { Db, Tx } from '../../db/client.ts';
import { apiKeys } from '../../db/schema/auth.ts';

export const API_KEY_PATTERN = /^aie_[A-Za-z0-9_-]{43}$/;
const PREFIX_LENGTH = API_KEY_PREFIX.length + 6;

export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

export interface ApiKeyRecord {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
}

/**
 * The NOTIFY channel of key changes: creating or revoking a key notifies it, and every process's verifier forgets
 * its cached answers when it hears it (container.ts), so a new key counts and a revoked one stops at once everywhere.
 */
export const API_KEYS_CHANNEL = 'api_keys_changed';

async function notifyKeysChanged(db: Tx, id: string) {
  await db.execute(sql`select pg_notify(${API_KEYS_CHANNEL}, ${id})`);
}

export async function createApiKey(db: Tx, name: string): Promise<ApiKeyRecord & { key: string }> {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > 100) throw new Error('an API key name must be 1-100 characters');
  const key = API_KEY_PREFIX + randomBytes(API_KEY_RANDOM_BYTES).toString('base64url');
  const [row] = await db
    .insert(apiKeys)
    .values({ id: createId(), name: trimmed, prefix: key.slice(0, PREFIX_LENGTH), keyHash: hashApiKey(key) })
    .returning();
  await notifyKeysChanged(db, row!.id);
  return { ...toRecord(row!), key };
}

export async function listApiKeys(db: Tx): Promise<ApiKeyRecord[]> {
  const rows = await db.select().from(apiKeys).orderBy(desc(apiKeys.createdAt), desc(apiKeys.seq));
  return rows.map(toRecord);
}

/** Returns false when no active key has that id. */
export async function revokeApiKey(db: Tx, id: string): Promise<boolean> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(sql`${apiKeys.id} = ${id} and ${apiKeys.revokedAt} is null`)
    .returning({ id: apiKeys.id });
  if (rows.length > 0) await notifyKeysChanged(db, id);
  return rows.length > 0;
}

function toRecord(row: typeof apiKeys.$inferSelect): ApiKeyRecord {
  return { id: row.id, name: row.name, prefix: row.prefix, createdAt: row.createdAt, revokedAt: row.revokedAt };
}

export interface ApiKeyVerifier {
  /** The key's id and name when it is active, null otherwise. */
  verify(key: string): Promise<{ id: string; name: string } | null>;
  /** What verify would answer from its cache alone, without a promise; undefined when it would ask the database. */
  cached(key: string): { id: string; name: string } | null | undefined;
  /** Whether any active key exists (the event stream is open while none does). */
  anyActive(): Promise<boolean>;
  /**
   * Forgets cached answers: called at once after a key is created or revoked in this process (routes/admin/), and
   * on every API_KEYS_CHANNEL notification from any process (container.ts).
   */
  clear(): void;
}

export function createApiKeyVerifier(db: Db, options: { cacheMs: number; now?: () => number }): ApiKeyVerifier {
  const now = options.now ?? Date.now;
  const cache = new Map<string, { value: { id: string; name: string } | null; until: number }>();
  const MAX_ENTRIES = 10_000;
  let any: { value: boolean; until: number } | undefined;
  return {
    cached(key) {
      if (!API_KEY_PATTERN.test(key)) return null;
      const hit = cache.get(hashApiKey(key));
      return hit && hit.until > now() ? hit.value : undefined;
    },
    async verify(key) {
      if (!API_KEY_PATTERN.test(key)) return null;
      const hash = hashApiKey(key);
      const hit = cache.get(hash);
      if (hit && hit.until > now()) return hit.value;
      const [row] = await db
        .select({ id: apiKeys.id, name: apiKeys.name })
        .from(apiKeys)
        .where(sql`${apiKeys.keyHash} = ${hash} and ${apiKeys.revokedAt} is null`)
        .limit(1);
      const value = row ?? null;
      if (options.cacheMs > 0) {
        if (cache.size >= MAX_ENTRIES) cache.clear();
        cache.set(hash, { value, until: now() + options.cacheMs });
      }
      return value;
    },
    async anyActive() {
      if (any && any.until > now()) return any.value;
      const [row] = await db.select({ id: apiKeys.id }).from(apiKeys).where(isNull(apiKeys.revokedAt)).limit(1);
      any = { value: row !== undefined, until: now() + options.cacheMs };
      return any.value;
    },
    clear() {
      cache.clear();
      any = undefined;
    },
  };
}
