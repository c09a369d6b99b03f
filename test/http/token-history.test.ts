// The routes the web app's pages read: a token's candles by interval and its trades, paged, from the indexed trades,
// and a company's score history; each bound just inside and just outside.
import { formatUnits, parseUnits } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { readMarket } from '../../src/chain/contracts/launcher.ts';
import { followStream } from '../../src/chain/streams.ts';
import { createApiKey } from '../../src/domain/auth/api-keys.ts';
import { takeScoreSnapshot } from '../../src/domain/scores/snapshot.ts';
import { companyTokens } from '../../src/domain/tokens/company-tokens.stream.ts';
import { VOLUMES_REUSE_MS } from '../../src/domain/tokens/queries.ts';
import { useTestApp } from '../helpers/app.ts';
import { anvilTestClient } from '../helpers/chain.ts';
import { staffedCompany } from '../helpers/companies.ts';
import { tokenTrading } from '../helpers/trading.ts';

const t = useTestApp();
const trading = tokenTrading(t);
const USDC = 1_000_000n;
let companyId: string;
let day: string;
const get = (url: string) => t.app.inject({ method: 'GET', url });

beforeAll(async () => {
  const co = await staffedCompany(t, 1, { name: 'History Co' });
  companyId = co.id;
  const token = await trading.launch(companyId, 'HIST', 1);
  day = await trading.startTradingDay();
  await trading.buy(2, token, 100n * USDC);
  await trading.buy(3, token, 300n * USDC);
  await trading.sell(2, token, (await trading.balanceOf(2, token)) / 2n);
  await trading.index();
});

describe('GET /api/companies/{id}/token/candles', () => {
  it('builds one candle of the day from the trades: open, high, low, close and volume', async () => {
    const trades = (await get(`/api/companies/${companyId}/token/trades`)).json().data.trades.reverse();
    expect(trades).toHaveLength(3);
    const res = await get(`/api/companies/${companyId}/token/candles?interval=1d`);
    expect(res.statusCode).toBe(200);
    const { candles } = res.json().data;
    expect(candles).toHaveLength(1);
    const prices = trades.map((x: { price: string }) => Number(x.price));
    expect(candles[0]).toMatchObject({
      time: Date.parse(`${day}T00:00:00Z`) / 1000 - 86_400,
      open: trades[0].price,
      close: trades[2].price,
      high: String(Math.max(...prices)),
      low: String(Math.min(...prices)),
      trades: 3,
    });
    const volume = trades.reduce((s: bigint, x: { usdcAmount: string }) => s + parseUnits(x.usdcAmount, 6), 0n);
    expect(parseUnits(candles[0].volumeUsdc, 6)).toBe(volume);
    // Minute candles: the three trades fall in one or more minutes, whose counts add up.
    const minutes = (await get(`/api/companies/${companyId}/token/candles?interval=1m`)).json().data.candles;
    expect(minutes.reduce((n: number, c: { trades: number }) => n + c.trades, 0)).toBe(3);
  });

  it('takes the interval and limit within their bounds', async () => {
    for (const [query, status] of [
      ['interval=1h&limit=1', 200],
      ['interval=1h&limit=1000', 200],
      ['interval=1h&limit=0', 400],
      ['interval=1h&limit=1001', 400],
      ['interval=5m', 200],
      ['interval=2h', 400],
      ['', 400],
    ] as const) {
      expect((await get(`/api/companies/${companyId}/token/candles?${query}`)).statusCode, query).toBe(status);
    }
    expect((await get('/api/companies/nope/token/candles?interval=1d')).statusCode).toBe(404);
  });
});

describe('GET /api/companies/{id}/token/trades', () => {
  it('pages the trades newest first', async () => {
    const first = (await get(`/api/companies/${companyId}/token/trades?limit=2`)).json().data;
    expect(first.trades.map((x: { side: string }) => x.side)).toEqual(['sell', 'buy']);
    expect(first.pagination).toEqual({ page: 1, limit: 2, total: 3, hasMore: true, nextCursor: expect.any(String) });
    const second = (await get(`/api/companies/${companyId}/token/trades?limit=2&page=2`)).json().data;
    expect(second.trades).toHaveLength(1);
    expect(second.pagination.hasMore).toBe(false);
    expect((await get(`/api/companies/${companyId}/token/trades?limit=101`)).statusCode).toBe(400);
    expect((await get(`/api/companies/${companyId}/token/trades?page=0`)).statusCode).toBe(400);
  });

  it('says where each trade is on the chain, in chain order, and whether its block is finalized yet', async () => {
    const { trades } = (await get(`/api/companies/${companyId}/token/trades`)).json().data;
    const client = t.chain.chain.publicClient;
    for (const trade of trades) {
      const receipt = await client.getTransactionReceipt({ hash: trade.transactionHash });
      expect(trade.txHash).toBe(trade.transactionHash);
      expect(trade.blockNumber).toBe(Number(receipt.blockNumber));
      expect(trade.blockHash).toBe(receipt.blockHash.toLowerCase());
      expect(receipt.logs.some((l) => l.logIndex === trade.logIndex)).toBe(true);
    }
    const order = trades.map((x: { blockNumber: number; logIndex: number }) => x.blockNumber * 1e4 + x.logIndex);
    expect(order).toEqual([...order].sort((a, b) => b - a));
    // Indexed at the head: within the chain's finality depth, a reorg can still take them.
    expect(trades.map((x: { finalized: boolean }) => x.finalized)).toEqual([false, false, false]);
    await anvilTestClient(t.chain.node.rpcUrl).mine({ blocks: 20 });
    // The token stream reads the new blocks, the trades' now 20 under the head, with a finality depth of 12.
    const follower = followStream(t.container, companyTokens, { confirmations: 0, finality: { depth: 12 } })!;
    while (!(await follower.pollOnce()).caughtUp);
    const after = (await get(`/api/companies/${companyId}/token/trades`)).json().data.trades;
    expect(after.map((x: { finalized: boolean }) => x.finalized)).toEqual([true, true, true]);
  });
});

describe('GET /api/companies/{id}/scores', () => {
  it("answers the company's snapshots newest first", async () => {
    expect((await get(`/api/companies/${companyId}/scores`)).json().data.snapshots).toEqual([]);
    await takeScoreSnapshot(t.container, t.database.db, day);
    const { snapshots } = (await get(`/api/companies/${companyId}/scores?limit=1`)).json().data;
    expect(snapshots).toHaveLength(1);
    expect(snapshots[0]).toMatchObject({ date: day, rank: expect.any(Number), overall: expect.any(Number) });
    expect(snapshots[0].completenessScore).toBeGreaterThan(0);
    expect((await get(`/api/companies/${companyId}/scores?limit=0`)).statusCode).toBe(400);
    expect((await get(`/api/companies/${companyId}/scores?limit=367`)).statusCode).toBe(400);
  });
});

describe('GET /api/v1/tokens: price, market cap and 24-hour volume from indexed data', () => {
  it("gives each token the price its latest indexed trade left, on the curve and in the v4 pool, with the day's volume", async () => {
    const key = (await createApiKey(t.database.db, 'history')).key;
    const list = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/v1/tokens', headers: { 'x-api-key': key } })).json().data as {
        slug: string;
        price: string | null;
        marketCap: string | null;
        volume24h: string;
      }[];
    // A second token graduates, then trades in its pool; the list is read after all the trading.
    const other = await staffedCompany(t, 4, { name: 'Pool Price Co' });
    const pooled = await trading.launch(other.id, 'POOL', 4);
    await trading.buy(5, pooled, 20_000n * USDC);
    await trading.buy(6, pooled, 50n * USDC);
    await trading.index();
    const items = await list();
    const item = (id: string) => items.find((x) => x.slug === id)!;
    const co = (await t.app.inject({ method: 'GET', url: `/api/companies/${companyId}` })).json().data;
    const poolCo = (await t.app.inject({ method: 'GET', url: `/api/companies/${other.id}` })).json().data;

    // On the curve: exactly the launcher's price and market cap at the latest block, and the day's volume.
    const onCurve = await readMarket(t.chain.chain, co.tokenAddress);
    expect(item(co.slug)).toMatchObject({
      price: formatUnits(onCurve.price, 6),
      marketCap: formatUnits(onCurve.marketCap, 6),
    });
    const trades = (await get(`/api/companies/${companyId}/token/trades`)).json().data.trades;
    const volume = trades.reduce((s: bigint, x: { usdcAmount: string }) => s + parseUnits(x.usdcAmount, 6), 0n);
    expect(parseUnits(item(co.slug).volume24h, 6)).toBe(volume);

    // In the pool: the pool's price.
    const inPool = await readMarket(t.chain.chain, pooled);
    expect(item(poolCo.slug)).toMatchObject({
      price: formatUnits(inPool.price, 6),
      marketCap: formatUnits(inPool.marketCap, 6),
    });
    expect(parseUnits(item(poolCo.slug).volume24h, 6)).toBe(20_050n * USDC);
  });

  it("counts the 24 hours before the chain's clock, not the server's: a day later on the chain, no volume", async () => {
    const key = (await createApiKey(t.database.db, 'history-clock')).key;
    const slug = (await get(`/api/companies/${companyId}`)).json().data.slug as string;
    const volumeOf = async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/tokens', headers: { 'x-api-key': key } });
      const items = res.json().data as { slug: string; volume24h: string }[];
      return items.find((x) => x.slug === slug)?.volume24h;
    };
    expect(Number(await volumeOf())).toBeGreaterThan(0);
    // 25 hours pass on the chain (a block stamps them); the server's clock barely moves. The window's end and the
    // page are reused for up to 5 s.
    const client = t.chain.chain.publicClient;
    await client.request({ method: 'evm_increaseTime' as never, params: [25 * 3600] as never });
    await client.request({ method: 'evm_mine' as never, params: [] as never });
    await new Promise((resolve) => setTimeout(resolve, VOLUMES_REUSE_MS + 100));
    expect(await volumeOf()).toBe('0');
  });
});

describe('GET /api/companies/{id}/token/position/{wallet}', () => {
  it("gives a wallet's position at average cost: half of account 2's buy sold, account 3's whole buy held", async () => {
    const trades = (await get(`/api/companies/${companyId}/token/trades`)).json().data.trades;
    const buyOf = (account: number) =>
      trades.find(
        (x: { side: string; trader: string }) => x.side === 'buy' && x.trader === devAccount(account).address,
      );
    const three = (await get(`/api/companies/${companyId}/token/position/${devAccount(3).address}`)).json().data;
    expect(three).toMatchObject({
      wallet: devAccount(3).address,
      quantity: buyOf(3).tokenAmount,
      costUsdc: buyOf(3).usdcAmount,
      realizedPnlUsdc: '0',
    });
    // USDC per whole token, rounded down to the micro-USDC.
    const expected = (parseUnits(buyOf(3).usdcAmount, 6) * 10n ** 18n) / parseUnits(buyOf(3).tokenAmount, 18);
    expect(parseUnits(three.averageCostUsdc, 6)).toBe(expected);

    // Account 2 sold half its tokens after account 3's buy lifted the price: half the cost left, at the same
    // average, and the sale realised its proceeds less the sold half's cost.
    const two = (await get(`/api/companies/${companyId}/token/position/${devAccount(2).address.toLowerCase()}`)).json()
      .data;
    const bought = parseUnits(buyOf(2).tokenAmount, 18);
    const cost = parseUnits(buyOf(2).usdcAmount, 6);
    const sale = trades.find((x: { side: string }) => x.side === 'sell');
    const soldTokens = parseUnits(sale.tokenAmount, 18);
    expect(parseUnits(two.quantity, 18)).toBe(bought - soldTokens);
    expect(parseUnits(two.costUsdc, 6)).toBe(cost - (cost * soldTokens) / bought);
    expect(parseUnits(two.realizedPnlUsdc, 6)).toBe(parseUnits(sale.usdcAmount, 6) - (cost * soldTokens) / bought);
  });

  it('gives zeros to a wallet that never traded, 400 for a bad wallet and 404 for an unknown company', async () => {
    const none = await get(`/api/companies/${companyId}/token/position/${devAccount(7).address}`);
    expect(none.statusCode).toBe(200);
    expect(none.json().data).toMatchObject({
      quantity: '0',
      costUsdc: '0',
      averageCostUsdc: '0',
      realizedPnlUsdc: '0',
    });
    const mixed = devAccount(7).address.replace(/[a-f]/, (c) => c.toUpperCase());
    for (const bad of ['0x123', mixed, `${devAccount(7).address}0`]) {
      const res = await get(`/api/companies/${companyId}/token/position/${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().error.code).toBe('BAD_REQUEST');
    }
    expect((await get(`/api/companies/nope/token/position/${devAccount(7).address}`)).statusCode).toBe(404);
  });
});
