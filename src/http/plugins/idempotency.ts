// Idempotent signed writes (docs/api/README.md "Idempotent writes", docs/decisions.md "Idempotent writes"), Stripe's
// rule: a write signed by a wallet may carry `Idempotency-Key`; scoped to the signer, the same request again within
// 24 hours gets the first answer (with `Idempotent-Replayed: true`) without running again, and another request under
// the same key gets 409 IDEMPOTENCY_KEY_REUSED. The guard (auth/index.ts requireWallet) claims the key after the
// signature is proven and before it is recorded as used; the onSend hook here stores the answer, or gives the key
// up when the answer is not final (5xx, 429, 409, 408), so a retry runs again. A write route that creates something
// records a recovery point with its write (src/domain/auth/idempotency.ts) and names here, in its config, how to
// answer from it: a retry of a request that may have committed is answered from what it created, never run again.
// A store or release the database refuses is tried again in the background until the key would go stale, so a
// database blip neither leaves a client facing 409 IN_USE for a minute nor loses the answer.
import { createHash } from 'node:crypto';
import { canonicalJson } from '@ai-economy/shared/canonical-json';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { IDEMPOTENCY_KEY_MAX } from '../../constants.ts';
import type { Tx } from '../../db/client.ts';
import {
  completeIdempotencyKey,
  type HeldKey,
  type RecoveryPoint,
  recordIdempotencyRecovery,
  releaseIdempotencyKey,
  type StoredAnswer,
} from '../../domain/auth/idempotency.ts';
import { AppError, validationError } from '../../errors.ts';
import type { ApiDeps } from '../types.ts';

/** The answer a keyed route builds again from its recovery point: what its handler would have sent. */
export interface RecoveredAnswer {
  status: number;
  payload: unknown;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The idempotency reservation this request holds while its handler runs (a signed write with a key). */
    idempotency?: HeldKey;
  }
  interface FastifyContextConfig {
    /**
     * How a route whose write records a recovery point (recordRecovery) answers a retry of a request that may have
     * committed: from what it created, without running again.
     */
    idempotentRecovery?: (recovery: RecoveryPoint) => Promise<RecoveredAnswer>;
  }
}

/**
 * What a route hands its domain call so the write records its recovery point: undefined without a key. The
 * returned function throws 409 IDEMPOTENCY_KEY_IN_USE when the request lost its reservation (it ran past
 * IDEMPOTENCY_IN_PROGRESS_STALE_MS and a retry took it over), so the write stops rather than run twice.
 */
export function recoveryRecorder(
  request: FastifyRequest,
  kind: string,
): ((db: Tx, id: string) => Promise<void>) | undefined {
  const held = request.idempotency;
  if (held === undefined) return undefined;
  return async (db, id) => {
    if (await recordIdempotencyRecovery(db, held, { kind, id })) return;
    throw new AppError(
      'IDEMPOTENCY_KEY_IN_USE',
      'This request ran past its reservation and a retry with the same Idempotency-Key took it over; retry to get its answer',
    );
  };
}

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';
/** The methods whose signed requests take a key; a key on any other is ignored. */
export const IDEMPOTENT_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** The headers of an answer kept with it and sent again on a replay. */
const KEPT_HEADERS = ['content-type', 'location'] as const;

const KEY = new RegExp(`^[\\x20-\\x7e]{1,${IDEMPOTENCY_KEY_MAX}}$`);

/**
 * The request's Idempotency-Key, or undefined when it sends none (or the method takes none). Throws 400
 * VALIDATION_ERROR for a key that is empty, longer than IDEMPOTENCY_KEY_MAX or not printable ASCII.
 */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const key = request.headers[IDEMPOTENCY_KEY_HEADER];
  if (key === undefined || !IDEMPOTENT_METHODS.has(request.method)) return undefined;
  if (typeof key !== 'string' || !KEY.test(key)) {
    throw validationError(
      `headers.${IDEMPOTENCY_KEY_HEADER}`,
      `must be 1 to ${IDEMPOTENCY_KEY_MAX} printable ASCII characters (a UUID, for example)`,
    );
  }
  return key;
}

/** Deeper than any body a route accepts; such a body is fingerprinted by its bytes (validation refuses it later). */
const CANONICAL_DEPTH_MAX = 64;

function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [v, depth] = item;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

/**
 * What makes two requests "the same" under one key: the method, the path and query exactly as sent, and the
 * body's hash: of its canonical JSON when it is JSON (parsed, not yet validated), else of its raw bytes.
 */
export function requestFingerprint(method: string, url: string, rawBody: string | undefined, body: unknown): string {
  let bodyHash: string;
  if (rawBody !== undefined && rawBody !== '') {
    bodyHash = nestedDeeperThan(body, CANONICAL_DEPTH_MAX)
      ? sha256(`raw\n${rawBody}`)
      : sha256(`json\n${canonicalJson(body, 'null')}`);
  } else if (typeof body === 'string' || body instanceof Uint8Array) bodyHash = sha256(body);
  else bodyHash = sha256('');
  return sha256(`${method}\n${url}\n${bodyHash}`);
}

/**
 * Whether an answer is final, so kept and replayed: 2xx, and 4xx except those that depend on the moment (408
 * timeout, 409 a concurrent change or a key in use, 425, 429 a rate or a budget). 5xx and the rest are not kept:
 * the same request sent again runs again.
 */
export function isFinalAnswer(status: number): boolean {
  if (status >= 200 && status < 300) return true;
  return status >= 400 && status < 500 && ![408, 409, 425, 429].includes(status);
}

/** Sends a stored answer again, marked as a replay. */
export function sendReplay(reply: FastifyReply, answer: StoredAnswer) {
  return reply
    .code(answer.status)
    .headers({ ...answer.headers, [IDEMPOTENT_REPLAYED_HEADER]: 'true' })
    .send(answer.body);
}

/** The answer a route builds from a recovery point, or undefined when the route records none. */
export async function recoveredAnswer(request: FastifyRequest, recovery: RecoveryPoint) {
  const recover = request.routeOptions.config.idempotentRecovery;
  return recover === undefined ? undefined : recover(recovery);
}

/** Pauses between tries of a settlement the database refused, within IDEMPOTENCY_IN_PROGRESS_STALE_MS in all. */
const SETTLE_RETRY_MS = [250, 500, 1000, 2000, 4000, 8000, 15_000, 25_000];

/**
 * Tries `settle` again after each pause until it succeeds or the pauses run out (then the reservation goes stale,
 * and a retry is answered from its recovery point or runs again). Timers are unref'd: a stopping process does not
 * wait on them.
 */
function settleLater(settle: () => Promise<unknown>, log: FastifyRequest['log'], key: string, attempt = 0) {
  const pause = SETTLE_RETRY_MS[attempt];
  if (pause === undefined) {
    log.error({ key }, 'gave up settling the idempotency key: it goes stale');
    return;
  }
  setTimeout(() => {
    settle().then(
      () => log.info({ key, attempt: attempt + 1 }, 'idempotency key settled on a later try'),
      () => settleLater(settle, log, key, attempt + 1),
    );
  }, pause).unref();
}

/**
 * The hook that settles a request's reservation once its answer is known: a final answer is stored, any other
 * gives the key up. A failure to store is logged, never turned into another answer, and tried again in the
 * background (settleLater).
 */
export default fp<{ deps: ApiDeps }>(
  async (app: FastifyInstance, { deps }) => {
    // A callback hook: requests without a reservation (nearly all) cost one property read.
    app.addHook('onSend', (request, reply, payload, done) => {
      const held = request.idempotency;
      if (held === undefined) return done(null, payload);
      request.idempotency = undefined;
      const db = deps.database.db;
      const status = reply.statusCode;
      const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
      let settle: () => Promise<unknown>;
      if (isFinalAnswer(status) && body !== null) {
        const headers: Record<string, string> = {};
        for (const name of KEPT_HEADERS) {
          const value = reply.getHeader(name);
          if (value !== undefined) headers[name] = String(value);
        }
        settle = () => completeIdempotencyKey(db, held.signer, held.key, held.lockedAt, { status, headers, body });
      } else {
        settle = () => releaseIdempotencyKey(db, held.signer, held.key, held.lockedAt);
      }
      settle().then(
        () => done(null, payload),
        (err: unknown) => {
          request.log.error({ err, key: held.key }, 'could not settle the idempotency key; trying again');
          settleLater(settle, request.log, held.key);
          done(null, payload);
        },
      );
    });
  },
  { name: 'idempotency' },
);
