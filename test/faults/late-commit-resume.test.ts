// Fault: an event's id is taken when its transaction inserts and becomes visible when it commits, so id
// N can commit after N+1 was delivered. A client that read N+1 on replica A, disconnected, and resumed on replica B
// with the Last-Event-ID it was given must still get N when N commits late. Each frame's `id:` is the reader's
// low-water mark (below the oldest id still missing), so the resume starts there; the repeat of N+1 is the client's
// to drop by the event's own id. PostgreSQL only: PGlite is one connection, so its ids never commit out of order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { type PlatformEvent, publishEvent } from '../../src/domain/events/store.ts';
import { createEventHub, type EventHub } from '../../src/http/events/hub.ts';
import { testDatabases } from '../helpers/db.ts';
import { recordingSink } from '../helpers/event-sink.ts';

const log = { info() {}, warn() {}, error() {} };
const postgres = testDatabases.find((d) => d.name === 'postgres');

/** The frames of a stream: the `id:` to resume from, and the event's own id (none for `connected`). */
const framesOf = (text: string) =>
  text
    .split('\n\n')
    .filter((f) => /^id: /m.test(f))
    .map((f) => ({
      resume: /^id: (\d+)$/m.exec(f)![1]!,
      event:
        /^data: (.*)$/m.exec(f) && !/^event: connected$/m.test(f)
          ? (JSON.parse(/^data: (.*)$/m.exec(f)![1]!) as { id: string }).id
          : undefined,
    }));

describe.runIf(postgres)('a resume on another replica across a late-committing event id', () => {
  let database: Database;
  const hubs: EventHub[] = [];
  const replica = async () => {
    const hub = createEventHub({
      database,
      log,
      maxConnections: 10,
      maxConnectionsPerClient: 10,
      heartbeatMs: 0,
      gapGraceMs: 150,
    });
    await hub.start();
    hubs.push(hub);
    return hub;
  };
  beforeAll(async () => {
    database = await postgres!.open();
  });
  afterAll(async () => {
    for (const hub of hubs) await hub.stop();
    await database?.close();
  });

  it('gets the late event after resuming from the Last-Event-ID it was given, and each event once after dropping repeats', async () => {
    const a = await replica();
    const b = await replica();
    const onA = recordingSink();
    a.open(a.admit('client'), { sink: onA });

    // N is taken by a transaction that commits late; N+1 commits and is delivered after the gap grace.
    let commit!: () => void;
    const gate = new Promise<void>((r) => {
      commit = r;
    });
    let late!: PlatformEvent;
    const taken = new Promise<void>((resolve) => {
      void database.db.transaction(async (tx) => {
        late = await publishEvent(tx, { type: 'trade', companyId: 'c-late', data: { n: 1 } });
        resolve();
        await gate;
      });
    });
    await taken;
    const next = await publishEvent(database.db, { type: 'trade', companyId: 'c-late', data: { n: 2 } });
    await expect.poll(() => framesOf(onA.text()).some((f) => f.event === next.id), { timeout: 3000 }).toBe(true);

    // The client disconnects holding the last `id:` it read; N commits; B's reader already passed it.
    const lastEventId = framesOf(onA.text()).at(-1)!.resume;
    await expect.poll(() => BigInt(b.reader.cursor) >= BigInt(next.id), { timeout: 3000 }).toBe(true);
    commit();
    await expect.poll(() => a.reader.missingIds().length + b.reader.missingIds().length, { timeout: 3000 }).toBe(0);

    const onB = recordingSink();
    b.open(b.admit('client'), { sink: onB, lastEventId: BigInt(lastEventId) });
    await expect.poll(() => framesOf(onB.text()).some((f) => f.event === late.id), { timeout: 3000 }).toBe(true);

    // What the client ends with, repeats dropped by the event's own id: both events, once each.
    const seen = new Set<string>();
    for (const f of [...framesOf(onA.text()), ...framesOf(onB.text())]) if (f.event) seen.add(f.event);
    expect([...seen].sort()).toEqual([late.id, next.id].sort());
  });
});
