// GET /api/v1/events?after=: the backfill of the stream as JSON cursor pages (docs/api/events.md "Backfill"), its
// bounds inside and outside, the same events as the stream sends; a resume or a backfill from ids the retention
// deleted answers 410 EVENTS_EXPIRED naming the oldest event held (the stream before it starts); and the backfill
// counts against the rate limit like every route.
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { EVENTS_PAGE_DEFAULT, EVENTS_PAGE_MAX } from '../../src/constants.ts';
import { rowsOf } from '../../src/db/client.ts';
import { platformEvents } from '../../src/db/schema/events.ts';
import { type PlatformEvent, publishEvent, purgeExpiredEvents } from '../../src/domain/events/store.ts';
import { encodeCursor } from '../../src/page-cursor.ts';
import { useTestApp } from '../helpers/app.ts';
import { insertCompany, payloads } from '../helpers/events.ts';
import { openStream } from '../helpers/sse-client.ts';

type Json = Record<string, any>;
const t = useTestApp({ env: { RATE_LIMIT_MAX: '300' } });
let base: string;
let acme: { id: string; slug: string };
let globex: { id: string; slug: string };
/** The events published by the first describe, in order. */
const published: PlatformEvent[] = [];
let before: bigint;

const publish = (companyId: string, type: PlatformEvent['type'] = 'trade') =>
  publishEvent(t.database.db, { type, companyId, data: payloads[type] });
const get = (query: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: `/api/v1/events?${query}`, headers });
/** Waits until the reader has read `id`: a page never passes the newest event it has settled. */
async function settled(id: string) {
  const until = Date.now() + 5_000;
  while (t.container.events.reader.cursor < BigInt(id)) {
    if (Date.now() > until) throw new Error(`the reader did not reach event ${id}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

beforeAll(async () => {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  acme = await insertCompany(t.database.db, 'acme');
  globex = await insertCompany(t.database.db, 'globex');
  await t.container.events.start();
  before = t.container.events.reader.cursor;
  published.push(
    await publish(acme.id, 'decision'),
    await publish(globex.id, 'trade'),
    await publish(acme.id, 'trade'),
    await publish(globex.id, 'season'),
    await publish(acme.id, 'score'),
  );
  await settled(published.at(-1)!.id);
});

describe('GET /api/v1/events?after= (backfill)', () => {
  it('pages the events after the id, oldest first, in the v1 list envelope, following nextCursor and Link', async () => {
    const seen: Json[] = [];
    let res = await get(`after=${before}&limit=2`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    let body = res.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'meta', 'pagination']);
    expect(body.pagination).toMatchObject({ page: 1, limit: 2, total: 5, hasMore: true });
    seen.push(...body.data);
    const link = String(res.headers.link);
    expect(link).toBe(`</api/v1/events?after=${before}&limit=2&cursor=${body.pagination.nextCursor}>; rel="next"`);
    res = await get(`after=${before}&limit=2&cursor=${body.pagination.nextCursor}`);
    body = res.json();
    expect(body.pagination).toMatchObject({ limit: 2, total: 5, hasMore: true });
    seen.push(...body.data);
    res = await get(`after=${before}&limit=2&cursor=${body.pagination.nextCursor}`);
    body = res.json();
    expect(body.pagination).toMatchObject({ limit: 2, total: 5, hasMore: false, nextCursor: null });
    expect(res.headers.link).toBeUndefined();
    seen.push(...body.data);
    // The same events, field for field, as the stream's data lines.
    expect(seen).toEqual(published);
    // The default page holds them all.
    const all = (await get(`after=${before}`)).json();
    expect(all.pagination).toMatchObject({ limit: EVENTS_PAGE_DEFAULT, total: 5, hasMore: false });
    expect(all.data).toEqual(published);
  });

  it('applies the stream filters: types, companies (slugs or ids), season events passing every company filter', async () => {
    const trades = (await get(`after=${before}&types=trade`)).json();
    expect(trades.data.map((e: Json) => e.id)).toEqual([published[1]!.id, published[2]!.id]);
    const ofAcme = (await get(`after=${before}&companies=acme`)).json();
    expect(ofAcme.data.map((e: Json) => e.id)).toEqual(
      [published[0], published[2], published[3], published[4]].map((e) => e!.id),
    );
    const both = (await get(`after=${before}&companies=${globex.id}&types=trade,season`)).json();
    expect(both.data.map((e: Json) => e.id)).toEqual([published[1]!.id, published[3]!.id]);
    expect(both.pagination.total).toBe(2);
    const unknown = await get(`after=${before}&companies=nobody`);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.details).toEqual([
      expect.objectContaining({ path: 'query.companies', message: expect.stringMatching(/"nobody"/) }),
    ]);
  });

  it('answers an empty last page after the newest event, and the stream resumed from there gets the next one', async () => {
    const last = published.at(-1)!.id;
    const empty = (await get(`after=${last}`)).json();
    expect(empty.data).toEqual([]);
    expect(empty.pagination).toMatchObject({ total: 0, hasMore: false, nextCursor: null });
    const s = await openStream(`${base}/api/v1/events`, { 'last-event-id': last });
    expect(s.status).toBe(200);
    await s.waitFor(1, (m) => m.event === 'connected');
    const next = await publish(acme.id, 'decision');
    await s.waitFor(1, (m) => m.event !== 'connected');
    expect(s.events().map((e) => e.id)).toEqual([next.id]);
    s.close();
    published.push(next);
    await settled(next.id);
  });

  it('bounds limit to 1..1000 and after and cursor to what they may be, inside and outside', async () => {
    expect((await get(`after=${before}&limit=1`)).json().data).toHaveLength(1);
    expect((await get(`after=${before}&limit=${EVENTS_PAGE_MAX}`)).statusCode).toBe(200);
    expect((await get('after=0')).statusCode).toBe(200);
    expect((await get(`after=${'9'.repeat(18)}`)).json().data).toEqual([]);
    for (const [query, path] of [
      [`after=${before}&limit=0`, 'query.limit'],
      [`after=${before}&limit=${EVENTS_PAGE_MAX + 1}`, 'query.limit'],
      ['after=-1', 'query.after'],
      ['after=abc', 'query.after'],
      ['after=01', 'query.after'],
      [`after=${'9'.repeat(19)}`, 'query.after'],
      ['cursor=WyIxIl0', 'query.after'],
      [`after=${before}&cursor=not!a!cursor`, 'query.cursor'],
      [`after=${before}&cursor=${Buffer.from('["x"]').toString('base64url')}`, 'query.cursor'],
      [`after=${before}&cursor=${Buffer.from('["1","2"]').toString('base64url')}`, 'query.cursor'],
    ] as const) {
      const res = await get(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.code, query).toBe('VALIDATION_ERROR');
      expect(res.json().error.details?.[0]?.path ?? res.json().error.message, query).toContain(path);
    }
  });
});

describe('kept pages and exact totals', () => {
  /** count(*) of what a page after `after` should say in `total`, as the database counts it. */
  const counted = async (after: bigint, types?: string[]) => {
    const [row] = rowsOf<{ n: number }>(
      await t.database.db.execute(
        sql`select count(*)::int as n from ${platformEvents} where id > ${after}
        ${
          types
            ? sql`and type in (${sql.join(
                types.map((x) => sql`${x}`),
                sql`, `,
              )})`
            : sql``
        }`,
      ),
    );
    return row!.n;
  };

  it('serves a full page again with the same events, its total exact as events follow, its ETag following the total', async () => {
    const first = await get(`after=${before}&limit=2`);
    expect(first.statusCode).toBe(200);
    const again = await get(`after=${before}&limit=2`);
    expect(again.json().data).toEqual(first.json().data);
    expect(again.headers.etag).toBe(first.headers.etag);
    // The kept page is sent as bytes with its own Link, total and time: the same answer as the page first read.
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.headers.link).toBe(
      `</api/v1/events?after=${before}&limit=2&cursor=${first.json().pagination.nextCursor}>; rel="next"`,
    );
    expect(again.json().pagination).toEqual(first.json().pagination);
    expect(Date.parse(again.json().meta.timestamp)).toBeGreaterThanOrEqual(Date.parse(first.json().meta.timestamp));
    const unchanged = await get(`after=${before}&limit=2`, { 'if-none-match': String(first.headers.etag) });
    expect(unchanged.statusCode).toBe(304);
    expect(first.json().pagination.total).toBe(await counted(before));
    const next = await publish(globex.id, 'trade');
    published.push(next);
    await settled(next.id);
    const later = await get(`after=${before}&limit=2`);
    expect(later.json().data).toEqual(first.json().data);
    expect(later.json().pagination.total).toBe(first.json().pagination.total + 1);
    expect(later.json().pagination.total).toBe(await counted(before));
    expect(later.headers.etag).not.toBe(first.headers.etag);
    expect((await get(`after=${before}&limit=2`, { 'if-none-match': String(first.headers.etag) })).statusCode).toBe(
      200,
    );
    // Totals by type, on kept pages and on last pages, exactly what the database counts.
    for (const types of [['trade'], ['trade', 'decision'], ['season'], ['score', 'season', 'decision']]) {
      for (const limit of [1, 100]) {
        const body = (await get(`after=${before}&limit=${limit}&types=${types.join(',')}`)).json();
        expect(body.pagination.total, `${types} limit ${limit}`).toBe(await counted(before, types));
        const again = (await get(`after=${before}&limit=${limit}&types=${types.join(',')}`)).json();
        expect(again).toEqual({ ...body, meta: again.meta });
      }
    }
    expect((await get(`after=${published[1]!.id}&limit=1`)).json().pagination.total).toBe(
      await counted(BigInt(published[1]!.id)),
    );
  });
});

describe('events the retention deleted', () => {
  let mark: bigint;
  let oldest: string;

  beforeAll(async () => {
    // The first three are older than the retention and purged, as the purge-events job does.
    await t.database.db.execute(
      sql`update ${platformEvents} set timestamp = now() - interval '3 days' where id <= ${published[2]!.id}`,
    );
    expect(
      await purgeExpiredEvents(t.database.db, new Date(Date.now() - t.config.eventBackfillRetentionMs)),
    ).toBeGreaterThan(0);
    mark = BigInt(published[2]!.id);
    oldest = published[3]!.id;
  });

  const expectExpired = (res: { statusCode: number; json(): Json }, after: bigint, path: string) => {
    expect(res.statusCode).toBe(410);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['error', 'meta']);
    expect(body.error.code).toBe('EVENTS_EXPIRED');
    expect(body.error.message).toMatch(
      new RegExp(
        `^Events after ${after} are no longer kept .*: the oldest event held is ${oldest}\\. .*continue after ${mark}$`,
      ),
    );
    expect(body.error.details).toEqual([
      { path, message: `expired: the oldest event held is ${oldest}; continue after ${mark}` },
    ]);
  };

  it('answers a backfill from below the mark 410 EVENTS_EXPIRED, and one from the mark its events', async () => {
    expectExpired(await get(`after=${mark - 1n}`), mark - 1n, 'query.after');
    expectExpired(await get(`after=${before}`), before, 'query.after');
    const from = (await get(`after=${mark}`)).json();
    expect(from.data.map((e: Json) => e.id)).toEqual(published.slice(3).map((e) => e.id));

    // Pages kept before the purge are not served past it: from a cursor below the mark, the events still held.
    const crafted = encodeCursor([published[1]!.id]);
    const page = (await get(`after=${mark}&limit=2&cursor=${crafted}`)).json();
    expect(page.data.map((e: Json) => e.id)).toEqual(published.slice(3, 5).map((e) => e.id));
    expectExpired(await get(`after=${before}&limit=2`), before, 'query.after');
  });

  it('answers a stream resumed from below the mark 410 before it starts (header or query), and resumes from the mark', async () => {
    const byHeader = await openStream(`${base}/api/v1/events`, { 'last-event-id': String(mark - 1n) });
    expect(byHeader.headers['content-type']).toMatch(/^application\/json/);
    expectExpired({ statusCode: byHeader.status, json: () => byHeader.body }, mark - 1n, 'headers.last-event-id');
    expect(byHeader.messages).toEqual([]);
    const byQuery = await openStream(`${base}/api/v1/events?lastEventId=${before}`);
    expectExpired({ statusCode: byQuery.status, json: () => byQuery.body }, before, 'query.lastEventId');
    const resumed = await openStream(`${base}/api/v1/events`, { 'last-event-id': String(mark) });
    expect(resumed.status).toBe(200);
    await resumed.waitFor(published.length - 3, (m) => m.event !== 'connected');
    expect(resumed.events().map((e) => e.id)).toEqual(published.slice(3).map((e) => e.id));
    resumed.close();
    // A new stream (no Last-Event-ID) is not a resume: it opens.
    const fresh = await openStream(`${base}/api/v1/events`);
    expect(fresh.status).toBe(200);
    fresh.close();
  });

  it("leaves the web app's keyless stream as documented: an old id resumes from the oldest event held", async () => {
    const s = await openStream(`${base}/api/events`, { 'last-event-id': String(before) });
    expect(s.status).toBe(200);
    await s.waitFor(published.length - 3, (m) => m.event !== 'connected');
    expect(s.events().map((e) => e.id)).toEqual(published.slice(3).map((e) => e.id));
    s.close();
  });
});

describe('rate limit', () => {
  it('counts each backfill page as a request: the remaining budget inside, one more 429', async () => {
    const first = await get(`after=${published[3]!.id}`);
    const remaining = Number(first.headers['x-ratelimit-remaining']);
    expect(remaining).toBeGreaterThan(0);
    for (let i = 0; i < remaining; i++) expect((await get(`after=${published[3]!.id}`)).statusCode).toBe(200);
    const refused = await get(`after=${published[3]!.id}`);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('RATE_LIMITED');
  });
});
