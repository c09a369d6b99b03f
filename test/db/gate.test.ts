// The gate that keeps lock-holding transactions from taking the whole pool (src/db/gate.ts).
import { describe, expect, it } from 'vitest';
import { createGate } from '../../src/db/gate.ts';
import { lockHoldersOf } from '../../src/domain/companies/custody.ts';

const tick = () => new Promise((r) => setTimeout(r, 1));

describe('createGate', () => {
  it('runs at most its limit at once, and every task in the order it came', async () => {
    const gate = createGate(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 7 }, (_, i) =>
        gate(async () => {
          order.push(i);
          most = Math.max(most, ++running);
          await tick();
          running--;
        }),
      ),
    );
    expect(most).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('gives the slot back when a task fails, and passes the failure on', async () => {
    const gate = createGate(1);
    await expect(gate(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(gate(async () => 'next')).resolves.toBe('next');
    // Two failures in a row while others wait: everything still runs.
    const results = await Promise.allSettled([
      gate(() => Promise.reject(new Error('a'))),
      gate(() => Promise.reject(new Error('b'))),
      gate(async () => 'c'),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
  });

  it('fails a task that waited past its deadline without running it, and the queue goes on without it', async () => {
    const gate = createGate(1, { waitMs: 20, busy: () => new Error('busy') });
    let release!: () => void;
    const holder = gate(
      () =>
        new Promise<void>((r) => {
          release = r;
        }),
    );
    const ran: string[] = [];
    const late = gate(async () => ran.push('late'));
    await expect(late).rejects.toThrow('busy');
    // The slot is still the holder's; the next task waits for it and runs once it is given back.
    const next = gate(async () => ran.push('next'));
    release();
    await holder;
    await next;
    expect(ran).toEqual(['next']);
    // Nothing is held: a task runs at once.
    await expect(gate(async () => 'free')).resolves.toBe('free');
  });

  it("custody changes leave two of the pool's connections free, and a pool of 2 still runs one", () => {
    // Each holder takes two connections (its locked transaction and its outbox send).
    expect([2, 3, 4, 5, 6, 10, 100].map(lockHoldersOf)).toEqual([1, 1, 1, 1, 2, 2, 2]);
  });
});
