// The shared security suite for wallet-protected routes (after unkey's runCommonRouteTests): the same
// no-signature / malformed / expired / future / wrong-signer / tampered-body cases on every protected route,
// each answering 401 UNAUTHORIZED in the route's envelope. Also `signedRequest`, the headers of a signed call.
import type { Address, Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { WALLET_SIGNATURE_WINDOW_S } from '../../src/constants.ts';
import { walletAuthorizationHeader, walletSignatureMessage } from '../../src/domain/auth/wallet-signature.ts';
import type { App } from '../../src/http/types.ts';

/** Any account that signs EIP-191 messages: viem's local accounts (devAccount, privateKeyToAccount). */
export interface MessageSigner {
  address: Address;
  signMessage(args: { message: string }): Promise<Hex>;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteUnderTest {
  method: HttpMethod;
  /** Path and query exactly as sent. */
  url: string;
  /** A JSON value (serialised with JSON.stringify) or the raw body string; absent for no body. */
  body?: unknown;
}

export interface SecurityContext {
  app: App;
  /** The server clock in milliseconds (the container's `now`). */
  now: () => number;
}

/** The request body exactly as sent: a string as it is, any other value as JSON.stringify writes it. */
export const serializeBody = (body: unknown): string | undefined =>
  body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);

/**
 * Headers of a request signed by `account`: Authorization (and content-type when there is a body). Send the body
 * as `serializeBody(body)` so the bytes match what was signed. `nowS` defaults to the real clock.
 */
export async function signedRequest(
  account: MessageSigner,
  method: HttpMethod,
  url: string,
  body?: unknown,
  nowS: number = Math.floor(Date.now() / 1000),
  /** The address the header claims; the signer's own unless a test pretends to be someone else. */
  claimedAddress: Address = account.address,
): Promise<Record<string, string>> {
  const raw = serializeBody(body);
  const message = walletSignatureMessage(method, url, nowS, raw ?? '');
  const signature = await account.signMessage({ message });
  return {
    authorization: walletAuthorizationHeader(claimedAddress, nowS, signature),
    ...(raw === undefined ? {} : { 'content-type': 'application/json' }),
  };
}

const used = new Set<string>();
/**
 * Sends a request signed by `account`, dated at the latest second within the window not yet used for the same
 * signer, method, path and body, so a test that repeats a call is never refused as a replay.
 */
export async function sendSigned(
  ctx: SecurityContext,
  account: MessageSigner,
  method: HttpMethod,
  url: string,
  body?: unknown,
  /** The client address the request comes from (inject's default, 127.0.0.1, when absent). */
  remoteAddress?: string,
) {
  const payload = serializeBody(body);
  const nowS = Math.floor(ctx.now() / 1000);
  let ts = nowS;
  while (used.has(`${account.address} ${method} ${url} ${payload} ${ts}`) && ts > nowS - 250) ts--;
  used.add(`${account.address} ${method} ${url} ${payload} ${ts}`);
  const headers = await signedRequest(account, method, url, body, ts);
  return ctx.app.inject({
    method,
    url,
    headers,
    ...(payload === undefined ? {} : { payload }),
    ...(remoteAddress === undefined ? {} : { remoteAddress }),
  });
}

function expectUnauthorized(
  res: { statusCode: number; json(): any },
  url: string,
  message?: RegExp,
): { code: string; message: string } {
  expect(res.statusCode).toBe(401);
  const body = res.json();
  if (url.startsWith('/api/v1/')) {
    expect(Date.parse(body.meta?.timestamp)).not.toBeNaN();
  } else {
    expect(body.success).toBe(false);
  }
  expect(body.error.code).toBe('UNAUTHORIZED');
  if (message) expect(body.error.message).toMatch(message);
  return body.error;
}

/**
 * Registers the common security tests for one wallet-protected route. `getCtx` is called inside each test (so
 * it may read state set up in beforeAll); `route` may be a function for the same reason.
 */
export function runCommonRouteTests(
  getCtx: () => SecurityContext,
  route: RouteUnderTest | (() => RouteUnderTest),
  options: { signer?: MessageSigner; other?: MessageSigner } = {},
) {
  const signer = options.signer ?? devAccount(7);
  const other = options.other ?? devAccount(8);
  const routeOf = () => (typeof route === 'function' ? route() : route);
  const label = typeof route === 'function' ? 'wallet-protected route' : `${route.method} ${route.url}`;

  const send = (r: RouteUnderTest, headers: Record<string, string>, body: unknown = r.body) => {
    const payload = serializeBody(body);
    return getCtx().app.inject({
      method: r.method,
      url: r.url,
      headers: payload === undefined ? headers : { 'content-type': 'application/json', ...headers },
      ...(payload === undefined ? {} : { payload }),
    });
  };
  const nowS = () => Math.floor(getCtx().now() / 1000);

  describe(`${label}: common security`, () => {
    it('answers 401 UNAUTHORIZED without an Authorization header', async () => {
      const r = routeOf();
      expectUnauthorized(await send(r, {}), r.url, /Missing Authorization/);
    });

    it('answers 401 UNAUTHORIZED for a malformed Authorization header', async () => {
      const r = routeOf();
      for (const authorization of [
        `Bearer ${'a'.repeat(40)}`,
        `Wallet ${signer.address}`,
        `Wallet ${signer.address}:${nowS()}:0x1234`,
        `Wallet 0x1234:${nowS()}:0x${'11'.repeat(65)}`,
        `Wallet ${signer.address}:soon:0x${'11'.repeat(65)}`,
      ]) {
        expectUnauthorized(await send(r, { authorization }), r.url, /Malformed/);
      }
    });

    it(`answers 401 UNAUTHORIZED for a signature older than ${WALLET_SIGNATURE_WINDOW_S} s`, async () => {
      const r = routeOf();
      const headers = await signedRequest(signer, r.method, r.url, r.body, nowS() - WALLET_SIGNATURE_WINDOW_S - 2);
      expectUnauthorized(await send(r, headers), r.url, /expired/);
    });

    it(`answers 401 UNAUTHORIZED for a signature more than ${WALLET_SIGNATURE_WINDOW_S} s ahead`, async () => {
      const r = routeOf();
      const headers = await signedRequest(signer, r.method, r.url, r.body, nowS() + WALLET_SIGNATURE_WINDOW_S + 2);
      expectUnauthorized(await send(r, headers), r.url, /future/);
    });

    it('answers 401 UNAUTHORIZED for a signature by another wallet claiming this address', async () => {
      const r = routeOf();
      const headers = await signedRequest(other, r.method, r.url, r.body, nowS(), signer.address);
      expectUnauthorized(await send(r, headers), r.url, /Invalid signature/);
    });

    it('answers 401 UNAUTHORIZED when the signature was made for another path', async () => {
      const r = routeOf();
      const headers = await signedRequest(signer, r.method, `${r.url.split('?')[0]}/other`, r.body, nowS());
      expectUnauthorized(await send(r, headers), r.url, /Invalid signature/);
    });

    it('answers 401 UNAUTHORIZED when the body differs from the signed one', async (ctx) => {
      const r = routeOf();
      // A GET body is never read, so there is nothing to tamper with.
      if (r.method === 'GET') return ctx.skip();
      const headers = await signedRequest(signer, r.method, r.url, r.body, nowS());
      const raw = serializeBody(r.body);
      // Same meaning, other bytes: a body with one more space, or a body where none was signed.
      const tampered = raw === undefined ? '{}' : `${raw} `;
      expectUnauthorized(await send(r, headers, tampered), r.url, /Invalid signature/);
    });
  });
}
