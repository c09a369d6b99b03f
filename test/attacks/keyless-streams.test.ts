// Attack: the keyless GET /api/events shared the process's stream cap with the keyed /api/v1/events,
// so anyone could fill SSE_MAX_CONNECTIONS without a key and leave integrators with 429s; and each of its streams
// could replay the whole hour of retained events. Now keyless streams have a cap of their own,
// SSE_PUBLIC_MAX_CONNECTIONS, apart from the keyed streams' SSE_MAX_CONNECTIONS, and resume at most
// SSE_PUBLIC_BACKLOG_MS back: an older Last-Event-ID resumes from the oldest event of that window, as a keyed
// stream's too-old id resumes from the oldest event kept.
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { platformEvents } from '../../src/db/schema/events.ts';
import { publishEvent } from '../../src/domain/events/store.ts';
import { useTestApp } from '../helpers/app.ts';
import { insertCompany, payloads } from '../helpers/events.ts';
import { openStream, type SseStream } from '../helpers/sse-client.ts';

const KEYED_CAP = 4;
const PUBLIC_CAP = 2;
const t = useTestApp({
  env: {
    SSE_MAX_CONNECTIONS: String(KEYED_CAP),
    SSE_PUBLIC_MAX_CONNECTIONS: String(PUBLIC_CAP),
    // One attacker address, many streams: the per-address cap is not what is tested here.
    SSE_PUBLIC_MAX_CONNECTIONS_PER_IP: '100',
    SSE_PUBLIC_BACKLOG_MS: '300000',
  },
});
let base: string;
let company: { id: string; slug: string };
const opened: SseStream[] = [];

beforeAll(async () => {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  company = await insertCompany(t.database.db, 'keyless-target');
});
afterAll(() => {
  for (const s of opened) s.close();
});

const stream = async (path: string, headers: Record<string, string> = {}) => {
  const s = await openStream(`${base}${path}`, headers);
  opened.push(s);
  return s;
};
const publish = () => publishEvent(t.database.db, { type: 'trade', companyId: company.id, data: payloads.trade });

describe('keyless event streams', () => {
  it('a keyless client opening all it can is refused at their own cap, and a keyed stream still connects', async () => {
    const keyless: SseStream[] = [];
    let refused: SseStream | undefined;
    for (let i = 0; i <= KEYED_CAP; i++) {
      const s = await stream('/api/events');
      if (s.status !== 200) {
        refused = s;
        break;
      }
      keyless.push(s);
    }
    expect(keyless).toHaveLength(PUBLIC_CAP);
    expect(refused?.status).toBe(429);
    expect(refused?.headers['retry-after']).toBe('10');
    expect(refused?.body).toMatchObject({
      success: false,
      error: { code: 'RATE_LIMITED', message: expect.stringMatching(/^Too many keyless event streams on this server/) },
    });
    // Every keyed slot is still free: the keyed cap is reached by keyed streams alone.
    const keyed: SseStream[] = [];
    for (let i = 0; i < KEYED_CAP; i++) {
      const s = await stream('/api/v1/events');
      expect(s.status, `keyed stream ${i + 1}`).toBe(200);
      await s.waitFor(1, (m) => m.event === 'connected');
      keyed.push(s);
    }
    const overKeyed = await stream('/api/v1/events');
    expect(overKeyed.status).toBe(429);
    expect(overKeyed.body.error.message).toMatch(/^Too many event streams on this server \(at most 4\)/);
    // A slot given back is free again for its own kind.
    keyless.pop()!.close();
    await new Promise((r) => setTimeout(r, 100));
    const again = await stream('/api/events');
    expect(again.status).toBe(200);
    for (const s of [...keyless, ...keyed, again]) s.close();
    await new Promise((r) => setTimeout(r, 100));
  });

  it('a keyless resume older than SSE_PUBLIC_BACKLOG_MS gets only the last 5 minutes; a keyed one the whole retention', async () => {
    // The process's reader reads the three events live before they are dated back (on PostgreSQL it learns of
    // them by NOTIFY, a moment later): a live event is never older than the backlog, only a resumed one is.
    const watcher = await stream(`/api/v1/events?companies=${company.slug}`);
    const before = await publish();
    const old = await publish();
    const recent = await publish();
    await watcher.waitFor(1, (m) => m.id === recent.id);
    watcher.close();
    // `old` was published 10 minutes ago, `before` 20: both kept (an hour), outside the keyless backlog.
    for (const [event, minutes] of [
      [before, 20],
      [old, 10],
    ] as const) {
      await t.database.db
        .update(platformEvents)
        .set({ timestamp: sql`now() - make_interval(mins => ${minutes})` })
        .where(eq(platformEvents.id, BigInt(event.id)));
    }
    const keyless = await stream(`/api/events?companies=${company.slug}`, { 'last-event-id': before.id });
    expect(keyless.status).toBe(200);
    const keyed = await stream(`/api/v1/events?companies=${company.slug}`, { 'last-event-id': before.id });
    expect(keyed.status).toBe(200);
    await keyed.waitFor(1, (m) => m.id === recent.id);
    await keyless.waitFor(1, (m) => m.id === recent.id);
    // Live events follow the backlog on both.
    const live = await publish();
    await keyed.waitFor(1, (m) => m.id === live.id);
    await keyless.waitFor(1, (m) => m.id === live.id);
    expect(keyed.events().map((e) => e.id)).toEqual([old.id, recent.id, live.id]);
    expect(keyless.events().map((e) => e.id)).toEqual([recent.id, live.id]);
    keyless.close();
    keyed.close();
  });
});
