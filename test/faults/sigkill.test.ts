// Fault: the service process is killed with SIGKILL in the middle of writes that span the database and the chain
// (dev accounts create companies, which locks their cards on-chain, hire their C-suites, which registers ERC-8004
// identities and proves agent wallets, and launch tokens), twice, at two different moments. The chain (anvil) and
// the database (PostgreSQL on TEST_DATABASE_URL, else a PGlite directory on disk) outlive the process. After each
// restart, once the start-up jobs ran, nothing is half-written: every recorded transaction is mined exactly once,
// every bound card is locked on-chain once, every identity and token on-chain belongs to exactly one row. Then the
// clients retry what they never heard back about: each retry succeeds or answers 409, and nothing is duplicated.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AccessCardAbi, IdentityRegistryAbi, MockUSDCAbi, TokenLauncherAbi } from '@ai-economy/shared/abis';
import { type Address, createWalletClient, getAddress, type Hex, http, isAddressEqual, zeroAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { companyKey, predictTokenAddress } from '../../src/chain/contracts/launcher.ts';
import { AGENT_ROLES } from '../../src/constants.ts';
import type { Db } from '../../src/db/client.ts';
import { agents } from '../../src/db/schema/agents.ts';
import { chainTxs } from '../../src/db/schema/chain.ts';
import { companies } from '../../src/db/schema/companies.ts';
import { agentRegistrationUri } from '../../src/domain/identity/pipeline.ts';
import { createHdWalletProvider, loadWalletSeed } from '../../src/domain/wallets/provider.ts';
import { UNAVAILABLE_RETRY_AFTER_S } from '../../src/http/errors.ts';
import { startupJobs } from '../../src/jobs/scheduler.ts';
import { disagreementsWithChain } from '../helpers/exactly-once.ts';
import {
  killServices,
  type ServiceChain,
  type ServiceDatabase,
  type ServiceProcess,
  serviceDatabase,
  signedFetch,
  startService,
  startServiceChain,
  waitForJobs,
} from '../helpers/process.ts';

const ACCOUNTS = [1, 2, 3, 4, 5, 6];
const BASE_URL = 'http://localhost:3000';

let dir: string;
let chain: ServiceChain;
let store: ServiceDatabase;
let env: Record<string, string>;
/** The platform's transaction count before any service ran: every later platform transaction is the outbox's. */
let platformNonceBefore: number;
/** The first block a service could have written: the exactly-once checker scans the chain from here. */
let fromBlock: bigint;

type Outcome = { status: number; body?: any } | { lost: string };
interface Flow {
  account: number;
  name: string;
  symbol: string;
  create?: Outcome;
  suite?: Outcome;
  token?: Outcome;
}
const flows: Flow[] = [];

const contracts = () =>
  chain.file.contracts as { accessCard: Address; usdc: Address; identityRegistry: Address; tokenLauncher: Address };

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'aie-sigkill-'));
  [chain, store] = await Promise.all([startServiceChain(dir, { baseUrl: BASE_URL }), serviceDatabase(dir)]);
  env = {
    DATA_DIR: dir,
    BASE_URL,
    ...chain.env,
    ...store.env,
    INDEXER_POLL_MS: '200',
    RATE_LIMIT_MAX: '100000',
  };
  const client = chain.clients.publicClient;
  const { accessCard, usdc } = contracts();
  // Each account holds two cards: one company per burst (a lost creation retried later takes the other).
  const price = await client.readContract({ address: accessCard, abi: AccessCardAbi, functionName: 'mintPrice' });
  await Promise.all(
    ACCOUNTS.map(async (i) => {
      const w = createWalletClient({
        account: devAccount(i),
        chain: chain.clients.viemChain,
        transport: http(chain.node.rpcUrl),
      });
      await client.waitForTransactionReceipt({
        hash: await w.writeContract({
          address: usdc,
          abi: MockUSDCAbi,
          functionName: 'approve',
          args: [accessCard, price * 2n],
        }),
      });
      for (let n = 0; n < 2; n++) {
        const r = await client.waitForTransactionReceipt({
          hash: await w.writeContract({ address: accessCard, abi: AccessCardAbi, functionName: 'mint' }),
        });
        expect(r.status).toBe('success');
      }
    }),
  );
  platformNonceBefore = await client.getTransactionCount({ address: devAccount(0).address, blockTag: 'pending' });
  fromBlock = (await client.getBlockNumber()) + 1n;
}, 120_000);

afterAll(async () => {
  killServices();
  await store?.drop();
  await chain?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function outcome(res: Promise<Response>): Promise<Outcome> {
  try {
    const r = await res;
    const text = await r.text();
    let body: any;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    return { status: r.status, body };
  } catch (err) {
    return { lost: String((err as Error).cause ?? err) };
  }
}

const isOk = (o: Outcome | undefined, status: number) => o !== undefined && 'status' in o && o.status === status;

/** One account's writes, one after another: create the company, hire its C-suite, launch its token. */
async function runFlow(service: ServiceProcess, flow: Flow, onResponse: (step: string) => void) {
  const account = devAccount(flow.account);
  flow.create = await outcome(
    signedFetch(service.base, account, 'POST', '/api/companies', { name: flow.name, category: 'AI_TOKENS' }),
  );
  onResponse('create');
  if (!isOk(flow.create, 201)) return;
  const id = (flow.create as { body: any }).body.data.id as string;
  flow.suite = await outcome(signedFetch(service.base, account, 'POST', `/api/companies/${id}/deploy-suite`));
  onResponse('suite');
  if (!isOk(flow.suite, 200)) return;
  flow.token = await outcome(
    signedFetch(service.base, account, 'POST', `/api/companies/${id}/token`, { name: flow.name, symbol: flow.symbol }),
  );
  onResponse('token');
}

/**
 * Starts every account's flow at once and kills the process with SIGKILL once `killAfter` responses of `step` came
 * back; returns when the process is gone and every request has ended (answered, or cut off by the kill).
 */
async function burstAndKill(service: ServiceProcess, burst: number, step: string, killAfter: number) {
  const mine = ACCOUNTS.map((account) => ({
    account,
    name: `Crash ${burst}-${account}`,
    symbol: `CR${burst}${account}`,
  }));
  flows.push(...mine);
  let seen = 0;
  let killed: Promise<void> | undefined;
  const running = mine.map((flow) =>
    runFlow(service, flow, (s) => {
      if (s === step && ++seen === killAfter) killed = service.kill();
    }),
  );
  // A burst that finishes before the kill point is killed right after.
  await Promise.all(running);
  await (killed ?? service.kill());
  expect(service.child.signalCode).toBe('SIGKILL');
}

/** Every log of one event of a contract, from genesis. */
async function events(address: Address, abi: any, eventName: string) {
  return chain.clients.publicClient.getContractEvents({
    address,
    abi,
    eventName,
    fromBlock: 0n,
    strict: true,
  } as never) as Promise<{ args: any; transactionHash: Hex }[]>;
}

/**
 * Invariants that hold wherever the kill landed, once the start-up jobs ran after the restart: what a request began
 * is finished (cards locked, agents provisioned, requested tokens launched) or was never begun, never half done.
 * `complete`: every flow was retried to its end, so every company is PUBLIC with its seven agents.
 */
async function expectConsistent(db: Db, { complete }: { complete: boolean }) {
  const client = chain.clients.publicClient;
  const { accessCard, identityRegistry, tokenLauncher } = contracts();
  const platform = devAccount(0).address;
  // The agent wallets derive from the seed the first start generated under DATA_DIR.
  const wallets = createHdWalletProvider(loadWalletSeed(undefined, dir, false));

  // Outbox: every recorded transaction mined, each nonce once, and no platform transaction outside the outbox.
  const txs = await db.select().from(chainTxs);
  expect(
    txs.filter((t) => t.status !== 'MINED').map((t) => `${t.key} ${t.status}`),
    'outbox rows not mined',
  ).toEqual([]);
  expect(new Set(txs.map((t) => t.nonce)).size).toBe(txs.length);
  const onChainNonce = await client.getTransactionCount({ address: platform, blockTag: 'pending' });
  expect(onChainNonce - platformNonceBefore, 'platform transactions vs outbox rows').toBe(txs.length);
  for (const t of txs) {
    const tx = await client.getTransaction({ hash: t.hash as Hex });
    expect(tx.nonce).toBe(t.nonce);
    expect(isAddressEqual(tx.from, platform)).toBe(true);
  }

  // Companies: each bound card locked on-chain once, to this company's creator; no lock without a company.
  const rows = await db.select().from(companies);
  const deployedEvents = await events(accessCard, AccessCardAbi, 'CompanyDeployed');
  expect(deployedEvents.map((e) => Number(e.args.tokenId)).sort((a, b) => a - b)).toEqual(
    rows.map((r) => r.cardTokenId).sort((a, b) => a - b),
  );
  for (const row of rows) {
    expect(row.cardLockedAt, `${row.slug} card lock recorded`).not.toBeNull();
    const [locked, owner] = await Promise.all([
      client.readContract({
        address: accessCard,
        abi: AccessCardAbi,
        functionName: 'companyDeployed',
        args: [BigInt(row.cardTokenId)],
      }),
      client.readContract({
        address: accessCard,
        abi: AccessCardAbi,
        functionName: 'ownerOf',
        args: [BigInt(row.cardTokenId)],
      }),
    ]);
    expect(locked).toBe(true);
    expect(isAddressEqual(owner, row.creatorAddress as Address)).toBe(true);
  }
  // Every company the service answered 201 for exists, once per name.
  for (const f of flows.filter((f) => isOk(f.create, 201))) {
    expect(rows.filter((r) => r.name === f.name)).toHaveLength(1);
  }
  expect(new Set(rows.map((r) => r.name)).size).toBe(rows.length);

  // Agents: at most one live agent per role; each identity on-chain belongs to exactly one agent, registered once.
  const agentRows = await db.select().from(agents);
  const registered = await events(identityRegistry, IdentityRegistryAbi, 'Registered');
  const byUri = new Map<string, bigint[]>();
  for (const e of registered) byUri.set(e.args.agentURI, [...(byUri.get(e.args.agentURI) ?? []), e.args.agentId]);
  for (const [uri, ids] of byUri) expect(ids, `identities registered for ${uri}`).toHaveLength(1);
  const uriOf = (id: string) => agentRegistrationUri(BASE_URL, id);
  for (const uri of byUri.keys()) {
    expect(
      agentRows.some((a) => uriOf(a.id) === uri),
      `identity ${uri} belongs to an agent`,
    ).toBe(true);
  }
  const walletIndexes = agentRows.filter((a) => a.walletIndex !== null).map((a) => a.walletIndex);
  expect(new Set(walletIndexes).size).toBe(walletIndexes.length);
  for (const row of rows) {
    const live = agentRows.filter((a) => a.companyId === row.id && a.status !== 'TERMINATED');
    // A deploy-suite hires all seven roles in one statement: none or all, and the company PRIVATE with them.
    if (complete || live.length > 0) {
      expect(live.map((a) => a.role).sort(), `${row.slug} C-suite`).toEqual([...AGENT_ROLES].sort());
      expect(['PRIVATE', 'PUBLIC'], `${row.slug} status`).toContain(row.status);
    }
    if (complete) expect(row.status).toBe('PUBLIC');
  }
  for (const a of agentRows) {
    // repair-agent-deployments finished every agent an interrupted deploy-suite left PENDING or DEPLOYING.
    expect(a.status, `${a.name}: ${a.lastErrors}`).toBe('ACTIVE');
    expect(a.onChainAddress, `${a.name} wallet`).toBe(await wallets.addressOf(a.walletIndex!));
    const id = BigInt(a.erc8004TokenId!);
    expect(byUri.get(uriOf(a.id)), `${a.name} identity`).toEqual([id]);
    const [owner, wallet] = await Promise.all([
      client.readContract({ address: identityRegistry, abi: IdentityRegistryAbi, functionName: 'ownerOf', args: [id] }),
      client.readContract({
        address: identityRegistry,
        abi: IdentityRegistryAbi,
        functionName: 'getAgentWallet',
        args: [id],
      }),
    ]);
    expect(isAddressEqual(owner, platform)).toBe(true);
    expect(isAddressEqual(wallet, a.onChainAddress as Address), `${a.name} agent wallet`).toBe(true);
  }

  // Tokens: a launched token on-chain is the one the row predicted and records, launched once.
  const launched = await events(tokenLauncher, TokenLauncherAbi, 'TokenLaunched');
  const launchesOf = new Map<string, { token: Address; hash: Hex }[]>();
  for (const e of launched) {
    launchesOf.set(e.args.companyKey, [
      ...(launchesOf.get(e.args.companyKey) ?? []),
      { token: e.args.token, hash: e.transactionHash },
    ]);
  }
  for (const [key, list] of launchesOf) {
    expect(list, `launches of ${key}`).toHaveLength(1);
    expect(
      rows.some((r) => companyKey(r.id) === key),
      `token of ${key} belongs to a company`,
    ).toBe(true);
  }
  for (const row of rows) {
    const onChain = await client.readContract({
      address: tokenLauncher,
      abi: TokenLauncherAbi,
      functionName: 'tokenOfCompany',
      args: [companyKey(row.id)],
    });
    if (row.tokenLaunchRequestedAt === null) {
      expect(onChain, `${row.slug} launched without a request`).toBe(zeroAddress);
      continue;
    }
    expect(row.tokenAddress).toBe(
      predictTokenAddress(tokenLauncher, companyKey(row.id), row.tokenName!, row.tokenSymbol!),
    );
    if (onChain !== zeroAddress) {
      expect(getAddress(onChain)).toBe(row.tokenAddress);
      // The indexer (or the start-up repair) has applied it.
      expect(row.tokenStatus, `${row.slug} launched on-chain`).toBe('BONDING');
      expect(row.tokenLaunchTxHash).toBe(launchesOf.get(companyKey(row.id))![0]!.hash);
    } else {
      // repair-token-launches sent every launch that was requested.
      expect.fail(`${row.slug}: token launch requested but never sent`);
    }
  }
}

/** Opens the database once the service is stopped (PGlite's directory is locked while it runs). */
async function inspect(check: (db: Db) => Promise<void>) {
  const database = await store.open();
  try {
    await check(database.db);
  } finally {
    await database.close();
  }
}

async function restartAndRepair(): Promise<ServiceProcess> {
  const service = await startService(env);
  const outcomes = await waitForJobs(service, startupJobs);
  expect(outcomes, service.output()).toEqual(Object.fromEntries(startupJobs.map((j) => [j, 'ok'])));
  return service;
}

/**
 * Waits until the indexer has applied every block (its lag gauge 0 for each stream), twice 500 ms apart: no write
 * runs any more, so the chain's launches are applied here (CHAIN_CONFIRMATIONS=0, INDEXER_POLL_MS=200).
 */
async function settleIndexer(service: ServiceProcess) {
  for (let round = 0; round < 2; round++) {
    await new Promise((r) => setTimeout(r, 500));
    const deadline = Date.now() + 15_000;
    for (;;) {
      const text = await fetch(`${service.base}/metrics`)
        .then((r) => r.text())
        .catch((err) => {
          throw new Error(`the service stopped answering (${err.cause ?? err}): ${service.output()}`);
        });
      const lags = [...text.matchAll(/^aie_indexer_lag_blocks\{stream="([\w-]+)"\} (\d+)$/gm)];
      if (lags.length > 0 && lags.every((m) => m[2] === '0')) break;
      if (Date.now() > deadline) throw new Error(`indexer not caught up: ${lags.map((m) => m[0]).join(', ')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Stops the service (SIGTERM: exit 0) and checks the database against the chain. */
async function stopAndCheck(service: ServiceProcess, complete: boolean) {
  await settleIndexer(service);
  expect(await service.stop()).toBe(0);
  await inspect(async (db) => {
    await expectConsistent(db, { complete });
    // Every outbox row, agent action and round line agrees with the chain, and no platform transaction lacks its row.
    expect(await disagreementsWithChain(db, chain.clients.publicClient, fromBlock)).toEqual([]);
  });
}

/** The company a flow created, read over HTTP by its slug; undefined when there is none. */
async function companyOf(service: ServiceProcess, flow: Flow): Promise<any> {
  const res = await fetch(`${service.base}/api/companies/${flow.name.toLowerCase().replace(/ /g, '-')}`);
  if (res.status === 404) return undefined;
  expect(res.status).toBe(200);
  return ((await res.json()) as any).data;
}

/**
 * Sends one retried request as the client package does: a 503 (the restarted service's pool still busy with its
 * repairs) is tried again after its Retry-After, up to three times; any other answer is the outcome.
 */
async function retried(send: () => Promise<Response>): Promise<Outcome> {
  for (let attempt = 1; ; attempt++) {
    const res = await outcome(send());
    if (!('status' in res) || res.status !== 503 || attempt === 3) return res;
    await new Promise((r) => setTimeout(r, UNAVAILABLE_RETRY_AFTER_S * 1000));
  }
}

/** Repeats what a flow never heard back about, as its client would: each step succeeds or answers 409. */
async function retryFlow(service: ServiceProcess, flow: Flow) {
  const account = devAccount(flow.account);
  if (!isOk(flow.create, 201)) {
    const res = await retried(() =>
      signedFetch(service.base, account, 'POST', '/api/companies', { name: flow.name, category: 'AI_TOKENS' }),
    );
    const status = 'status' in res ? res.status : res.lost;
    expect([201, 409], JSON.stringify(res)).toContain(status);
    if (status === 409) expect((res as any).body.error.message).toMatch(/slug .* is taken/);
  }
  const company = await companyOf(service, flow);
  expect(company, flow.name).toBeDefined();
  expect(company.creatorAddress).toBe(account.address);
  if (!isOk(flow.suite, 200)) {
    const res = await retried(() =>
      signedFetch(service.base, account, 'POST', `/api/companies/${company.id}/deploy-suite`),
    );
    expect(isOk(res, 200), JSON.stringify(res)).toBe(true);
  }
  if (!isOk(flow.token, 201)) {
    const res = await retried(() =>
      signedFetch(service.base, account, 'POST', `/api/companies/${company.id}/token`, {
        name: flow.name,
        symbol: flow.symbol,
      }),
    );
    const status = 'status' in res ? res.status : res.lost;
    expect([201, 409], JSON.stringify(res)).toContain(status);
    if (status === 409) expect((res as any).body.error.message).toMatch(/already launched its token/);
  }
  const after = await companyOf(service, flow);
  expect(after.status, flow.name).toBe('PUBLIC');
}

describe('SIGKILL in the middle of writes', () => {
  it('kill 1, while companies are created and their cards locked: after the restart nothing is half-written', async () => {
    const service = await startService(env);
    await burstAndKill(service, 0, 'create', 2);
    await stopAndCheck(await restartAndRepair(), false);
  }, 150_000);

  it('kill 2, while C-suites are hired and tokens launched: after the restart nothing is half-written', async () => {
    const service = await restartAndRepair();
    await burstAndKill(service, 1, 'token', 1);
    await stopAndCheck(await restartAndRepair(), false);
  }, 150_000);

  it('retried requests succeed or answer 409, and finish every company without duplicating anything', async () => {
    const service = await restartAndRepair();
    await Promise.all(flows.map((flow) => retryFlow(service, flow)));
    await stopAndCheck(service, true);
  }, 150_000);
});
