// The token lists' 24-hour markets are read once for every page that shows a company (sharedMarketStats), and again
// when a trade is indexed or the window's start passes the oldest trade in it; moving the window alone reads nothing.
import { describe, expect, it } from 'vitest';
import type { Tx } from '../../src/db/client.ts';
import { type MarketStats, NO_TRADES, sharedMarketStats } from '../../src/domain/tokens/market.ts';
import { sharedTokenPages } from '../../src/domain/tokens/queries.ts';

const db = {} as Tx;

function fakeReads() {
  const calls: string[][] = [];
  let volume = 1n;
  let fail = false;
  // The window's one trade, 10 s after the window's start.
  const read = async (_db: Tx, ids: readonly string[], since: Date) => {
    calls.push([...ids]);
    if (fail) throw new Error('the database did not answer');
    const firstInWindowAt = new Date(since.getTime() + 10_000);
    return new Map<string, MarketStats>(ids.map((id) => [id, { ...NO_TRADES, trades: 1, volume, firstInWindowAt }]));
  };
  return {
    read,
    calls,
    setVolume: (v: bigint) => {
      volume = v;
    },
    setFailing: (f: boolean) => {
      fail = f;
    },
  };
}

function changes() {
  let seq = 0;
  let changedAt = 0;
  return {
    feed: { position: () => seq, changedSince: (position: number) => changedAt > position },
    trade: () => {
      seq += 1;
      changedAt = seq;
    },
  };
}

describe('sharedMarketStats', () => {
  it('reads each company once, whichever pages show it, and again when its oldest trade leaves the window or a trade is indexed', async () => {
    const reads = fakeReads();
    const feed = changes();
    const markets = sharedMarketStats(feed.feed, reads.read);
    const since = new Date('2026-11-28T12:00:00Z');
    const first = await markets(db, ['a', 'b', 'c'], since);
    const second = await markets(db, ['b', 'c', 'd'], since);
    expect(reads.calls).toEqual([['a', 'b', 'c'], ['d']]);
    expect([...second.keys()]).toEqual(['b', 'c', 'd']);
    expect(second.get('b')).toBe(first.get('b'));

    // The window moved up to its oldest trade, which it still holds: nothing left it, nothing read.
    reads.setVolume(2n);
    for (const ms of [5000, 10_000]) {
      const moved = await markets(db, ['a', 'b'], new Date(since.getTime() + ms));
      expect(moved.get('a')).toBe(first.get('a'));
    }
    expect(reads.calls.length).toBe(2);
    // Past it: the trade left the window, read afresh.
    const later = await markets(db, ['a'], new Date(since.getTime() + 10_001));
    expect(reads.calls.at(-1)).toEqual(['a']);
    expect(later.get('a')?.volume).toBe(2n);
    // A window that starts earlier than the one read (the chain's clock went back) is read again too.
    await markets(db, ['b'], new Date(since.getTime() - 1000));
    expect(reads.calls.at(-1)).toEqual(['b']);

    // A trade indexed: read afresh within the same window.
    reads.setVolume(3n);
    feed.trade();
    const traded = await markets(db, ['a'], new Date(since.getTime() + 10_001));
    expect(reads.calls.length).toBe(5);
    expect(traded.get('a')?.volume).toBe(3n);
  });

  it('shares a read still running, and keeps no failed read', async () => {
    const reads = fakeReads();
    const markets = sharedMarketStats(changes().feed, reads.read);
    const since = new Date('2026-11-28T12:00:00Z');
    const [x, y] = await Promise.all([markets(db, ['a', 'b'], since), markets(db, ['a', 'b'], since)]);
    expect(reads.calls).toEqual([['a', 'b']]);
    expect(x.get('a')).toBe(y.get('a'));

    reads.setFailing(true);
    await expect(markets(db, ['c'], since)).rejects.toThrow('did not answer');
    reads.setFailing(false);
    expect((await markets(db, ['c'], since)).get('c')?.trades).toBe(1);
    expect(reads.calls).toEqual([['a', 'b'], ['c'], ['c']]);
  });
});

describe('sharedTokenPages', () => {
  it("keeps a page's rows until a table they come from changes, and no failed read", async () => {
    const feed = changes();
    const pages = sharedTokenPages(feed.feed, 3);
    let reads = 0;
    let fail = false;
    const read = async () => {
      reads++;
      if (fail) throw new Error('the database did not answer');
      return [{ id: String(reads) }] as never;
    };
    const first = await pages('1|20||', read);
    expect(await pages('1|20||', read)).toBe(first);
    expect(reads).toBe(1);
    await pages('2|20||', read);
    expect(reads).toBe(2);

    // A change: every page is read again.
    feed.trade();
    expect(await pages('1|20||', read)).not.toBe(first);
    expect(reads).toBe(3);

    fail = true;
    await expect(pages('3|20||', read)).rejects.toThrow('did not answer');
    fail = false;
    await pages('3|20||', read);
    expect(reads).toBe(5);

    // Past the bound of kept pages: all dropped, the next read kept afresh.
    await pages('4|20||', read);
    await pages('1|20||', read);
    expect(reads).toBe(7);
  });
});
