// Company tokens over HTTP, on anvil with the real Uniswap v4 PoolManager: the launch (creator only, bounds,
// once), the public status in every state with price and market cap read on-chain, the v1 detail and list, the
// indexer turning curve trades, graduation and pool swaps into rows and `trade` events, and launches interrupted
// by a crash before the broadcast and after it.

import { CompanyTokenAbi, TokenLauncherAbi } from '@ai-economy/shared/abis';
import { and, eq, sql } from 'drizzle-orm';
import { type Address, formatUnits, getAddress, zeroAddress } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { companyKey, predictTokenAddress } from '../../src/chain/contracts/launcher.ts';
import { createOutbox } from '../../src/chain/outbox.ts';
import { companies } from '../../src/db/schema/companies.ts';
import { platformEvents } from '../../src/db/schema/events.ts';
import { tokenTrades } from '../../src/db/schema/tokens.ts';
import { createApiKey } from '../../src/domain/auth/api-keys.ts';
import { readEventsByIds } from '../../src/domain/events/store.ts';
import { launchToken, repairTokenLaunches } from '../../src/domain/tokens/launch.ts';
import { useTestApp } from '../helpers/app.ts';
import { companyBody, mintCard, signed } from '../helpers/companies.ts';
import { platformEventCheck } from '../helpers/openapi.ts';
import { runCommonRouteTests } from '../helpers/security.ts';
import { tokenTrading } from '../helpers/trading.ts';

const t = useTestApp();
let apiKey: string;
let creatorCompany: { id: string; slug: string };

const launcher = () => t.chain.chain.contracts.tokenLauncher!;
const client = () => t.chain.chain.publicClient;
const usdc = (whole: number) => BigInt(whole) * 1_000_000n;

async function newCompany(account: number, name: string) {
  await mintCard(t.chain, account);
  const res = await signed(t.app, account, 'POST', '/api/companies', companyBody({ name }));
  expect(res.statusCode).toBe(201);
  const { id, slug } = res.json().data;
  return { id: id as string, slug: slug as string };
}

const launch = (companyId: string, body: unknown, signer = 1) =>
  signed(t.app, signer, 'POST', `/api/companies/${companyId}/token`, body);
const getToken = (idOrSlug: string) => t.app.inject({ method: 'GET', url: `/api/companies/${idOrSlug}/token` });
/** A v1 request with the test's API key, another key, or none (null). */
const v1Get = (url: string, key: string | null = apiKey) =>
  t.app.inject({ method: 'GET', url, headers: key ? { 'x-api-key': key } : {} });

const { buy, sell, index } = tokenTrading(t);

/**
 * The market fields of a launched token before its first indexed trade (and before the holder stream ran): the
 * price and market cap are the curve's opening ones, as the launcher's priceOf reads them.
 */
const untradedMarket = async (token: Address) => {
  const [price, marketCap] = await client().readContract({
    address: launcher(),
    abi: TokenLauncherAbi,
    functionName: 'priceOf',
    args: [token],
  });
  return {
    price: formatUnits(price, 6),
    marketCap: formatUnits(marketCap, 6),
    poolId: null,
    volume24h: '0',
    priceChange24h: null,
    high24h: null,
    low24h: null,
    buys24h: 0,
    sells24h: 0,
    liquidity: '0',
    fdv: formatUnits((price * 10n ** 24n) / 10n ** 18n, 6),
    decimals: 18,
    totalSupply: (10n ** 24n).toString(),
    chainId: 31337,
    quoteToken: { address: t.chain.chain.contracts.usdc, symbol: 'USDC', decimals: 6 },
    logoUrl: null,
    lastTradeAt: null,
    holderCount: 0,
    ageSeconds: expect.any(Number),
    // The curve opens at a quarter of the threshold's market cap (rounded down: 24.99).
    graduationProgress: 24.99,
  };
};

const curveOf = (token: Address) =>
  client().readContract({ address: launcher(), abi: TokenLauncherAbi, functionName: 'curveOf', args: [token] });

/** The `trade` events of one kind (`trade`: buys and sells; `launch`; `graduation`). */
const tradeEvents = (companyId: string, kind = 'trade') =>
  t.database.db
    .select()
    .from(platformEvents)
    .where(
      and(
        eq(platformEvents.companyId, companyId),
        eq(platformEvents.type, 'trade'),
        sql`${platformEvents.data}->>'kind' = ${kind}`,
      ),
    )
    .orderBy(platformEvents.id);
/** An event row as the stream sends it (read back through the store, which joins the slug), checked by the document. */
const checkEvent = async (e: typeof platformEvents.$inferSelect) => {
  const [read] = await readEventsByIds(t.database.db, [e.id]);
  expect(read!.companySlug).toBe(creatorCompany.slug);
  return platformEventCheck(t.app)(read);
};
/** Where a transaction's log of `address` is: what every trade event carries. */
async function placeOf(hash: `0x${string}`, address: Address) {
  const receipt = await client().getTransactionReceipt({ hash });
  const block = await client().getBlock({ blockNumber: receipt.blockNumber });
  const log = receipt.logs.find((l) => l.address.toLowerCase() === address.toLowerCase())!;
  return {
    txHash: hash,
    logIndex: log.logIndex,
    blockNumber: Number(receipt.blockNumber),
    blockTime: new Date(Number(block.timestamp) * 1000).toISOString(),
    // The names REST uses for the same values (docs/api/README.md "Names and units").
    time: new Date(Number(block.timestamp) * 1000).toISOString(),
    transactionHash: hash,
  };
}

beforeAll(async () => {
  apiKey = (await createApiKey(t.database.db, 'tokens')).key;
  creatorCompany = await newCompany(1, 'Token Co');
});

describe('GET /api/companies/{id}/token before a launch', () => {
  it('shows the PRE_PUBLIC variant, by slug and by id, with no name, threshold or graduated fields', async () => {
    for (const key of [creatorCompany.slug, creatorCompany.id]) {
      const res = await getToken(key);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        success: true,
        data: {
          slug: creatorCompany.slug,
          status: 'PRE_PUBLIC',
          tokenAddress: null,
          tokenSymbol: null,
          price: null,
          marketCap: null,
          graduationProgress: 0,
          graduatedAt: null,
          v4PoolAddress: null,
        },
      });
    }
  });

  it('answers 404 for an unknown company, and the v1 detail 404 while there is no token', async () => {
    expect((await getToken('nobody')).statusCode).toBe(404);
    const res = await v1Get(`/api/v1/companies/${creatorCompany.slug}/token`);
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('NOT_FOUND');
    expect(res.json().meta.timestamp).toBeTypeOf('string');
  });
});

describe('POST /api/companies/{id}/token: validation', () => {
  it('refuses bad bodies with 400 VALIDATION_ERROR, naming the field, and changes nothing', async () => {
    const bad: unknown[] = [
      {},
      { name: 'Token' },
      { symbol: 'TOK' },
      { name: '', symbol: 'TOK' },
      { name: 'x'.repeat(65), symbol: 'TOK' },
      { name: 'Token', symbol: 'T' },
      { name: 'Token', symbol: 'ABCDEFGHIJK' },
      { name: 'Token', symbol: 'tok' },
      { name: 'Token', symbol: 'TO K' },
      { name: 'Token', symbol: 'TOK', extra: 1 },
      { name: 7, symbol: 'TOK' },
    ];
    for (const body of bad) {
      const res = await launch(creatorCompany.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
    const [row] = await t.database.db.select().from(companies).where(eq(companies.id, creatorCompany.id));
    expect(row!.tokenLaunchRequestedAt).toBeNull();
  });

  it('refuses a name over 64 UTF-8 bytes with 400 BAD_REQUEST, even at 64 characters or fewer', async () => {
    const res = await launch(creatorCompany.id, { name: 'é'.repeat(33), symbol: 'TOK' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('BAD_REQUEST');
  });

  it('answers 403 to anyone but the creator, and 404 for an unknown company', async () => {
    expect((await launch(creatorCompany.id, { name: 'Token', symbol: 'TOK' }, 2)).statusCode).toBe(403);
    expect((await launch('nobody', { name: 'Token', symbol: 'TOK' })).statusCode).toBe(404);
  });

  runCommonRouteTests(
    () => ({ app: t.app, now: Date.now }),
    () => ({
      method: 'POST',
      url: `/api/companies/${creatorCompany.id}/token`,
      body: { name: 'Token', symbol: 'TOK' },
    }),
  );
});

describe('the token lifecycle', () => {
  let token: Address;

  it('launches at the edge of the bounds: 201 BONDING, the company PUBLIC, the token where CREATE2 says', async () => {
    const name = 'n'.repeat(64);
    const res = await launch(creatorCompany.id, { name, symbol: 'TOKEN12345' });
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    token = getAddress(data.tokenAddress);
    expect(token).toBe(predictTokenAddress(launcher(), companyKey(creatorCompany.id), name, 'TOKEN12345'));
    expect(
      await client().readContract({
        address: launcher(),
        abi: TokenLauncherAbi,
        functionName: 'tokenOfCompany',
        args: [companyKey(creatorCompany.id)],
      }),
    ).toBe(token);
    // The curve opens at a quarter of the threshold: 2,500 USDC market cap, 0.0025 USDC a token (rounded down).
    expect(data).toEqual({
      slug: creatorCompany.slug,
      name,
      status: 'BONDING',
      tokenAddress: token,
      tokenSymbol: 'TOKEN12345',
      price: '0.002499',
      marketCap: '2499.999999',
      graduationThreshold: 10000,
      graduationProgress: 24.99,
      graduated: false,
      graduatedAt: null,
      v4PoolAddress: null,
    });
    const company = (await t.app.inject({ method: 'GET', url: `/api/companies/${creatorCompany.id}` })).json().data;
    expect(company.status).toBe('PUBLIC');
    expect(company.tokenStatus).toBe('BONDING');
    expect(company.tokenSymbol).toBe('TOKEN12345');
  });

  it('launches once: a second launch answers 409 CONFLICT and sends nothing', async () => {
    const before = await client().getBlockNumber({ cacheTime: 0 });
    const res = await launch(creatorCompany.id, { name: 'Other', symbol: 'OTHER' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('CONFLICT');
    expect(await client().getBlockNumber({ cacheTime: 0 })).toBe(before);
  });

  it('serves the v1 detail view with the launch transaction', async () => {
    const res = await v1Get(`/api/v1/companies/${creatorCompany.slug}/token`);
    expect(res.statusCode).toBe(200);
    const [row] = await t.database.db.select().from(companies).where(eq(companies.id, creatorCompany.id));
    const receipt = await client().getTransactionReceipt({ hash: row!.tokenLaunchTxHash as `0x${string}` });
    expect(receipt.status).toBe('success');
    const block = await client().getBlock({ blockNumber: receipt.blockNumber });
    expect(res.json().data).toEqual({
      companyId: creatorCompany.id,
      name: 'Token Co',
      slug: creatorCompany.slug,
      tokenStatus: 'BONDING',
      tokenSymbol: 'TOKEN12345',
      tokenAddress: token,
      bondingCurve: { address: launcher(), graduationThreshold: 10000, graduated: false, graduatedAt: null },
      v4Pool: { address: null },
      launchTxHash: receipt.transactionHash,
      publicAt: new Date(Number(block.timestamp) * 1000).toISOString(),
      // The detail view's price, market cap and market fields (the same as the list's): no trade indexed yet, so the
      // curve's opening price.
      ...(await untradedMarket(token)),
    });
    // The launch went out as a `trade` event of kind `launch`, once (the request applied it; the indexer, which
    // sees the same log, moves nothing and announces nothing).
    await index();
    const launches = await tradeEvents(creatorCompany.id, 'launch');
    expect(launches.map((e) => e.data)).toEqual([
      {
        kind: 'launch',
        tokenSymbol: 'TOKEN12345',
        companySlug: creatorCompany.slug,
        tokenAddress: token,
        ...(await placeOf(receipt.transactionHash, launcher())),
      },
    ]);
    expect(await checkEvent(launches[0]!)).toBeNull();
    expect((await v1Get(`/api/v1/companies/${creatorCompany.slug}/token`, null)).statusCode).toBe(401);
    expect((await v1Get('/api/v1/companies/nobody/token')).statusCode).toBe(404);
  });

  it('indexes curve trades as rows and trade events, once, and the price follows them', async () => {
    const before = (await getToken(creatorCompany.slug)).json().data;
    const bought = await buy(2, token, usdc(1000));
    await index();
    const afterBuy = (await getToken(creatorCompany.slug)).json().data;
    expect(Number(afterBuy.price)).toBeGreaterThan(Number(before.price));
    expect(afterBuy.graduationProgress).toBeGreaterThan(before.graduationProgress);

    const balance = await client().readContract({
      address: token,
      abi: CompanyTokenAbi,
      functionName: 'balanceOf',
      args: [devAccount(2).address],
    });
    await sell(2, token, balance / 2n);
    await index();
    const afterSell = (await getToken(creatorCompany.slug)).json().data;
    expect(Number(afterSell.price)).toBeLessThan(Number(afterBuy.price));

    const rows = await t.database.db
      .select()
      .from(tokenTrades)
      .where(eq(tokenTrades.companyId, creatorCompany.id))
      .orderBy(tokenTrades.blockNumber);
    expect(rows.map((r) => [r.side, r.venue, r.trader])).toEqual([
      ['buy', 'CURVE', devAccount(2).address],
      ['sell', 'CURVE', devAccount(2).address],
    ]);
    expect(rows[0]!.usdcAmount).toBe(usdc(1000));
    expect(rows[0]!.tokenAmount).toBe(balance);
    expect(rows[1]!.tokenAmount).toBe(balance / 2n);

    const events = await tradeEvents(creatorCompany.id);
    expect(events).toHaveLength(2);
    expect(events[0]!.data).toEqual({
      kind: 'trade',
      tokenSymbol: 'TOKEN12345',
      companySlug: creatorCompany.slug,
      tokenAddress: token,
      side: 'buy',
      // Base units, integers (docs/api/events.md "Amounts"): tokens with 18 decimals, USDC (6) per whole token.
      amount: balance.toString(),
      usdcAmount: usdc(1000).toString(),
      price: ((usdc(1000) * 10n ** 18n) / balance).toString(),
      // And the forms REST trades use, under names that mean one unit everywhere.
      tokenAmount: formatUnits(balance, 18),
      usdcAmountRaw: usdc(1000).toString(),
      usdcAmountDecimal: '1000',
      priceRaw: ((usdc(1000) * 10n ** 18n) / balance).toString(),
      priceDecimal: formatUnits((usdc(1000) * 10n ** 18n) / balance, 6),
      priceExact: formatUnits((usdc(1000) * 10n ** 30n) / balance, 18),
      trader: devAccount(2).address,
      venue: 'CURVE',
      // The trade's own log (the launcher's CurveTrade) and its block, as the internal trades route shows them.
      ...(await placeOf(bought.transactionHash, launcher())),
    });
    expect(events[1]!.data).toMatchObject({ kind: 'trade', side: 'sell', usdcAmount: rows[1]!.usdcAmount.toString() });
    const listed = (await t.app.inject({ url: `/api/companies/${creatorCompany.slug}/token/trades` })).json().data;
    const first = listed.trades.find((tr: { txHash: string }) => tr.txHash === bought.transactionHash);
    expect(first.logIndex).toBe(events[0]!.data.logIndex);
    expect(first.time).toBe(events[0]!.data.blockTime);
    // One name, one unit: every form the stream carries, REST carries the same.
    for (const name of [
      'amount',
      'tokenAmount',
      'usdcAmountRaw',
      'usdcAmountDecimal',
      'priceRaw',
      'priceDecimal',
      'priceExact',
      'time',
      'blockTime',
      'transactionHash',
      'companySlug',
      'tokenAddress',
    ]) {
      expect(first[name], name).toBe(events[0]!.data[name]);
    }
    for (const e of events) expect(await checkEvent(e)).toBeNull();

    // Replaying the same blocks (the cursor rewound) adds no row and no event.
    await t.database.db.execute(`update chain_cursors set block = 0 where name = 'company-tokens'`);
    await index();
    expect(
      await t.database.db.select().from(tokenTrades).where(eq(tokenTrades.companyId, creatorCompany.id)),
    ).toHaveLength(2);
    expect(await tradeEvents(creatorCompany.id)).toHaveLength(2);
  });

  it('stays BONDING just below the threshold and graduates on the buy that reaches it', async () => {
    // What the curve still needs to graduate, and the 1% curve fee a buy pays on top of it.
    const rest = async () => {
      const curve = await curveOf(token);
      return curve.graduationVirtualUsdc - curve.virtualUsdc;
    };
    const withFee = (amount: bigint) => amount + (amount + 99n) / 100n;
    await buy(3, token, withFee((await rest()) - 1n));
    await index();
    const below = (await getToken(creatorCompany.slug)).json().data;
    expect(below.status).toBe('BONDING');
    expect(below.graduated).toBe(false);
    expect(below.graduationProgress).toBeLessThan(100);
    expect(below.graduationProgress).toBeGreaterThan(99.9);

    await buy(3, token, withFee(await rest()));
    await index();
    const [row] = await t.database.db.select().from(companies).where(eq(companies.id, creatorCompany.id));
    const { poolId } = await curveOf(token);
    expect(row!.tokenStatus).toBe('GRADUATED');
    expect(row!.tokenPoolId).toBe(poolId);
    const graduated = (await getToken(creatorCompany.slug)).json().data;
    expect(graduated).toMatchObject({
      status: 'GRADUATED',
      graduated: true,
      graduationProgress: 100,
      graduatedAt: row!.tokenGraduatedAt!.toISOString(),
      v4PoolAddress: poolId,
    });
    // The pool opens at the curve's final price: the market cap does not jump.
    expect(Math.abs(Number(graduated.marketCap) - Number(below.marketCap))).toBeLessThan(1);

    const graduations = await tradeEvents(creatorCompany.id, 'graduation');
    expect(graduations).toHaveLength(1);
    expect(graduations[0]!.data).toMatchObject({
      kind: 'graduation',
      tokenSymbol: 'TOKEN12345',
      companySlug: creatorCompany.slug,
      tokenAddress: token,
      poolId,
      blockTime: row!.tokenGraduatedAt!.toISOString(),
    });
    expect(await checkEvent(graduations[0]!)).toBeNull();
    // After the trade that graduated the token, in the same transaction.
    const lastTrade = (await tradeEvents(creatorCompany.id)).at(-1)!;
    expect(graduations[0]!.data.txHash).toBe(lastTrade.data.txHash);
    expect(graduations[0]!.id > lastTrade.id).toBe(true);

    const detail = (await v1Get(`/api/v1/companies/${creatorCompany.slug}/token`)).json().data;
    expect(detail.bondingCurve.graduated).toBe(true);
    expect(detail.v4Pool.address).toBe(poolId);
  });

  it('indexes pool swaps both ways as trade events, with the 2.5% fee recorded', async () => {
    const before = (await tradeEvents(creatorCompany.id)).length;
    const bought = await buy(4, token, usdc(100));
    const balance = await client().readContract({
      address: token,
      abi: CompanyTokenAbi,
      functionName: 'balanceOf',
      args: [devAccount(4).address],
    });
    await sell(4, token, balance);
    await index();
    const rows = await t.database.db
      .select()
      .from(tokenTrades)
      .where(and(eq(tokenTrades.companyId, creatorCompany.id), eq(tokenTrades.venue, 'POOL')))
      .orderBy(tokenTrades.blockNumber);
    expect(rows.map((r) => [r.side, r.trader])).toEqual([
      ['buy', devAccount(4).address],
      ['sell', devAccount(4).address],
    ]);
    expect(rows[0]!.txHash).toBe(bought.transactionHash);
    expect(rows[0]!.tokenAmount).toBe(balance);
    // Exact input: the fee is 2.5% of the output before the fee, i.e. fee = floor(gross * 250 / 10000).
    const gross = rows[0]!.tokenAmount + rows[0]!.feeAmount;
    expect(rows[0]!.feeAmount).toBe((gross * 250n) / 10_000n);
    const events = await tradeEvents(creatorCompany.id);
    expect(events.length - before).toBe(2);
    expect(events.at(-1)!.data.side).toBe('sell');
  });
});

describe('GET /api/v1/tokens', () => {
  let bonding: { id: string; slug: string };

  beforeAll(async () => {
    bonding = await newCompany(5, 'Bonding Co');
    // Launched a chain second after the first token at least: publicAt is the launch block's time (whole seconds),
    // and two launches in one second would tie (the list then orders them by id).
    await client().request({ method: 'evm_increaseTime' as never, params: [1] as never });
    expect((await launch(bonding.id, { name: 'Bonding', symbol: 'BOND' }, 5)).statusCode).toBe(201);
  });

  it('lists launched tokens newest first with the v1 list item, filtered by status', async () => {
    const all = await v1Get('/api/v1/tokens');
    expect(all.statusCode).toBe(200);
    const body = all.json();
    expect(body.pagination).toEqual({ page: 1, limit: 50, total: 2, hasMore: false, nextCursor: null });
    expect(body.data.map((d: { id: string }) => d.id)).toEqual([bonding.id, creatorCompany.id]);
    const [row] = await t.database.db.select().from(companies).where(eq(companies.id, bonding.id));
    expect(body.data[0]).toEqual({
      id: bonding.id,
      name: 'Bonding Co',
      slug: bonding.slug,
      tokenStatus: 'BONDING',
      tokenSymbol: 'BOND',
      tokenAddress: row!.tokenAddress,
      bondingCurveAddress: launcher(),
      graduationThreshold: 10000,
      graduatedAt: null,
      v4PoolAddress: null,
      platformScore: 0,
      category: 'AI_TOKENS',
      publicAt: row!.tokenPublicAt!.toISOString(),
      // No trade indexed yet: no price, and no volume.
      ...(await untradedMarket(row!.tokenAddress as Address)),
    });
    const graduated = (await v1Get('/api/v1/tokens?status=GRADUATED')).json();
    expect(graduated.data.map((d: { id: string }) => d.id)).toEqual([creatorCompany.id]);
    const bondingOnly = (await v1Get('/api/v1/tokens?status=BONDING')).json();
    expect(bondingOnly.data.map((d: { id: string }) => d.id)).toEqual([bonding.id]);
    expect(bondingOnly.pagination.total).toBe(1);
  });

  it('pages: limit 1 and 100 inside, 0 and 101 outside; page 0 outside', async () => {
    const first = (await v1Get('/api/v1/tokens?limit=1')).json();
    expect(first.data).toHaveLength(1);
    expect(first.pagination).toEqual({ page: 1, limit: 1, total: 2, hasMore: true, nextCursor: expect.any(String) });
    const second = (await v1Get('/api/v1/tokens?limit=1&page=2')).json();
    expect(second.data[0].id).toBe(creatorCompany.id);
    expect(second.pagination.hasMore).toBe(false);
    expect((await v1Get('/api/v1/tokens?limit=100')).statusCode).toBe(200);
    for (const query of ['limit=0', 'limit=101', 'page=0', 'status=PRE_PUBLIC', 'status=bonding', 'limit=1.5']) {
      const res = await v1Get(`/api/v1/tokens?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
    // An unknown parameter is ignored, as on every route (docs/decisions.md "Requests and errors").
    const ignored = await v1Get('/api/v1/tokens?other=1&limit=1');
    expect(ignored.statusCode).toBe(200);
    expect(ignored.json().pagination.limit).toBe(1);
  });

  it('needs an API key', async () => {
    const res = await v1Get('/api/v1/tokens', null);
    expect(res.statusCode).toBe(401);
    expect((await v1Get('/api/v1/tokens', 'aie_wrong')).statusCode).toBe(401);
  });
});

describe('a launch interrupted by a crash', () => {
  it('before the broadcast: the company stays PRE_PUBLIC, and repairTokenLaunches finishes it once', async () => {
    const company = await newCompany(6, 'Crash Before Co');
    const crashing = createOutbox({
      db: t.database.db,
      chain: t.chain.chain,
      wallet: t.chain.chain.platform,
      beforeBroadcast: () => {
        throw new Error('crash');
      },
    });
    await expect(
      launchToken({ ...t.container, outbox: crashing }, company.id, devAccount(6).address, {
        name: 'Crash',
        symbol: 'CRSH',
      }),
    ).rejects.toThrow('crash');
    expect((await getToken(company.slug)).json().data.status).toBe('PRE_PUBLIC');
    // A different token cannot be launched meanwhile; the same request may be repeated.
    expect((await launch(company.id, { name: 'Other', symbol: 'OTHR' }, 6)).statusCode).toBe(409);

    expect(await repairTokenLaunches(t.container, { olderThanMs: 0 })).toBeGreaterThanOrEqual(1);
    const data = (await getToken(company.slug)).json().data;
    expect(data.status).toBe('BONDING');
    expect(data.tokenSymbol).toBe('CRSH');
    expect(await repairTokenLaunches(t.container, { olderThanMs: 0 })).toBe(0);
    const row = await t.database.db.select().from(companies).where(eq(companies.id, company.id));
    expect(row[0]!.status).toBe('PUBLIC');
  });

  it('after the broadcast: the indexer applies the mined launch, and repeating the request changes nothing', async () => {
    const company = await newCompany(7, 'Crash After Co');
    const publicClient = t.chain.chain.publicClient;
    // The process dies after the launch is mined, before the database hears of it: when it reads the mined block's
    // time. (Reads of the latest block, the chain clock the gas budget counts its day by, still work.)
    const dying = new Proxy(publicClient, {
      get: (target, prop, receiver) =>
        prop === 'getBlock'
          ? (args?: { blockNumber?: bigint }) =>
              args?.blockNumber === undefined ? target.getBlock(args) : Promise.reject(new Error('crash'))
          : Reflect.get(target, prop, receiver),
    });
    await expect(
      launchToken(
        { ...t.container, chain: { ...t.container.chain, publicClient: dying } },
        company.id,
        devAccount(7).address,
        { name: 'After', symbol: 'AFTR' },
      ),
    ).rejects.toThrow();
    const key = companyKey(company.id);
    const onChain = await client().readContract({
      address: launcher(),
      abi: TokenLauncherAbi,
      functionName: 'tokenOfCompany',
      args: [key],
    });
    expect(onChain).not.toBe(zeroAddress);
    expect((await getToken(company.slug)).json().data.status).toBe('PRE_PUBLIC');

    await index();
    expect((await getToken(company.slug)).json().data.tokenAddress).toBe(onChain);
    const blockBefore = await client().getBlockNumber({ cacheTime: 0 });
    const again = await launch(company.id, { name: 'After', symbol: 'AFTR' }, 7);
    expect(again.statusCode).toBe(409);
    expect(await client().getBlockNumber({ cacheTime: 0 })).toBe(blockBefore);
  });
});
