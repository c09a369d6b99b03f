// The reader and the hub on each test database: ids that commit out of order are delivered in order (within the
// gap grace) or late (after it), a rolled-back id holds nothing up for longer than the grace, a resumed stream gets
// a late event once, and the PostgreSQL listener comes back after its connection is killed.
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { countEachTime } from '../../src/db/page-total.ts';
import { backfillPage } from '../../src/domain/events/backfill.ts';
import { type PlatformEvent, publishEvent } from '../../src/domain/events/store.ts';
import { createEventHub, type EventHub } from '../../src/http/events/hub.ts';
import { createEventReader, type EventReader } from '../../src/http/events/reader.ts';
import { testDatabases } from '../helpers/db.ts';
import { recordingSink } from '../helpers/event-sink.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = { info() {}, warn() {}, error() {} };
const publish = (db: Database['db'], n: number) => publishEvent(db, { type: 'trade', companyId: 'c1', data: { n } });

/** A transaction that publishes one event and commits only when told. */
function heldTransaction(database: Database) {
  let commit!: () => void;
  const gate = new Promise<void>((r) => {
    commit = r;
  });
  let published!: (e: PlatformEvent) => void;
  const event = new Promise<PlatformEvent>((r) => {
    published = r;
  });
  const done = database.db.transaction(async (tx) => {
    published(await publish(tx, 0));
    await gate;
  });
  return {
    event,
    commit: async () => {
      commit();
      await done;
    },
  };
}

/**
 * The ids of the platform events a stream sent, from each event's data (a frame's `id:` field is where to resume,
 * which is lower while an earlier id is missing; the `connected` message is not an event).
 */
const idsOf = (text: string) =>
  text
    .split('\n\n')
    .filter((frame) => !/^event: connected$/m.test(frame))
    .flatMap((frame) => [...frame.matchAll(/^data: (.*)$/gm)].map((m) => (JSON.parse(m[1]!) as { id: string }).id));

describe.each(testDatabases)('event reader on $name', ({ name, open }) => {
  let database: Database;
  let reader: EventReader | undefined;
  let hub: EventHub | undefined;
  const got: string[] = [];
  beforeAll(async () => {
    database = await open();
  });
  afterEach(async () => {
    await reader?.stop();
    await hub?.stop();
    reader = hub = undefined;
    got.length = 0;
  });
  afterAll(async () => {
    await database?.close();
  });

  async function startReader(options: { gapGraceMs: number; pollIntervalMs?: number }) {
    reader = createEventReader({
      database,
      log,
      onEvents: (events) => got.push(...events.map((e) => e.id)),
      ...options,
    });
    await reader.start();
    return reader;
  }

  it('starts after the newest event, and delivers new ones in id order', async () => {
    const old = await publish(database.db, 1);
    const r = await startReader({ gapGraceMs: 200 });
    expect(r.cursor).toBe(BigInt(old.id));
    const a = await publish(database.db, 2);
    const b = await publish(database.db, 3);
    await expect.poll(() => got).toEqual([a.id, b.id]);
  });

  it('waits out the grace for a rolled-back id, then goes on without it', async () => {
    await startReader({ gapGraceMs: 300 });
    let lost = '';
    await database.db
      .transaction(async (tx) => {
        lost = (await publish(tx, 1)).id;
        throw new Error('rolled back');
      })
      .catch(() => {});
    const started = Date.now();
    const after = await publish(database.db, 2);
    await expect.poll(() => got, { timeout: 2000 }).toEqual([after.id]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(reader!.missingIds()).toEqual([BigInt(lost)]);
    // The next event is not held up again.
    const next = await publish(database.db, 3);
    await expect.poll(() => got, { timeout: 500 }).toEqual([after.id, next.id]);
  });

  it('sends a stream resumed ahead of a lagging reader no live event at or below its Last-Event-ID', async () => {
    // The reader hears no notification for these (written as another replica's commit it has not read yet) and
    // polls once a minute: it lags behind the client, which got them from a replica that was ahead.
    hub = createEventHub({
      database,
      log,
      maxConnections: 10,
      maxConnectionsPerClient: 10,
      heartbeatMs: 0,
      pollIntervalMs: 60_000,
    });
    await hub.start();
    const unheard = async () =>
      String(
        (
          (await database.db.execute(
            sql`insert into platform_events (type, company_id, data) values ('trade', 'c1', '{}') returning id`,
          )) as unknown as { rows: { id: string | bigint }[] }
        ).rows[0]!.id,
      );
    const seen = [await unheard(), await unheard()];
    const unseen = await unheard();
    expect(hub.reader.cursor).toBeLessThan(BigInt(seen[0]!));
    const resumed = recordingSink();
    const fresh = recordingSink();
    hub.open(hub.admit('resumed'), { sink: resumed, lastEventId: BigInt(seen[1]!) });
    hub.open(hub.admit('fresh'), { sink: fresh });
    // A notified event wakes the reader, which reads the three it missed and this one, live.
    const next = await publish(database.db, 9);
    await expect.poll(() => idsOf(fresh.text()), { timeout: 2000 }).toEqual([...seen, unseen, next.id]);
    await expect.poll(() => idsOf(resumed.text()), { timeout: 2000 }).toEqual([unseen, next.id]);
    await sleep(100);
    expect(idsOf(resumed.text())).toEqual([unseen, next.id]);
  });

  // PGlite is one connection: its transactions never overlap, so ids always commit in order there.
  describe.runIf(name === 'postgres')('ids committed out of order', () => {
    it('are delivered in id order when the earlier one commits within the grace', async () => {
      await startReader({ gapGraceMs: 2000 });
      const held = heldTransaction(database);
      const first = await held.event;
      const second = await publish(database.db, 2);
      await sleep(300);
      expect(got).toEqual([]);
      await held.commit();
      await expect.poll(() => got, { timeout: 1000 }).toEqual([first.id, second.id]);
    });

    it('are delivered late, once, when the earlier one commits after the grace', async () => {
      await startReader({ gapGraceMs: 200 });
      const held = heldTransaction(database);
      const first = await held.event;
      const second = await publish(database.db, 2);
      await expect.poll(() => got, { timeout: 1000 }).toEqual([second.id]);
      expect(reader!.missingIds()).toEqual([BigInt(first.id)]);
      await held.commit();
      await expect.poll(() => got, { timeout: 1000 }).toEqual([second.id, first.id]);
      expect(reader!.missingIds()).toEqual([]);
      await sleep(100);
      expect(got).toEqual([second.id, first.id]);
    });

    it('a stream resuming while an id is missing gets it once, when it commits', async () => {
      hub = createEventHub({
        database,
        log,
        maxConnections: 10,
        maxConnectionsPerClient: 10,
        heartbeatMs: 0,
        gapGraceMs: 200,
      });
      await hub.start();
      const live = recordingSink();
      hub.open(hub.admit('live'), { sink: live });
      const held = heldTransaction(database);
      const first = await held.event;
      const second = await publish(database.db, 2);
      await expect.poll(() => idsOf(live.text()), { timeout: 1000 }).toEqual([second.id]);
      const resumed = recordingSink();
      hub.open(hub.admit('resumed'), { sink: resumed, lastEventId: BigInt(first.id) - 1n });
      await expect.poll(() => idsOf(resumed.text()), { timeout: 1000 }).toEqual([second.id]);
      await held.commit();
      await expect.poll(() => idsOf(resumed.text()), { timeout: 1000 }).toEqual([second.id, first.id]);
      expect(idsOf(live.text())).toEqual([second.id, first.id]);
      // The first message is `connected` (after the stream's `retry:` field), then the events.
      expect(resumed.text().match(/^event: (\w+)$/m)?.[1]).toBe('connected');
    });

    it('a backfill page stops below an id still missing, so the stream resumed after it gets the late event', async () => {
      await startReader({ gapGraceMs: 200 });
      const held = heldTransaction(database);
      const first = await held.event;
      const second = await publish(database.db, 2);
      await expect.poll(() => got, { timeout: 1000 }).toEqual([second.id]);
      const page = () =>
        backfillPage(
          database.db,
          { after: BigInt(first.id) - 1n, limit: 10, upTo: reader!.lowWater(reader!.cursor) },
          countEachTime,
        );
      // The second is visible, but a page holding it would let a client resume after it and never see the first.
      expect((await page()).items).toEqual([]);
      await held.commit();
      await expect.poll(() => reader!.missingIds(), { timeout: 1000 }).toEqual([]);
      expect((await page()).items.map((e) => e.id)).toEqual([first.id, second.id]);
    });

    it('listens again after its connection is killed, and catches up on what it missed', async () => {
      await startReader({ gapGraceMs: 200, pollIntervalMs: 60_000 });
      const listenerPids = async () =>
        (
          (await database.db.execute(
            sql`select pid from pg_stat_activity where datname = current_database() and query ilike 'listen %'`,
          )) as unknown as { rows: { pid: number }[] }
        ).rows.map((r) => r.pid);
      const [killed] = await listenerPids();
      expect(killed).toBeDefined();
      await database.db.execute(sql`select pg_terminate_backend(${killed})`);
      // Published while the listener is down: found by the catch-up read after the reconnect.
      const missed = await publish(database.db, 1);
      await expect.poll(() => got, { timeout: 3000 }).toEqual([missed.id]);
      await expect.poll(listenerPids, { timeout: 3000 }).toHaveLength(1);
      expect((await listenerPids())[0]).not.toBe(killed);
      const started = Date.now();
      const heard = await publish(database.db, 2);
      await expect.poll(() => got, { timeout: 1000 }).toEqual([missed.id, heard.id]);
      expect(Date.now() - started).toBeLessThan(1000);
    });
  });
});
