// The two windows of the platform events (docs/api/events.md "Resume"): the stream serves and resumes only the last
// EVENT_RETENTION_MS (here 2 minutes), and a resume from an id with a later event older than that answers 410
// EVENTS_EXPIRED pointing to the backfill with the `after` to read; the events are kept EVENT_BACKFILL_RETENTION_MS
// (its default, 2 days) for the backfill, whose 410 applies beyond that. Each bound just inside and just outside.
// The keyless stream resumes no further back than the stream's window.
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { platformEvents } from '../../src/db/schema/events.ts';
import { type PlatformEvent, publishEvent } from '../../src/domain/events/store.ts';
import { jobs, runJobOnce } from '../../src/jobs/scheduler.ts';
import { useTestApp } from '../helpers/app.ts';
import { insertCompany, payloads } from '../helpers/events.ts';
import { openStream } from '../helpers/sse-client.ts';

type Json = Record<string, any>;
const STREAM_MS = 120_000;
const BACKFILL_MS = 2 * 86_400_000;
// The stream's window (2 minutes) is shorter than the keyless stream's own backlog (5 minutes): the window wins.
const t = useTestApp({ env: { EVENT_RETENTION_MS: String(STREAM_MS) } });
let base: string;
/** e[0] just outside the backfill's retention, e[1] just inside; e[2] just outside the stream's window, e[3] just
 * inside; e[4] and e[5] fresh. */
const e: PlatformEvent[] = [];
let acme: { id: string; slug: string };

const get = (query: string) => t.app.inject({ method: 'GET', url: `/api/v1/events?${query}` });
/** Moves an event's publication time to `ms` before now. */
const age = (event: PlatformEvent, ms: number) =>
  t.database.db.execute(
    sql`update ${platformEvents} set timestamp = now() - make_interval(secs => ${ms / 1000}) where id = ${event.id}`,
  );
const ids = (events: readonly PlatformEvent[]) => events.map((x) => x.id);

beforeAll(async () => {
  expect([t.config.eventRetentionMs, t.config.eventBackfillRetentionMs]).toEqual([STREAM_MS, BACKFILL_MS]);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  acme = await insertCompany(t.database.db, 'acme');
  await t.container.events.start();
  for (let i = 0; i < 6; i++) {
    e.push(await publishEvent(t.database.db, { type: 'trade', companyId: acme.id, data: payloads.trade }));
  }
  await age(e[0]!, BACKFILL_MS + 10_000);
  await age(e[1]!, BACKFILL_MS - 10_000);
  await age(e[2]!, STREAM_MS + 10_000);
  await age(e[3]!, STREAM_MS - 10_000);
  const until = Date.now() + 5_000;
  while (t.container.events.reader.cursor < BigInt(e[5]!.id)) {
    if (Date.now() > until) throw new Error('the reader did not reach the last event');
    await new Promise((r) => setTimeout(r, 10));
  }
  // The purge job deletes by the backfill's retention: e[0] only.
  expect(await runJobOnce(jobs.find((j) => j.name === 'purge-events')!, t.container)).toBe(true);
});

const idBefore = (event: PlatformEvent) => BigInt(event.id) - 1n;

describe("the backfill's retention (EVENT_BACKFILL_RETENTION_MS)", () => {
  it('deleted the event just outside it and kept the one just inside', async () => {
    const rows = await t.database.db.select({ id: platformEvents.id }).from(platformEvents);
    const held = new Set(rows.map((r) => String(r.id)));
    expect(held.has(e[0]!.id)).toBe(false);
    expect(ids(e.slice(1)).every((id) => held.has(id))).toBe(true);
  });

  it('backfills from the last deleted id, events older than the stream window included; 410 from before it', async () => {
    const page = await get(`after=${e[0]!.id}`);
    expect(page.statusCode).toBe(200);
    expect(page.json().data.map((x: Json) => x.id)).toEqual(ids(e.slice(1)));
    const expired = await get(`after=${idBefore(e[0]!)}`);
    expect(expired.statusCode).toBe(410);
    expect(expired.json().error).toEqual({
      code: 'EVENTS_EXPIRED',
      message: `Events after ${idBefore(e[0]!)} are no longer kept (EVENT_BACKFILL_RETENTION_MS is ${BACKFILL_MS} ms, and events up to ${e[0]!.id} were deleted): the oldest event held is ${e[1]!.id}. Rebuild your state from the REST reads, then continue after ${e[0]!.id}`,
      details: [
        { path: 'query.after', message: `expired: the oldest event held is ${e[1]!.id}; continue after ${e[0]!.id}` },
      ],
    });
  });
});

describe("the stream's window (EVENT_RETENTION_MS)", () => {
  const expectToBackfill = (res: { status: number; body: unknown }, after: bigint, path: string) => {
    expect(res.status).toBe(410);
    const backfill = `GET /api/v1/events?after=${after}`;
    expect((res.body as Json).error).toEqual({
      code: 'EVENTS_EXPIRED',
      message: `Events after ${after} are older than the stream serves (EVENT_RETENTION_MS is ${STREAM_MS} ms): read them from the backfill, ${backfill}, until hasMore is false, then resume the stream after the last event it gave`,
      details: [{ path, message: `outside the stream's window: read ${backfill}, then resume after its last event` }],
    });
  };

  it('answers a resume whose next event is just outside the window 410, pointing to the backfill', async () => {
    const byHeader = await openStream(`${base}/api/v1/events`, { 'last-event-id': String(idBefore(e[2]!)) });
    expectToBackfill(byHeader, idBefore(e[2]!), 'headers.last-event-id');
    expect(byHeader.messages).toEqual([]);
    const byQuery = await openStream(`${base}/api/v1/events?lastEventId=${e[1]!.id}`);
    expectToBackfill(byQuery, BigInt(e[1]!.id), 'query.lastEventId');
    // And the backfill it points to serves those events.
    const page = await get(`after=${idBefore(e[2]!)}`);
    expect(page.json().data.map((x: Json) => x.id)).toEqual(ids(e.slice(2)));
  });

  it('resumes from an id whose next event is just inside the window', async () => {
    const s = await openStream(`${base}/api/v1/events`, { 'last-event-id': e[2]!.id });
    expect(s.status).toBe(200);
    await s.waitFor(3, (m) => m.event !== 'connected');
    expect(s.events().map((x) => x.id)).toEqual(ids(e.slice(3)));
    s.close();
  });

  it('answers a resume from before the deleted events with the backfill retention 410 (nothing left to backfill)', async () => {
    const s = await openStream(`${base}/api/v1/events`, { 'last-event-id': String(idBefore(e[0]!)) });
    expect(s.status).toBe(410);
    expect((s.body as Json).error.message).toMatch(
      /^Events after \d+ are no longer kept \(EVENT_BACKFILL_RETENTION_MS/,
    );
  });

  it('resumes the keyless stream from the oldest event of the window (2 minutes, not its own 5), never 410', async () => {
    const s = await openStream(`${base}/api/events`, { 'last-event-id': String(idBefore(e[1]!)) });
    expect(s.status).toBe(200);
    await s.waitFor(3, (m) => m.event !== 'connected');
    expect(s.events().map((x) => x.id)).toEqual(ids(e.slice(3)));
    s.close();
  });
});

describe("the stream's window counts only the events the stream would send", () => {
  it('resumes a filtered stream past old events of other types and companies; unfiltered, it answers 410', async () => {
    const beta = await insertCompany(t.database.db, 'beta');
    // After e[5], the last of acme's trades: a score of acme and a trade of beta, both older than the window.
    const score = await publishEvent(t.database.db, { type: 'score', companyId: acme.id, data: payloads.score });
    const other = await publishEvent(t.database.db, { type: 'trade', companyId: beta.id, data: payloads.trade });
    await age(score, STREAM_MS + 10_000);
    await age(other, STREAM_MS + 10_000);
    const from = { 'last-event-id': e[5]!.id };
    const filtered = await openStream(`${base}/api/v1/events?types=trade&companies=acme`, from);
    expect(filtered.status).toBe(200);
    filtered.close();
    // Each filter alone still lets one of them through: 410.
    expect((await openStream(`${base}/api/v1/events?types=trade`, from)).status).toBe(410);
    expect((await openStream(`${base}/api/v1/events?companies=acme`, from)).status).toBe(410);
    expect((await openStream(`${base}/api/v1/events`, from)).status).toBe(410);
  });
});

describe("the stream's window and the season events", () => {
  it('answers 410 to a resume filtered by company past an old season event, which every company filter is sent', async () => {
    const gamma = await insertCompany(t.database.db, 'gamma');
    const last = await publishEvent(t.database.db, { type: 'trade', companyId: gamma.id, data: payloads.trade });
    // A season event is published under some company's id, and concerns every company.
    const season = await publishEvent(t.database.db, { type: 'season', companyId: acme.id, data: payloads.season });
    await age(season, STREAM_MS + 10_000);
    const from = { 'last-event-id': last.id };
    expect((await openStream(`${base}/api/v1/events?companies=gamma`, from)).status).toBe(410);
    // Filtered to trades, the season event is not one the stream would send: it resumes.
    const trades = await openStream(`${base}/api/v1/events?companies=gamma&types=trade`, from);
    expect(trades.status).toBe(200);
    trades.close();
  });
});
