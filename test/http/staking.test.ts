// GET /api/staking/position/{wallet} and GET /api/staking/stats on a real anvil chain: stakes with and without
// access cards of each tier, the recorded boost, pending emission over time, pool totals and the emission supply,
// the APY floor and the allocation share, one JSON-RPC batch per request at one block, bad wallets (400
// BAD_REQUEST), and a node that stops answering (503 CHAIN_UNAVAILABLE).
//
// The chain is the file's own and its state builds up from one test to the next, in order.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EmissionTokenAbi, PrimaryTokenAbi, StakingAbi } from '@ai-economy/shared/abis';
import { type Abi, getAddress, type Hex, numberToHex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAddress } from '../../src/address.ts';
import { createChainClients, devAccount } from '../../src/chain/client.ts';
import { DEFAULT_EMISSION_PER_SECOND } from '../../src/chain/deploy-steps.ts';
import { APY_REFERENCE_STAKE, baseApyBps, bpsToPercent } from '../../src/domain/staking/apy.ts';
import { startTestApp, type TestApp, useTestApp } from '../helpers/app.ts';
import { anvilTestClient } from '../helpers/chain.ts';
import { mintCard, openCardTranche } from '../helpers/companies.ts';

const t = useTestApp({ chain: { timeoutMs: 2_000, own: true }, env: { RPC_TIMEOUT_MS: '2000' } });

const tokens = (n: number | bigint) => BigInt(n) * 10n ** 18n;
const staking = () => t.chain.chain.contracts.staking!;
/** Dev account i's checksummed address (known before the chain starts). */
const addr = (i: number) => devAccount(i).address;
const get = (url: string) => t.app.inject({ method: 'GET', url });
const position = async (wallet: string) => {
  const res = await get(`/api/staking/position/${wallet}`);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().success).toBe(true);
  return res.json().data;
};
const stats = async () => {
  const res = await get('/api/staking/stats');
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().success).toBe(true);
  return res.json().data;
};

let testClient: ReturnType<typeof anvilTestClient>;
beforeAll(() => {
  testClient = anvilTestClient(t.chain.node.rpcUrl, t.chain.chain.viemChain);
});

async function send(hash: Promise<Hex>) {
  const receipt = await testClient.waitForTransactionReceipt({ hash: await hash });
  expect(receipt.status).toBe('success');
  return receipt;
}

/**
 * A staking write from dev account i with a fixed gas limit: anvil estimates against the latest block, where the
 * pool was just updated, and the estimate can miss the accumulator update the mined transaction performs.
 */
function stakingWrite(i: number, functionName: string, args: readonly unknown[]) {
  return send(
    t.chain.wallet(i).writeContract({
      address: staking(),
      abi: StakingAbi,
      functionName,
      args,
      gas: 1_000_000n,
    } as any),
  );
}

async function deposit(i: number, amount: bigint) {
  await send(
    t.chain.wallet(i).writeContract({
      address: t.chain.chain.contracts.primaryToken!,
      abi: PrimaryTokenAbi,
      functionName: 'approve',
      args: [staking(), amount],
    }),
  );
  return stakingWrite(i, 'deposit', [0n, amount]);
}

/** Sells the current tranche out on paper and opens the next (test/helpers/companies.ts). */
const openTranche = (tranche: 2 | 3) => openCardTranche(t.chain, tranche);

const readStaking = <T>(functionName: string, args: readonly unknown[] = []) =>
  testClient.readContract({ address: staking(), abi: StakingAbi as Abi, functionName, args }) as Promise<T>;

/** docs/api/staking.md "APY": effectiveApy is baseApy times multiplier (both shown with 2 decimals). */
function expectApys(data: { baseApy: number; effectiveApy: number; multiplier: number }, baseApy: number) {
  expect(data.baseApy).toBe(baseApy);
  expect(data.effectiveApy).toBe(Math.round(baseApy * data.multiplier * 100) / 100);
}

/** The stake every account in this file ends up with, and the card multiplier it is recorded with. */
const STAKES = {
  plain: { account: 1, amount: tokens(100_000), multiplier: 1, tier: 'NONE' },
  black: { account: 2, amount: tokens(200_000), multiplier: 5, tier: 'BLACK' },
  gold: { account: 3, amount: tokens(100_000), multiplier: 3, tier: 'GOLD' },
  silver: { account: 4, amount: tokens(100_000), multiplier: 2, tier: 'SILVER' },
} as const;
/** Holds a Silver card and never stakes. */
const HOLDER = 5;
/** Deposits with a Silver card before recording it with refreshBoost. */
const LATE = { account: 6, amount: tokens(10_000) };

describe('before anyone stakes', () => {
  it('shows a wallet with no stake as NONE, multiplier 1, zeros, and the base APY at the reference stake', async () => {
    const wallet = '0x000000000000000000000000000000000000dEaD';
    const data = await position(wallet.toLowerCase());
    expect(data).toEqual({
      wallet,
      stakedPrimary: '0',
      effectiveStake: '0',
      pendingEmission: '0',
      tier: 'NONE',
      multiplier: 1,
      baseApy: 12.5,
      effectiveApy: 12.5,
    });
  });

  it('reports an empty pool: no stake, nothing minted, the default rate, one active pool, 12.5% (not infinite)', async () => {
    expect(await stats()).toEqual({
      totalStakedPrimary: '0',
      emissionPerSecond: DEFAULT_EMISSION_PER_SECOND.toString(),
      totalEmissionDistributed: '0',
      currentBaseApy: 12.5,
      poolCount: 1,
    });
  });
});

describe('positions', () => {
  it('shows a staker without a card at multiplier 1, NONE, with the floor APY while the pool is thin', async () => {
    const { account, amount } = STAKES.plain;
    await deposit(account, amount);
    const data = await position(addr(account));
    expect(data).toEqual({
      wallet: addr(account),
      stakedPrimary: amount.toString(),
      effectiveStake: amount.toString(),
      // Read in the deposit's own block: nothing has accrued yet.
      pendingEmission: '0',
      tier: 'NONE',
      multiplier: 1,
      baseApy: 12.5,
      effectiveApy: 12.5,
    });
    expect((await stats()).totalStakedPrimary).toBe(amount.toString());
  });

  it('shows Black, Gold and Silver holders who recorded their card at 5x, 3x and 2x', async () => {
    // Fresh chain: the first card minted is id 1 (Black), then the Gold and Silver tranches open at 1001 and 4001.
    expect(await mintCard(t.chain, STAKES.black.account)).toBe(1n);
    await openTranche(2);
    expect(await mintCard(t.chain, STAKES.gold.account)).toBe(1001n);
    await openTranche(3);
    expect(await mintCard(t.chain, STAKES.silver.account)).toBe(4001n);
    for (const s of [STAKES.black, STAKES.gold, STAKES.silver]) {
      await deposit(s.account, s.amount);
      await stakingWrite(s.account, 'refreshBoost', [0n]);
    }
    // Effective stake: 100,000 + 1,000,000 + 300,000 + 200,000 = 1,600,000 tokens, above the 1,000,000 floor:
    // 125,000 tokens a year / 1,600,000 = 7.8125% -> 7.81.
    for (const s of Object.values(STAKES)) {
      const data = await position(addr(s.account));
      expect(data).toMatchObject({
        wallet: addr(s.account),
        stakedPrimary: s.amount.toString(),
        effectiveStake: (s.amount * BigInt(s.multiplier)).toString(),
        tier: s.tier,
        multiplier: s.multiplier,
      });
      expectApys(data, 7.81);
      const [amount, effective] = await readStaking<readonly bigint[]>('userInfo', [0n, addr(s.account)]);
      expect([data.stakedPrimary, data.effectiveStake]).toEqual([amount!.toString(), effective!.toString()]);
    }
    expect((await position(addr(STAKES.black.account))).effectiveApy).toBe(39.05);
    expect((await position(addr(STAKES.gold.account))).effectiveApy).toBe(23.43);
    expect((await position(addr(STAKES.silver.account))).effectiveApy).toBe(15.62);
  });

  it('shows a card holder who never staked nor recorded the card as NONE, multiplier 1 (the recorded boost)', async () => {
    expect(await mintCard(t.chain, HOLDER)).toBe(4002n);
    const data = await position(addr(HOLDER));
    expect(data).toMatchObject({ stakedPrimary: '0', effectiveStake: '0', pendingEmission: '0' });
    expect(data).toMatchObject({ tier: 'NONE', multiplier: 1 });
    expectApys(data, 7.81);
  });

  it('shows a deposit made before refreshBoost at 1x, and at the card multiplier once refreshBoost records it', async () => {
    expect(await mintCard(t.chain, LATE.account)).toBe(4003n);
    await deposit(LATE.account, LATE.amount);
    const before = await position(addr(LATE.account));
    expect(before).toMatchObject({ tier: 'NONE', multiplier: 1, effectiveStake: LATE.amount.toString() });

    await stakingWrite(LATE.account, 'refreshBoost', [0n]);
    const after = await position(addr(LATE.account));
    expect(after).toMatchObject({
      stakedPrimary: LATE.amount.toString(),
      effectiveStake: (LATE.amount * 2n).toString(),
      tier: 'SILVER',
      multiplier: 2,
    });
    // 1,620,000 tokens of effective stake: 125,000 / 1,620,000 = 7.716% -> 7.72, and 2x -> 15.44.
    expectApys(after, 7.72);
    expect(after.effectiveApy).toBe(15.44);
  });

  it('accepts a wallet in all lowercase or all uppercase hex and answers it checksummed', async () => {
    const wallet = addr(STAKES.black.account);
    const lower = await position(wallet.toLowerCase());
    const upper = await position(`0x${wallet.slice(2).toUpperCase()}`);
    expect(lower.wallet).toBe(wallet);
    expect(upper.wallet).toBe(wallet);
    expect(upper.effectiveStake).toBe(lower.effectiveStake);
  });
});

describe('pending emission', () => {
  it('grows as time passes, and equals what the contract would pay at that moment', async () => {
    const wallet = addr(STAKES.black.account);
    const first = BigInt((await position(wallet)).pendingEmission);
    await testClient.increaseTime({ seconds: 3_600 });
    await testClient.mine({ blocks: 1 });
    const second = BigInt((await position(wallet)).pendingEmission);
    expect(second).toBeGreaterThan(first);
    // No block is mined between the route's read and this one: the same block, the same figure.
    expect(second).toBe(await readStaking<bigint>('pendingEmission', [0n, wallet]));
    // The Black staker holds 1,000,000 of 1,620,000 effective: about that share of an hour's emission.
    const hour = DEFAULT_EMISSION_PER_SECOND * 3_600n;
    const share = (hour * 1_000_000n) / 1_620_000n;
    // The contract's accumulator rounds down by at most 1 wei per 1e18 of effective stake per pool update.
    expect(second - first).toBeGreaterThanOrEqual(share - 10n ** 7n);
    expect(second - first).toBeLessThan(share + (DEFAULT_EMISSION_PER_SECOND * 1_000_000n * 5n) / 1_620_000n);
  });
});

describe('stats', () => {
  it("sums every staker's effective stake and reports the emission token's supply after a harvest", async () => {
    const wallets = [...Object.values(STAKES).map((s) => addr(s.account)), addr(LATE.account)];
    const effective = (await Promise.all(wallets.map(position))).map((p) => BigInt(p.effectiveStake));
    const sum = effective.reduce((a, b) => a + b, 0n);
    expect(sum).toBe(tokens(1_620_000));

    const black = STAKES.black.account;
    await stakingWrite(black, 'harvest', [0n]);
    const emission = t.chain.chain.contracts.emissionToken!;
    const [supply, harvested] = await Promise.all([
      testClient.readContract({ address: emission, abi: EmissionTokenAbi, functionName: 'totalSupply' }),
      testClient.readContract({
        address: emission,
        abi: EmissionTokenAbi,
        functionName: 'balanceOf',
        args: [addr(black)],
      }),
    ]);
    expect(supply).toBeGreaterThan(0n);
    expect(harvested).toBe(supply);
    expect(await stats()).toEqual({
      totalStakedPrimary: sum.toString(),
      emissionPerSecond: DEFAULT_EMISSION_PER_SECOND.toString(),
      totalEmissionDistributed: supply.toString(),
      currentBaseApy: 7.72,
      poolCount: 1,
    });
    expect((await position(addr(black))).pendingEmission).toBe('0');
  });
});

describe('one snapshot, one batch', () => {
  /** A JSON-RPC proxy in front of anvil that records every HTTP request body. */
  let proxy: Server;
  let proxied: TestApp;
  const bodies: unknown[] = [];

  beforeAll(async () => {
    proxy = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks).toString('utf8');
      bodies.push(JSON.parse(body));
      const upstream = await fetch(t.chain.node.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(await upstream.text());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const rpcUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const clients = createChainClients({ chainId: t.chain.chain.chainId, rpcUrl, local: true, timeoutMs: 2_000 });
    proxied = await startTestApp({
      database: t.database,
      chain: { ...t.chain, chain: { ...t.chain.chain, ...clients } },
    });
  });
  afterAll(async () => {
    await proxied?.close();
    await new Promise((resolve) => proxy?.close(resolve));
  });

  type RpcCall = { method: string; params: unknown[] };
  async function roundTrips(url: string): Promise<RpcCall[][]> {
    bodies.length = 0;
    const res = await proxied.app.inject({ method: 'GET', url });
    expect(res.statusCode, res.body).toBe(200);
    return bodies.map((b) => (Array.isArray(b) ? b : [b]) as RpcCall[]);
  }

  it('reads a position in two round trips: the block number, then every call in one batch at that block', async () => {
    const [pin, batch, ...rest] = await roundTrips(`/api/staking/position/${addr(STAKES.gold.account)}`);
    expect(rest).toEqual([]);
    expect(pin!.map((c) => c.method)).toEqual(['eth_blockNumber']);
    const block = numberToHex(await testClient.getBlockNumber({ cacheTime: 0 }));
    expect(batch!.map((c) => c.method)).toEqual(Array(5).fill('eth_call'));
    expect(new Set(batch!.map((c) => c.params[1]))).toEqual(new Set([block]));
  });

  it('reads the stats the same way while there is one pool', async () => {
    const [pin, batch, ...rest] = await roundTrips('/api/staking/stats');
    expect(rest).toEqual([]);
    expect(pin!.map((c) => c.method)).toEqual(['eth_blockNumber']);
    expect(batch!.map((c) => c.method)).toEqual(Array(5).fill('eth_call'));
    expect(new Set(batch!.map((c) => c.params[1])).size).toBe(1);
  });
});

describe('conditional requests, kept per block', () => {
  // Each app behind its own counting proxy: how many JSON-RPC requests (a batch counts once) its routes send.
  async function countedApp(reuseMs: number) {
    const requests: RpcCall[][] = [];
    const server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks).toString('utf8');
      const parsed = JSON.parse(body);
      requests.push((Array.isArray(parsed) ? parsed : [parsed]) as RpcCall[]);
      const upstream = await fetch(t.chain.node.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(await upstream.text());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const rpcUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const clients = createChainClients({ chainId: t.chain.chain.chainId, rpcUrl, local: true, timeoutMs: 2_000 });
    const started = await startTestApp({
      database: t.database,
      chain: { ...t.chain, chain: { ...t.chain.chain, ...clients } },
      env: { RATE_LIMIT_MAX: '100000', CHAIN_HEAD_REUSE_MS: String(reuseMs) },
    });
    const { app } = started;
    const close = async () => {
      await started.close();
      await new Promise((resolve) => server.close(resolve));
    };
    return { app, requests, close };
  }
  type RpcCall = { method: string; params: unknown[] };
  const url = () => `/api/staking/position/${addr(STAKES.gold.account)}`;
  const nextBlock = async () => {
    await testClient.increaseTime({ seconds: 60 });
    await testClient.mine({ blocks: 1 });
  };

  it('answers 100 conditional requests within one block with at most one RPC call, and a new block afresh', async () => {
    const counted = await countedApp(60_000);
    try {
      await nextBlock();
      const first = await counted.app.inject({ method: 'GET', url: url() });
      expect(first.statusCode, first.body).toBe(200);
      const etag = String(first.headers.etag);
      expect(counted.requests.flat().map((c) => c.method)).toEqual(['eth_blockNumber', ...Array(5).fill('eth_call')]);

      counted.requests.length = 0;
      const statuses: number[] = [];
      for (let i = 0; i < 100; i++) {
        const res = await counted.app.inject({ method: 'GET', url: url(), headers: { 'if-none-match': etag } });
        statuses.push(res.statusCode);
        expect(res.headers.etag).toBe(etag);
      }
      expect(statuses).toEqual(Array(100).fill(304));
      expect(counted.requests.length).toBeLessThanOrEqual(1);

      // A client that asks for a fresh validation (a page refetching after its transaction) reads the head: a block
      // mined since the last reading is not hidden behind a 304.
      await nextBlock();
      counted.requests.length = 0;
      let current = '';
      for (const cacheControl of ['no-cache', 'max-age=0']) {
        const revalidated = await counted.app.inject({
          method: 'GET',
          url: url(),
          headers: { 'if-none-match': etag, 'cache-control': cacheControl },
        });
        expect(revalidated.statusCode).toBe(200);
        expect(revalidated.headers.etag).not.toBe(etag);
        current = revalidated.body;
      }
      expect(counted.requests.flat().map((c) => c.method)).toContain('eth_blockNumber');

      // Unconditional reads within the block: one batch for all of them, the same answer.
      counted.requests.length = 0;
      const again = await counted.app.inject({ method: 'GET', url: url() });
      expect(again.body).toBe(current);
      expect(counted.requests.flat().map((c) => c.method)).toEqual(['eth_blockNumber']);

      // A new block (a minute later: more emission pending): the next unconditional read answers at it.
      await nextBlock();
      const block = numberToHex(await testClient.getBlockNumber({ cacheTime: 0 }));
      counted.requests.length = 0;
      const fresh = await counted.app.inject({ method: 'GET', url: url() });
      expect(fresh.statusCode).toBe(200);
      expect(fresh.headers.etag).not.toBe(etag);
      expect(BigInt(fresh.json().data.pendingEmission)).toBeGreaterThan(BigInt(first.json().data.pendingEmission));
      const calls = counted.requests.flat().filter((c) => c.method === 'eth_call');
      expect(calls).toHaveLength(5);
      for (const c of calls) expect(c.params[1]).toBe(block);
      // The old tag no longer matches the block just read: a full answer.
      const stale = await counted.app.inject({ method: 'GET', url: url(), headers: { 'if-none-match': etag } });
      expect(stale.statusCode).toBe(200);
      expect(stale.body).toBe(fresh.body);
    } finally {
      await counted.close();
    }
  });

  it('reads the head again for a conditional request once CHAIN_HEAD_REUSE_MS has passed', async () => {
    const counted = await countedApp(200);
    try {
      await nextBlock();
      const first = await counted.app.inject({ method: 'GET', url: url() });
      const etag = String(first.headers.etag);
      await nextBlock();
      await new Promise((resolve) => setTimeout(resolve, 250));
      counted.requests.length = 0;
      const polled = await counted.app.inject({ method: 'GET', url: url(), headers: { 'if-none-match': etag } });
      expect(polled.statusCode).toBe(200);
      expect(polled.headers.etag).not.toBe(etag);
      expect(counted.requests[0]!.map((c) => c.method)).toEqual(['eth_blockNumber']);
    } finally {
      await counted.close();
    }
  });

  it('keeps the stats per block the same way', async () => {
    const counted = await countedApp(60_000);
    try {
      await nextBlock();
      const first = await counted.app.inject({ method: 'GET', url: '/api/staking/stats' });
      expect(first.statusCode).toBe(200);
      counted.requests.length = 0;
      const headers = { 'if-none-match': String(first.headers.etag) };
      for (let i = 0; i < 20; i++) {
        expect((await counted.app.inject({ method: 'GET', url: '/api/staking/stats', headers })).statusCode).toBe(304);
      }
      expect(counted.requests).toEqual([]);
    } finally {
      await counted.close();
    }
  });
});

describe('more pools', () => {
  it('counts only pools with allocation points, and gives pool 0 its share of the emission', async () => {
    // A second pool (staking USDC) with no allocation is not active.
    await stakingWrite(0, 'addPool', [t.chain.chain.contracts.usdc!, 0n]);
    expect(await readStaking<bigint>('poolLength')).toBe(2n);
    expect(await stats()).toMatchObject({ poolCount: 1, currentBaseApy: 7.72 });

    // 100 points each: pool 0 gets half the emission, so half the APY (7.716% / 2 = 3.858% -> 3.86).
    await stakingWrite(0, 'setAllocPoint', [1n, 100n]);
    expect(await stats()).toMatchObject({ poolCount: 2, currentBaseApy: 3.86 });
    const gold = await position(addr(STAKES.gold.account));
    expectApys(gold, 3.86);
    expect(gold.effectiveApy).toBe(11.58);
  });
});

describe('bad wallet addresses', () => {
  const good = getAddress(addr(STAKES.plain.account));
  const hex40 = good.slice(2);
  // Flip the case of the first letter of the checksummed address: still mixed case, now a wrong checksum.
  const letter = hex40.search(/[a-fA-F]/);
  const flipped =
    hex40[letter]! === hex40[letter]!.toUpperCase() ? hex40[letter]!.toLowerCase() : hex40[letter]!.toUpperCase();
  const wrongChecksum = `0x${hex40.slice(0, letter)}${flipped}${hex40.slice(letter + 1)}`;

  const BAD: [string, string][] = [
    ['too short', '0x1234'],
    ['39 hex digits', `0x${hex40.slice(1)}`],
    ['too long', `${good}0`],
    ['no 0x', hex40],
    ['0X prefix', `0X${hex40}`],
    ['not hex', `0x${'g'.repeat(40)}`],
    ['wrong checksum', wrongChecksum],
    ['leading space', `%20${good}`],
    ['a word', 'alice.eth'],
    ['longer than the router allows a parameter to be', '0x' + 'a'.repeat(500)],
    ['a path below a wallet', `${good}/x`],
  ];

  it.each(BAD)('refuses %s with 400 BAD_REQUEST in the internal error envelope', async (_name, wallet) => {
    const res = await get(`/api/staking/position/${wallet}`);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/json');
    const body = res.json();
    expect(body).toEqual({ success: false, error: { code: 'BAD_REQUEST', message: expect.any(String) } });
    expect(body.error.message).toContain('Invalid wallet address');
    expect(body.error.message.length).toBeLessThan(250);
  });

  it('names the checksummed form when only the checksum is wrong', async () => {
    expect(wrongChecksum.toLowerCase()).toBe(good.toLowerCase());
    const res = await get(`/api/staking/position/${wrongChecksum}`);
    expect(res.json().error.message).toContain(`checksummed: ${good}`);
  });

  it('refuses an empty wallet with 400 BAD_REQUEST, not 404', async () => {
    for (const url of ['/api/staking/position/', '/api/staking/position']) {
      const res = await get(url);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('BAD_REQUEST');
    }
  });
});

describe('HTTP', () => {
  it('answers over a real socket, under the global rate limit', async () => {
    const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const res = await fetch(`${url}/api/staking/position/${addr(STAKES.silver.account)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('x-ratelimit-limit')).toBe('600');
    expect(((await res.json()) as any).data.tier).toBe('SILVER');
    const statsRes = await fetch(`${url}/api/staking/stats`);
    expect(statsRes.status).toBe(200);
    expect(statsRes.headers.get('x-ratelimit-limit')).toBe('600');
  });

  it('documents both routes in OpenAPI under the staking tag', async () => {
    const doc = (await get('/api/openapi.json')).json();
    const pos = doc.paths['/api/staking/position/{wallet}'].get;
    const st = doc.paths['/api/staking/stats'].get;
    expect(pos.tags).toEqual(['staking']);
    expect(st.tags).toEqual(['staking']);
    expect(pos.parameters[0]).toMatchObject({ in: 'path', name: 'wallet', required: true });
    const data = (op: any) => op.responses['200'].content['application/json'].schema.properties.data.properties;
    expect(Object.keys(data(pos))).toEqual([
      'wallet',
      'stakedPrimary',
      'effectiveStake',
      'pendingEmission',
      'tier',
      'multiplier',
      'baseApy',
      'effectiveApy',
    ]);
    expect(Object.keys(data(st))).toEqual([
      'totalStakedPrimary',
      'emissionPerSecond',
      'totalEmissionDistributed',
      'currentBaseApy',
      'poolCount',
    ]);
    expect(pos.responses['400'].content['application/json'].schema.$ref).toContain('InternalError');
    expect(doc.paths['/api/staking/position']).toBeUndefined();
  });
});

describe('APY and wallet rules (no chain)', () => {
  const rate = { emissionPerSecond: DEFAULT_EMISSION_PER_SECOND, allocPoint: 100n, totalAllocPoint: 100n };

  it('prices the pool at the 1,000,000-token reference stake at most, and by its effective stake above it', () => {
    expect(APY_REFERENCE_STAKE).toBe(tokens(1_000_000));
    for (const totalEffective of [0n, 1n, tokens(999_999), tokens(1_000_000)]) {
      expect(baseApyBps({ ...rate, totalEffective })).toBe(1250n);
    }
    expect(baseApyBps({ ...rate, totalEffective: tokens(2_000_000) })).toBe(625n);
    expect(baseApyBps({ ...rate, totalEffective: tokens(1_600_000) })).toBe(781n);
    expect(baseApyBps({ ...rate, totalEffective: tokens(1_000_000) * 100_000n })).toBe(0n);
  });

  it('is 0 without emission or allocation, and rounds half up to basis points', () => {
    expect(baseApyBps({ ...rate, emissionPerSecond: 0n, totalEffective: 0n })).toBe(0n);
    expect(baseApyBps({ ...rate, allocPoint: 0n, totalEffective: 0n })).toBe(0n);
    expect(baseApyBps({ ...rate, allocPoint: 0n, totalAllocPoint: 0n, totalEffective: 0n })).toBe(0n);
    // 1e17 wei/s for a year is 3.1536e24 wei; on 2 * 3.1536e24 * 1e4 wei of stake that is exactly 0.5 bp.
    const half = 2n * 31_536_000n * 10_000n * 10n ** 17n;
    const exact = { emissionPerSecond: 10n ** 17n, allocPoint: 1n, totalAllocPoint: 1n };
    expect(baseApyBps({ ...exact, totalEffective: half })).toBe(1n);
    expect(baseApyBps({ ...exact, totalEffective: half + 1n })).toBe(0n);
    expect(bpsToPercent(781n)).toBe(7.81);
    expect(bpsToPercent(781n * 5n)).toBe(39.05);
  });

  it('accepts lowercase, uppercase and correctly checksummed wallets, and nothing else', () => {
    const good = addr(1);
    for (const raw of [good, good.toLowerCase(), `0x${good.slice(2).toUpperCase()}`]) {
      expect(parseAddress(raw)).toEqual({ ok: true, address: good });
    }
    expect(parseAddress(good.replace('0x', '0X')).ok).toBe(false);
    expect(parseAddress(`${good} `).ok).toBe(false);
    expect(parseAddress(`0x${good.slice(2).replace(/[a-f]/, (c) => c.toUpperCase())}`).ok).toBe(false);
  });
});

describe('a stake above the card tier cap', () => {
  it("shows the multiplier in effect: the tier's boost on the cap, 1x on the rest, and effectiveApy = baseApy * multiplier", async () => {
    // Silver (2x) boosts at most 100,000 tokens: 300,000 staked count as 300,000 + 100,000 = 400,000.
    const account = 7;
    const card = await mintCard(t.chain, account);
    expect(card).toBeGreaterThan(4_000n);
    await deposit(account, tokens(300_000));
    await stakingWrite(account, 'refreshBoost', [0n]);
    const data = await position(addr(account));
    expect(data).toMatchObject({
      stakedPrimary: tokens(300_000).toString(),
      effectiveStake: tokens(400_000).toString(),
      tier: 'SILVER',
      multiplier: 1.33,
    });
    expect(data.effectiveApy).toBe(Number(BigInt(Math.round(data.baseApy * 100)) * 133n) / 10_000);
  });
});

// Last: it stops the file's chain.
describe('chain outage', () => {
  it('answers 503 CHAIN_UNAVAILABLE on both routes once the node is gone; a bad wallet is still a 400', async () => {
    await t.chain.stop();
    for (const url of [`/api/staking/position/${addr(1)}`, '/api/staking/stats']) {
      const res = await get(url);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        success: false,
        error: { code: 'CHAIN_UNAVAILABLE', message: 'The chain RPC did not answer in time; try again shortly' },
      });
    }
    const bad = await get('/api/staking/position/0x1234');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('BAD_REQUEST');
  });
});
