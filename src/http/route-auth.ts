// Who may call a route declared with route() (route.ts), and what follows from it: the security requirement the API
// documents give the route, and the guards that run before its validation. A v1 twin takes an API key first, then
// the route's own wallet signature.
import type { FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import { optionalWallet, requireApiKey, requireSecret, requireWallet } from './auth/index.ts';
import type { ApiDeps } from './types.ts';

/**
 * Who may call a route: anyone; a caller with an API key (`x-api-key`, or for `apiKeyOrQuery` also the `api_key`
 * query parameter, for clients that cannot send a header); the scheduler or an operator with the cron
 * or admin secret, or an operator with the admin secret alone (`Authorization: Bearer`); the wallet that signed the
 * request (`Authorization: Wallet`), or anyone with an optional signature the route then weighs.
 */
export type RouteAuth =
  | 'none'
  | 'apiKey'
  | 'apiKeyOrQuery'
  | 'cronSecret'
  | 'adminSecret'
  | 'wallet'
  | 'walletOptional';

type Security = Record<string, string[]>[];

const WALLET = { wallet: [] };
const SECURITY: Record<RouteAuth, Security | undefined> = {
  none: undefined,
  apiKey: [{ apiKey: [] }],
  apiKeyOrQuery: [{ apiKey: [] }, { apiKeyQuery: [] }],
  cronSecret: [{ bearerSecret: [] }],
  adminSecret: [{ bearerSecret: [] }],
  wallet: [WALLET],
  // Unsigned requests pass (the empty requirement), signed ones are checked.
  walletOptional: [{}, WALLET],
};
const V1_SECURITY = {
  apiKey: SECURITY.apiKey!,
  apiKeyOrQuery: SECURITY.apiKeyOrQuery!,
  wallet: [{ apiKey: [], wallet: [] }],
};

/** The auth a v1 route may have; throws (at registration) for any other. */
export function checkV1Auth(auth: RouteAuth, url: string) {
  if (auth !== 'none' && auth !== 'apiKey' && auth !== 'apiKeyOrQuery' && auth !== 'wallet') {
    throw new Error(`${url}: a v1 route takes an API key, with a wallet signature or without`);
  }
}

/** The security requirement of a route with `auth`, internal or a v1 twin (none for a public internal route). */
export function securityOf(auth: RouteAuth, v1: boolean): Security | undefined {
  if (!v1) return SECURITY[auth];
  return V1_SECURITY[auth === 'wallet' || auth === 'apiKeyOrQuery' ? auth : 'apiKey'];
}

/** The guards of a route with `auth`, in the order they run. */
export function guardsOf(auth: RouteAuth, v1: boolean, deps: ApiDeps): preValidationAsyncHookHandler[] {
  const own: Record<RouteAuth, () => preValidationAsyncHookHandler[]> = {
    none: () => [],
    apiKey: () => [requireApiKey(deps)],
    apiKeyOrQuery: () => [requireApiKey(deps, { allowQuery: true })],
    cronSecret: () => [requireSecret(deps, ['cron', 'admin'])],
    adminSecret: () => [requireSecret(deps, ['admin'])],
    wallet: () => [requireWallet(deps)],
    walletOptional: () => [optionalWallet(deps)],
  };
  if (!v1 || auth === 'apiKey' || auth === 'apiKeyOrQuery') return own[auth]();
  // The v1 twin: the API key first, then the route's own signature.
  return [requireApiKey(deps), ...(auth === 'wallet' ? own.wallet() : [])];
}

/** The route's preValidation hooks: its `prepare` first (a list parameter split into its items), then its guards. */
export function preValidationOf(
  guards: preValidationAsyncHookHandler[],
  prepare: ((request: FastifyRequest) => void) | undefined,
): preValidationAsyncHookHandler | preValidationAsyncHookHandler[] | undefined {
  const hooks: preValidationAsyncHookHandler[] = prepare ? [async (request) => prepare(request), ...guards] : guards;
  return hooks.length <= 1 ? hooks[0] : hooks;
}
