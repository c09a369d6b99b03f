// The store of idempotent signed writes (docs/api/README.md "Idempotent writes", docs/decisions.md "Idempotent
// writes"): one row per (signer, key), reserved before the write runs and completed with its first answer after.
// Claiming a key is one INSERT ... ON CONFLICT DO NOTHING, so of two requests at once exactly one reserves it; the
// other finds the row and is told to replay it, that it is still in use, or that the key names another request.
// A request that may have committed is never run again (Stripe's rule): a route whose write creates
// something records a recovery point (what it created) in the same transaction as that write, or before its first
// side effect; a reservation left unfinished with one (a killed process, a completion the database refused) is
// answered from it, and one without one is known to have committed nothing, so a retry runs it.
// Times are the server's clock (the container's `now`), not the chain's: the 24 hours are a client's retry
// horizon, not economic time.
import { and, eq, isNotNull, isNull, lte } from 'drizzle-orm';
import type { Address } from 'viem';
import {
  IDEMPOTENCY_IN_PROGRESS_STALE_MS,
  IDEMPOTENCY_IN_USE_RETRY_AFTER_S,
  IDEMPOTENCY_TTL_MS,
} from '../../constants.ts';
import type { Tx } from '../../db/client.ts';
import { idempotencyKeys } from '../../db/schema/auth.ts';

/** What a request created, named so its answer can be built again: `{ kind: 'agent', id }`. */
export interface RecoveryPoint {
  kind: string;
  id: string;
}

/** The reservation a running request holds. */
export interface HeldKey {
  signer: Address;
  key: string;
  lockedAt: Date;
}

export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What claiming a key found. */
export type Claim =
  /** The caller holds the reservation (taken at `lockedAt`): run the write, then complete or release it. */
  | { kind: 'owned'; lockedAt: Date }
  /**
   * The request that held the key stopped (or failed) after its write committed: the caller now holds the
   * reservation and answers from the recovery point, without running the write again.
   */
  | { kind: 'recover'; lockedAt: Date; recovery: RecoveryPoint }
  /** The same request was answered before: send this answer again. */
  | { kind: 'replay'; answer: StoredAnswer }
  /** The key was used for another request (method, path, query or body differ). */
  | { kind: 'reused' }
  /** The same request is running now under this key; retry after `retryAfterS`. */
  | { kind: 'in_use'; retryAfterS: number };

export interface ClaimOptions {
  signer: Address;
  key: string;
  fingerprint: string;
  nowMs: number;
}

const ofKey = (signer: Address, key: string) =>
  and(eq(idempotencyKeys.signer, signer.toLowerCase()), eq(idempotencyKeys.key, key));

/**
 * Reserves `key` for the signer's request, or says why not. A row older than IDEMPOTENCY_TTL_MS is gone (deleted
 * here, whatever the periodic purge did), and a reservation left unfinished for IDEMPOTENCY_IN_PROGRESS_STALE_MS is
 * taken over: a request that crashed mid-way does not hold its key for ever.
 */
export async function claimIdempotencyKey(db: Tx, options: ClaimOptions): Promise<Claim> {
  const { signer, key, fingerprint, nowMs } = options;
  const now = new Date(nowMs);
  // Each pass either decides or removes what stood in the way (an expired row, a stale reservation someone else took
  // over first); a few passes settle any race.
  for (let pass = 0; pass < 5; pass++) {
    const inserted = await db
      .insert(idempotencyKeys)
      .values({ signer: signer.toLowerCase(), key, fingerprint, createdAt: now, lockedAt: now })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (inserted.length === 1) return { kind: 'owned', lockedAt: now };

    const [row] = await db.select().from(idempotencyKeys).where(ofKey(signer, key));
    if (!row) continue; // deleted meanwhile (expired): claim again
    if (nowMs - row.createdAt.getTime() >= IDEMPOTENCY_TTL_MS) {
      await db.delete(idempotencyKeys).where(and(ofKey(signer, key), eq(idempotencyKeys.createdAt, row.createdAt)));
      continue;
    }
    if (row.fingerprint !== fingerprint) return { kind: 'reused' };
    if (row.status !== null) {
      return { kind: 'replay', answer: { status: row.status, headers: row.headers ?? {}, body: row.body ?? '' } };
    }
    const lockedAt = row.lockedAt ?? row.createdAt;
    // A reservation given up after its write committed (releaseIdempotencyKey) is dated at the epoch: stale at once.
    if (nowMs - lockedAt.getTime() < IDEMPOTENCY_IN_PROGRESS_STALE_MS) {
      return { kind: 'in_use', retryAfterS: IDEMPOTENCY_IN_USE_RETRY_AFTER_S };
    }
    // Stale: the request that reserved it stopped. Take it over unless another retry just did.
    const taken = await db
      .update(idempotencyKeys)
      .set({ lockedAt: now })
      .where(and(ofKey(signer, key), isNull(idempotencyKeys.status), eq(idempotencyKeys.lockedAt, lockedAt)))
      .returning({ key: idempotencyKeys.key });
    if (taken.length === 1) {
      return row.recovery
        ? { kind: 'recover', lockedAt: now, recovery: row.recovery }
        : { kind: 'owned', lockedAt: now };
    }
  }
  return { kind: 'in_use', retryAfterS: IDEMPOTENCY_IN_USE_RETRY_AFTER_S };
}

/**
 * Stores the answer of the request holding the reservation taken at `lockedAt`. False when it no longer holds it
 * (it ran past IDEMPOTENCY_IN_PROGRESS_STALE_MS and a retry took the key over): that retry's answer will be kept.
 */
export async function completeIdempotencyKey(
  db: Tx,
  signer: Address,
  key: string,
  lockedAt: Date,
  answer: StoredAnswer,
): Promise<boolean> {
  const rows = await db
    .update(idempotencyKeys)
    .set({ status: answer.status, headers: answer.headers, body: answer.body, lockedAt: null })
    .where(and(ofKey(signer, key), isNull(idempotencyKeys.status), eq(idempotencyKeys.lockedAt, lockedAt)))
    .returning({ key: idempotencyKeys.key });
  return rows.length === 1;
}

/**
 * Records what the request holding the reservation created. Call it inside the transaction of the write (so both
 * commit or neither does), or before the first side effect the database cannot undo. False when the request no
 * longer holds the reservation (a retry took a stale one over): the caller must then stop before its write.
 */
export async function recordIdempotencyRecovery(db: Tx, held: HeldKey, recovery: RecoveryPoint): Promise<boolean> {
  const rows = await db
    .update(idempotencyKeys)
    .set({ recovery })
    .where(
      and(ofKey(held.signer, held.key), isNull(idempotencyKeys.status), eq(idempotencyKeys.lockedAt, held.lockedAt)),
    )
    .returning({ key: idempotencyKeys.key });
  return rows.length === 1;
}

/**
 * Gives the key up (an answer not to keep: 5xx, 429...), so the next request with it runs again, unless the request
 * recorded a recovery point: then its write committed, and the key is only marked stale, so the next request with it
 * is answered from the recovery point at once instead of running again.
 */
export async function releaseIdempotencyKey(db: Tx, signer: Address, key: string, lockedAt: Date): Promise<void> {
  const held = and(ofKey(signer, key), isNull(idempotencyKeys.status), eq(idempotencyKeys.lockedAt, lockedAt));
  await db.delete(idempotencyKeys).where(and(held, isNull(idempotencyKeys.recovery)));
  await db
    .update(idempotencyKeys)
    .set({ lockedAt: new Date(0) })
    .where(and(held, isNotNull(idempotencyKeys.recovery)));
}

/** Deletes the keys IDEMPOTENCY_TTL_MS old or older at `now` (the server's clock), as a claim would; returns how many. */
export async function purgeExpiredIdempotencyKeys(db: Tx, now: Date): Promise<number> {
  const rows = await db
    .delete(idempotencyKeys)
    .where(lte(idempotencyKeys.createdAt, new Date(now.getTime() - IDEMPOTENCY_TTL_MS)))
    .returning({ key: idempotencyKeys.key });
  return rows.length;
}
