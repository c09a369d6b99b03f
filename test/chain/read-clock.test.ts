// The clock for reads (chainDateForReads): the chain's latest block time, read once per reuse period, never waited
// on past READ_CLOCK_WAIT_MS when the node hangs; then the last known time while it is recent, else the fallback.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  chainDateForReads,
  READ_CLOCK_REUSE_MS,
  READ_CLOCK_STALE_MS,
  READ_CLOCK_WAIT_MS,
} from '../../src/chain/time.ts';

/** A node whose blocks are stamped `timestamp`, answering at once or never (hang), counting block reads. */
function fakeNode(timestamp: bigint) {
  const node = {
    timestamp,
    hang: false,
    reads: 0,
    getBlock: (async () => {
      node.reads++;
      if (node.hang) return new Promise(() => {});
      return { timestamp: node.timestamp };
    }) as never,
  };
  return node;
}

const SERVER_NOW = Date.UTC(2030, 0, 1);
const fallback = () => SERVER_NOW;

afterEach(() => {
  vi.useRealTimers();
});

describe('chainDateForReads', () => {
  it("answers the chain's time, not the server's, and reads it once per reuse period", async () => {
    const node = fakeNode(1_800_000_000n);
    expect((await chainDateForReads(node, fallback)).getTime()).toBe(1_800_000_000_000);
    const reads = node.reads;
    node.timestamp = 1_800_000_100n;
    // Within the reuse period: the same reading, no new RPC.
    expect((await chainDateForReads(node, fallback)).getTime()).toBe(1_800_000_000_000);
    expect(node.reads).toBe(reads);
  });

  it('answers within the wait from the last known time while the node hangs, and takes its late answer after', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    const node = fakeNode(1_800_000_000n);
    await chainDateForReads(node, fallback);
    node.hang = true;
    vi.advanceTimersByTime(READ_CLOCK_REUSE_MS);
    const answer = chainDateForReads(node, fallback);
    await vi.advanceTimersByTimeAsync(READ_CLOCK_WAIT_MS);
    expect((await answer).getTime()).toBe(1_800_000_000_000);
    // Later readers share the one hanging read rather than starting one each, and do not wait for it again.
    const reads = node.reads;
    let answered: number | undefined;
    const again = chainDateForReads(node, fallback).then((d) => {
      answered = d.getTime();
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(answered).toBe(1_800_000_000_000);
    await again;
    expect(node.reads).toBe(reads);
  });

  it("falls back to the server's clock once the last known time is older than the staleness bound", async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    const node = fakeNode(1_800_000_000n);
    await chainDateForReads(node, fallback);
    node.hang = true;
    // Just inside the bound: still the last known time.
    vi.advanceTimersByTime(READ_CLOCK_STALE_MS - READ_CLOCK_WAIT_MS - 1);
    const inside = chainDateForReads(node, fallback);
    await vi.advanceTimersByTimeAsync(READ_CLOCK_WAIT_MS);
    expect((await inside).getTime()).toBe(1_800_000_000_000);
    // Just outside it.
    vi.advanceTimersByTime(1);
    const outside = chainDateForReads(node, fallback);
    await vi.advanceTimersByTimeAsync(READ_CLOCK_WAIT_MS);
    expect((await outside).getTime()).toBe(SERVER_NOW);
  });

  it("answers the server's clock within the wait when the node never answered", async () => {
    const node = fakeNode(0n);
    node.hang = true;
    const started = performance.now();
    expect((await chainDateForReads(node, fallback)).getTime()).toBe(SERVER_NOW);
    const took = performance.now() - started;
    expect(took).toBeGreaterThanOrEqual(READ_CLOCK_WAIT_MS - 5);
    expect(took).toBeLessThan(READ_CLOCK_WAIT_MS + 500);
  });

  it('takes the fallback at once when the node refuses, and the chain again once it answers', async () => {
    const node = fakeNode(1_800_000_000n);
    const refusing = { ...node, getBlock: (async () => Promise.reject(new Error('ECONNREFUSED'))) as never };
    expect((await chainDateForReads(refusing, fallback)).getTime()).toBe(SERVER_NOW);
    expect((await chainDateForReads(node, fallback)).getTime()).toBe(1_800_000_000_000);
  });
});
