// Tables of authentication: API keys (stored as sha256, never in clear), the wallet-signature replay store, and the
// first answers of idempotent signed writes.
import { bigint, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    /** First characters of the key, shown in listings so a holder can tell keys apart. */
    prefix: text('prefix').notNull(),
    /** Lowercase hex sha256 of the whole key. */
    keyHash: text('key_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    /** Creation order: keys made within one tick of the database clock (PGlite's is coarse) still list in order. */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity().notNull(),
  },
  (t) => [index('api_keys_active_idx').on(t.revokedAt)],
);

export const signatureReplays = pgTable(
  'signature_replays',
  {
    /** Lowercase hex sha256 of the signer and the signed message (see consumeSignature). */
    requestHash: text('request_hash').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('signature_replays_expires_idx').on(t.expiresAt)],
);

/**
 * One Idempotency-Key of one signer (docs/api/README.md "Idempotent writes"): reserved before the write's handler
 * runs, completed with its answer after. Kept IDEMPOTENCY_TTL_MS from `created_at` (the server's clock).
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    /** The signer's address, lowercase. */
    signer: text('signer').notNull(),
    key: text('key').notNull(),
    /** Lowercase hex sha256 of the method, the path and query as sent, and the canonical body (src/http/plugins/idempotency.ts). */
    fingerprint: text('fingerprint').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** When the request running it took the reservation; null once its answer is stored. */
    lockedAt: timestamp('locked_at', { withTimezone: true, mode: 'date' }),
    /** The stored answer: null while the request runs. */
    status: integer('status'),
    /** The answer's headers that matter (content-type, location). */
    headers: jsonb('headers').$type<Record<string, string>>(),
    body: text('body'),
    /**
     * The recovery point: what the request created, written in the same transaction as its write, or
     * before its first side effect (a decision round). A reservation that goes stale with one is answered from it
     * and never run again; without one, nothing of the request committed, and a retry runs it.
     */
    recovery: jsonb('recovery').$type<{ kind: string; id: string }>(),
  },
  (t) => [
    primaryKey({ columns: [t.signer, t.key], name: 'idempotency_keys_pk' }),
    index('idempotency_keys_created_idx').on(t.createdAt),
  ],
);
