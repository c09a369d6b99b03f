// The test broker under load: workers ask it concurrently, and ask again after its sockets' idle timeout has run out.
// A kept-alive socket the server closed as a client reused it failed a clean-clone run with "other side closed"
// (test/helpers/broker.ts says how the broker avoids it).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callBroker, startTestBroker, type TestBroker } from './broker.ts';

const KEEP_ALIVE_MS = 50;

let broker: TestBroker;
beforeAll(async () => {
  broker = await startTestBroker({ keepAliveTimeoutMs: KEEP_ALIVE_MS });
});
afterAll(() => broker.stop());

describe('test broker', () => {
  it('answers every concurrent call made while its sockets idle out', async () => {
    const answers: unknown[] = [];
    for (let wave = 0; wave < 8; wave++) {
      // A loaded machine: the process stalls past the idle timeout, so the calls below and the server's idle timers
      // run in the same turn, the calls first (what a worker and the broker's main process did at load 20).
      const calls = new Promise<unknown[]>((resolve, reject) => {
        setTimeout(() => {
          Promise.all(Array.from({ length: 16 }, () => callBroker(broker.url, '/slots'))).then(resolve, reject);
        }, 1);
      });
      const stallUntil = Date.now() + KEEP_ALIVE_MS + 20;
      while (Date.now() < stallUntil) {}
      answers.push(...(await calls));
    }
    expect(answers).toHaveLength(8 * 16);
    for (const answer of answers) expect(answer).toEqual({ pools: [] });
  });

  it('closes each connection after its answer, so no worker reuses a socket the broker is closing', async () => {
    const res = await fetch(`${broker.url}/slots`, { method: 'POST' });
    expect(res.headers.get('connection')).toBe('close');
    expect(await res.json()).toEqual({ pools: [] });
  });

  it('makes a call once more when the connection is lost before the answer, and only once', async () => {
    let asked = 0;
    const dropping = (drops: number) =>
      createServer((req, res) => {
        asked++;
        if (asked <= drops) req.socket.destroy();
        else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    const once = dropping(1);
    await new Promise<void>((resolve) => once.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(once.address() as AddressInfo).port}`;
      expect(await callBroker(url, '/slots')).toEqual({ ok: true });
      expect(asked).toBe(2);
    } finally {
      once.closeAllConnections();
      await new Promise((resolve) => once.close(resolve));
    }
    asked = 0;
    const twice = dropping(2);
    await new Promise<void>((resolve) => twice.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(twice.address() as AddressInfo).port}`;
      await expect(callBroker(url, '/slots')).rejects.toThrow(/fetch failed/);
      expect(asked).toBe(2);
    } finally {
      twice.closeAllConnections();
      await new Promise((resolve) => twice.close(resolve));
    }
  });

  it('answers an unknown route with its error, not a retry', async () => {
    await expect(callBroker(broker.url, '/nowhere')).rejects.toThrow(/answered \/nowhere with 500: Error: no route/);
  });
});
