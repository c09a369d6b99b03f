// What test files share (test/README.md), served by the global setup from vitest's main process, each made on
// first ask:
// - POST /chain?pool=N: the chain of pool slot N (VITEST_POOL_ID; files of one slot run one after another). The first
//   ask starts anvil and deploys the platform's contracts; every ask puts the chain back where the deployment left it
//   (evm_revert to a snapshot taken right after it), with the clock at the present. So each file sees what a fresh
//   anvil with a fresh deployment showed it, without starting one.
// - POST /postgres-template: a migrated database on TEST_DATABASE_URL's server, which each file's database is copied
//   from (CREATE DATABASE ... TEMPLATE).
// - POST /slots: the pools that have a chain (cheap; what test/helpers/broker.test.ts asks under load).
// Every answer closes its connection. A kept-alive socket raced the server's idle timer under load: the server closed
// it as a worker reused it, and the worker's fetch failed with "other side closed". A broker call is made once per
// file, so a new connection each time costs nothing; and since every route is idempotent (a lease resets the chain,
// the template is made once), a call that still loses its connection is made once more.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { inject } from 'vitest';
import { type AnvilNode, startAnvil } from '../../src/chain/anvil.ts';
import { createChainClients, forgetNonces } from '../../src/chain/client.ts';
import type { ContractsFile } from '../../src/chain/contracts/addresses.ts';
import { deployLocalContracts } from '../../src/chain/deploy.ts';
import { openDatabase } from '../../src/db/client.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The broker of the global setup (test/global-setup.ts, test/helpers/broker.ts). */
    testBroker: string;
  }
}

/** The base URL the shared deployments are made with (a file asking for another sets it on the card). */
export const SHARED_CHAIN_BASE_URL = 'http://localhost:3000';

/** What a worker receives: the node and the deployment on it. */
export interface SharedChainLease {
  rpcUrl: string;
  port: number;
  file: ContractsFile;
}

interface Slot {
  node: AnvilNode;
  file: ContractsFile;
  /** The snapshot right after the deployment, taken again after each revert (a revert consumes it). */
  snapshot: string;
}

async function rpc<T>(rpcUrl: string, method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

/** Slots start one at a time: viem counts nonces per address and chain id, process-wide, and every slot is 31337. */
let starting: Promise<unknown> = Promise.resolve();

function startSlot(): Promise<Slot> {
  const started = starting.then(deploySlot, deploySlot);
  starting = started.catch(() => {});
  return started;
}

async function deploySlot(): Promise<Slot> {
  const node = await startAnvil();
  // A new node: the nonces counted on another slot's node mean nothing here.
  forgetNonces(31337);
  try {
    const clients = createChainClients({ chainId: 31337, rpcUrl: node.rpcUrl, local: true, timeoutMs: 30_000 });
    // Account 0 stays the owner of everything: the contract tests call owner functions directly (test/README.md).
    const file = await deployLocalContracts(clients, undefined, { baseUrl: SHARED_CHAIN_BASE_URL, owner: null });
    return { node, file, snapshot: await rpc<string>(node.rpcUrl, 'evm_snapshot') };
  } catch (err) {
    await node.stop();
    throw err;
  }
}

/**
 * Back to the state after the deployment: no pending transaction, automine on, the deployment's state and blocks,
 * then the clock set to the present and one block mined at it, so "the chain's latest block" is now, as on a node
 * just started.
 */
async function reset(slot: Slot): Promise<boolean> {
  const url = slot.node.rpcUrl;
  await rpc(url, 'anvil_dropAllTransactions');
  await rpc(url, 'evm_setAutomine', [true]);
  if (!(await rpc<boolean>(url, 'evm_revert', [slot.snapshot]))) return false;
  slot.snapshot = await rpc<string>(url, 'evm_snapshot');
  await rpc(url, 'anvil_setTime', [Math.floor(Date.now() / 1000)]);
  await rpc(url, 'evm_mine');
  return true;
}

async function admin<T>(serverUrl: string, run: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: serverUrl });
  await c.connect();
  try {
    return await run(c);
  } finally {
    await c.end();
  }
}

/** A migrated database on the server of `serverUrl`, with no session left on it (a template must have none). */
async function postgresTemplate(serverUrl: string): Promise<string> {
  const name = `aie_template_${randomBytes(6).toString('hex')}`;
  await admin(serverUrl, (c) => c.query(`create database ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), poolSize: 1 });
  await database.close();
  return name;
}

export interface TestBroker {
  url: string;
  stop(): Promise<void>;
}

export interface TestBrokerOptions {
  /** The server's idle timeout for a socket (Node's default: 5 s); only the test of the broker shortens it. */
  keepAliveTimeoutMs?: number;
}

export async function startTestBroker(options: TestBrokerOptions = {}): Promise<TestBroker> {
  const slots = new Map<string, Promise<Slot>>();
  let postgres: Promise<string> | undefined;
  const postgresUrl = process.env.TEST_DATABASE_URL;
  const lease = async (pool: string): Promise<SharedChainLease> => {
    let pending = slots.get(pool);
    if (!pending) {
      pending = startSlot();
      slots.set(pool, pending);
      pending.catch(() => slots.delete(pool));
    }
    let slot = await pending;
    if (!(await reset(slot).catch(() => false))) {
      // The node died or lost the snapshot (a test killed it, or reverted past it): a new one for this slot.
      await slot.node.stop().catch(() => {});
      pending = startSlot();
      slots.set(pool, pending);
      slot = await pending;
      await reset(slot);
    }
    return { rpcUrl: slot.node.rpcUrl, port: slot.node.port, file: slot.file };
  };
  const answer = async (route: string, query: URLSearchParams): Promise<unknown> => {
    if (route === '/chain') {
      const pool = query.get('pool');
      if (!pool || !/^\d+$/.test(pool)) throw new Error('pool must be a number');
      return lease(pool);
    }
    if (route === '/postgres-template' && postgresUrl) {
      postgres ??= postgresTemplate(postgresUrl);
      return { name: await postgres };
    }
    if (route === '/slots') return { pools: [...slots.keys()] };
    throw new Error(`no route ${route}`);
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://broker');
    answer(url.pathname, url.searchParams).then(
      (body) =>
        res.writeHead(200, { 'content-type': 'application/json', connection: 'close' }).end(JSON.stringify(body)),
      (err: Error) =>
        res.writeHead(500, { 'content-type': 'text/plain', connection: 'close' }).end(err.stack ?? err.message),
    );
  });
  if (options.keepAliveTimeoutMs !== undefined) server.keepAliveTimeout = options.keepAliveTimeoutMs;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      const started = await Promise.allSettled(slots.values());
      await Promise.all(started.map((s) => (s.status === 'fulfilled' ? s.value.node.stop() : undefined)));
      const template = await postgres?.catch(() => undefined);
      if (template && postgresUrl) {
        await admin(postgresUrl, (c) => c.query(`drop database if exists ${template} with (force)`));
      }
    },
  };
}

/** POSTs to the global setup's broker; undefined outside vitest or without its global setup. */
export async function askBroker<T>(route: string): Promise<T | undefined> {
  let broker: string | undefined;
  try {
    broker = inject('testBroker');
  } catch {
    return undefined;
  }
  if (!broker) return undefined;
  return callBroker<T>(broker, route);
}

/** True for a fetch that lost its connection before an answer (undici: "other side closed", a reset socket). */
function lostConnection(err: unknown): boolean {
  if (!(err instanceof TypeError)) return false;
  const cause = (err as { cause?: { code?: string } }).cause;
  return ['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE'].includes(cause?.code ?? '');
}

/** POSTs `route` to the broker at `broker`; once more if the connection was lost (every route is idempotent). */
export async function callBroker<T>(broker: string, route: string): Promise<T> {
  const post = () => fetch(`${broker}${route}`, { method: 'POST' });
  const res = await post().catch((err: unknown) => {
    if (lostConnection(err)) return post();
    throw err;
  });
  if (res.status !== 200) throw new Error(`the test broker answered ${route} with ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}
