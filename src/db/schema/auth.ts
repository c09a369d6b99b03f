// Tables of authentication: API keys (stored as sha256, never in clear) and the wallet-signature replay store.
import { bigint, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

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
