// Webhooks as an integrator sees them (docs/api/webhooks.md): endpoints managed per API key under /api/v1/webhooks,
// deliveries of the platform events signed per Standard Webhooks to a receiver of our own on loopback that fails,
// recovers and checks every signature; retries with backoff over more than three days, each attempt readable; an
// endpoint failing for days disabled where its owner sees it; and two dispatchers never sending a delivery twice.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  WEBHOOK_DESCRIPTION_MAX,
  WEBHOOK_ENDPOINTS_PER_KEY_MAX,
  WEBHOOK_RETRY_DELAYS_MS,
} from '../../src/constants.ts';
import { createApiKey } from '../../src/domain/auth/api-keys.ts';
import { type PlatformEvent, publishEvent } from '../../src/domain/events/store.ts';
import { runWebhookPass } from '../../src/domain/webhooks/dispatch.ts';
import { useTestApp } from '../helpers/app.ts';
import { insertCompany, payloads } from '../helpers/events.ts';
import { type Receiver, startReceiver } from '../helpers/webhook-receiver.ts';

type Json = Record<string, any>;
let clock = Date.now();
const t = useTestApp({ env: { WEBHOOK_ALLOW_LOOPBACK: 'true', WEBHOOK_TIMEOUT_MS: '500' }, now: () => clock });
let receiver: Receiver;
let key: string;
let otherKey: string;
let acme: { id: string; slug: string };
let globex: { id: string; slug: string };

const call = (method: 'GET' | 'POST', url: string, body?: unknown, apiKey = key) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: { 'x-api-key': apiKey }, ...(body ? { payload: body } : {}) });
const publish = (companyId: string, type: PlatformEvent['type'] = 'trade') =>
  publishEvent(t.database.db, { type, companyId, data: payloads[type] });
const pass = () => runWebhookPass(t.container);
/** Creates an endpoint at the receiver and hands its secret to the receiver. */
async function register(body: Json = {}, apiKey = key): Promise<Json> {
  const res = await call('POST', '/webhooks', { url: receiver.url, ...body }, apiKey);
  expect(res.statusCode, res.body).toBe(201);
  const created = res.json().data;
  receiver.secret = created.secret;
  return created;
}
const disableAll = () => t.database.db.execute(sql`update webhook_endpoints set status = 'DISABLED'`);

beforeAll(async () => {
  receiver = await startReceiver();
  key = (await createApiKey(t.database.db, 'hooks')).key;
  otherKey = (await createApiKey(t.database.db, 'other')).key;
  acme = await insertCompany(t.database.db, 'acme');
  globex = await insertCompany(t.database.db, 'globex');
});
afterAll(async () => {
  await receiver?.close();
});
beforeEach(async () => {
  receiver.mode = 'ok';
  receiver.received.length = 0;
  clock = Date.now();
  await disableAll();
});

describe('webhook endpoints (per API key)', () => {
  it('creates an endpoint and shows its secret once: never in the list, the detail or another key', async () => {
    const created = await register({ description: 'bot', types: ['trade'], companies: [acme.slug] });
    expect(created).toMatchObject({
      url: receiver.url,
      description: 'bot',
      types: ['trade'],
      companies: [acme.id],
      status: 'ACTIVE',
      disabledReason: null,
      failingSince: null,
    });
    expect(created.id).toMatch(/^whe_/);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(32);

    const list = await call('GET', '/webhooks');
    expect(list.statusCode).toBe(200);
    expect(list.headers['cache-control']).toBe('private, max-age=0, must-revalidate');
    expect(list.body).not.toContain(created.secret);
    expect(list.json().data.map((e: Json) => e.id)).toContain(created.id);
    const one = await call('GET', `/webhooks/${created.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json().data).not.toHaveProperty('secret');
    // Another key neither sees nor changes it.
    expect((await call('GET', `/webhooks/${created.id}`, undefined, otherKey)).statusCode).toBe(404);
    expect((await call('POST', `/webhooks/${created.id}/disable`, undefined, otherKey)).statusCode).toBe(404);
    expect((await call('GET', '/webhooks', undefined, otherKey)).json().data).toEqual([]);
    // No key at all.
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/v1/webhooks' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('refuses targets a webhook must not reach, and bad filters, with 400 naming the field', async () => {
    for (const url of [
      'http://10.0.0.7/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://192.168.1.1/',
      'http://[fe80::1]/',
      'http://[::ffff:10.0.0.1]/',
      'ftp://example.com/hook',
      'https://user:pass@example.com/hook',
      'not a url',
    ]) {
      const res = await call('POST', '/webhooks', { url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
      expect(res.json().error.message).toMatch(/url/);
    }
    expect((await call('POST', '/webhooks', { url: receiver.url, types: ['nope'] })).statusCode).toBe(400);
    const unknown = await call('POST', '/webhooks', { url: receiver.url, companies: ['no-such-company'] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.message).toMatch(/no-such-company/);
    // The description's bound, just inside and just outside.
    await register({ description: 'd'.repeat(WEBHOOK_DESCRIPTION_MAX) });
    const long = await call('POST', '/webhooks', {
      url: receiver.url,
      description: 'd'.repeat(WEBHOOK_DESCRIPTION_MAX + 1),
    });
    expect(long.statusCode).toBe(400);
  });

  it(`holds at most ${WEBHOOK_ENDPOINTS_PER_KEY_MAX} endpoints a key`, async () => {
    const fresh = (await createApiKey(t.database.db, 'many')).key;
    for (let i = 0; i < WEBHOOK_ENDPOINTS_PER_KEY_MAX; i++) await register({}, fresh);
    const over = await call('POST', '/webhooks', { url: receiver.url }, fresh);
    expect(over.statusCode).toBe(409);
    expect((await call('GET', '/webhooks', undefined, fresh)).json().data).toHaveLength(WEBHOOK_ENDPOINTS_PER_KEY_MAX);
  });
});

describe('webhook deliveries', () => {
  it('delivers the events that pass the filters, signed, with the event id as webhook-id', async () => {
    await register({ types: ['trade', 'season'], companies: [acme.slug] });
    const mine = await publish(acme.id, 'trade');
    await publish(globex.id, 'trade'); // another company
    await publish(acme.id, 'decision'); // another type
    const season = await publish(globex.id, 'season'); // platform-wide: passes every company filter
    const result = await pass();
    expect(result).toMatchObject({ queued: 2, attempted: 2 });
    expect(receiver.received.map((r) => r.headers['webhook-id']).sort()).toEqual([mine.id, season.id].sort());
    for (const r of receiver.received) {
      expect(r.verified).toBe(true);
      expect(r.headers['content-type']).toBe('application/json');
      expect(Number(r.headers['webhook-timestamp'])).toBe(Math.floor(clock / 1000));
      expect(JSON.parse(r.body)).toEqual(r.headers['webhook-id'] === mine.id ? mine : season);
    }
    // Nothing is sent twice.
    expect(await pass()).toMatchObject({ queued: 0, attempted: 0 });
    expect(receiver.received).toHaveLength(2);
  });

  it('retries a failing receiver with backoff and records each attempt; it succeeds once the receiver recovers', async () => {
    const endpoint = await register({ companies: [acme.id] });
    const event = await publish(acme.id);
    receiver.mode = 'fail';
    await pass();
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.verified).toBe(true);
    let deliveries = (await call('GET', `/webhooks/${endpoint.id}/deliveries`)).json();
    expect(deliveries.data).toHaveLength(1);
    const delivery = deliveries.data[0];
    expect(delivery).toMatchObject({ eventId: event.id, eventType: 'trade', status: 'PENDING', attempts: 1 });
    const wait = Date.parse(delivery.nextAttemptAt) - clock;
    expect(wait).toBeGreaterThanOrEqual(WEBHOOK_RETRY_DELAYS_MS[0] * 0.95);
    expect(wait).toBeLessThanOrEqual(WEBHOOK_RETRY_DELAYS_MS[0] * 1.05);
    expect((await call('GET', `/webhooks/${endpoint.id}`)).json().data.failingSince).toBe(
      new Date(clock).toISOString(),
    );

    // Not due yet: nothing is sent.
    clock += WEBHOOK_RETRY_DELAYS_MS[0] * 0.9;
    expect((await pass()).attempted).toBe(0);
    // Due, and the receiver is back.
    clock += WEBHOOK_RETRY_DELAYS_MS[0] * 0.2;
    receiver.mode = 'ok';
    expect((await pass()).attempted).toBe(1);
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.headers['webhook-id']).toBe(event.id);
    expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body);
    expect(receiver.received[1]!.verified).toBe(true);

    deliveries = (await call('GET', `/webhooks/${endpoint.id}/deliveries`)).json();
    expect(deliveries.data[0]).toMatchObject({ status: 'SUCCEEDED', attempts: 2, nextAttemptAt: null });
    const attempts = (await call('GET', `/webhooks/${endpoint.id}/attempts?delivery=${delivery.id}`)).json();
    expect(attempts.data.map((a: Json) => [a.attempt, a.statusCode, a.error])).toEqual([
      [2, 200, null],
      [1, 500, 'HTTP 500'],
    ]);
    // The first bytes of the answer, no more.
    expect(attempts.data[1].response).toMatch(/^receiver down x+$/);
    expect(Buffer.byteLength(attempts.data[1].response)).toBe(1024);
    expect(attempts.data[0].response).toBe('{"received":true}');
    for (const a of attempts.data) expect(a.latencyMs).toBeGreaterThanOrEqual(0);
    expect((await call('GET', `/webhooks/${endpoint.id}`)).json().data.failingSince).toBeNull();
  });

  it('keeps retrying for more than three days, then gives the delivery up as FAILED', async () => {
    expect(WEBHOOK_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0)).toBeGreaterThan(3 * 86_400_000);
    const endpoint = await register({ companies: [acme.id] });
    await publish(acme.id);
    receiver.mode = 'fail';
    const first = clock;
    for (let attempt = 1; attempt <= WEBHOOK_RETRY_DELAYS_MS.length + 1; attempt++) {
      expect((await pass()).attempted, `attempt ${attempt}`).toBe(1);
      const [d] = (await call('GET', `/webhooks/${endpoint.id}/deliveries`)).json().data;
      if (attempt <= WEBHOOK_RETRY_DELAYS_MS.length) {
        expect(d.status).toBe('PENDING');
        clock = Date.parse(d.nextAttemptAt) + 1;
      } else {
        expect(d).toMatchObject({ status: 'FAILED', attempts: WEBHOOK_RETRY_DELAYS_MS.length + 1 });
      }
    }
    expect(clock - first).toBeGreaterThan(3 * 86_400_000);
    expect((await pass()).attempted).toBe(0);
    // Under five days of failures: the endpoint stays active.
    expect((await call('GET', `/webhooks/${endpoint.id}`)).json().data.status).toBe('ACTIVE');
    const attempts = (await call('GET', `/webhooks/${endpoint.id}/attempts?limit=5`)).json();
    expect(attempts.data).toHaveLength(5);
    expect(attempts.pagination.hasMore).toBe(true);
    const next = (
      await call('GET', `/webhooks/${endpoint.id}/attempts?limit=5&cursor=${attempts.pagination.nextCursor}`)
    ).json();
    expect(next.data[0].attempt).toBe(attempts.data[4].attempt - 1);
  });

  it('disables an endpoint that failed every delivery for days, which its owner sees, and enables it again', async () => {
    const endpoint = await register({ companies: [acme.id] });
    await publish(acme.id);
    receiver.mode = 'fail';
    await pass();
    // Four days and more of failures: still active.
    await t.database.db.execute(
      sql`update webhook_endpoints set failing_since = ${new Date(clock - 4 * 86_400_000).toISOString()}::timestamptz where id = ${endpoint.id}`,
    );
    clock += 60_000;
    await pass();
    expect((await call('GET', `/webhooks/${endpoint.id}`)).json().data.status).toBe('ACTIVE');
    // Past five days.
    await t.database.db.execute(
      sql`update webhook_endpoints set failing_since = ${new Date(clock - 5 * 86_400_000 - 1000).toISOString()}::timestamptz where id = ${endpoint.id}`,
    );
    clock += 10 * 60_000;
    const result = await pass();
    expect(result.disabled).toEqual([endpoint.id]);
    const seen = (await call('GET', `/webhooks/${endpoint.id}`)).json().data;
    expect(seen).toMatchObject({
      status: 'DISABLED',
      disabledReason: 'FAILING',
      disabledAt: new Date(clock).toISOString(),
    });
    expect((await call('GET', `/webhooks/${endpoint.id}/deliveries`)).json().data[0].status).toBe('FAILED');
    await publish(acme.id);
    expect((await pass()).attempted).toBe(0);

    receiver.mode = 'ok';
    const enabled = (await call('POST', `/webhooks/${endpoint.id}/enable`)).json().data;
    expect(enabled).toMatchObject({ status: 'ACTIVE', disabledReason: null, failingSince: null });
    const after = await publish(acme.id);
    receiver.received.length = 0;
    expect((await pass()).attempted).toBe(1);
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([after.id]);
  });

  it('sends nothing to an endpoint its owner disabled', async () => {
    const endpoint = await register({ companies: [acme.id] });
    const disabled = await call('POST', `/webhooks/${endpoint.id}/disable`);
    expect(disabled.json().data).toMatchObject({ status: 'DISABLED', disabledReason: 'OWNER' });
    await publish(acme.id);
    expect((await pass()).attempted).toBe(0);
    expect(receiver.received).toHaveLength(0);
  });

  it('signs with the new secret after a rotation, and with the old one beside it for a day', async () => {
    const endpoint = await register({ companies: [acme.id] });
    const old = receiver.secret;
    const rotated = await call('POST', `/webhooks/${endpoint.id}/rotate-secret`);
    expect(rotated.statusCode).toBe(200);
    const fresh = rotated.json().data.secret;
    expect(fresh).not.toBe(old);
    await publish(acme.id);
    receiver.secret = fresh;
    await pass();
    expect(receiver.received[0]!.verified).toBe(true);
    expect(String(receiver.received[0]!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    receiver.secret = old;
    receiver.received[0]!.verified = false;
    const { verifyStandardWebhook } = await import('../helpers/webhook-receiver.ts');
    expect(verifyStandardWebhook(old, receiver.received[0]!.headers, receiver.received[0]!.body)).toBe(true);
    // A day later the old secret no longer signs.
    clock += 86_400_000 + 1000;
    await publish(acme.id);
    await pass();
    expect(String(receiver.received[1]!.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifyStandardWebhook(old, receiver.received[1]!.headers, receiver.received[1]!.body)).toBe(false);
    expect(verifyStandardWebhook(fresh, receiver.received[1]!.headers, receiver.received[1]!.body)).toBe(true);
  });

  it('counts a timeout and a redirect as failures, never following the redirect', async () => {
    const endpoint = await register({ companies: [acme.id] });
    receiver.mode = 'hang';
    await publish(acme.id);
    const started = performance.now();
    await pass();
    expect(performance.now() - started).toBeLessThan(3000);
    receiver.mode = 'redirect';
    clock += 10_000;
    await pass();
    const attempts = (await call('GET', `/webhooks/${endpoint.id}/attempts`)).json().data;
    expect(attempts.map((a: Json) => [a.statusCode, a.error])).toEqual([
      [302, 'redirect (302) not followed'],
      [null, 'timed out after 500 ms'],
    ]);
    expect(attempts[1].latencyMs).toBeGreaterThanOrEqual(450);
    expect(receiver.received).toHaveLength(2);
  });

  it('records an answer with a NUL byte as a failure (the bytes PostgreSQL cannot store left out), and retries it', async () => {
    const endpoint = await register({ companies: [acme.id] });
    await publish(acme.id);
    receiver.mode = 'nul';
    expect((await pass()).attempted).toBe(1);
    const attempts = (await call('GET', `/webhooks/${endpoint.id}/attempts`)).json().data;
    expect(attempts.map((a: Json) => [a.statusCode, a.error, a.response])).toEqual([[500, 'HTTP 500', 'badanswer']]);
    const deliveries = (await call('GET', `/webhooks/${endpoint.id}/deliveries`)).json().data;
    expect(deliveries[0]).toMatchObject({ status: 'PENDING', attempts: 1 });
    expect((await call('GET', `/webhooks/${endpoint.id}`)).json().data.failingSince).not.toBeNull();
  });

  it('two dispatchers at once send every delivery once', async () => {
    await register({ companies: [acme.id] });
    const events = [];
    for (let i = 0; i < 6; i++) events.push(await publish(acme.id));
    await Promise.all([pass(), pass(), pass()]);
    await pass();
    expect(receiver.received.map((r) => r.headers['webhook-id']).sort()).toEqual(events.map((e) => e.id).sort());
  });
});
