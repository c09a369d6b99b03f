// The stream's heartbeat over real HTTP: a `: ping` comment after exactly SSE_HEARTBEAT_MS of silence (late by at
// most one tick, a thirtieth of the period), and none while events keep the stream busy. (The pings once came
// every half period: the heartbeat ticked each half period and pinged streams silent for half a period.)
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { publishEvent } from '../../src/domain/events/store.ts';
import { useTestApp } from '../helpers/app.ts';
import { insertCompany, payloads } from '../helpers/events.ts';
import { openStream } from '../helpers/sse-client.ts';

const HEARTBEAT_MS = 1200;
const TICK_MS = HEARTBEAT_MS / 30;
const t = useTestApp({ env: { SSE_HEARTBEAT_MS: String(HEARTBEAT_MS) } });
let base: string;
let acme: { id: string; slug: string };

beforeAll(async () => {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  acme = await insertCompany(t.database.db, 'acme');
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('GET /api/v1/events heartbeat', () => {
  it('pings one period after the last write, each period, never early and late by at most a tick', async () => {
    const s = await openStream(`${base}/api/v1/events`);
    await s.waitFor(1, (m) => m.event === 'connected');
    await sleep(HEARTBEAT_MS * 5 + 300);
    s.close();
    expect(s.comments.length).toBeGreaterThanOrEqual(4);
    expect(s.comments.length).toBeLessThanOrEqual(5);
    // Measured between pings, which reach the client alike (the first message may wait on a busy test process).
    for (let i = 1; i < s.commentTimes.length; i++) {
      const gap = s.commentTimes[i]! - s.commentTimes[i - 1]!;
      expect(gap).toBeGreaterThanOrEqual(HEARTBEAT_MS - 100);
      expect(gap).toBeLessThanOrEqual(HEARTBEAT_MS + TICK_MS + 250); // a tick, and loopback and scheduling slack
    }
  });

  it('sends no ping to a stream that events keep busy; pings again a period after the last event', async () => {
    const s = await openStream(`${base}/api/v1/events`);
    await s.waitFor(1, (m) => m.event === 'connected');
    for (let i = 0; i < 5; i++) {
      await publishEvent(t.database.db, { type: 'trade', companyId: acme.id, data: payloads.trade });
      await sleep(HEARTBEAT_MS / 2);
    }
    await s.waitFor(5, (m) => m.event === 'trade');
    expect(s.comments).toEqual([]);
    const lastEventAt = s.messages.at(-1)!.receivedAt;
    await sleep(HEARTBEAT_MS + 400);
    s.close();
    expect(s.comments.length).toBe(1);
    expect(s.commentTimes[0]! - lastEventAt).toBeGreaterThanOrEqual(HEARTBEAT_MS - 100);
    expect(s.commentTimes[0]! - lastEventAt).toBeLessThanOrEqual(HEARTBEAT_MS + TICK_MS + 250);
  });
});
