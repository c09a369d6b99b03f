// A bot on v1 alone, as the public API promises one can be written: through the client package only (no internal
// route, no service code), against the whole service as a real process over loopback with its anvil, it creates a
// company and launches its token with signed v1 writes, has a webhook endpoint deliver the trades to a receiver of
// its own on loopback (each delivery checked with the package's verifier), pages the trades by block, and, having
// stayed away longer than the stream keeps events (EVENT_RETENTION_MS at its least, one minute), is refused the
// resume with 410 EVENTS_EXPIRED, reads what it missed from the backfill and resumes the stream after it: every
// trade once, none missing. The trades themselves are made on the chain, as traders make them.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AccessCardAbi, TokenLauncherAbi } from '@ai-economy/shared/abis';
import { type Address, createPublicClient, createWalletClient, erc20Abi, http, maxUint256 } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createClient, type PlatformEvent, verifyWebhook } from '../../packages/client/src/index.ts';
import { devAccount, makeViemChain } from '../../src/chain/client.ts';
import {
  killServices,
  lastLine,
  runCli,
  type ServiceChain,
  type ServiceDatabase,
  type ServiceProcess,
  serviceDatabase,
  startService,
  startServiceChain,
} from '../helpers/process.ts';

/** The stream's window: the least the service takes, so the bot's absence outlasts it within the test. */
const RETENTION_MS = 60_000;
const creator = devAccount(6);
const trader = devAccount(7);
const USDC = 1_000_000n;
const dir = mkdtempSync(path.join(tmpdir(), 'aie-bot-v1-'));
let chain: ServiceChain;
let store: ServiceDatabase;
let server: ServiceProcess;
let apiKey: string;
let receiver: Server;
let receiverUrl: string;
/** The raw deliveries, as they came. */
const deliveries: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];

beforeAll(async () => {
  [chain, store] = await Promise.all([startServiceChain(dir), serviceDatabase(dir)]);
  const admin = { ADMIN_SECRET: 'bot-v1-test-admin-secret-0123456789abcdef' };
  const env = {
    DATA_DIR: dir,
    ...chain.env,
    ...store.env,
    ...admin,
    RATE_LIMIT_MAX: '100000',
    EVENT_RETENTION_MS: String(RETENTION_MS),
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    WEBHOOK_POLL_MS: '200',
    INDEXER_POLL_MS: '300',
  };
  // The creator's card, bought as anyone buys one.
  const viemChain = makeViemChain(31337, chain.node.rpcUrl);
  const publicClient = createPublicClient({ chain: viemChain, transport: http(chain.node.rpcUrl) });
  const wallet = createWalletClient({ account: creator, chain: viemChain, transport: http(chain.node.rpcUrl) });
  const { accessCard, usdc } = chain.file.contracts as { accessCard: Address; usdc: Address };
  const price = await publicClient.readContract({ address: accessCard, abi: AccessCardAbi, functionName: 'mintPrice' });
  await publicClient.waitForTransactionReceipt({
    hash: await wallet.writeContract({
      address: usdc,
      abi: erc20Abi,
      functionName: 'approve',
      args: [accessCard, price],
    }),
  });
  const minted = await publicClient.waitForTransactionReceipt({
    hash: await wallet.writeContract({
      address: accessCard,
      abi: AccessCardAbi,
      functionName: 'mintBatch',
      args: [1n],
    }),
  });
  expect(minted.status).toBe('success');
  // The bot's webhook receiver: it keeps every request and answers 204.
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      deliveries.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  server = await startService(env);
  const made = await runCli(['api-keys', 'create', '--name', 'bot-v1'], { DATA_DIR: dir, ...store.env, ...admin });
  expect(made.code, made.stderr).toBe(0);
  apiKey = lastLine(made.stdout);
}, 180_000);

afterAll(async () => {
  killServices();
  await new Promise((resolve) => receiver?.close(resolve));
  await store?.drop();
  await chain?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The trader buys `usdcIn` of `token` on its curve; the receipt's block. */
async function buy(token: Address, usdcIn: bigint): Promise<bigint> {
  const viemChain = makeViemChain(31337, chain.node.rpcUrl);
  const publicClient = createPublicClient({ chain: viemChain, transport: http(chain.node.rpcUrl) });
  const wallet = createWalletClient({ account: trader, chain: viemChain, transport: http(chain.node.rpcUrl) });
  const { usdc, tokenLauncher } = chain.file.contracts as { usdc: Address; tokenLauncher: Address };
  const allowance = await publicClient.readContract({
    address: usdc,
    abi: erc20Abi,
    functionName: 'allowance',
    args: [trader.address, tokenLauncher],
  });
  if (allowance < usdcIn) {
    await publicClient.waitForTransactionReceipt({
      hash: await wallet.writeContract({
        address: usdc,
        abi: erc20Abi,
        functionName: 'approve',
        args: [tokenLauncher, maxUint256],
      }),
    });
  }
  const receipt = await publicClient.waitForTransactionReceipt({
    hash: await wallet.writeContract({
      address: tokenLauncher,
      abi: TokenLauncherAbi,
      functionName: 'buy',
      args: [token, usdcIn, 0n, 2n ** 40n],
      gas: 3_000_000n,
    }),
  });
  expect(receipt.status).toBe('success');
  return receipt.blockNumber;
}

const key = (e: PlatformEvent) => (e.type === 'trade' ? `${e.data.kind} ${e.id}` : `${e.type} ${e.id}`);

describe('a bot on v1 and the client package alone', () => {
  it('launches through v1, hears webhooks, pages trades by block and recovers an expired cursor from the backfill', async () => {
    const client = createClient({ baseUrl: server.base, apiKey });

    // A webhook endpoint for the trades, delivering to the bot's receiver; its secret is shown once.
    const hook = await client.api.POST('/api/v1/webhooks', { body: { url: receiverUrl, types: ['trade'] } });
    expect(hook.response.status, JSON.stringify(hook.error)).toBe(201);
    const secret = hook.data!.data.secret;

    // The bot connects once, keeps where it is, and goes away.
    const first = new AbortController();
    const stream = client.events({ types: ['trade'], signal: first.signal });
    const connected = stream[Symbol.asyncIterator]();
    const pending = connected.next();
    await expect.poll(() => stream.lastEventId, { timeout: 15_000 }).toBeDefined();
    const cursor = stream.lastEventId!;
    first.abort();
    await pending.catch(() => undefined);

    // While it is away: a company and its token through the signed v1 writes, then three buys on the chain.
    const company = await client.write('post', '/api/v1/companies', {
      signer: creator,
      body: { name: 'Bot V1 Works', category: 'AI_TOKENS' },
    });
    expect(company.status).toBe(201);
    const slug = company.data.slug;
    const launched = await client.write('post', '/api/v1/companies/{slug}/token', {
      signer: creator,
      params: { slug },
      body: { name: 'Bot V1 Token', symbol: 'BOTV' },
    });
    expect(launched.data.status).toBe('BONDING');
    const token = (launched.data as { tokenAddress: Address }).tokenAddress;
    const blocks = [await buy(token, 20n * USDC), await buy(token, 30n * USDC), await buy(token, 40n * USDC)];

    // Webhooks: the launch and the three buys, each signed as Standard Webhooks says (the package's verifier).
    await expect.poll(() => deliveries.length, { timeout: 30_000, interval: 200 }).toBeGreaterThanOrEqual(4);
    const delivered: PlatformEvent[] = [];
    for (const d of deliveries) delivered.push(await verifyWebhook(secret, d.headers, d.body));
    for (const d of deliveries) expect(d.headers['webhook-id']).toBe(JSON.parse(d.body).id);
    const hooked = [...new Map(delivered.map((e) => [e.id, e])).values()].sort((a, b) => Number(a.id) - Number(b.id));
    expect(hooked.map((e) => (e.type === 'trade' ? e.data.kind : e.type))).toEqual([
      'launch',
      'trade',
      'trade',
      'trade',
    ]);
    // A delivery changed on the way is refused.
    await expect(
      verifyWebhook(secret, deliveries[0]!.headers, deliveries[0]!.body.replace('"', ' "')),
    ).rejects.toThrow();

    // The trades by block, oldest first, one a page: the three buys, in their blocks; a range of blocks narrows it.
    await expect
      .poll(
        async () =>
          (await client.api.GET('/api/v1/trades', { params: { query: { company: slug } } })).data?.data.length,
        { timeout: 30_000, interval: 300 },
      )
      .toBe(3);
    const paged = [];
    for await (const trade of client.items('/api/v1/trades', {
      company: slug,
      fromBlock: Number(blocks[0]),
      order: 'asc',
      limit: 1,
    })) {
      paged.push(trade);
    }
    expect(paged.map((t) => BigInt(t.blockNumber))).toEqual(blocks);
    expect(paged.every((t) => t.side === 'buy' && t.trader === trader.address)).toBe(true);
    expect(new Set(paged.map((t) => `${t.transactionHash}:${t.logIndex}`)).size).toBe(3);
    const later = [];
    for await (const trade of client.items('/api/v1/trades', {
      company: slug,
      fromBlock: Number(blocks[1]),
      toBlock: Number(blocks[2]),
      order: 'desc',
      limit: 1,
    })) {
      later.push(BigInt(trade.blockNumber));
    }
    expect(later).toEqual([blocks[2], blocks[1]]);

    // Back after longer than the stream keeps events (the first it missed was published, as its timestamp says, more
    // than EVENT_RETENTION_MS ago): the resume is refused, not silently short.
    const firstMissedAt = Math.min(...hooked.map((e) => Date.parse(e.timestamp)));
    expect(Number.isNaN(firstMissedAt)).toBe(false);
    await new Promise((r) => setTimeout(r, Math.max(0, firstMissedAt + RETENTION_MS + 2_000 - Date.now())));
    const refused = await (async () => {
      // A stream that opened instead would send nothing it missed: the timeout ends it, and the check below fails.
      const signal = AbortSignal.timeout(15_000);
      for await (const _ of client.events({ types: ['trade'], lastEventId: cursor, signal })) {
        // nothing arrives before the refusal
      }
    })().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 410, code: 'EVENTS_EXPIRED' });

    // The backfill from where it was, page by page, then the stream from the backfill's last event.
    const missed: PlatformEvent[] = [];
    for await (const event of client.items('/api/v1/events', { after: cursor, types: 'trade', limit: 2 })) {
      missed.push(event as PlatformEvent);
    }
    expect(missed.map(key)).toEqual(hooked.map(key));
    // The follower does the same by itself with `backfill: true`.
    const caughtUp: PlatformEvent[] = [];
    for await (const event of client.events({ types: ['trade'], lastEventId: cursor, backfill: true })) {
      caughtUp.push(event);
      if (caughtUp.length === hooked.length) break;
    }
    expect(caughtUp.map(key)).toEqual(hooked.map(key));
    const resumed = new AbortController();
    const seen: PlatformEvent[] = [];
    const following = (async () => {
      for await (const event of client.events({
        types: ['trade'],
        lastEventId: missed.at(-1)!.id,
        signal: resumed.signal,
      })) {
        seen.push(event);
      }
    })();
    const fourth = await buy(token, 50n * USDC);
    await expect.poll(() => seen.length, { timeout: 30_000, interval: 200 }).toBe(1);
    resumed.abort();
    await following;
    // Only the new trade: nothing the backfill gave comes again, nothing is missing.
    expect(seen[0]!.type === 'trade' && seen[0]!.data.kind).toBe('trade');
    expect(BigInt(seen[0]!.id)).toBeGreaterThan(BigInt(missed.at(-1)!.id));
    expect(seen[0]!.type === 'trade' && BigInt(seen[0]!.data.blockNumber)).toBe(fourth);
  }, 240_000);
});
