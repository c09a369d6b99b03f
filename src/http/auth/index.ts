// Route guards (Fastify preHandlers) for the three schemes of SPEC.md: API key, wallet signature and the
// scheduler/admin bearer secrets. Each answers 401 UNAUTHORIZED naming what was wrong.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Address } from 'viem';
import type { Container } from '../../container.ts';
import { verifyWalletSignature } from '../../domain/auth/wallet-signature.ts';
import { unauthorized } from '../../errors.ts';

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
    const q = (request.query as Record<string, unknown> | undefined)?.api_key;
    if (typeof q === 'string' && q !== '') return q;
  }
  return undefined;
}

export interface ApiKeyGuardOptions {
  /** Accept `api_key` in the query string too (only /api/v1/events and /api/v1/fortune). */
  allowQuery?: boolean;
  /** Let requests through while no key exists at all (the event stream, SPEC.md rule 2). */
  openWhenUnconfigured?: boolean;
}

export function requireApiKey(container: Container, options: ApiKeyGuardOptions = {}): preHandlerAsyncHookHandler {
  return async (request) => {
    const key = apiKeyFrom(request, options.allowQuery ?? false);
    if (key === undefined) {
      if (options.openWhenUnconfigured && !(await container.apiKeys.anyActive())) return;
      throw unauthorized(
        options.allowQuery
          ? 'Missing API key: send it in the x-api-key header or the api_key query parameter'
          : 'Missing API key: send it in the x-api-key header',
      );
    }
    const found = await container.apiKeys.verify(key);
    if (!found) throw unauthorized('Invalid API key');
    request.apiKeyId = found.id;
  };
}

export function requireWallet(container: Container): preHandlerAsyncHookHandler {
  return async (request) => {
    request.signer = await verifyWalletSignature({
      header: request.headers.authorization,
      method: request.method,
      url: request.url,
      body: request.rawBody ?? '',
      nowMs: container.now(),
      db: container.database.db,
      publicClient: container.chain.publicClient,
    });
  };
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

export function requireSecret(container: Container, which: ('cron' | 'admin')[]): preHandlerAsyncHookHandler {
  return async (request) => {
    const header = request.headers.authorization;
    const m = typeof header === 'string' ? /^Bearer (\S+)$/.exec(header) : null;
    if (!m) throw unauthorized('Missing secret: send Authorization: Bearer <secret>');
    const secrets = which.map((w) => (w === 'cron' ? container.config.cronSecret : container.config.adminSecret));
    if (!secretMatches(m[1]!, secrets)) throw unauthorized('Invalid secret');
  };
}
