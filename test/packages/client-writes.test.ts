// The client package's signed writes, backoff and webhook verifier against the real service over loopback:
// client.write signs the exact bytes it sends with a viem account and the service accepts them; a write whose answer
// was lost, or refused with 503, is signed again at a later second under the same Idempotency-Key and answers the
// first answer (one company, not two); every call backs off 429 and 503 as Retry-After says, with jitter, and the
// rate-limit state is the service's headers; the verifier accepts what the service's webhook signing makes and
// refuses a changed body, another secret and an old timestamp.
import { eq } from 'drizzle-orm';
import { privateKeyToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ApiError,
  backoffDelay,
  createClient,
  type RetryInfo,
  type SignedWritePath,
  verifyWebhook,
  WebhookVerificationError,
  walletSignatureMessage,
} from '../../packages/client/src/index.ts';
import { devAccount } from '../../src/chain/client.ts';
import { companies } from '../../src/db/schema/companies.ts';
import { createApiKey } from '../../src/domain/auth/api-keys.ts';
import { walletSignatureMessage as serverMessage } from '../../src/domain/auth/wallet-signature.ts';
import { newWebhookSecret, webhookHeaders } from '../../src/domain/webhooks/signing.ts';
import { useTestApp } from '../helpers/app.ts';
import { mintCard } from '../helpers/companies.ts';

// Compile-time: the signed writes are the v1 routes taking an Idempotency-Key, and no other (tsc -p . checks).
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const postWrites: Equal<
  SignedWritePath<'post'>,
  | '/api/v1/companies'
  | '/api/v1/companies/{slug}/deploy-suite'
  | '/api/v1/companies/{slug}/token'
  | '/api/v1/companies/{slug}/decisions/run'
  | '/api/v1/epochs/claim'
> = true;
const patchWrites: Equal<SignedWritePath<'patch'>, '/api/v1/companies/{slug}/engine'> = true;

const t = useTestApp();
let base: string;
let apiKey: string;
// A viem account as an integrator holds one: anvil's account 1 (devAccount(1), which gets the cards below).
const signer = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');

beforeAll(async () => {
  expect(signer.address).toBe(devAccount(1).address);
  apiKey = (await createApiKey(t.database.db, 'client-writes')).key;
  await mintCard(t.chain, 1);
  await mintCard(t.chain, 1);
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});

describe('the wallet signature', () => {
  it('is the message the service verifies, byte for byte', async () => {
    for (const body of ['', '{"a":1}', 'é ü']) {
      expect(await walletSignatureMessage('PATCH', '/api/v1/companies/x/engine?q=1', 1767225600, body)).toBe(
        serverMessage('PATCH', '/api/v1/companies/x/engine?q=1', 1767225600, body),
      );
    }
  });
});

describe('client.write', () => {
  it('creates a company and launches its token through v1, signed with a viem account', async () => {
    expect([postWrites, patchWrites]).toEqual([true, true]);
    const client = createClient({ baseUrl: base, apiKey });
    const created = await client.write('post', '/api/v1/companies', {
      signer,
      body: { name: 'Client Writes Co', category: 'AI_TOKENS' },
    });
    expect(created).toMatchObject({ status: 201, replayed: false, attempts: 1 });
    expect(created.data).toMatchObject({ slug: 'client-writes-co', creatorAddress: signer.address });
    expect(created.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    const launched = await client.write('post', '/api/v1/companies/{slug}/token', {
      signer,
      params: { slug: created.data.slug },
      body: { name: 'Client Token', symbol: 'CLT' },
    });
    expect(launched.data).toMatchObject({ status: 'BONDING', tokenSymbol: 'CLT' });
  });

  it('after a lost answer and a 503, signs again under the same key and gets the first answer, once', async () => {
    let sent = 0;
    const keys: string[] = [];
    const authorizations: string[] = [];
    const retries: RetryInfo[] = [];
    const client = createClient({
      baseUrl: base,
      apiKey,
      retry: { baseDelayMs: 5, onRetry: (info) => retries.push(info) },
      fetch: async (input, init) => {
        sent++;
        const headers = new Headers(init?.headers);
        keys.push(headers.get('idempotency-key')!);
        authorizations.push(headers.get('authorization')!);
        const res = await fetch(input, init);
        // The first answer is lost on the way back (the company was created); the second "503s" before the server.
        if (sent === 1) throw new TypeError('fetch failed: connection reset');
        return res;
      },
    });
    const body = { name: 'Lost Answer Co', category: 'AI_TOKENS' } as const;
    const result = await client.write('post', '/api/v1/companies', { signer, body, idempotencyKey: 'lost-answer-1' });
    expect(result).toMatchObject({ status: 201, replayed: true, attempts: 2, idempotencyKey: 'lost-answer-1' });
    expect(keys).toEqual(['lost-answer-1', 'lost-answer-1']);
    // Signed again, at a later second (a signature is accepted once).
    expect(authorizations[1]).not.toBe(authorizations[0]);
    expect(retries.map((r) => r.status)).toEqual([0]);
    const named = await t.database.db.select().from(companies).where(eq(companies.name, 'Lost Answer Co'));
    expect(named).toHaveLength(1);

    // A 503 (before the server) is retried too.
    let first = true;
    const flaky = createClient({
      baseUrl: base,
      apiKey,
      retry: { baseDelayMs: 5 },
      fetch: async (input, init) => {
        if (first) {
          first = false;
          return Response.json({ error: { code: 'DATABASE_UNAVAILABLE', message: 'down' } }, { status: 503 });
        }
        return fetch(input, init);
      },
    });
    const engine = await flaky.write('patch', '/api/v1/companies/{slug}/engine', {
      signer,
      params: { slug: 'lost-answer-co' },
      body: { masterDirective: 'Hold' },
    });
    expect(engine).toMatchObject({ status: 200, attempts: 2, data: { masterDirective: 'Hold' } });
  });

  it('throws the refusal it should not retry as ApiError (another wallet: 403), after one attempt', async () => {
    let sent = 0;
    const client = createClient({
      baseUrl: base,
      apiKey,
      fetch: (input, init) => {
        sent++;
        return fetch(input, init);
      },
    });
    const error = await client
      .write('patch', '/api/v1/companies/{slug}/engine', {
        signer: privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a'),
        params: { slug: 'lost-answer-co' },
        body: { masterDirective: 'Mine' },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect(sent).toBe(1);
  });
});

describe('backoff and the rate-limit state', () => {
  it('backs off a 429 as its Retry-After says, with jitter, and exposes the service rate-limit headers', async () => {
    let calls = 0;
    const waits: RetryInfo[] = [];
    const client = createClient({
      baseUrl: base,
      apiKey,
      retry: { baseDelayMs: 100, onRetry: (info) => waits.push(info) },
      fetch: async (input) => {
        calls++;
        if (calls === 1) {
          return Response.json(
            { error: { code: 'RATE_LIMITED', message: 'slow down' } },
            { status: 429, headers: { 'retry-after': '1' } },
          );
        }
        return fetch(input);
      },
    });
    const started = Date.now();
    const { data, response } = await client.api.GET('/api/v1/tokens', { params: { query: { limit: 5 } } });
    expect(response.status).toBe(200);
    expect(data!.data.map((token) => token.tokenSymbol)).toContain('CLT');
    expect(calls).toBe(2);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toMatchObject({ attempt: 1, status: 429, retryAfter: 1, method: 'GET' });
    expect(waits[0]!.delayMs).toBeGreaterThanOrEqual(1000);
    expect(waits[0]!.delayMs).toBeLessThanOrEqual(1100);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    // The service's own headers: per key.
    expect(client.rateLimit).toMatchObject({ policy: 'key' });
    expect(client.rateLimit!.limit).toBeGreaterThan(0);
    expect(client.rateLimit!.remaining).toBeLessThan(client.rateLimit!.limit!);
    expect(client.rateLimit!.resetSeconds).toBeGreaterThanOrEqual(0);
  });

  it('gives up after its retries, and on a Retry-After longer than it waits, with the refusal', async () => {
    let calls = 0;
    const client = createClient({
      baseUrl: base,
      apiKey,
      retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 5_000 },
      fetch: async () => {
        calls++;
        return Response.json({ error: { code: 'RATE_LIMITED', message: 'no' } }, { status: 429 });
      },
    });
    expect((await client.api.GET('/api/v1/tokens')).response.status).toBe(429);
    expect(calls).toBe(3);
    calls = 0;
    const patient = createClient({
      baseUrl: base,
      apiKey,
      retry: { maxDelayMs: 5_000 },
      fetch: async () => {
        calls++;
        return Response.json(
          { error: { code: 'RATE_LIMITED', message: 'no' } },
          { status: 429, headers: { 'retry-after': '60' } },
        );
      },
    });
    expect((await patient.api.GET('/api/v1/tokens')).response.status).toBe(429);
    expect(calls).toBe(1);
  });

  it('spreads waits: equal jitter doubling without Retry-After, never below Retry-After with it', () => {
    const at = (random: number) => ({ baseDelayMs: 100, maxDelayMs: 1000, random: () => random });
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay(n, undefined, at(0)))).toEqual([50, 100, 200, 400, 500]);
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay(n, undefined, at(1)))).toEqual([100, 200, 400, 800, 1000]);
    expect(backoffDelay(1, 0, at(0.5))).toBe(50);
    expect(backoffDelay(3, 1, at(0))).toBe(1000);
    expect(backoffDelay(1, 2, at(0))).toBeUndefined();
  });
});

describe('verifyWebhook', () => {
  it("accepts the service's signatures, under either secret during a rotation, and refuses anything else", async () => {
    const [secret, previous] = [newWebhookSecret(), newWebhookSecret()];
    const body = JSON.stringify({ id: '42', type: 'score', companyId: 'c1', data: { rank: 1 }, timestamp: 'x' });
    const nowS = Math.floor(Date.now() / 1000);
    const headers = webhookHeaders([secret, previous], '42', nowS, body);
    expect((await verifyWebhook(secret, headers, body)).id).toBe('42');
    expect((await verifyWebhook(previous, new Headers(headers), new TextEncoder().encode(body))).id).toBe('42');
    expect((await verifyWebhook([newWebhookSecret(), secret], headers, body)).id).toBe('42');
    const refusals = [
      () => verifyWebhook(secret, headers, body.replace('"rank":1', '"rank":2')),
      () => verifyWebhook(newWebhookSecret(), headers, body),
      () => verifyWebhook(secret, { ...headers, 'webhook-id': '43' }, body),
      () => verifyWebhook(secret, webhookHeaders([secret], '42', nowS - 301, body), body),
      () => verifyWebhook(secret, { 'webhook-id': '42' }, body),
    ];
    for (const refusal of refusals) await expect(refusal()).rejects.toBeInstanceOf(WebhookVerificationError);
    // Within the tolerance, either way.
    expect((await verifyWebhook(secret, webhookHeaders([secret], '42', nowS + 299, body), body)).id).toBe('42');
  });
});
