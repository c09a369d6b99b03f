// A bot as integrators write one: the client package (packages/client, generated from the v1 document) against the
// whole service as a real process over loopback, with its anvil and a database that outlive the process. The bot
// follows the event stream while tokens launch, across a restart of the server (the follower reconnects and resumes
// with Last-Event-ID, and the launch made while it was away reaches it from the backlog), and pages the token list
// by cursor while a token launches between two pages. It must see every launch event once, in order, with no gap,
// and every listed token once. One service process, restarted once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AccessCardAbi, MockUSDCAbi } from '@ai-economy/shared/abis';
import { createPublicClient, createWalletClient, http } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type PlatformEvent } from '../../packages/client/src/index.ts';
import { devAccount, makeViemChain } from '../../src/chain/client.ts';
import {
  killServices,
  lastLine,
  runCli,
  type ServiceChain,
  type ServiceDatabase,
  type ServiceProcess,
  serviceDatabase,
  signedFetch,
  startService,
  startServiceChain,
} from '../helpers/process.ts';

const COMPANIES = ['Bot Alpha', 'Bot Bravo', 'Bot Charlie', 'Bot Delta'];
const creator = devAccount(2);
const dir = mkdtempSync(path.join(tmpdir(), 'aie-bot-'));
let chain: ServiceChain;
let store: ServiceDatabase;
let server: ServiceProcess;
let env: Record<string, string>;
let apiKey: string;
const ids: string[] = [];

beforeAll(async () => {
  [chain, store] = await Promise.all([startServiceChain(dir), serviceDatabase(dir)]);
  const admin = { ADMIN_SECRET: 'bot-test-admin-secret-0123456789abcdef' };
  env = { DATA_DIR: dir, ...chain.env, ...store.env, ...admin, RATE_LIMIT_MAX: '100000' };
  // The creator's cards, one a company, in one batch.
  const viemChain = makeViemChain(31337, chain.node.rpcUrl);
  const publicClient = createPublicClient({ chain: viemChain, transport: http(chain.node.rpcUrl) });
  const wallet = createWalletClient({ account: creator, chain: viemChain, transport: http(chain.node.rpcUrl) });
  const { accessCard, usdc } = chain.file.contracts as { accessCard: `0x${string}`; usdc: `0x${string}` };
  const price = await publicClient.readContract({ address: accessCard, abi: AccessCardAbi, functionName: 'mintPrice' });
  const quantity = BigInt(COMPANIES.length);
  await publicClient.waitForTransactionReceipt({
    hash: await wallet.writeContract({
      address: usdc,
      abi: MockUSDCAbi,
      functionName: 'approve',
      args: [accessCard, price * quantity],
    }),
  });
  const minted = await publicClient.waitForTransactionReceipt({
    hash: await wallet.writeContract({
      address: accessCard,
      abi: AccessCardAbi,
      functionName: 'mintBatch',
      args: [quantity],
    }),
  });
  expect(minted.status).toBe('success');
  server = await startService(env);
  // The key, as an operator makes one (through the running service when it holds the embedded database).
  const made = await runCli(['api-keys', 'create', '--name', 'bot'], { DATA_DIR: dir, ...store.env, ...admin });
  expect(made.code, made.stderr).toBe(0);
  apiKey = lastLine(made.stdout);
  for (const name of COMPANIES) {
    const created = await signedFetch(server.base, creator, 'POST', '/api/companies', { name, category: 'AI_TOKENS' });
    expect(created.status, await created.clone().text()).toBe(201);
    ids.push(((await created.json()) as { data: { id: string } }).data.id);
  }
}, 180_000);

afterAll(async () => {
  killServices();
  await store?.drop();
  await chain?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Launches company `i`'s token through the service, as its creator. */
async function launch(i: number) {
  const symbol = `BOT${'ABCD'[i]}`;
  const res = await signedFetch(server.base, creator, 'POST', `/api/companies/${ids[i]}/token`, {
    name: `${COMPANIES[i]} Token`,
    symbol,
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return symbol;
}

describe('a bot on the v1 client', () => {
  it('follows the stream across a restart and pages the token list while tokens launch: no repeat, no gap', async () => {
    const client = createClient({ baseUrl: server.base, apiKey });
    // The bot's connection goes through this gate: closed, the follower cannot reconnect (as a bot whose network
    // is down), so what happens meanwhile must come from the backlog when it resumes.
    let gate: Promise<void> = Promise.resolve();
    let openGate = () => {};
    const gated = createClient({
      baseUrl: server.base,
      apiKey,
      fetch: async (input, init) => {
        await gate;
        return fetch(input, init);
      },
    });
    const connects: (string | undefined)[] = [];
    const controller = new AbortController();
    const stream = gated.events({
      types: ['trade'],
      signal: controller.signal,
      reconnectDelayMs: 100,
      maxReconnectDelayMs: 400,
      onConnect: ({ lastEventId }) => connects.push(lastEventId),
    });
    const events: PlatformEvent[] = [];
    let arrived = () => {};
    const following = (async () => {
      for await (const event of stream) {
        events.push(event);
        arrived();
      }
    })();
    const launchesSeen = (n: number) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`saw ${events.length} events, not ${n}`)), 30_000);
        const check = () => {
          if (events.length >= n) {
            clearTimeout(timer);
            resolve();
          }
        };
        arrived = check;
        check();
      });
    // Connected (the first connection resumes from nothing).
    await expect.poll(() => connects.length, { timeout: 10_000 }).toBe(1);

    // Two launches, then the token list paged one by one with a launch between two pages.
    const symbols = [await launch(0), await launch(1)];
    await launchesSeen(2);
    const before: string[] = [];
    for await (const token of client.items('/api/v1/tokens', { limit: 100 })) before.push(token.tokenSymbol);
    expect(before.sort()).toEqual([...symbols].sort());
    const listed: string[] = [];
    let pages = 0;
    for await (const page of client.pages('/api/v1/tokens', { limit: 1 })) {
      listed.push(...page.data.map((token) => token.tokenSymbol));
      if (++pages === 1) symbols.push(await launch(2));
    }
    // Every token listed before paging began, once each and in the list's order; the one launched meanwhile may
    // show (launch times are the chain's seconds: within the same second the id orders) but once at most.
    expect(listed.filter((s) => before.includes(s))).toEqual(
      (await client.api.GET('/api/v1/tokens', { params: { query: { limit: 100 } } }))
        .data!.data.map((token) => token.tokenSymbol)
        .filter((s) => before.includes(s)),
    );
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed.filter((s) => !before.includes(s)).every((s) => s === symbols[2])).toBe(true);
    await launchesSeen(3);

    // The server restarts on the same port; while it is down the bot cannot reconnect, and a launch happens
    // before it is back.
    gate = new Promise<void>((resolve) => {
      openGate = resolve;
    });
    const beforeRestart = stream.lastEventId;
    expect(beforeRestart).toBe(events.at(-1)!.id);
    expect(await server.stop()).toBe(0);
    server = await startService(env, { port: Number(new URL(server.base).port) });
    symbols.push(await launch(3));
    openGate();
    await launchesSeen(4);
    // It resumed after the last event it had.
    expect(connects.length).toBeGreaterThanOrEqual(2);
    expect(connects.at(-1)).toBe(beforeRestart);

    // Every launch once, in order of ids, none missing.
    controller.abort();
    await following;
    expect(events.map((e) => (e.type === 'trade' ? `${e.data.kind} ${e.data.tokenSymbol}` : e.type))).toEqual(
      symbols.map((s) => `launch ${s}`),
    );
    const eventIds = events.map((e) => BigInt(e.id));
    for (let i = 1; i < eventIds.length; i++) expect(eventIds[i]! > eventIds[i - 1]!).toBe(true);
    // And the whole list, paged again from the start by 3, holds every token once.
    const all: string[] = [];
    for await (const token of client.items('/api/v1/tokens', { limit: 3 })) all.push(token.tokenSymbol);
    expect([...all].sort()).toEqual([...symbols].sort());
    expect(all).toHaveLength(symbols.length);
  }, 180_000);
});
