// Route guards for the three schemes (docs/api/README.md "Authentication"): API key, wallet signature and the scheduler/admin bearer
// secrets. Each answers 401 UNAUTHORIZED naming what was wrong. They run as preValidation hooks: after the
// body is parsed (the signature covers its raw bytes) and before it is validated, so an unauthenticated
// request is refused as such rather than for its body.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import type { Address } from 'viem';
import { claimIdempotencyKey, releaseIdempotencyKey } from '../../domain/auth/idempotency.ts';
import {
  authenticateWalletSignature,
  useSignature,
  verifyWalletSignature,
} from '../../domain/auth/wallet-signature.ts';
import { AppError, badRequest, unauthorized } from '../../errors.ts';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_METHODS,
  idempotencyKeyOf,
  recoveredAnswer,
  requestFingerprint,
  sendReplay,
} from '../plugins/idempotency.ts';
import type { ApiDeps } from '../types.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Checksummed address that signed the request (wallet-signature routes). */
    signer?: Address;
    /** Id of the API key that authenticated the request (v1 routes). */
    apiKeyId?: string;
    /** The raw request body as received, for the wallet signature's body hash. */
    rawBody?: string;
  }
}

export function apiKeyFrom(request: FastifyRequest, allowQuery: boolean): string | undefined {
  const header = request.headers['x-api-key'];
  if (typeof header === 'string' && header !== '') return header;
  if (allowQuery) {
    const q = apiKeyFromQuery(request.url);
    if (q !== undefined && q !== '') return q;
  }
  return undefined;
}

/**
 * The first `api_key` parameter of the raw query string. The name is matched as written, not percent-decoded:
 * the log redaction hides `api_key=` in URLs, so a key is never accepted from a spelling the logs would show.
 */
function apiKeyFromQuery(url: string): string | undefined {
  const q = url.indexOf('?');
  if (q === -1) return undefined;
  for (const pair of url.slice(q + 1).split('&')) {
    if (!pair.startsWith('api_key=')) continue;
    try {
      return decodeURIComponent(pair.slice('api_key='.length).replace(/\+/g, ' '));
    } catch {
      return pair.slice('api_key='.length); // malformed escapes: an invalid key, refused by the verifier
    }
  }
  return undefined;
}

export interface ApiKeyGuardOptions {
  /** Accept `api_key` in the query string too (only /api/v1/events and /api/v1/fortune). */
  allowQuery?: boolean;
  /** Let requests through while no key exists at all (the event stream, docs/api/README.md "Authentication" rule 2). */
  openWhenUnconfigured?: boolean;
}

/**
 * The challenge of a 401 for a missing or invalid key (RFC 9110 11.6.1): no registered scheme names an API key
 * header, so `ApiKey`, with the header (and the query parameter where one is accepted) as parameters.
 */
export const apiKeyChallenge = (allowQuery: boolean) =>
  `ApiKey realm="ai-economy", header="x-api-key"${allowQuery ? ', query="api_key"' : ''}`;

/** The challenge of a 401 for a missing or invalid wallet signature (the `Wallet` scheme of docs/api/README.md). */
export const WALLET_CHALLENGE = 'Wallet realm="ai-economy"';
/** The challenge of a 401 for a missing or wrong scheduler, admin or metrics secret. */
export const BEARER_CHALLENGE = 'Bearer realm="ai-economy"';

export function requireApiKey(deps: ApiDeps, options: ApiKeyGuardOptions = {}): preValidationAsyncHookHandler {
  const challenge = apiKeyChallenge(options.allowQuery ?? false);
  return async (request, reply) => {
    const key = apiKeyFrom(request, options.allowQuery ?? false);
    if (key === undefined) {
      if (options.openWhenUnconfigured && !(await deps.apiKeys.anyActive())) return;
      reply.header('www-authenticate', challenge);
      throw unauthorized(
        options.allowQuery
          ? 'Missing API key: send it in the x-api-key header or the api_key query parameter'
          : 'Missing API key: send it in the x-api-key header',
      );
    }
    // The rate limiter verified it already when it counted the request in the key's bucket (src/http/plugins/rate-limit.ts).
    const memo = request.verifiedApiKey;
    const found = memo?.key === key ? memo.found : await deps.apiKeys.verify(key);
    if (!found) {
      reply.header('www-authenticate', challenge);
      throw unauthorized('Invalid API key');
    }
    request.apiKeyId = found.id;
  };
}

/**
 * The wallet signature's guard. With an Idempotency-Key (a write, src/http/plugins/idempotency.ts) the signature is proven
 * first, then the key claimed, and only a request that runs records its signature as used: a replay of the first
 * answer is sent from here, before "Signature already used" could refuse the very request it answers.
 */
export function requireWallet(deps: ApiDeps): preValidationAsyncHookHandler {
  return async (request, reply) => {
    const options = {
      header: request.headers.authorization,
      method: request.method,
      url: request.url,
      body: signedBody(request),
      nowMs: deps.now(),
      db: deps.database.db,
      publicClient: deps.chain.publicClient,
      guard: deps.walletSignatures,
      client: request.ip,
    };
    // Without a key the signature is checked and recorded in one step, as it always was; a malformed key is
    // answered 400 only once the caller is authenticated.
    if (request.headers[IDEMPOTENCY_KEY_HEADER] === undefined) {
      request.signer = await verifyWalletSignature(options);
      return;
    }
    const { address, message } = await authenticateWalletSignature(options);
    const key = idempotencyKeyOf(request);
    if (key === undefined) {
      await useSignature(options, address, message);
      request.signer = address;
      return;
    }
    const claim = await claimIdempotencyKey(options.db, {
      signer: address,
      key,
      fingerprint: requestFingerprint(request.method, request.url, request.rawBody, request.body),
      nowMs: options.nowMs,
    });
    switch (claim.kind) {
      case 'replay':
        return sendReplay(reply, claim.answer);
      case 'reused':
        throw new AppError(
          'IDEMPOTENCY_KEY_REUSED',
          'This Idempotency-Key was used for another request (method, path, query or body) of this signer within 24 hours: use a new key for a new request',
        );
      case 'in_use':
        throw new AppError(
          'IDEMPOTENCY_KEY_IN_USE',
          `A request with this Idempotency-Key is still running; retry after ${claim.retryAfterS} s to get its answer`,
        );
      case 'recover': {
        // The request that held the key may have committed: its answer is built from what it created, and the
        // onSend hook stores it. Like a replay, it consumes no signature.
        const held = { signer: address, key, lockedAt: claim.lockedAt };
        let answer: Awaited<ReturnType<typeof recoveredAnswer>>;
        try {
          answer = await recoveredAnswer(request, claim.recovery);
        } catch (err) {
          await releaseIdempotencyKey(options.db, address, key, claim.lockedAt);
          throw err;
        }
        if (answer === undefined) break; // the route records no recovery point: nothing of it committed
        request.signer = address;
        request.idempotency = held;
        return reply.code(answer.status).send(answer.payload);
      }
    }
    try {
      await useSignature(options, address, message);
    } catch (err) {
      // A signature used before without the key (or under another): refused as ever, and the key left free.
      await releaseIdempotencyKey(options.db, address, key, claim.lockedAt);
      throw err;
    }
    request.signer = address;
    request.idempotency = { signer: address, key, lockedAt: claim.lockedAt };
  };
}

/**
 * A wallet signature when the request carries one (checked as requireWallet checks it, and refused the same way when
 * wrong), else nothing: the route decides whether it needs one (PATCH /api/companies/{id} with COMPANY_PATCH_AUTH=ip).
 * An Idempotency-Key is scoped to a signer, so an unsigned request carrying one is refused (400).
 */
export function optionalWallet(deps: ApiDeps): preValidationAsyncHookHandler {
  const required = requireWallet(deps);
  return async function (request, reply) {
    const header = request.headers.authorization;
    if (header === undefined || header.trim() === '') {
      if (request.headers[IDEMPOTENCY_KEY_HEADER] !== undefined && IDEMPOTENT_METHODS.has(request.method)) {
        throw badRequest('Idempotency-Key needs a wallet signature: keys are kept per signer');
      }
      return;
    }
    await required.call(this, request, reply);
  };
}

/**
 * The body bytes the signature covers. JSON bodies are kept raw by the app's parser; a text body is its own
 * raw form. Any other parsed body cannot be hashed as sent, so it is refused rather than let through unsigned.
 */
function signedBody(request: FastifyRequest): string | Uint8Array {
  if (request.rawBody !== undefined) return request.rawBody;
  const body = request.body;
  if (body === undefined || body === null) return '';
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  throw unauthorized(
    `Cannot verify the signature of a ${request.headers['content-type'] ?? 'non-JSON'} body: send application/json`,
  );
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Constant-time check of a bearer token against the configured secrets; an unset secret accepts nothing. */
export function secretMatches(given: string, secrets: (string | undefined)[]): boolean {
  const g = digest(given);
  let ok = false;
  for (const secret of secrets) {
    if (secret === undefined) continue;
    // Compare every configured secret, so timing does not reveal which one matched.
    if (timingSafeEqual(g, digest(secret))) ok = true;
  }
  return ok;
}

export function requireSecret(deps: ApiDeps, which: ('cron' | 'admin')[]): preValidationAsyncHookHandler {
  return async (request, reply) => {
    // Each 401 answers with its challenge (RFC 9110 11.6.1).
    const refuse = (message: string) => {
      reply.header('www-authenticate', BEARER_CHALLENGE);
      return unauthorized(message);
    };
    const header = request.headers.authorization;
    if (header === undefined || header.trim() === '') {
      throw refuse('Missing secret: send Authorization: Bearer <secret>');
    }
    // The scheme name is case-insensitive (RFC 9110, section 11.1).
    const m = /^\s*Bearer +(\S+)\s*$/i.exec(header);
    if (!m) throw refuse('Malformed Authorization header: expected "Bearer <secret>"');
    const secrets = which.map((w) => (w === 'cron' ? deps.config.cronSecret : deps.config.adminSecret));
    if (!secretMatches(m[1]!, secrets)) throw refuse('Invalid secret');
  };
}
