// GET /api/v1/events over real HTTP (fetch on loopback, eventsource-parser): the protocol of docs/api/events.md "Protocol",
// delivery of each type within a second, both filters, resuming after Last-Event-ID, validation and every
// outcome of the API key.
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  EVENT_TYPES,
  SSE_FILTER_COMPANIES_MAX,
  SSE_PUBLIC_MAX_CONNECTIONS_PER_IP_DEFAULT,
  SSE_RETRY_MS,
} from '../../src/constants.ts';
import { apiKeys } from '../../src/db/schema/auth.ts';
import { createApiKey, revokeApiKey } from '../../src/domain/auth/api-keys.ts';
import { type PlatformEvent, publishEvent } from '../../src/domain/events/store.ts';
import { useTestApp } from '../helpers/app.ts';
import { insertCompany, payloads } from '../helpers/events.ts';
import { openStream, type SseStream } from '../helpers/sse-client.ts';

const t = useTestApp();
let base: string;
let acme: { id: string; slug: string };
let globex: { id: string; slug: string };
let initech: { id: string; slug: string };

beforeAll(async () => {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  acme = await insertCompany(t.database.db, 'acme');
  globex = await insertCompany(t.database.db, 'globex');
  initech = await insertCompany(t.database.db, 'initech');
});

const open = (query = '', headers: Record<string, string> = {}) => openStream(`${base}/api/v1/events${query}`, headers);

/** Opens a stream and waits for its `connected` message, so it is registered before anything is published. */
async function connected(query = '', headers: Record<string, string> = {}): Promise<SseStream> {
  const s = await open(query, headers);
  expect(s.status).toBe(200);
  await s.waitFor(1, (m) => m.event === 'connected');
  return s;
}

const publish = (companyId: string, type: PlatformEvent['type'] = 'trade', data = payloads[type]) =>
  publishEvent(t.database.db, { type, companyId, data });

function expectV1Error(s: SseStream, status: number, code: string, message: RegExp) {
  expect(s.status).toBe(status);
  expect(Object.keys(s.body).sort()).toEqual(['error', 'meta']);
  expect(s.body.error.code).toBe(code);
  expect(s.body.error.message).toMatch(message);
  expect(Date.parse(s.body.meta.timestamp)).not.toBeNaN();
}

describe('GET /api/v1/events', () => {
  it('answers with the four stream headers and first sends { type: "connected", timestamp }', async () => {
    const before = Date.now();
    const s = await connected('', { origin: 'https://dash.example' });
    expect(s.headers['content-type']).toBe('text/event-stream');
    expect(s.headers['cache-control']).toBe('no-cache, no-transform');
    expect(s.headers.connection).toBe('keep-alive');
    expect(s.headers['x-accel-buffering']).toBe('no');
    // Headers of the app's hooks survive the hand-over to the stream: request id, CORS, rate limit.
    expect(s.headers['x-request-id']).toMatch(/.+/);
    expect(s.headers['access-control-allow-origin']).toBe('*');
    expect(s.headers['x-ratelimit-limit']).toBe(String(t.config.rateLimitMax));
    // The IETF fields too (src/http/plugins/rate-limit.ts), though the stream sends no payload through onSend.
    expect(s.headers['ratelimit-policy']).toMatch(new RegExp(`^"(key|ip)";q=${t.config.rateLimitMax};w=60$`));
    expect(s.headers.ratelimit).toMatch(/^"(key|ip)";r=\d+;t=\d+$/);
    const [first] = s.messages;
    expect(first!.event).toBe('connected');
    // The id to resume from: every event so far is behind the stream (it gets only later ones).
    expect(first!.id).toBe(String(t.container.events.reader.cursor));
    expect(s.retry).toBe(SSE_RETRY_MS);
    const data = JSON.parse(first!.data);
    expect(Object.keys(data).sort()).toEqual(['timestamp', 'type']);
    expect(data.type).toBe('connected');
    expect(new Date(data.timestamp).toISOString()).toBe(data.timestamp);
    expect(Date.parse(data.timestamp)).toBeGreaterThanOrEqual(before - 1000);
    s.close();
  });

  it('delivers an event of each type as id, event and data lines, in well under a second', async () => {
    const s = await connected();
    const published: { event: PlatformEvent; at: number }[] = [];
    for (const type of EVENT_TYPES) {
      const at = Date.now();
      published.push({ event: await publish(acme.id, type), at });
      const [got] = await s.waitFor(1, (m) => m.id === published.at(-1)!.event.id, 2000);
      expect(got!.receivedAt - at).toBeLessThan(1000);
    }
    const events = s.events();
    expect(events.map((e) => e.event)).toEqual([...EVENT_TYPES]);
    for (const [i, { event }] of published.entries()) {
      expect(events[i]!.id).toBe(event.id);
      expect(events[i]!.data).toEqual(event);
      expect(Object.keys(events[i]!.data)).toEqual(['id', 'type', 'companyId', 'companySlug', 'data', 'timestamp']);
      expect(events[i]!.data).toMatchObject({
        type: EVENT_TYPES[i],
        companyId: acme.id,
        // Both the id and the slug of the company, so a bot can call the v1 paths with either.
        companySlug: acme.slug,
        data: payloads[EVENT_TYPES[i]!],
      });
    }
    // Ids are decimal strings of one increasing sequence.
    const ids = events.map((e) => BigInt(e.id));
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!).toBe(true);
    s.close();
  });

  it('sends nothing while nothing is published', async () => {
    const s = await connected();
    await new Promise((r) => setTimeout(r, 300));
    expect(s.messages).toHaveLength(1);
    expect(s.comments).toEqual([]);
    s.close();
  });

  describe('filters', () => {
    it('companies: by slug, by id, and several at once (slugs and ids mixed)', async () => {
      const all = await connected();
      const bySlug = await connected(`?companies=${acme.slug}`);
      const byId = await connected(`?companies=${globex.id}`);
      const several = await connected(`?companies=${acme.slug},%20${globex.id}`);
      const a = await publish(acme.id);
      const g = await publish(globex.id);
      const i = await publish(initech.id);
      await all.waitFor(1, (m) => m.id === i.id);
      await several.waitFor(1, (m) => m.id === g.id);
      await bySlug.waitFor(1, (m) => m.id === a.id);
      await byId.waitFor(1, (m) => m.id === g.id);
      // The last event reached everyone who wanted it; give the others a moment to show they got nothing more.
      await new Promise((r) => setTimeout(r, 100));
      expect(all.events().map((e) => e.id)).toEqual([a.id, g.id, i.id]);
      expect(bySlug.events().map((e) => e.id)).toEqual([a.id]);
      expect(byId.events().map((e) => e.id)).toEqual([g.id]);
      expect(several.events().map((e) => e.id)).toEqual([a.id, g.id]);
      for (const s of [all, bySlug, byId, several]) s.close();
    });

    it('types: one or several, and combined with companies', async () => {
      const trades = await connected('?types=trade');
      const two = await connected('?types=decision,score');
      const both = await connected(`?types=score&companies=${globex.slug}`);
      const published = [
        await publish(acme.id, 'decision'),
        await publish(acme.id, 'trade'),
        await publish(globex.id, 'score'),
        await publish(acme.id, 'season'),
        await publish(acme.id, 'score'),
      ];
      const last = published.at(-1)!;
      await two.waitFor(1, (m) => m.id === last.id);
      await trades.waitFor(1, (m) => m.id === published[1]!.id);
      await both.waitFor(1, (m) => m.id === published[2]!.id);
      await new Promise((r) => setTimeout(r, 100));
      expect(trades.events().map((e) => e.id)).toEqual([published[1]!.id]);
      expect(two.events().map((e) => e.id)).toEqual([published[0]!.id, published[2]!.id, published[4]!.id]);
      expect(both.events().map((e) => e.id)).toEqual([published[2]!.id]);
      for (const s of [trades, two, both]) s.close();
    });

    it('season events pass every company filter, live and on resume: ?types=season&companies=x', async () => {
      const from = await publish(acme.id, 'trade');
      // Published under another company (the snapshot's leader), as the scores and epochs areas do.
      const snapshot = await publish(acme.id, 'season', { kind: 'snapshot', epoch: 0, date: '2026-11-26' });
      await publish(acme.id, 'trade');
      const resumed = await open(`?types=season&companies=${globex.slug}&lastEventId=${from.id}`);
      const live = await connected(`?types=season&companies=${globex.slug}`);
      const globexOnly = await connected(`?companies=${globex.id}`);
      await resumed.waitFor(1, (m) => m.id === snapshot.id);
      const finalized = await publish(initech.id, 'season', { kind: 'epoch_finalized', epoch: 1 });
      const trade = await publish(initech.id, 'trade');
      const own = await publish(globex.id, 'trade');
      await live.waitFor(1, (m) => m.id === finalized.id);
      await resumed.waitFor(1, (m) => m.id === finalized.id);
      await globexOnly.waitFor(1, (m) => m.id === own.id);
      await new Promise((r) => setTimeout(r, 100));
      expect(resumed.events().map((e) => e.id)).toEqual([snapshot.id, finalized.id]);
      expect(live.events().map((e) => e.id)).toEqual([finalized.id]);
      // A company filter without a type filter: its own events and every season event, not other companies' trades.
      expect(globexOnly.events().map((e) => e.id)).toEqual([finalized.id, own.id]);
      expect(globexOnly.events().map((e) => e.id)).not.toContain(trade.id);
      for (const s of [resumed, live, globexOnly]) s.close();
    });

    it('answers 400 VALIDATION_ERROR in the v1 envelope for an unknown type, naming it and the allowed ones', async () => {
      const s = await open('?types=trade,trades,mint');
      expectV1Error(s, 400, 'VALIDATION_ERROR', /"trades", "mint".*decision, trade, score, season/);
      expect(s.body.error.details).toEqual([{ path: 'query.types', message: expect.stringMatching(/"trades"/) }]);
    });

    it('answers 400 VALIDATION_ERROR naming each company slug or id that names no company', async () => {
      const s = await open(`?companies=${acme.slug},nope,${globex.id}x`);
      expectV1Error(s, 400, 'VALIDATION_ERROR', new RegExp(`"nope", "${globex.id}x"`));
      expect(s.body.error.details[0].path).toBe('query.companies');
      const many = Array.from({ length: SSE_FILTER_COMPANIES_MAX + 1 }, (_, i) => `c${i}`).join(',');
      expectV1Error(await open(`?companies=${many}`), 400, 'VALIDATION_ERROR', /at most 100 companies/);
    });

    it('treats empty filters as absent', async () => {
      const s = await connected('?companies=&types=');
      const e = await publish(initech.id, 'season');
      await s.waitFor(1, (m) => m.id === e.id);
      s.close();
    });
  });

  describe('resume', () => {
    it('sends the events after Last-Event-ID, then live ones, without gap or repeat', async () => {
      const first = await publish(acme.id, 'decision');
      const missed = [await publish(acme.id, 'trade'), await publish(globex.id, 'score'), await publish(acme.id)];
      const s = await open('', { 'last-event-id': first.id });
      expect(s.status).toBe(200);
      await s.waitFor(3, (m) => m.event !== 'connected');
      expect(s.messages[0]!.event).toBe('connected');
      const live = await publish(initech.id, 'season');
      await s.waitFor(1, (m) => m.id === live.id);
      expect(s.events().map((e) => e.id)).toEqual([...missed, live].map((e) => e.id));
      expect(s.events()[1]!.data).toEqual(missed[1]);
      s.close();
    });

    it("the connected message's id resumes: a client cut off before any event reconnects with it and misses none", async () => {
      const first = await connected();
      const resumeId = first.messages[0]!.id!;
      first.close();
      const missed = await publish(globex.id, 'trade');
      const again = await open('', { 'last-event-id': resumeId });
      await again.waitFor(1, (m) => m.id === missed.id);
      // While the backlog is owed, the connected id stays the resume point the client sent.
      expect(again.messages[0]!.id).toBe(resumeId);
      expect(again.events().map((e) => e.id)).toEqual([missed.id]);
      again.close();
    });

    it('applies the filters to the backlog, and accepts lastEventId in the query for EventSource polyfills', async () => {
      const from = await publish(acme.id);
      const mine = [await publish(globex.id, 'trade'), await publish(globex.id, 'trade')];
      await publish(globex.id, 'score');
      await publish(acme.id, 'trade');
      const s = await open(`?companies=${globex.slug}&types=trade&lastEventId=${from.id}`);
      await s.waitFor(2, (m) => m.event === 'trade');
      const live = await publish(globex.id, 'trade');
      await s.waitFor(3, (m) => m.event === 'trade');
      expect(s.events().map((e) => e.id)).toEqual([...mine, live].map((e) => e.id));
      s.close();
    });

    it('holds live events published while the backlog is read, and sends them after it in order', async () => {
      const from = await publish(acme.id);
      const backlog = [];
      for (let i = 0; i < 40; i++) backlog.push(await publish(acme.id, 'trade', { ...payloads.trade, i }));
      const s = await open('', { 'last-event-id': from.id });
      const live = [];
      for (let i = 0; i < 5; i++) live.push(await publish(acme.id, 'score'));
      await s.waitFor(45, (m) => m.event !== 'connected');
      expect(s.events().map((e) => e.id)).toEqual([...backlog, ...live].map((e) => e.id));
      s.close();
    });

    it('answers 400 VALIDATION_ERROR for a Last-Event-ID that is not an event id', async () => {
      for (const bad of ['abc', '-1', '1.5', '99999999999999999999']) {
        expectV1Error(await open('', { 'last-event-id': bad }), 400, 'VALIDATION_ERROR', /last-event-id/);
      }
      expectV1Error(await open('?lastEventId=x'), 400, 'VALIDATION_ERROR', /lastEventId/);
    });
  });

  describe('GET /api/events (public)', () => {
    it('caps streams per client address at SSE_PUBLIC_MAX_CONNECTIONS_PER_IP: the cap inside, one more 429', async () => {
      const cap = t.config.ssePublicMaxConnectionsPerIp;
      expect(cap).toBe(SSE_PUBLIC_MAX_CONNECTIONS_PER_IP_DEFAULT);
      const streams = [];
      for (let i = 0; i < cap; i++) {
        const s = await openStream(`${base}/api/events`);
        expect(s.status).toBe(200);
        streams.push(s);
      }
      const over = await openStream(`${base}/api/events`);
      expect(over.status).toBe(429);
      expect(over.headers['retry-after']).toBe('10');
      expect(over.body).toMatchObject({ success: false, error: { code: 'RATE_LIMITED' } });
      // The keyed stream's own cap is apart: the same address still opens /api/v1/events.
      const keyed = await connected();
      keyed.close();
      streams.pop()!.close();
      await new Promise((r) => setTimeout(r, 100));
      const again = await openStream(`${base}/api/events`);
      expect(again.status).toBe(200);
      again.close();
      for (const s of streams) s.close();
    });
  });

  // Last: from here on an API key exists.
  describe('API key', () => {
    it('is open while no key exists; once one does: missing 401, wrong 401, header and query accepted', async () => {
      await t.database.db.delete(apiKeys);
      t.container.apiKeys.clear();
      const openAccess = await connected();
      openAccess.close();

      const { key, id } = await createApiKey(t.database.db, 'stream');
      t.container.apiKeys.clear();
      expectV1Error(await open(), 401, 'UNAUTHORIZED', /^Missing API key: .*x-api-key.*api_key/);
      // One character changed (never to itself: a key ending in A would otherwise stay valid).
      const wrong = `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`;
      expectV1Error(await open('', { 'x-api-key': wrong }), 401, 'UNAUTHORIZED', /^Invalid API key/);
      expectV1Error(await open(`?api_key=nonsense`), 401, 'UNAUTHORIZED', /^Invalid API key/);
      const byHeader = await connected('', { 'x-api-key': key });
      const byQuery = await connected(`?api_key=${key}&types=trade`);
      const e = await publish(acme.id);
      await byHeader.waitFor(1, (m) => m.id === e.id);
      await byQuery.waitFor(1, (m) => m.id === e.id);
      byHeader.close();
      byQuery.close();

      // GET /api/events, the web app's stream, stays public while keys exist: no key, same events, same protocol.
      const publicStream = await openStream(`${base}/api/events?types=trade`, { origin: 'https://app.example' });
      expect(publicStream.status).toBe(200);
      await publicStream.waitFor(1, (m) => m.event === 'connected');
      expect(publicStream.headers['content-type']).toBe('text/event-stream');
      const p = await publish(acme.id);
      const [got] = await publicStream.waitFor(1, (m) => m.id === p.id);
      expect(JSON.parse(got!.data)).toEqual(p);
      publicStream.close();
      // A key sent to it is not looked at (nothing to check on a public stream).
      const withWrongKey = await openStream(`${base}/api/events`, { 'x-api-key': 'aie_wrong' });
      expect(withWrongKey.status).toBe(200);
      withWrongKey.close();
      // Its errors are in the internal envelope.
      const bad = await openStream(`${base}/api/events?types=mint`);
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });

      // A wrong key is refused even when no key exists any more: a client sending one expects it checked.
      await revokeApiKey(t.database.db, id);
      t.container.apiKeys.clear();
      expectV1Error(await open('', { 'x-api-key': key }), 401, 'UNAUTHORIZED', /^Invalid API key/);
      (await connected()).close();
    });
  });
});
