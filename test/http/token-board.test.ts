// The token board's market fields (docs/api/tokens.md "Market fields") on GET /api/tokens and GET /api/v1/tokens, on
// a real chain: the 24-hour window by the chain's clock (a trade 25 hours old counts only as the reference price),
// buys and sells, high and low, the change, liquidity on the curve and in the pool, FDV, supply, holders and age; the
// same item on both routes; and the plans of the list's reads use indexes.

import { TokenLauncherAbi } from '@ai-economy/shared/abis';
import { eq } from 'drizzle-orm';
import { type Address, formatUnits } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.ts';
import { companies } from '../../src/db/schema/companies.ts';
import { tokenTrades } from '../../src/db/schema/tokens.ts';
import { createApiKey } from '../../src/domain/auth/api-keys.ts';
import { executionPrice } from '../../src/domain/tokens/prices.ts';
import { useTestApp } from '../helpers/app.ts';
import { scoreFixtures, USDC } from '../helpers/scores.ts';
import { tokenTrading } from '../helpers/trading.ts';
import { treasuryHelpers } from '../helpers/treasuries.ts';

const t = useTestApp();
const f = scoreFixtures(t);
const trading = tokenTrading(t);
const tr = treasuryHelpers(t);
let apiKey: string;
let token: Address;
const HOUR = 3600;

const client = () => t.chain.chain.publicClient;
const chainNow = async () => Number((await client().getBlock()).timestamp);
const board = async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/tokens' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const itemOf = async (id: string) => (await board()).data.find((d: { id: string }) => d.id === id);
const curveOf = (address: Address) =>
  client().readContract({
    address: t.chain.chain.contracts.tokenLauncher!,
    abi: TokenLauncherAbi,
    functionName: 'curveOf',
    args: [address],
  });
const usdcText = (amount: bigint) => formatUnits(amount, 6);

beforeAll(async () => {
  apiKey = (await createApiKey(t.database.db, 'board')).key;
  await f.company('board-a', { logoUrl: 'https://example.com/a.png' });
  token = await trading.launch('board-a', 'BRDA');
});

describe('the market fields of the token lists', () => {
  it('counts the last 24 hours of the chain clock, measures the change from the trade before them', async () => {
    const start = await chainNow();
    await tr.at(start + 10);
    await trading.buy(2, token, 40n * USDC); // the reference: 25 hours before the rest
    await tr.at(start + 25 * HOUR);
    await trading.buy(3, token, 100n * USDC);
    await trading.sell(2, token, (await trading.balanceOf(2, token)) / 2n);
    await trading.buy(4, token, 10n * USDC);
    await trading.index();

    const rows = await t.database.db
      .select()
      .from(tokenTrades)
      .where(eq(tokenTrades.companyId, 'board-a'))
      .orderBy(tokenTrades.blockNumber, tokenTrades.logIndex);
    expect(rows).toHaveLength(4);
    const prices = rows.map((r) => executionPrice(r.usdcAmount, r.tokenAmount));
    const window = prices.slice(1);
    const [company] = await t.database.db.select().from(companies).where(eq(companies.id, 'board-a'));
    const item = await itemOf('board-a');
    const curve = await curveOf(token);
    const now = await chainNow();

    expect(item.buys24h).toBe(2);
    expect(item.sells24h).toBe(1);
    expect(item.volume24h).toBe(usdcText(rows.slice(1).reduce((sum, r) => sum + r.usdcAmount, 0n)));
    expect(item.high24h).toBe(usdcText(window.reduce((a, b) => (a > b ? a : b))));
    expect(item.low24h).toBe(usdcText(window.reduce((a, b) => (a < b ? a : b))));
    // From the trade before the window (40 USDC's price) to the last one.
    expect(item.priceChange24h).toBe(Number(((prices[3]! - prices[0]!) * 10_000n) / prices[0]!) / 100);
    expect(item.lastTradeAt).toBe(rows[3]!.blockTime.toISOString());
    // Liquidity on the curve is the USDC it holds for the token; FDV is price times supply.
    expect(item.liquidity).toBe(usdcText(curve.realUsdc));
    expect(item.price).toBe(usdcText(company!.tokenPrice!));
    expect(item.fdv).toBe(usdcText((company!.tokenPrice! * 10n ** 24n) / 10n ** 18n));
    expect(item.totalSupply).toBe((10n ** 24n).toString());
    // The launcher, account 2 (half sold), 3 and 4.
    expect(item.holderCount).toBe(4);
    expect(item.logoUrl).toBe('https://example.com/a.png');
    // The chain's clock: the latest block's time, or the pending block's when later (a second at most here).
    const age = now - company!.tokenPublicAt!.getTime() / 1000;
    expect(item.ageSeconds).toBeGreaterThanOrEqual(age);
    expect(item.ageSeconds).toBeLessThanOrEqual(age + 1);
    expect(item.graduationProgress).toBeGreaterThan(0);

    // The v1 list carries the same item, and the v1 detail the same market fields.
    const v1 = await t.app.inject({ method: 'GET', url: '/api/v1/tokens', headers: { 'x-api-key': apiKey } });
    expect(v1.json().data.find((d: { id: string }) => d.id === 'board-a')).toEqual(item);
    const detail = (
      await t.app.inject({ method: 'GET', url: '/api/v1/companies/board-a/token', headers: { 'x-api-key': apiKey } })
    ).json().data;
    const { id: _id, name: _n, slug: _s, tokenStatus: _ts, tokenSymbol: _sy, tokenAddress: _ta, ...market } = item;
    for (const key of ['bondingCurveAddress', 'graduationThreshold', 'graduatedAt', 'v4PoolAddress']) {
      delete (market as Record<string, unknown>)[key];
    }
    for (const key of ['platformScore', 'category', 'publicAt']) delete (market as Record<string, unknown>)[key];
    expect(detail).toMatchObject(market);

    // A day later with no trade: nothing in the window, the change 0 (the price stood still), the last trade kept.
    await tr.at(now + 25 * HOUR);
    await new Promise((resolve) => setTimeout(resolve, 5_100)); // the chain clock of the lists is reused 5 s
    const later = await itemOf('board-a');
    expect([later.buys24h, later.sells24h, later.volume24h, later.high24h, later.low24h]).toEqual([
      0,
      0,
      '0',
      null,
      null,
    ]);
    expect(later.priceChange24h).toBe(0);
    expect(later.lastTradeAt).toBe(rows[3]!.blockTime.toISOString());
  });

  it("shows a change to a page's rows in the next read, though the rows are kept beside the cache", async () => {
    expect((await itemOf('board-a')).logoUrl).toBe('https://example.com/a.png');
    await t.database.db
      .update(companies)
      .set({ logoUrl: 'https://example.com/a2.png' })
      .where(eq(companies.id, 'board-a'));
    expect((await itemOf('board-a')).logoUrl).toBe('https://example.com/a2.png');
    const v1 = await t.app.inject({ method: 'GET', url: '/api/v1/tokens', headers: { 'x-api-key': apiKey } });
    expect(v1.json().data.find((d: { id: string }) => d.id === 'board-a').logoUrl).toBe('https://example.com/a2.png');
    await t.database.db
      .update(companies)
      .set({ logoUrl: 'https://example.com/a.png' })
      .where(eq(companies.id, 'board-a'));
  });

  it('measures a graduated token by its pool: liquidity twice its tokens in the PoolManager at the price', async () => {
    const rest = async () => {
      const curve = await curveOf(token);
      return curve.graduationVirtualUsdc - curve.virtualUsdc;
    };
    await trading.buy(5, token, (await rest()) * 2n);
    await trading.index();
    const item = await itemOf('board-a');
    expect(item.tokenStatus).toBe('GRADUATED');
    const [company] = await t.database.db.select().from(companies).where(eq(companies.id, 'board-a'));
    expect(item.poolId).toBe(company!.tokenPoolId);
    expect(item.v4PoolAddress).toBe(company!.tokenPoolId);
    const poolTokens = await client().readContract({
      address: token,
      abi: [
        {
          type: 'function',
          name: 'balanceOf',
          stateMutability: 'view',
          inputs: [{ type: 'address' }],
          outputs: [{ type: 'uint256' }],
        },
      ] as const,
      functionName: 'balanceOf',
      args: [t.chain.chain.contracts.poolManager!],
    });
    expect(poolTokens).toBeGreaterThan(0n);
    expect(item.liquidity).toBe(usdcText((2n * poolTokens * company!.tokenPrice!) / 10n ** 18n));
    expect(item.graduationProgress).toBe(100);
    // The graduation burned what the pool could not take: the supply and FDV follow.
    const supply = BigInt(item.totalSupply);
    expect(supply).toBeLessThanOrEqual(10n ** 24n);
    expect(item.fdv).toBe(usdcText((company!.tokenPrice! * supply) / 10n ** 18n));
  });

  it('pages by cursor without repeat or gap while tokens launch, with a Link header to the next page', async () => {
    await f.company('board-b');
    await trading.launch('board-b', 'BRDB');
    await f.company('board-c');
    await trading.launch('board-c', 'BRDC');
    const v1 = (url: string) => t.app.inject({ method: 'GET', url, headers: { 'x-api-key': apiKey } });
    const before = (await v1('/api/v1/tokens?limit=100')).json().data.map((d: { id: string }) => d.id);
    expect(before).toEqual(['board-c', 'board-b', 'board-a']);

    const first = await v1('/api/v1/tokens?limit=1&page=1');
    expect(first.json().data.map((d: { id: string }) => d.id)).toEqual(['board-c']);
    const { nextCursor, hasMore } = first.json().pagination;
    expect(hasMore).toBe(true);
    expect(first.headers.link).toBe(`</api/v1/tokens?limit=1&cursor=${nextCursor}>; rel="next"`);
    // A launch between the pages: with `page=2` the list would shift and repeat board-c; the cursor does not.
    await f.company('board-d');
    await trading.launch('board-d', 'BRDD');
    const seen = ['board-c'];
    let link = first.headers.link as string | undefined;
    while (link) {
      const res = await v1(/<([^>]+)>/.exec(link)![1]!);
      expect(res.statusCode).toBe(200);
      seen.push(...res.json().data.map((d: { id: string }) => d.id));
      link = res.headers.link as string | undefined;
      if (!link) expect(res.json().pagination).toMatchObject({ hasMore: false, nextCursor: null });
    }
    expect(seen).toEqual(before);
    // A page after a cursor that is not full still says the whole list's total, not the 2 rows after the cursor:
    // 4, or the 3 counted before board-d launched (a count is kept up to 3 s, docs/api/agents.md).
    const tail = await v1(`/api/v1/tokens?limit=100&cursor=${nextCursor}`);
    expect(tail.json().data.map((d: { id: string }) => d.id)).toEqual(['board-b', 'board-a']);
    expect([3, 4]).toContain(tail.json().pagination.total);
    // The same on the internal board; the page after the cursor with page=2 is the one after that.
    const board1 = await t.app.inject({ method: 'GET', url: `/api/tokens?limit=1&cursor=${nextCursor}` });
    expect(board1.json().data.map((d: { id: string }) => d.id)).toEqual(['board-b']);
    expect(board1.headers.link).toMatch(/^<\/api\/tokens\?limit=1&cursor=[A-Za-z0-9_-]+>; rel="next"$/);
    const board2 = await t.app.inject({ method: 'GET', url: `/api/tokens?limit=1&page=2&cursor=${nextCursor}` });
    expect(board2.json().data.map((d: { id: string }) => d.id)).toEqual(['board-a']);
    // A cursor that no page gave: 400 naming it.
    for (const bad of [
      'abc',
      Buffer.from('["x"]').toString('base64url'),
      Buffer.from('["nope","x"]').toString('base64url'),
      '%%%',
    ]) {
      const res = await v1(`/api/v1/tokens?cursor=${bad}`);
      expect(res.statusCode).toBe(400);
      expect(JSON.stringify(res.json().error)).toContain('query.cursor');
    }
  });

  it('serves candles, trades and score history under /api/v1 with a key: the internal data, the v1 envelope', async () => {
    for (const [v1Path, internalPath] of [
      ['/api/v1/companies/board-a/token/candles?interval=1h', '/api/companies/board-a/token/candles?interval=1h'],
      ['/api/v1/companies/board-a/token/trades?limit=2&page=2', '/api/companies/board-a/token/trades?limit=2&page=2'],
      ['/api/v1/companies/board-a/scores', '/api/companies/board-a/scores'],
    ] as const) {
      const v1 = await t.app.inject({ method: 'GET', url: v1Path, headers: { 'x-api-key': apiKey } });
      expect(v1.statusCode, v1.body).toBe(200);
      const internal = (await t.app.inject({ method: 'GET', url: internalPath })).json();
      // A trades page also has `pagination` beside `data`, where the other v1 lists have it.
      const paged = v1Path.includes('/trades') ? { pagination: internal.data.pagination } : {};
      expect(v1.json()).toEqual({ data: internal.data, ...paged, meta: { timestamp: expect.any(String) } });
      const keyless = await t.app.inject({ method: 'GET', url: v1Path });
      expect(keyless.statusCode).toBe(401);
      expect(keyless.json().error.code).toBe('UNAUTHORIZED');
      // A 401 says how to authenticate (RFC 9110 11.6.1), for a missing key and for a wrong one.
      expect(keyless.headers['www-authenticate']).toBe('ApiKey realm="ai-economy", header="x-api-key"');
      const wrong = await t.app.inject({ method: 'GET', url: v1Path, headers: { 'x-api-key': 'nope' } });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.headers['www-authenticate']).toBe('ApiKey realm="ai-economy", header="x-api-key"');
    }
    const trades = (
      await t.app.inject({
        method: 'GET',
        url: '/api/v1/companies/board-a/token/trades',
        headers: { 'x-api-key': apiKey },
      })
    ).json().data;
    expect(trades.trades.length).toBeGreaterThanOrEqual(5);
    const missing = await t.app.inject({
      method: 'GET',
      url: '/api/v1/companies/nobody/token/candles?interval=1d',
      headers: { 'x-api-key': apiKey },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().meta.timestamp).toEqual(expect.any(String));
    // Where the key may come in the query too, the challenge says so; an authorised answer has no challenge.
    const fortune = await t.app.inject({ method: 'GET', url: '/api/v1/fortune' });
    expect(fortune.headers['www-authenticate']).toBe('ApiKey realm="ai-economy", header="x-api-key", query="api_key"');
    expect(missing.headers['www-authenticate']).toBeUndefined();
  });

  it('reads the page, its market and its holders through indexes', async () => {
    const db = t.database.db;
    await db.execute('set enable_seqscan = off');
    try {
      const plan = async (query: string) =>
        rowsOf<{ 'QUERY PLAN': string }>(await db.execute(`explain ${query}`))
          .map((r) => r['QUERY PLAN'])
          .join('\n');
      const market = await plan(`
        select c.id, w.n, b.p from unnest(array['board-a']) as c (id)
        cross join lateral (select count(*) as n from token_trades where company_id = c.id and block_time >= now()) w
        left join lateral (select usdc_amount as p from token_trades where company_id = c.id and block_time < now()
          order by block_time desc limit 1) b on true`);
      // An index of the company's trades (by time, or by block: the planner picks by the table's statistics).
      expect(market).toMatch(/token_trades_company_(time|block)_idx/);
      expect(market).not.toMatch(/Seq Scan on token_trades/);
      const page = await plan(`
        select c.id, h.holders, p.balance from companies c
        left join token_holder_counts h on h.token_address = c.token_address
        left join token_balances p on p.token_address = c.token_address and p.holder = '0x0'
        where c.token_status <> 'PRE_PUBLIC' order by c.token_public_at desc, c.id desc limit 50`);
      // Either list index of the launched tokens (the planner picks by the table's statistics), never a scan.
      expect(page).toMatch(/companies_token(_status)?_list_idx/);
      expect(page).not.toMatch(/Seq Scan on companies/);
      expect(page).not.toMatch(/Seq Scan on (token_holder_counts|token_balances)/);
    } finally {
      await db.execute('reset enable_seqscan');
    }
  });
});
