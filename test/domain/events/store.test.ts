// The event store on each test database: publishEvent is atomic with the caller's transaction (the row and its
// NOTIFY appear at commit, or never), the reads, company resolution, Database.listen, and the retention job.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Container } from '../../../src/container.ts';
import type { Database } from '../../../src/db/client.ts';
import { platformEvents } from '../../../src/db/schema/events.ts';
import { resolveCompanyRefs } from '../../../src/domain/events/filters.ts';
import {
  checkResumable,
  EVENTS_CHANNEL,
  eventHorizon,
  latestEventId,
  publishEvent,
  publishEventsFrom,
  purgeExpiredEvents,
  readEvents,
  readEventsByIds,
  readRecentEvents,
} from '../../../src/domain/events/store.ts';
import { AppError } from '../../../src/errors.ts';
import { jobs, runJobOnce } from '../../../src/jobs/scheduler.ts';
import { testDatabases } from '../../helpers/db.ts';
import { insertCompany, payloads } from '../../helpers/events.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(testDatabases)('event store on $name', ({ open }) => {
  let database: Database;
  beforeAll(async () => {
    database = await open();
  });
  afterAll(async () => {
    await database?.close();
  });

  describe('publishEvent', () => {
    it('returns the platform event: decimal id of the sequence, ISO timestamp, the data as given', async () => {
      const before = await latestEventId(database.db);
      const e = await publishEvent(database.db, { type: 'trade', companyId: 'c1', data: payloads.trade });
      expect(e).toEqual({
        id: String(before + 1n),
        type: 'trade',
        companyId: 'c1',
        // No company has the id c1 here: no slug to join.
        companySlug: null,
        data: payloads.trade,
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
      expect(Math.abs(Date.parse(e.timestamp) - Date.now())).toBeLessThan(5000);
      expect(await latestEventId(database.db)).toBe(before + 1n);
    });

    it('becomes visible and notifies when the transaction commits, and not at all when it rolls back', async () => {
      const heard: string[] = [];
      const unlisten = await database.listen(EVENTS_CHANNEL, (id) => heard.push(id));
      try {
        let inside = '';
        await database.db.transaction(async (tx) => {
          inside = (await publishEvent(tx, { type: 'score', companyId: 'c1', data: payloads.score })).id;
          await sleep(100);
          expect(heard).toEqual([]);
        });
        await expect.poll(() => heard, { timeout: 2000 }).toEqual([inside]);
        expect(await readEventsByIds(database.db, [BigInt(inside)])).toHaveLength(1);

        let rolledBack = '';
        await expect(
          database.db.transaction(async (tx) => {
            rolledBack = (await publishEvent(tx, { type: 'score', companyId: 'c1', data: payloads.score })).id;
            throw new Error('the change failed');
          }),
        ).rejects.toThrow('the change failed');
        await sleep(100);
        expect(heard).toEqual([inside]);
        expect(await readEventsByIds(database.db, [BigInt(rolledBack)])).toEqual([]);
      } finally {
        await unlisten();
      }
    });

    it('refuses an unknown type, a missing company or data that is not an object; the table checks the type too', async () => {
      const bad = [
        { type: 'mint', companyId: 'c1', data: {} },
        { type: 'trade', companyId: '', data: {} },
        { type: 'trade', companyId: 'c1', data: [] },
        { type: 'trade', companyId: 'c1', data: null },
      ];
      for (const event of bad) await expect(publishEvent(database.db, event as never)).rejects.toThrow();
      await expect(
        database.db.execute(
          sql`insert into ${platformEvents} (type, company_id, data) values ('mint', 'c1', '{}'::jsonb)`,
        ),
      ).rejects.toThrow();
    });
  });

  describe('publishEventsFrom', () => {
    it('publishes the rows a statement makes, in their order, each notified at commit', async () => {
      const heard: string[] = [];
      const unlisten = await database.listen(EVENTS_CHANNEL, (id) => heard.push(id));
      try {
        const before = await latestEventId(database.db);
        const published = await database.db.transaction((tx) =>
          publishEventsFrom(
            tx,
            sql`select n as ord, 'score'::text as type, 'c' || (4 - n) as company_id,
              jsonb_build_object('rank', n, 'platformScore', 10.5 * n) as data
            from generate_series(3, 1, -1) as n`,
          ),
        );
        expect(published).toBe(3);
        // Ids in the rows' order (a rolled-back id of an earlier test may lie between `before` and them).
        await expect.poll(() => heard.length, { timeout: 2000 }).toBe(3);
        const ids = [...heard];
        expect(ids.map(BigInt).every((id, i, all) => id > (i === 0 ? before : all[i - 1]!))).toBe(true);
        const events = await readEventsByIds(database.db, ids.map(BigInt));
        expect(events.map((e) => [e.id, e.type, e.companyId, e.data])).toEqual([
          [ids[0], 'score', 'c3', { rank: 1, platformScore: 10.5 }],
          [ids[1], 'score', 'c2', { rank: 2, platformScore: 21 }],
          [ids[2], 'score', 'c1', { rank: 3, platformScore: 31.5 }],
        ]);
        // The table still refuses a type that is not one.
        await expect(
          publishEventsFrom(
            database.db,
            sql`select 1 as ord, 'mint'::text as type, 'c1'::text as company_id, '{}'::jsonb as data`,
          ),
        ).rejects.toThrow();
      } finally {
        await unlisten();
      }
    });
  });

  describe('reads', () => {
    it('readEvents: after an id, up to one, by company and type, leaving ids out, in id order, limited', async () => {
      const after = await latestEventId(database.db);
      const a1 = await publishEvent(database.db, { type: 'trade', companyId: 'a', data: { n: 1 } });
      const b1 = await publishEvent(database.db, { type: 'score', companyId: 'b', data: { n: 2 } });
      const a2 = await publishEvent(database.db, { type: 'score', companyId: 'a', data: { n: 3 } });
      const c1 = await publishEvent(database.db, { type: 'decision', companyId: 'c', data: { n: 4 } });
      const ids = (events: { id: string }[]) => events.map((e) => e.id);
      expect(ids(await readEvents(database.db, { after, limit: 10 }))).toEqual(ids([a1, b1, a2, c1]));
      expect(ids(await readEvents(database.db, { after, limit: 2 }))).toEqual(ids([a1, b1]));
      expect(ids(await readEvents(database.db, { after: BigInt(a1.id), upTo: BigInt(a2.id), limit: 10 }))).toEqual(
        ids([b1, a2]),
      );
      expect(ids(await readEvents(database.db, { after, companyIds: ['a', 'c'], limit: 10 }))).toEqual(
        ids([a1, a2, c1]),
      );
      expect(ids(await readEvents(database.db, { after, types: ['score'], companyIds: ['a'], limit: 10 }))).toEqual(
        ids([a2]),
      );
      expect(ids(await readEvents(database.db, { after, excludeIds: [BigInt(b1.id)], limit: 10 }))).toEqual(
        ids([a1, a2, c1]),
      );
      expect(ids(await readEventsByIds(database.db, [BigInt(c1.id), BigInt(a1.id), 999_999n]))).toEqual(ids([a1, c1]));
    });

    it("every read and the publish carry the company's slug beside its id", async () => {
      const slugged = await insertCompany(database.db, 'slugged-store');
      const after = await latestEventId(database.db);
      const e = await publishEvent(database.db, { type: 'trade', companyId: slugged.id, data: { n: 1 } });
      expect(e).toMatchObject({ companyId: slugged.id, companySlug: 'slugged-store' });
      const [read] = await readEvents(database.db, { after, limit: 1 });
      expect(read).toEqual(e);
      expect(await readEventsByIds(database.db, [BigInt(e.id)])).toEqual([e]);
      expect((await readRecentEvents(database.db, 1))[0]).toEqual(e);
    });

    it('resolveCompanyRefs: slugs and ids to ids in one query; any entry naming no company is refused by name', async () => {
      const acme = await insertCompany(database.db, 'acme-store');
      const globex = await insertCompany(database.db, 'globex-store');
      expect(await resolveCompanyRefs(database.db, ['acme-store', globex.id])).toEqual(new Set([acme.id, globex.id]));
      expect(await resolveCompanyRefs(database.db, [acme.id, 'acme-store'])).toEqual(new Set([acme.id]));
      const err = await resolveCompanyRefs(database.db, ['acme-store', 'nobody', 'ACME-STORE']).catch((e) => e);
      expect(err).toBeInstanceOf(AppError);
      expect(err.code).toBe('VALIDATION_ERROR');
      expect(err.message).toMatch(/"nobody", "ACME-STORE"/);
    });
  });

  describe('Database.listen', () => {
    it('serves several listeners of a channel; each stops on its own', async () => {
      const a: string[] = [];
      const b: string[] = [];
      const stopA = await database.listen('test_channel', (p) => a.push(p));
      const stopB = await database.listen('test_channel', (p) => b.push(p));
      await database.db.execute(sql`select pg_notify('test_channel', 'one')`);
      await expect.poll(() => [a, b]).toEqual([['one'], ['one']]);
      await stopA();
      await database.db.execute(sql`select pg_notify('test_channel', 'two')`);
      await expect.poll(() => b).toEqual(['one', 'two']);
      await sleep(50);
      expect(a).toEqual(['one']);
      await stopB();
    });
  });

  describe('retention', () => {
    it('purge-events deletes the events older than EVENT_BACKFILL_RETENTION_MS, and only those', async () => {
      const old = await publishEvent(database.db, { type: 'season', companyId: 'c1', data: payloads.season });
      const fresh = await publishEvent(database.db, { type: 'season', companyId: 'c1', data: payloads.season });
      await database.db.execute(
        sql`update ${platformEvents} set timestamp = now() - interval '61 minutes' where id = ${old.id}`,
      );
      const container = { database, now: Date.now, config: { eventBackfillRetentionMs: 60 * 60 * 1000 } } as Container;
      expect(await runJobOnce(jobs.find((j) => j.name === 'purge-events')!, container)).toBe(true);
      expect(await readEventsByIds(database.db, [BigInt(old.id), BigInt(fresh.id)])).toEqual([fresh]);
      // Nothing left to purge: counted, not failed.
      expect(await purgeExpiredEvents(database.db, new Date(Date.now() - 60 * 60 * 1000))).toBe(0);
      expect(await purgeExpiredEvents(database.db, new Date(Date.now() + 60_000))).toBeGreaterThan(0);
    });

    it('records the highest id it deleted, so a resume from below it is told, and one from it is not', async () => {
      const a = await publishEvent(database.db, { type: 'season', companyId: 'c1', data: payloads.season });
      const b = await publishEvent(database.db, { type: 'season', companyId: 'c1', data: payloads.season });
      const c = await publishEvent(database.db, { type: 'season', companyId: 'c1', data: payloads.season });
      await database.db.execute(
        sql`update ${platformEvents} set timestamp = now() - interval '2 hours' where id in (${a.id}, ${b.id})`,
      );
      expect(await purgeExpiredEvents(database.db, new Date(Date.now() - 60 * 60 * 1000))).toBe(2);
      expect(await eventHorizon(database.db)).toEqual({ purgedThrough: BigInt(b.id), oldestHeld: BigInt(c.id) });
      // A purge with nothing to delete keeps the mark; it never goes back.
      expect(await purgeExpiredEvents(database.db, new Date(Date.now() - 60 * 60 * 1000))).toBe(0);
      expect((await eventHorizon(database.db)).purgedThrough).toBe(BigInt(b.id));
      // The bound: resuming after b (the last one deleted) loses nothing; after the one before it loses b.
      await expect(checkResumable(database.db, BigInt(b.id), 'query.after', 3_600_000)).resolves.toBeUndefined();
      const err = await checkResumable(database.db, BigInt(b.id) - 1n, 'query.after', 3_600_000).catch((e) => e);
      expect(err).toBeInstanceOf(AppError);
      expect(err.code).toBe('EVENTS_EXPIRED');
      expect(err.message).toBe(
        `Events after ${BigInt(b.id) - 1n} are no longer kept (EVENT_BACKFILL_RETENTION_MS is 3600000 ms, and events up to ${b.id} were deleted): the oldest event held is ${c.id}. Rebuild your state from the REST reads, then continue after ${b.id}`,
      );
      expect(err.details).toEqual([
        { path: 'query.after', message: `expired: the oldest event held is ${c.id}; continue after ${b.id}` },
      ]);
      // Everything purged: no event held, and the mark says where the next one will be.
      await purgeExpiredEvents(database.db, new Date(Date.now() + 60_000));
      expect((await eventHorizon(database.db)).oldestHeld).toBeNull();
      await expect(checkResumable(database.db, 0n, 'headers.last-event-id', 60_000)).rejects.toThrow(
        /no event is held now/,
      );
    });
  });
});
