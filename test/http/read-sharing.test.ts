// The read routes under load: identical concurrent reads share one read that starts after each request
// arrived (coalesce.ts), list totals are taken from the page or a short-lived count (page-total.ts), and a v1 body
// serialized once carries the timestamp of each response (envelope.ts).
import { describe, expect, it } from 'vitest';
import { createPageTotals, totalFromPage } from '../../src/db/page-total.ts';
import { createCoalescer } from '../../src/http/coalesce.ts';
import { STAMP_PLACEHOLDER, stampable, stamped } from '../../src/http/envelope.ts';

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe('createCoalescer', () => {
  it('answers requests arriving during a read with the next read, which starts after the running one', async () => {
    const coalesce = createCoalescer();
    let version = 0;
    const gates = [gate(), gate()];
    let loads = 0;
    const load = async () => {
      const n = loads++;
      const seen = version;
      await gates[n]!.opened;
      return seen;
    };
    const first = coalesce('k', load);
    version = 1; // a write lands after the first read started
    const second = coalesce('k', load);
    const third = coalesce('k', load);
    expect(loads).toBe(1);
    gates[0]!.open();
    expect(await first).toBe(0);
    await Promise.resolve();
    expect(loads).toBe(2); // one read for both waiting requests, started after they arrived
    gates[1]!.open();
    expect(await second).toBe(1);
    expect(await third).toBe(1);
    // Nothing running: the next request reads again.
    gates.push(gate());
    gates[2]!.open();
    version = 2;
    expect(await coalesce('k', load)).toBe(2);
    expect(loads).toBe(3);
  });

  it('keeps keys apart and hands a failed read to each of its requests', async () => {
    const coalesce = createCoalescer();
    const a = coalesce('a', async () => 'A');
    const b = coalesce('b', async () => 'B');
    expect([await a, await b]).toEqual(['A', 'B']);
    const boom = () => Promise.reject(new Error('down'));
    const failed = [coalesce('x', boom), coalesce('x', boom)];
    await expect(failed[0]).rejects.toThrow('down');
    await expect(failed[1]).rejects.toThrow('down');
    expect(await coalesce('x', async () => 'back')).toBe('back');
  });

  it('with shareFailures, those waiting fail with the running read instead of starting another', async () => {
    for (const shareFailures of [false, true]) {
      const coalesce = createCoalescer({ shareFailures });
      let loads = 0;
      const down = () => {
        loads++;
        return new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timed out')), 20));
      };
      const running = coalesce('head', down);
      const waiting = coalesce('head', down);
      await expect(running).rejects.toThrow('timed out');
      await expect(waiting).rejects.toThrow('timed out');
      // Without it the waiting request started a read of its own after the first failed: twice the timeout.
      expect(loads).toBe(shareFailures ? 1 : 2);
      expect(await coalesce('head', async () => 7n)).toBe(7n);
    }
  });
});

describe('page totals', () => {
  it('takes the total from a page that shows it', () => {
    expect(totalFromPage({ offset: 40, limit: 20, rows: 7 })).toBe(47);
    expect(totalFromPage({ offset: 0, limit: 20, rows: 0 })).toBe(0);
    expect(totalFromPage({ offset: 0, limit: 20, rows: 20 })).toBeUndefined();
    expect(totalFromPage({ offset: 60, limit: 20, rows: 0 })).toBeUndefined();
    // After a cursor the page's offset is from the cursor: it shows nothing of the whole list's total.
    expect(totalFromPage({ offset: 0, limit: 20, rows: 7, afterCursor: true })).toBeUndefined();
    expect(totalFromPage({ offset: 0, limit: 20, rows: 0, afterCursor: true })).toBeUndefined();
  });

  it('counts a full page once per filter while the count is young and agrees with the page', async () => {
    let clock = 0;
    const total = createPageTotals({ maxAgeMs: 3000, now: () => clock });
    let counts = 0;
    const count = (n: number) => async () => {
      counts++;
      return n;
    };
    const full = { offset: 0, limit: 20, rows: 20 };
    expect(await total('f', full, count(100))).toBe(100);
    clock = 2999;
    expect(await total('f', full, count(999))).toBe(100);
    expect(await total('other', full, count(50))).toBe(50);
    expect(counts).toBe(2);
    // A full page 5 (rows 81-100) still agrees with 100; a full page 6 does not, and is counted again.
    expect(await total('f', { offset: 80, limit: 20, rows: 20 }, count(999))).toBe(100);
    expect(await total('f', { offset: 100, limit: 20, rows: 20 }, count(130))).toBe(130);
    // Too old: counted again.
    clock = 6000;
    expect(await total('f', full, count(140))).toBe(140);
    // A page that shows its total replaces what was counted.
    expect(await total('f', { offset: 0, limit: 200, rows: 150 }, count(999))).toBe(150);
    expect(await total('f', full, count(999))).toBe(150);
    expect(counts).toBe(4);
  });
});

describe('stamped v1 bodies', () => {
  it('puts the time of each response in meta.timestamp, even when the data holds the placeholder', () => {
    const serialized = JSON.stringify({
      data: [{ name: `"timestamp":"${STAMP_PLACEHOLDER}"`, description: 'Café \u2014 ☕' }],
      pagination: { page: 1, limit: 1, total: 1, hasMore: false },
      meta: { timestamp: STAMP_PLACEHOLDER },
    });
    const before = Date.now();
    const body = JSON.parse(stamped(stampable(serialized)).toString('utf8'));
    expect(body.data[0].name).toBe(`"timestamp":"${STAMP_PLACEHOLDER}"`);
    expect(body.data[0].description).toBe('Café \u2014 ☕');
    expect(body.pagination).toEqual({ page: 1, limit: 1, total: 1, hasMore: false });
    expect(Date.parse(body.meta.timestamp)).toBeGreaterThanOrEqual(before - 1);
    expect(body.meta.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it("makes a body's answers of one millisecond once, and each later millisecond's anew with its own time", async () => {
    const envelope = (data: string) =>
      stampable(JSON.stringify({ data: [{ name: data }], meta: { timestamp: STAMP_PLACEHOLDER } }));
    const [one, other] = [envelope('one'), envelope('other')];
    const timeOf = (bytes: Buffer) => JSON.parse(bytes.toString('utf8')).meta.timestamp as string;
    // Answers until two in a row fall in one millisecond: those are the same bytes.
    let [previous, next] = [stamped(one), stamped(one)];
    while (timeOf(previous) !== timeOf(next)) [previous, next] = [next, stamped(one)];
    expect(next).toBe(previous);
    // Another body in the same millisecond is its own.
    const others = stamped(other);
    expect(JSON.parse(others.toString('utf8')).data).toEqual([{ name: 'other' }]);
    // A later millisecond: new bytes, with the new time.
    await new Promise((resolve) => setTimeout(resolve, 3));
    const later = stamped(one);
    expect(later).not.toBe(previous);
    expect(Date.parse(timeOf(later))).toBeGreaterThan(Date.parse(timeOf(previous)));
    expect(JSON.parse(later.toString('utf8')).data).toEqual([{ name: 'one' }]);
  });
});
