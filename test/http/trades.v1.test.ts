// The v1 trades and candles a bot builds on: the platform-wide trades feed and a company's trades, in chain order
// either way, filtered by company, trader, block time and block number, paged by cursor; candles of every interval
// paged past one page by from/to, with full-precision prices. Each bound just inside and just outside.
import { type Address, formatUnits, parseUnits } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { rowsOf } from '../../src/db/client.ts';
import { createApiKey } from '../../src/domain/auth/api-keys.ts';
import { useTestApp } from '../helpers/app.ts';
import { staffedCompany } from '../helpers/companies.ts';
import { tokenTrading } from '../helpers/trading.ts';

const t = useTestApp();
const trading = tokenTrading(t);
const USDC = 1_000_000n;
let key: string;
let slugA: string;
let slugB: string;
let tokenA: Address;

interface Row {
  txHash: string;
  transactionHash: string;
  logIndex: number;
  blockNumber: number;
  blockTime: string;
  time: string;
  companySlug: string;
  tokenAddress: string;
  trader: string;
  side: string;
  amount: string;
  tokenAmount: string;
  usdcAmount: string;
  usdcAmountRaw: string;
  price: string;
  priceRaw: string;
  priceExact: string;
}

const v1 = (url: string, apiKey: string | null = key) =>
  t.app.inject({ method: 'GET', url, headers: apiKey ? { 'x-api-key': apiKey } : {} });
const place = (r: Row) => `${r.blockNumber}:${r.logIndex}`;

/** Advances the chain's clock by `seconds` (the next block carries it). */
async function later(seconds: number) {
  await t.chain.chain.publicClient.request({ method: 'evm_increaseTime' as never, params: [seconds] as never });
}

beforeAll(async () => {
  key = (await createApiKey(t.database.db, 'trades-bot')).key;
  const a = await staffedCompany(t, 1, { name: 'Feed A' });
  const b = await staffedCompany(t, 4, { name: 'Feed B' });
  tokenA = await trading.launch(a.id, 'FDA', 1);
  const tokenB = await trading.launch(b.id, 'FDB', 4);
  await trading.startTradingDay();
  // Five trades on A an hour apart (five 1h candles), two on B between them.
  await trading.buy(2, tokenA, 100n * USDC);
  await later(3600);
  await trading.buy(3, tokenA, 7n * USDC);
  await trading.buy(5, tokenB, 50n * USDC);
  await later(3600);
  await trading.sell(2, tokenA, (await trading.balanceOf(2, tokenA)) / 3n);
  await later(3600);
  await trading.buy(2, tokenA, 1n * USDC);
  await trading.buy(6, tokenB, 3n * USDC);
  await later(3600);
  await trading.buy(3, tokenA, 20n * USDC);
  await trading.index();
  slugA = (await t.app.inject({ url: `/api/companies/${a.id}` })).json().data.slug;
  slugB = (await t.app.inject({ url: `/api/companies/${b.id}` })).json().data.slug;
});

describe('GET /api/v1/trades', () => {
  it('lists every token’s trades newest first in chain order, each with where it is on the chain and its token', async () => {
    const res = await v1('/api/v1/trades?limit=100');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const rows = body.data as Row[];
    expect(rows).toHaveLength(7);
    expect(body.pagination).toEqual({ page: 1, limit: 100, total: 7, hasMore: false, nextCursor: null });
    const order = rows.map((r) => r.blockNumber * 1e4 + r.logIndex);
    expect(order).toEqual([...order].sort((x, y) => y - x));
    expect(rows.filter((r) => r.companySlug === slugB)).toHaveLength(2);
    for (const r of rows) {
      expect(r.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
      expect(r.txHash).toBe(r.transactionHash);
      expect(r.blockTime).toBe(r.time);
      expect(r.tokenAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
      // The stream's base-unit forms beside the decimal ones, and the exact price beside the rounded one.
      expect(formatUnits(BigInt(r.amount), 18)).toBe(r.tokenAmount);
      expect(formatUnits(BigInt(r.usdcAmountRaw), 6)).toBe(r.usdcAmount);
      expect(formatUnits(BigInt(r.priceRaw), 6)).toBe(r.price);
      const exact = parseUnits(r.priceExact, 18);
      expect(exact).toBe((BigInt(r.usdcAmountRaw) * 10n ** 30n) / BigInt(r.amount));
      expect(exact / 10n ** 12n).toBe(BigInt(r.priceRaw));
    }
    expect(rows.find((r) => r.companySlug === slugA)!.tokenAddress).toBe(tokenA);
  });

  it('pages by cursor both ways with no repeat and no gap, and by the Link header', async () => {
    const all = ((await v1('/api/v1/trades?limit=100')).json().data as Row[]).map(place);
    for (const order of ['desc', 'asc'] as const) {
      const seen: string[] = [];
      let url: string | undefined = `/api/v1/trades?limit=2&order=${order}`;
      let pages = 0;
      while (url) {
        const res = await v1(url);
        expect(res.statusCode, res.body).toBe(200);
        const body = res.json();
        seen.push(...(body.data as Row[]).map(place));
        pages++;
        const link = res.headers.link as string | undefined;
        if (body.pagination.hasMore) {
          expect(link).toBe(`</api/v1/trades?limit=2&order=${order}&cursor=${body.pagination.nextCursor}>; rel="next"`);
          url = /<([^>]+)>/.exec(link!)![1];
        } else {
          expect(body.pagination.nextCursor).toBeNull();
          expect(link).toBeUndefined();
          url = undefined;
        }
      }
      expect(pages).toBe(4);
      expect(seen).toEqual(order === 'desc' ? all : [...all].reverse());
    }
    // A cursor given for one order is refused for the other; a cursor no page gave is refused.
    const next = (await v1('/api/v1/trades?limit=2')).json().pagination.nextCursor as string;
    const other = await v1(`/api/v1/trades?limit=2&order=asc&cursor=${next}`);
    expect(other.statusCode).toBe(400);
    expect(other.json().error.code).toBe('VALIDATION_ERROR');
    for (const bad of [
      'abc',
      Buffer.from('["d","1"]').toString('base64url'),
      Buffer.from('["d","-1","0"]').toString('base64url'),
      Buffer.from('["d","1","01"]').toString('base64url'),
      Buffer.from('["x","1","0"]').toString('base64url'),
    ]) {
      const res = await v1(`/api/v1/trades?cursor=${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(JSON.stringify(res.json().error)).toContain('query.cursor');
    }
  });

  it('filters by company (id or slug), trader, block range and time range, each bound inclusive as documented', async () => {
    const all = (await v1('/api/v1/trades?limit=100&order=asc')).json().data as Row[];
    const ofA = (await v1(`/api/v1/trades?limit=100&order=asc&company=${slugA}`)).json();
    expect((ofA.data as Row[]).map(place)).toEqual(all.filter((r) => r.companySlug === slugA).map(place));
    expect(ofA.pagination.total).toBe(5);
    const trader = devAccount(2).address;
    const mine = (await v1(`/api/v1/trades?limit=100&trader=${trader.toLowerCase()}`)).json().data as Row[];
    expect(mine).toHaveLength(3);
    expect(mine.every((r) => r.trader === trader)).toBe(true);

    // Blocks: fromBlock and toBlock both inclusive; one block on either side drops the trade.
    const third = all[2]!;
    const inBlock = (q: string) => v1(`/api/v1/trades?limit=100&${q}`).then((r) => r.json().data as Row[]);
    expect((await inBlock(`fromBlock=${third.blockNumber}&toBlock=${third.blockNumber}`)).map(place)).toEqual([
      place(third),
    ]);
    expect(await inBlock(`fromBlock=${third.blockNumber + 1}&toBlock=${third.blockNumber}`)).toEqual([]);
    expect((await inBlock(`fromBlock=${third.blockNumber}`)).length).toBe(all.length - 2);
    expect((await inBlock(`toBlock=${third.blockNumber - 1}`)).length).toBe(2);
    // Time: since inclusive, until exclusive.
    expect((await inBlock(`since=${third.time}`)).length).toBe(all.filter((r) => r.time >= third.time).length);
    expect((await inBlock(`until=${third.time}`)).length).toBe(all.filter((r) => r.time < third.time).length);
    const justAfter = new Date(Date.parse(third.time) + 1).toISOString();
    expect((await inBlock(`since=${third.time}&until=${justAfter}`)).every((r) => r.time === third.time)).toBe(true);

    // The company path takes an id too.
    const companyId = (await t.app.inject({ url: `/api/companies/${slugB}` })).json().data.id;
    expect((await v1(`/api/v1/trades?company=${companyId}`)).json().data).toHaveLength(2);
  });

  it('answers 400 just outside each bound, 404 for an unknown company and 401 without a key', async () => {
    expect((await v1('/api/v1/trades?limit=100')).statusCode).toBe(200);
    expect((await v1('/api/v1/trades?limit=1&fromBlock=0&toBlock=0')).statusCode).toBe(200);
    for (const q of [
      'limit=0',
      'limit=101',
      'page=0',
      'order=up',
      'fromBlock=-1',
      'toBlock=1.5',
      'since=yesterday',
      'trader=0x123',
      `trader=${devAccount(2).address.replace(/[a-f]/, (c) => c.toUpperCase())}`,
      'company=',
    ]) {
      const res = await v1(`/api/v1/trades?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error.code, q).toBe('VALIDATION_ERROR');
    }
    expect((await v1('/api/v1/trades?company=nobody')).statusCode).toBe(404);
    expect((await v1('/api/v1/trades', null)).statusCode).toBe(401);
  });

  it('reads the feeds through the chain-order indexes', async () => {
    const db = t.database.db;
    await db.execute('set enable_seqscan = off');
    try {
      const plan = async (q: string) =>
        rowsOf<{ 'QUERY PLAN': string }>(await db.execute(`explain ${q}`))
          .map((r) => r['QUERY PLAN'])
          .join('\n');
      expect(await plan('select * from token_trades order by block_number desc, log_index desc limit 5')).toContain(
        'token_trades_block_idx',
      );
      expect(
        await plan(
          `select * from token_trades where company_id = 'x' and (block_number, log_index) < (10, 1) order by block_number desc, log_index desc limit 5`,
        ),
      ).toContain('token_trades_company_block_idx');
      expect(
        await plan(`select * from token_trades where trader = 'x' order by block_number, log_index limit 5`),
      ).toContain('token_trades_trader_block_idx');
    } finally {
      await db.execute('set enable_seqscan = on');
    }
  });
});

describe('GET /api/v1/companies/{slug}/token/trades', () => {
  it('keeps data.trades and data.pagination, adds pagination beside data, and takes the feed’s filters', async () => {
    const res = await v1(`/api/v1/companies/${slugA}/token/trades?limit=2&order=asc`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.pagination).toEqual(body.data.pagination);
    expect(body.pagination).toMatchObject({ total: 5, hasMore: true, nextCursor: expect.any(String) });
    const feed = (await v1(`/api/v1/trades?limit=2&order=asc&company=${slugA}`)).json();
    // The same trades (whether a block is final yet can move between two reads).
    const same = (rows: Row[]) => rows.map(({ finalized: _, ...r }: Row & { finalized?: boolean }) => r);
    expect(same(body.data.trades)).toEqual(same(feed.data));
    const next = await v1(
      `/api/v1/companies/${slugA}/token/trades?limit=2&order=asc&cursor=${body.pagination.nextCursor}`,
    );
    expect((next.json().data.trades as Row[]).map(place)).toEqual(
      ((await v1(`/api/v1/trades?limit=100&order=asc&company=${slugA}`)).json().data as Row[]).slice(2, 4).map(place),
    );
    expect(res.headers.link).toContain('rel="next"');
  });
});

describe('GET /api/v1/companies/{slug}/token/candles', () => {
  it('takes the six intervals and refuses others', async () => {
    for (const interval of ['1m', '5m', '15m', '1h', '4h', '1d']) {
      const res = await v1(`/api/v1/companies/${slugA}/token/candles?interval=${interval}`);
      expect(res.statusCode, interval).toBe(200);
      const { candles, intervalSeconds } = res.json().data;
      expect(candles.reduce((n: number, c: { trades: number }) => n + c.trades, 0)).toBe(5);
      for (const c of candles) expect(c.time % intervalSeconds).toBe(0);
    }
    for (const bad of ['2h', '1w', '']) {
      expect((await v1(`/api/v1/companies/${slugA}/token/candles?interval=${bad}`)).statusCode, bad).toBe(400);
    }
  });

  it('pages forward from `from` and back from `to`, one candle a page, to the same candles as one page', async () => {
    const whole = (await v1(`/api/v1/companies/${slugA}/token/candles?interval=1h&limit=1000`)).json().data;
    expect(whole.candles).toHaveLength(5);
    expect(whole.previousTo).toBeNull();
    expect(whole.nextFrom).toBeNull();
    const forward: unknown[] = [];
    let from: number | null = 0;
    while (from !== null) {
      const page: { candles: unknown[]; nextFrom: number | null } = (
        await v1(`/api/v1/companies/${slugA}/token/candles?interval=1h&limit=1&from=${from}`)
      ).json().data;
      forward.push(...page.candles);
      from = page.nextFrom;
    }
    expect(forward).toEqual(whole.candles);
    const back: unknown[] = [];
    let to: number | null | undefined;
    do {
      const page: { candles: unknown[]; previousTo: number | null } = (
        await v1(`/api/v1/companies/${slugA}/token/candles?interval=1h&limit=2${to ? `&to=${to}` : ''}`)
      ).json().data;
      back.unshift(...page.candles);
      to = page.previousTo;
    } while (to !== null);
    expect(back).toEqual(whole.candles);
    // `to` is exclusive: the second candle's start leaves only the first; from and to together make a window.
    const [first, second, third] = whole.candles as { time: number }[];
    const before = (await v1(`/api/v1/companies/${slugA}/token/candles?interval=1h&to=${second!.time}`)).json().data;
    expect(before.candles).toEqual([first]);
    const window = (
      await v1(`/api/v1/companies/${slugA}/token/candles?interval=1h&from=${second!.time}&to=${third!.time + 1}`)
    ).json().data;
    expect(window.candles).toEqual([second, third]);
    // A `from` inside a bucket starts at the next one.
    const inside = (await v1(`/api/v1/companies/${slugA}/token/candles?interval=1h&from=${first!.time + 1}`)).json()
      .data;
    expect(inside.candles[0]).toEqual(second);
    for (const q of ['from=-1', 'to=-1', 'limit=0', 'limit=1001', 'from=1.5']) {
      expect((await v1(`/api/v1/companies/${slugA}/token/candles?interval=1h&${q}`)).statusCode, q).toBe(400);
    }
  });

  it('gives full-precision prices beside the 6-decimal ones, from the trades', async () => {
    const { candles } = (await v1(`/api/v1/companies/${slugA}/token/candles?interval=1h`)).json().data;
    const trades = ((await v1(`/api/v1/trades?limit=100&order=asc&company=${slugA}`)).json().data as Row[]).map(
      (r) => r.priceExact,
    );
    expect(candles.map((c: { openExact: string }) => c.openExact)).toEqual(trades);
    for (const c of candles) {
      for (const [rounded, exact] of [
        [c.open, c.openExact],
        [c.high, c.highExact],
        [c.low, c.lowExact],
        [c.close, c.closeExact],
      ]) {
        expect(parseUnits(exact, 18) / 10n ** 12n).toBe(parseUnits(rounded, 6));
      }
      expect(formatUnits(BigInt(c.volumeUsdcRaw), 6)).toBe(c.volumeUsdc);
    }
  });
});
