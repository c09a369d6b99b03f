// The reads that were only internal, under /api/v1 with a key: a quote that the trade then gets exactly, a wallet's
// position and PnL, a company's detail and decisions, the epochs and staking, each the internal twin's data in the v1
// envelope; bounds just inside and outside, and 401 without a key.
import { formatUnits } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { createApiKey } from '../../src/domain/auth/api-keys.ts';
import { useTestApp } from '../helpers/app.ts';
import { staffedCompany } from '../helpers/companies.ts';
import { tokenTrading } from '../helpers/trading.ts';

const t = useTestApp();
const trading = tokenTrading(t);
const USDC = 1_000_000n;
let key: string;
let slug: string;
let companyId: string;
let token: `0x${string}`;

const v1 = (url: string, apiKey: string | null = key) =>
  t.app.inject({ method: 'GET', url, headers: apiKey ? { 'x-api-key': apiKey } : {} });
const internal = async (url: string) => (await t.app.inject({ method: 'GET', url })).json();

beforeAll(async () => {
  key = (await createApiKey(t.database.db, 'reads-bot')).key;
  const co = await staffedCompany(t, 1, { name: 'Reads Co' });
  companyId = co.id;
  token = await trading.launch(co.id, 'RDS', 1);
  await trading.buy(2, token, 100n * USDC);
  await trading.index();
  slug = (await internal(`/api/companies/${co.id}`)).data.slug;
});

describe('GET /api/v1/companies/{slug}/token/quote', () => {
  it('quotes a buy and a sale that the trades then get exactly, with spot price, impact and fee', async () => {
    const res = await v1(`/api/v1/companies/${slug}/token/quote?side=buy&amount=${50n * USDC}`);
    expect(res.statusCode, res.body).toBe(200);
    const buy = res.json().data;
    expect(buy).toMatchObject({ side: 'buy', venue: 'CURVE', amountIn: '50', amountInRaw: String(50n * USDC) });
    expect(buy.feeBps).toBe(100);
    expect(buy.priceImpactPercent).toBeGreaterThan(0);
    const before = await trading.balanceOf(3, token);
    await trading.buy(3, token, 50n * USDC);
    expect((await trading.balanceOf(3, token)) - before).toBe(BigInt(buy.amountOutRaw));
    expect(formatUnits(BigInt(buy.amountOutRaw), 18)).toBe(buy.amountOut);

    const tokens = await trading.balanceOf(3, token);
    const sale = (await v1(`/api/v1/companies/${slug}/token/quote?side=sell&amount=${tokens}`)).json().data;
    expect(sale.priceImpactPercent).toBeGreaterThan(0);
    const usdcBefore = await trading.usdcOf(devAccount(3).address);
    await trading.sell(3, token, tokens);
    expect((await trading.usdcOf(devAccount(3).address)) - usdcBefore).toBe(BigInt(sale.amountOutRaw));
    // A bigger buy moves the price more.
    const small = (await v1(`/api/v1/companies/${slug}/token/quote?side=buy&amount=1`)).json().data;
    const big = (await v1(`/api/v1/companies/${slug}/token/quote?side=buy&amount=${1000n * USDC}`)).json().data;
    expect(big.priceImpactPercent).toBeGreaterThan(small.priceImpactPercent ?? 0);
  });

  it('answers 400 just outside each bound, 404 without a token, 401 without a key', async () => {
    const ok = await v1(`/api/v1/companies/${slug}/token/quote?side=sell&amount=${'9'.repeat(60)}`);
    expect(ok.statusCode, ok.body).toBe(200);
    const started = performance.now();
    const hugeBuy = await v1(`/api/v1/companies/${slug}/token/quote?side=buy&amount=${'9'.repeat(60)}`);
    console.log('HUGE BUY ms', performance.now() - started);
    expect(hugeBuy.statusCode, hugeBuy.body).toBe(200);
    for (const q of [
      'side=buy&amount=0',
      'side=buy&amount=-1',
      'side=buy&amount=1.5',
      'side=hold&amount=1',
      'side=buy',
      `side=buy&amount=1${'0'.repeat(60)}`,
    ]) {
      const res = await v1(`/api/v1/companies/${slug}/token/quote?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
    const bare = await staffedCompany(t, 5, { name: 'No Token Co' });
    expect((await v1(`/api/v1/companies/${bare.id}/token/quote?side=buy&amount=1`)).statusCode).toBe(404);
    expect((await v1('/api/v1/companies/nobody/token/quote?side=buy&amount=1')).statusCode).toBe(404);
    expect((await v1(`/api/v1/companies/${slug}/token/quote?side=buy&amount=1`, null)).statusCode).toBe(401);
  });
});

describe('the internal reads under /api/v1', () => {
  it('answers each internal twin’s data in the v1 envelope, by slug or id', async () => {
    const wallet = devAccount(2).address;
    for (const [v1Path, internalPath] of [
      [`/api/v1/companies/${slug}/decisions`, `/api/companies/${companyId}/decisions`],
      [`/api/v1/companies/${companyId}/decisions`, `/api/companies/${companyId}/decisions`],
      [`/api/v1/companies/${slug}/token/position/${wallet}`, `/api/companies/${companyId}/token/position/${wallet}`],
      [`/api/v1/wallets/${wallet.toLowerCase()}/trades?limit=5`, `/api/wallets/${wallet}/trades?limit=5`],
      [`/api/v1/companies/${slug}/rewards`, `/api/epochs/claimable/${companyId}`],
      ['/api/v1/epochs/current', '/api/epochs/current'],
      ['/api/v1/staking/stats', '/api/staking/stats'],
      [`/api/v1/staking/position/${wallet}`, `/api/staking/position/${wallet}`],
    ] as const) {
      const res = await v1(v1Path);
      expect(res.statusCode, `${v1Path} ${res.body}`).toBe(200);
      expect(res.json(), v1Path).toEqual({
        data: (await internal(internalPath)).data,
        meta: { timestamp: expect.any(String) },
      });
      expect((await v1(v1Path, null)).statusCode, v1Path).toBe(401);
    }
    const detail = await v1(`/api/v1/companies/${slug}`);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json().data).toMatchObject({ id: companyId, slug, agents: expect.any(Array) });
    const position = (await v1(`/api/v1/companies/${slug}/token/position/${wallet}`)).json().data;
    expect(Number(position.quantity)).toBeGreaterThan(0);
  });

  it('answers 404 for what does not exist and 400 for a bad wallet or epoch', async () => {
    for (const path of [
      '/api/v1/companies/nobody',
      '/api/v1/companies/nobody/decisions',
      '/api/v1/companies/nobody/rewards',
      `/api/v1/epochs/0/proof/${slug}`,
    ]) {
      expect((await v1(path)).statusCode, path).toBe(404);
    }
    const mixed = devAccount(2).address.replace(/[a-f]/, (c) => c.toUpperCase());
    for (const path of [
      `/api/v1/staking/position/0x123`,
      `/api/v1/staking/position/${mixed}`,
      `/api/v1/wallets/${mixed}/trades`,
      `/api/v1/companies/${slug}/token/position/0xzz`,
      `/api/v1/epochs/-1/proof/${slug}`,
      `/api/v1/wallets/${devAccount(2).address}/trades?limit=0`,
    ]) {
      const res = await v1(path);
      expect(res.statusCode, path).toBe(400);
    }
  });
});

describe('GET /api/v1/changelog', () => {
  it('serves the repository’s API changelog as Markdown, without a key', async () => {
    const { readFile } = await import('node:fs/promises');
    const res = await v1('/api/v1/changelog', null);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(res.body).toBe(await readFile(new URL('../../docs/api/changelog.md', import.meta.url), 'utf8'));
    expect(res.body).toContain('GET /api/v1/trades');
  });
});
