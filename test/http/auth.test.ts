// The route guards over real HTTP semantics (app.inject): API keys, wallet signatures and bearer secrets, on
// probe routes registered behind each guard. Also: no secret ever reaches a log line.
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import type { Container } from '../../src/container.ts';
import { apiKeys } from '../../src/db/schema/auth.ts';
import { createApiKey, revokeApiKey } from '../../src/domain/auth/api-keys.ts';
import { walletAuthorizationHeader, walletSignatureMessage } from '../../src/domain/auth/wallet-signature.ts';
import { requireApiKey, requireSecret, requireWallet, secretMatches } from '../../src/http/auth/index.ts';
import type { App } from '../../src/http/types.ts';
import { createLogger } from '../../src/logger.ts';
import { startTestApp, underV1, useTestApp } from '../helpers/app.ts';
import { runCommonRouteTests, serializeBody, signedRequest } from '../helpers/security.ts';

const CRON_SECRET = `cron-${randomBytes(16).toString('hex')}`;
const ADMIN_SECRET = `admin-${randomBytes(16).toString('hex')}`;
const alice = devAccount(4);
const mallory = devAccount(5);

/** Probe routes, one behind each guard and option. */
async function probes(app: App, container: Container) {
  const keyed = async (req: { apiKeyId?: string | undefined }) => ({ success: true, data: { apiKeyId: req.apiKeyId } });
  const signed = async (req: { signer?: string | undefined; body?: unknown }) => ({
    success: true,
    data: { signer: req.signer, body: req.body ?? null },
  });
  app.get('/api/test/key', { preValidation: requireApiKey(container) }, keyed);
  await underV1(app, (v1App) => {
    v1App.get('/test/key', { preValidation: requireApiKey(container) }, async (req) => ({
      data: { apiKeyId: req.apiKeyId },
      meta: { timestamp: new Date().toISOString() },
    }));
    v1App.get('/test/key-query', { preValidation: requireApiKey(container, { allowQuery: true }) }, keyed);
    v1App.get(
      '/test/stream',
      { preValidation: requireApiKey(container, { allowQuery: true, openWhenUnconfigured: true }) },
      keyed,
    );
    v1App.patch('/test/wallet', { preValidation: requireWallet(container) }, signed);
  });
  app.post('/api/test/wallet', { preValidation: requireWallet(container) }, signed);
  app.get('/api/test/wallet', { preValidation: requireWallet(container) }, signed);
  app.delete('/api/test/wallet/:id', { preValidation: requireWallet(container) }, signed);
  const ok = async () => ({ success: true, data: { ok: true } });
  app.post('/api/test/cron', { preValidation: requireSecret(container, ['cron']) }, ok);
  app.post('/api/test/admin', { preValidation: requireSecret(container, ['admin']) }, ok);
  app.post('/api/test/cron-or-admin', { preValidation: requireSecret(container, ['cron', 'admin']) }, ok);
}

const t = useTestApp({ env: { CRON_SECRET, ADMIN_SECRET }, extraRoutes: probes });

const nowS = () => Math.floor(t.container.now() / 1000);

function expectInternal401(res: { statusCode: number; json(): any }, message: string | RegExp) {
  expect(res.statusCode).toBe(401);
  const body = res.json();
  expect(Object.keys(body).sort()).toEqual(['error', 'success']);
  expect(body.success).toBe(false);
  expect(body.error.code).toBe('UNAUTHORIZED');
  expect(body.error.message).toMatch(message);
}

function expectV1401(res: { statusCode: number; json(): any }, message: string | RegExp) {
  expect(res.statusCode).toBe(401);
  const body = res.json();
  expect(Object.keys(body).sort()).toEqual(['error', 'meta']);
  expect(body.error.code).toBe('UNAUTHORIZED');
  expect(body.error.message).toMatch(message);
  expect(Date.parse(body.meta.timestamp)).not.toBeNaN();
}

describe('requireApiKey', () => {
  describe('openWhenUnconfigured', () => {
    it('lets requests through while no key exists at all, and requires one as soon as one does', async () => {
      await t.database.db.delete(apiKeys);
      t.container.apiKeys.clear();
      const open = await t.app.inject({ method: 'GET', url: '/api/v1/test/stream' });
      expect(open.statusCode).toBe(200);
      // Without openWhenUnconfigured the same state is closed.
      expectV1401(await t.app.inject({ method: 'GET', url: '/api/v1/test/key-query' }), /^Missing API key/);

      const { key, id } = await createApiKey(t.database.db, 'first');
      t.container.apiKeys.clear();
      expectV1401(await t.app.inject({ method: 'GET', url: '/api/v1/test/stream' }), /^Missing API key/);
      const withKey = await t.app.inject({ method: 'GET', url: `/api/v1/test/stream?api_key=${key}` });
      expect(withKey.statusCode).toBe(200);
      expect(withKey.json().data.apiKeyId).toBe(id);
      // A wrong key is refused even while unconfigured: a client that sends one expects it to be checked.
      await revokeApiKey(t.database.db, id);
      t.container.apiKeys.clear();
      expectV1401(
        await t.app.inject({ method: 'GET', url: '/api/v1/test/stream', headers: { 'x-api-key': key } }),
        'Invalid API key',
      );
      expect((await t.app.inject({ method: 'GET', url: '/api/v1/test/stream' })).statusCode).toBe(200);
    });
  });

  describe('x-api-key', () => {
    let key: string;
    let id: string;
    beforeAll(async () => {
      ({ key, id } = await createApiKey(t.database.db, 'probe'));
      t.container.apiKeys.clear();
    });

    it('accepts a valid key and names it on the request', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/test/key', headers: { 'x-api-key': key } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, data: { apiKeyId: id } });
      const v1 = await t.app.inject({ method: 'GET', url: '/api/v1/test/key', headers: { 'x-api-key': key } });
      expect(v1.statusCode).toBe(200);
      expect(v1.json().data.apiKeyId).toBe(id);
    });

    it('answers 401 for a missing key, in the internal envelope', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/test/key' });
      expectInternal401(res, 'Missing API key: send it in the x-api-key header');
    });

    it('answers 401 for a missing or invalid key in the v1 envelope under /api/v1', async () => {
      expectV1401(await t.app.inject({ method: 'GET', url: '/api/v1/test/key' }), /^Missing API key/);
      for (const bad of [`aie_${'A'.repeat(43)}`, 'nonsense', `${key}x`, key.toUpperCase()]) {
        const res = await t.app.inject({ method: 'GET', url: '/api/v1/test/key', headers: { 'x-api-key': bad } });
        expectV1401(res, 'Invalid API key');
      }
    });

    it('answers 401 for a revoked key once the cache forgets it', async () => {
      const other = await createApiKey(t.database.db, 'short-lived');
      const ok = await t.app.inject({ method: 'GET', url: '/api/test/key', headers: { 'x-api-key': other.key } });
      expect(ok.statusCode).toBe(200);
      await revokeApiKey(t.database.db, other.id);
      t.container.apiKeys.clear();
      const res = await t.app.inject({ method: 'GET', url: '/api/test/key', headers: { 'x-api-key': other.key } });
      expectInternal401(res, 'Invalid API key');
    });

    it('accepts api_key in the query only where allowQuery is set', async () => {
      expectV1401(await t.app.inject({ method: 'GET', url: `/api/v1/test/key?api_key=${key}` }), /^Missing API key/);
      expectInternal401(await t.app.inject({ method: 'GET', url: `/api/test/key?api_key=${key}` }), /^Missing API key/);
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/test/key-query?limit=5&api_key=${key}` });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.apiKeyId).toBe(id);
      expectV1401(
        await t.app.inject({ method: 'GET', url: `/api/v1/test/key-query?api_key=${key}x` }),
        'Invalid API key',
      );
      // Where both are given, the header decides.
      const both = await t.app.inject({
        method: 'GET',
        url: `/api/v1/test/key-query?api_key=${key}`,
        headers: { 'x-api-key': 'wrong' },
      });
      expectV1401(both, 'Invalid API key');
    });

    it('names the query parameter in the "missing" message where it is allowed', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/test/key-query' });
      expectV1401(res, 'Missing API key: send it in the x-api-key header or the api_key query parameter');
    });

    it('does not take a key from a percent-encoded parameter name, which log redaction would not hide', async () => {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/test/key-query?api%5Fkey=${key}` });
      expectV1401(res, /^Missing API key/);
    });
  });
});

describe('requireWallet', () => {
  it('accepts a POST with a JSON body signed exactly as sent; request.signer is checksummed', async () => {
    const body = { name: 'Acme Agents', category: 'AI_TOKENS', n: 1 };
    const headers = await signedRequest(alice, 'POST', '/api/test/wallet', body, nowS());
    // The header may carry the address in any case; the signer comes out checksummed.
    headers.authorization = headers.authorization!.replace(alice.address, alice.address.toLowerCase());
    const res = await t.app.inject({ method: 'POST', url: '/api/test/wallet', headers, payload: serializeBody(body) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { signer: alice.address, body } });
    expect(res.json().data.signer).not.toBe(alice.address.toLowerCase());
  });

  it('refuses the same body re-serialised differently (one extra space)', async () => {
    const body = { name: 'Acme Agents', n: 1 };
    const headers = await signedRequest(alice, 'POST', '/api/test/wallet', body, nowS());
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/test/wallet',
      headers,
      payload: '{"name": "Acme Agents","n":1}',
    });
    expectInternal401(res, /^Invalid signature/);
  });

  it('hashes the body bytes as sent: non-ASCII text and a charset parameter', async () => {
    const payload = '{"name":"Ünïcødé ✓ 公司","emoji":"🚀"}';
    const ts = nowS();
    const signature = await alice.signMessage({
      message: walletSignatureMessage('POST', '/api/test/wallet', ts, payload),
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/test/wallet',
      headers: {
        authorization: walletAuthorizationHeader(alice.address, ts, signature),
        'content-type': 'application/json; charset=utf-8',
      },
      payload: Buffer.from(payload, 'utf8'),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.body).toEqual(JSON.parse(payload));
  });

  it('makes the query string part of the signature', async () => {
    const url = '/api/test/wallet?b=2&a=1';
    const headers = await signedRequest(alice, 'GET', url, undefined, nowS());
    // The same parameters in another order are another request.
    expectInternal401(
      await t.app.inject({ method: 'GET', url: '/api/test/wallet?a=1&b=2', headers }),
      /^Invalid signature/,
    );
    expectInternal401(await t.app.inject({ method: 'GET', url: '/api/test/wallet', headers }), /^Invalid signature/);
    expectInternal401(
      await t.app.inject({ method: 'GET', url: '/api/test/wallet?b=2&a=1&c=3', headers }),
      /^Invalid signature/,
    );
    const res = await t.app.inject({ method: 'GET', url, headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.signer).toBe(alice.address);
    // A signature over the bare path does not cover a query added later.
    const bare = await signedRequest(alice, 'GET', '/api/test/wallet', undefined, nowS());
    expectInternal401(
      await t.app.inject({ method: 'GET', url: '/api/test/wallet?admin=true', headers: bare }),
      /^Invalid signature/,
    );
  });

  it('signs the path as sent, percent-encoding and all', async () => {
    const url = '/api/test/wallet/caf%C3%A9';
    const headers = await signedRequest(alice, 'DELETE', url, undefined, nowS());
    expectInternal401(
      await t.app.inject({ method: 'DELETE', url: '/api/test/wallet/caf%c3%a9', headers }),
      /^Invalid signature/,
    );
    const res = await t.app.inject({ method: 'DELETE', url, headers });
    expect(res.statusCode).toBe(200);
  });

  it('refuses the second use of a signed request', async () => {
    const headers = await signedRequest(alice, 'POST', '/api/test/wallet', { once: true }, nowS());
    const send = () =>
      t.app.inject({ method: 'POST', url: '/api/test/wallet', headers, payload: serializeBody({ once: true }) });
    expect((await send()).statusCode).toBe(200);
    expectInternal401(await send(), 'Signature already used: sign each request anew');
  });

  it('accepts an empty JSON body signed as the empty string', async () => {
    const headers = await signedRequest(alice, 'POST', '/api/test/wallet', undefined, nowS());
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/test/wallet',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: '',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ signer: alice.address, body: null });
  });

  it('covers a text/plain body too, so no body goes unsigned', async () => {
    const ts = nowS();
    const sign = (body: string) =>
      alice.signMessage({ message: walletSignatureMessage('POST', '/api/test/wallet', ts, body) });
    const send = async (signedOver: string, payload: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/test/wallet',
        headers: {
          authorization: walletAuthorizationHeader(alice.address, ts, await sign(signedOver)),
          'content-type': 'text/plain',
        },
        payload,
      });
    expectInternal401(await send('', 'unsigned text'), /^Invalid signature/);
    const res = await send('signed text', 'signed text');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.body).toBe('signed text');
  });

  it('answers the v1 envelope on v1 routes', async () => {
    expectV1401(
      await t.app.inject({ method: 'PATCH', url: '/api/v1/test/wallet', payload: {} }),
      /^Missing Authorization/,
    );
  });

  it('refuses another wallet signing for this address', async () => {
    const headers = await signedRequest(mallory, 'POST', '/api/test/wallet', {}, nowS(), alice.address);
    const res = await t.app.inject({ method: 'POST', url: '/api/test/wallet', headers, payload: '{}' });
    expectInternal401(res, /^Invalid signature/);
  });

  runCommonRouteTests(() => ({ app: t.app, now: t.container.now }), {
    method: 'POST',
    url: '/api/test/wallet',
    body: { name: 'Acme', category: 'AI_TOKENS' },
  });
  runCommonRouteTests(() => ({ app: t.app, now: t.container.now }), { method: 'GET', url: '/api/test/wallet?x=1' });
  runCommonRouteTests(
    () => ({ app: t.app, now: t.container.now }),
    () => ({
      method: 'PATCH',
      url: '/api/v1/test/wallet?dryRun=true',
      body: { enginePreset: 'BALANCED' },
    }),
  );
});

describe('secretMatches', () => {
  it('matches any configured secret, in constant time, and nothing when none is set', () => {
    expect(secretMatches('a', ['a'])).toBe(true);
    expect(secretMatches('b', ['a', 'b'])).toBe(true);
    expect(secretMatches('a', [undefined, 'a'])).toBe(true);
    expect(secretMatches('ab', ['a'])).toBe(false);
    expect(secretMatches('', ['a'])).toBe(false);
    expect(secretMatches('undefined', [undefined])).toBe(false);
    expect(secretMatches('', [undefined, undefined])).toBe(false);
    expect(secretMatches('x', [])).toBe(false);
  });
});

describe('requireSecret', () => {
  const post = (app: App, url: string, authorization?: string) =>
    app.inject({ method: 'POST', url, headers: authorization === undefined ? {} : { authorization } });

  it('accepts the right Bearer secret', async () => {
    expect((await post(t.app, '/api/test/cron', `Bearer ${CRON_SECRET}`)).statusCode).toBe(200);
    expect((await post(t.app, '/api/test/admin', `Bearer ${ADMIN_SECRET}`)).statusCode).toBe(200);
    expect((await post(t.app, '/api/test/cron-or-admin', `Bearer ${CRON_SECRET}`)).statusCode).toBe(200);
    expect((await post(t.app, '/api/test/cron-or-admin', `Bearer ${ADMIN_SECRET}`)).statusCode).toBe(200);
    // The scheme name is case-insensitive.
    expect((await post(t.app, '/api/test/cron', `bearer ${CRON_SECRET}`)).statusCode).toBe(200);
  });

  it('answers 401 for a wrong secret, including the other one', async () => {
    for (const wrong of [`${CRON_SECRET}x`, CRON_SECRET.slice(0, -1), ADMIN_SECRET, 'x']) {
      expectInternal401(await post(t.app, '/api/test/cron', `Bearer ${wrong}`), 'Invalid secret');
    }
    expectInternal401(await post(t.app, '/api/test/admin', `Bearer ${CRON_SECRET}`), 'Invalid secret');
  });

  it('answers 401 for a missing or malformed Authorization header', async () => {
    expectInternal401(await post(t.app, '/api/test/cron'), /^Missing secret/);
    expectInternal401(await post(t.app, '/api/test/cron', ''), /^Missing secret/);
    for (const malformed of [CRON_SECRET, `Basic ${CRON_SECRET}`, 'Bearer', `Bearer ${CRON_SECRET} extra`]) {
      expectInternal401(await post(t.app, '/api/test/cron', malformed), /^Malformed Authorization header/);
    }
  });

  it('accepts nothing for a secret that is not set', async () => {
    const onlyCron = await startTestApp({
      database: t.database,
      chain: t.chain,
      env: { CRON_SECRET },
      extraRoutes: probes,
    });
    try {
      for (const given of [ADMIN_SECRET, CRON_SECRET, 'undefined', 'null', '""']) {
        expectInternal401(await post(onlyCron.app, '/api/test/admin', `Bearer ${given}`), 'Invalid secret');
      }
      expectInternal401(
        await post(onlyCron.app, '/api/test/cron-or-admin', `Bearer ${ADMIN_SECRET}`),
        'Invalid secret',
      );
      expect((await post(onlyCron.app, '/api/test/cron-or-admin', `Bearer ${CRON_SECRET}`)).statusCode).toBe(200);
    } finally {
      await onlyCron.close();
    }
    const none = await startTestApp({
      database: t.database,
      chain: t.chain,
      env: { CRON_SECRET: '', ADMIN_SECRET: '  ' },
      extraRoutes: probes,
    });
    try {
      for (const url of ['/api/test/cron', '/api/test/admin', '/api/test/cron-or-admin']) {
        for (const given of ['', ' ', 'undefined', CRON_SECRET]) {
          expect((await post(none.app, url, `Bearer ${given}`)).statusCode).toBe(401);
        }
      }
    } finally {
      await none.close();
    }
  });
});

describe('logs', () => {
  it('never contain an API key, a bearer secret or a wallet signature', async () => {
    const lines: string[] = [];
    const logger = createLogger('trace');
    // The service's own logger configuration (redaction and serializers), writing into this array.
    (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] = {
      write: (line: string) => {
        lines.push(line);
      },
    };
    const logged = await startTestApp({
      database: t.database,
      chain: t.chain,
      env: { CRON_SECRET, ADMIN_SECRET },
      extraRoutes: probes,
      logger,
    });
    try {
      const { key } = await createApiKey(t.database.db, 'logged');
      const queryKey = (await createApiKey(t.database.db, 'logged-query')).key;
      const wrongKey = `aie_${randomBytes(32).toString('base64url')}`;
      const walletHeaders = await signedRequest(alice, 'POST', '/api/test/wallet', { a: 1 }, nowS());
      const secrets = [key, queryKey, wrongKey, CRON_SECRET, ADMIN_SECRET, walletHeaders.authorization!];

      const statuses = [];
      for (const req of [
        { method: 'GET', url: '/api/test/key', headers: { 'x-api-key': key } },
        { method: 'GET', url: '/api/test/key', headers: { 'x-api-key': wrongKey } },
        { method: 'GET', url: `/api/v1/test/key-query?api_key=${queryKey}` },
        { method: 'GET', url: `/api/v1/test/key-query?page=1&api_key=${queryKey}&limit=2` },
        { method: 'GET', url: `/api/v1/test/key-query?API_KEY=${wrongKey}` },
        { method: 'GET', url: `/api/v1/test/key?api_key=${queryKey}` },
        { method: 'GET', url: `/api/v1/no-such-route?api_key=${queryKey}`, headers: { 'x-api-key': key } },
        { method: 'POST', url: '/api/test/cron', headers: { authorization: `Bearer ${CRON_SECRET}` } },
        { method: 'POST', url: '/api/test/admin', headers: { authorization: `Bearer ${CRON_SECRET}` } },
        { method: 'POST', url: '/api/test/cron-or-admin', headers: { authorization: `Bearer ${ADMIN_SECRET}` } },
        { method: 'POST', url: '/api/test/wallet', headers: walletHeaders, payload: '{"a":1}' },
        { method: 'POST', url: '/api/test/wallet', headers: walletHeaders, payload: '{"a":1}' },
        { method: 'POST', url: '/api/test/wallet', headers: walletHeaders, payload: '{"a":' },
      ] as const) {
        statuses.push((await logged.app.inject(req as never)).statusCode);
      }
      expect(statuses).toEqual([200, 401, 200, 200, 401, 401, 404, 200, 401, 200, 200, 401, 400]);

      const text = lines.join('');
      // The capture works: every request was logged, with its URL.
      expect(lines.filter((l) => l.includes('"request completed"')).length).toBe(statuses.length);
      expect(text).toContain('/api/v1/test/key-query?api_key=[redacted]');
      expect(text).toContain('"Invalid API key"');
      for (const secret of secrets) expect(text).not.toContain(secret);
      // Nor the random part of a key, nor the signature alone.
      for (const k of [key, queryKey, wrongKey]) expect(text).not.toContain(k.slice(4));
      expect(text).not.toContain(walletHeaders.authorization!.split(':')[2]);
    } finally {
      await logged.close();
    }
  });
});
