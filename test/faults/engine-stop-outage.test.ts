// Fault: the engine process is stopped while the chain does not answer. A real service process
// (`tsx src/main.ts`, roles api and engine) runs a company's scheduled rounds through an RPC proxy; its CFO buys 50
// USDC of a token every round (an approval, then the trade). The proxy answers the broadcast of the approval, or of
// the trade, and then stops answering anything, as a node that dies while the engine waits for the receipt; the
// process then gets SIGTERM. It exits 0 within its shutdown deadline (ENGINE_SHUTDOWN_GRACE_MS + 10 s), the round
// ends FAILED as interrupted by the shutdown (nothing stays RUNNING), an action whose trade was never signed is
// FAILED at once and counts toward nothing, and one whose trade was signed is left to settle-outbox, which records
// it as the chain mined it once the node is back. Then a SIGKILL right after the approval's broadcast (its answer
// lost): once the round is failed as stale and settle-outbox ran, the action is FAILED with a line that says only
// the approval was signed, and its notional is not counted toward the day. After each fault the exactly-once
// checker finds every outbox row, action and round line in agreement with the chain.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { type Address, parseTransaction, toHex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { writeContractsFile } from '../../src/chain/contracts/addresses.ts';
import type { Database } from '../../src/db/client.ts';
import { agentActions } from '../../src/db/schema/agents.ts';
import { chainTxs } from '../../src/db/schema/chain.ts';
import { decisionRounds } from '../../src/db/schema/decisions.ts';
import { failStaleRounds } from '../../src/domain/engine/runner.ts';
import { jobs, runJobOnce } from '../../src/jobs/scheduler.ts';
import { startTestApp, type TestEnv } from '../helpers/app.ts';
import { startTestChain, type TestChain } from '../helpers/chain.ts';
import { signed, staffedCompany } from '../helpers/companies.ts';
import { disagreementsWithChain } from '../helpers/exactly-once.ts';
import { killServices, type ServiceDatabase, serviceDatabase, startService } from '../helpers/process.ts';
import { type RpcCall, type RpcProxy, startRpcProxy } from '../helpers/rpc-proxy.ts';
import { tokenTrading } from '../helpers/trading.ts';

const USDC = 1_000_000n;
const BASE_URL = 'http://localhost:3000';
const GRACE_MS = 1_000;
/** docs/operations.md "Graceful shutdown": the engine's grace, then 10 s for the rest. */
const DEADLINE_MS = GRACE_MS + 10_000;
/** The fixed seed test apps derive agent wallets from (test/helpers/app.ts), for the service too. */
const SEED = toHex(new Uint8Array(32).fill(7));

let dir: string;
let chain: TestChain;
let store: ServiceDatabase;
let proxy: RpcProxy;
// COMPANY_CUSTODY=none: this file is about the path where a company's agents act from their own wallets.
let env: Record<string, string>;
let companyId: string;
let cfo: { id: string; address: Address };
let fromBlock: bigint;

/** What the proxy does next: on the first broadcast to `to`, cut the chain after answering it, or lose its answer. */
let trap: { to: Address; mode: 'answer-then-cut' | 'lose'; sprung?: () => void } | undefined;
const broadcastTo = (call: RpcCall, to: Address) =>
  call.method === 'eth_sendRawTransaction' &&
  parseTransaction(call.params![0] as `0x${string}`).to?.toLowerCase() === to.toLowerCase();

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'aie-stop-outage-'));
  [chain, store] = await Promise.all([startTestChain({ baseUrl: BASE_URL }), serviceDatabase(dir)]);
  proxy = await startRpcProxy(chain.node.rpcUrl, {
    lose: (call) => {
      if (trap?.mode !== 'lose' || !broadcastTo(call, trap.to)) return false;
      const { sprung } = trap;
      trap = undefined;
      sprung?.();
      return true;
    },
    onAnswered: (calls) => {
      if (trap?.mode !== 'answer-then-cut' || !calls.some((c) => broadcastTo(c, trap!.to))) return;
      const { sprung } = trap;
      trap = undefined;
      proxy.pause();
      sprung?.();
    },
  });
  const contractsFile = path.join(dir, 'contracts.json');
  writeContractsFile(contractsFile, chain.file);
  env = {
    DATA_DIR: dir,
    COMPANY_CUSTODY: 'none',
    BASE_URL,
    ...store.env,
    CHAIN_RPC_URL: proxy.url,
    CONTRACTS_FILE: contractsFile,
    CHAIN_ID: '31337',
    PLATFORM_PRIVATE_KEY: toHex(devAccount(0).getHdKey().privateKey!),
    CHAIN_CONFIRMATIONS: '0',
    WALLET_MASTER_SEED: SEED,
    ROLES: 'api,engine',
    RPC_TIMEOUT_MS: '1000',
    ENGINE_SHUTDOWN_GRACE_MS: String(GRACE_MS),
    ENGINE_POLL_MS: '200',
    DECISION_INTERVAL_S: '10',
    RATE_LIMIT_MAX: '100000',
  };
  await inProcess(async (t) => {
    const trading = tokenTrading(t);
    const target = await staffedCompany(t, 2, { name: 'Outage Target' });
    await trading.launch(target.id, 'OTG', 2);
    await hold(t, target.id, 2);
    const trader = await staffedCompany(t, 1, { name: 'Outage Trader', category: 'SPOT_TRADING' });
    companyId = trader.id;
    cfo = trader.cfo;
    await trading.fund(1, cfo.address, 1_000n * USDC);
    const directive = await signed(t.app, 1, 'PATCH', `/api/companies/${companyId}`, {
      ceoPrompt: 'Buy 50 USDC of OTG every round.',
    });
    expect(directive.statusCode, directive.body).toBe(200);
  });
  fromBlock = (await chain.chain.publicClient.getBlockNumber()) + 1n;
}, 180_000);

afterAll(async () => {
  killServices();
  await proxy?.close();
  await store?.drop();
  await chain?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A company whose owner directs no trade: its rounds run and sign nothing. */
async function hold(t: TestEnv, id: string, account: number) {
  const res = await signed(t.app, account, 'PATCH', `/api/companies/${id}`, { ceoPrompt: 'Hold; no trades.' });
  expect(res.statusCode, res.body).toBe(200);
}

/** The database and the chain (directly, not through the proxy) in this process, while no service runs. */
async function inProcess<T>(run: (t: TestEnv) => Promise<T>): Promise<T> {
  const database: Database = await store.open();
  try {
    const app = await startTestApp({ database, chain, env: { COMPANY_CUSTODY: 'none', MANUAL_ROUND_COOLDOWN_S: '0' } });
    try {
      return await run({ ...app, chain, database });
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}

/** Starts the service and resolves once the trap is sprung (the service then still runs). */
async function runUntilSprung(to: Address, mode: 'answer-then-cut' | 'lose') {
  const sprung = new Promise<void>((resolve) => {
    trap = { to, mode, sprung: resolve };
  });
  const service = await startService(env);
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error(`no broadcast to ${to} within 60 s: ${service.output()}`)), 60_000),
  );
  await Promise.race([sprung, timeout]);
  return service;
}

/** The rounds of the trader, newest first, with their actions. */
async function lastRound(t: TestEnv) {
  const [round] = await t.database.db
    .select()
    .from(decisionRounds)
    .where(eq(decisionRounds.companyId, companyId))
    .orderBy(sql`${decisionRounds.createdAt} desc, ${decisionRounds.cycle} desc`)
    .limit(1);
  const actions = await t.database.db.select().from(agentActions).where(eq(agentActions.roundId, round!.id));
  return { round: round!, actions };
}

const settleOutbox = (t: TestEnv) => runJobOnce(jobs.find((j) => j.name === 'settle-outbox')!, t.container);
const runningRounds = (t: TestEnv) =>
  t.database.db.select().from(decisionRounds).where(eq(decisionRounds.status, 'RUNNING'));
/** What the day's notional limit counts for the trader: its SENT and MINED actions. */
const counted = async (t: TestEnv, keys: string[]) =>
  (
    await t.database.db
      .select({ key: agentActions.key })
      .from(agentActions)
      .where(and(inArray(agentActions.key, keys), inArray(agentActions.status, ['SENT', 'MINED'])))
  ).map((r) => r.key);

/** SIGTERM; the exit code and how long the process took to end. The chain answers again afterwards. */
async function terminate(service: Awaited<ReturnType<typeof startService>>) {
  const started = Date.now();
  try {
    const code = await service.stop();
    return { code, ms: Date.now() - started };
  } finally {
    proxy.resume();
  }
}

describe('SIGTERM to the engine during a chain outage', () => {
  it('after the approval was broadcast: exits 0 in time, the round is FAILED as interrupted, the unsigned trade FAILED', async () => {
    const service = await runUntilSprung(chain.chain.contracts.usdc!, 'answer-then-cut');
    const { code, ms } = await terminate(service);
    expect(code, service.output()).toBe(0);
    expect(ms).toBeLessThan(DEADLINE_MS);
    await inProcess(async (t) => {
      expect(await runningRounds(t)).toEqual([]);
      const { round, actions } = await lastRound(t);
      expect(round.status).toBe('FAILED');
      expect(round.error).toMatch(/^interrupted: the engine process stopped \(shutdown\)/);
      expect(actions).toHaveLength(1);
      const action = actions[0]!;
      // The approval may have been sent; the trade was never signed, and never will be: FAILED now.
      expect(action).toMatchObject({ status: 'FAILED', txHash: null });
      expect(round.actionsExecuted).toEqual([
        'CFO buy_token: failed: its transaction was never signed (the process signed its gas top-up and approval only); nothing was traded',
      ]);
      expect(await counted(t, [action.key])).toEqual([]);
      const rows = await t.database.db
        .select()
        .from(chainTxs)
        .where(eq(chainTxs.key, `${action.key}:approve`));
      expect(rows.map((r) => r.status)).toEqual(['SENT']);
      expect(await settleOutbox(t)).toBe(true);
      expect(await disagreementsWithChain(t.database.db, chain.chain.publicClient, fromBlock)).toEqual([]);
    });
  }, 150_000);

  it('after the trade was broadcast: exits 0 in time, and settle-outbox records the trade the chain mined', async () => {
    const service = await runUntilSprung(chain.chain.contracts.tokenLauncher!, 'answer-then-cut');
    const { code, ms } = await terminate(service);
    expect(code, service.output()).toBe(0);
    expect(ms).toBeLessThan(DEADLINE_MS);
    await inProcess(async (t) => {
      expect(await runningRounds(t)).toEqual([]);
      const { round, actions } = await lastRound(t);
      expect(round.status).toBe('FAILED');
      expect(round.error).toMatch(/^interrupted: the engine process stopped \(shutdown\)/);
      const action = actions[0]!;
      // Its trade was signed and broadcast: left SENT for settle-outbox, and counted until then.
      expect(action.status).toBe('SENT');
      expect(round.actionsExecuted![0]).toMatch(
        /^CFO buy_token: interrupted: the engine process stopped \(shutdown\) during this action \(SENT\); what it signed is broadcast once by settle-outbox$/,
      );
      expect(await counted(t, [action.key])).toEqual([action.key]);
      expect(await settleOutbox(t)).toBe(true);
      const [settled] = await t.database.db.select().from(agentActions).where(eq(agentActions.key, action.key));
      expect(settled!.status).toBe('MINED');
      const [line] = (await lastRound(t)).round.actionsExecuted!;
      expect(line).toBe(
        `CFO buy_token: executed (its transaction was mined after the round recorded it), tx ${settled!.txHash}`,
      );
      expect(await disagreementsWithChain(t.database.db, chain.chain.publicClient, fromBlock)).toEqual([]);
    });
  }, 150_000);
});

describe('SIGKILL during an action, before its trade is signed', () => {
  it('right after the approval was broadcast: the action ends FAILED, uncounted, its line naming the approval only', async () => {
    const service = await runUntilSprung(chain.chain.contracts.usdc!, 'lose');
    await service.kill();
    await inProcess(async (t) => {
      const { round, actions } = await lastRound(t);
      expect(round.status).toBe('RUNNING');
      const action = actions[0]!;
      expect(action.status).toBe('SENT');
      // The process is gone: the stale job fails its round (as it would ROUND_STALE_MS later), then settle-outbox.
      // Another round the killed engine had started (another company's, on its schedule) is failed with it.
      expect(await failStaleRounds(t.container, 0)).toBeGreaterThanOrEqual(1);
      expect(await settleOutbox(t)).toBe(true);
      const after = await lastRound(t);
      expect(after.round.status).toBe('FAILED');
      expect(after.actions[0]).toMatchObject({ status: 'FAILED', txHash: null });
      // The wallet's gas was topped up in an earlier round, or here.
      const [topUp] = await t.database.db
        .select()
        .from(chainTxs)
        .where(eq(chainTxs.key, `agent-gas:${action.key}`));
      expect(after.round.actionsExecuted).toEqual([
        `CFO buy_token: failed: its transaction was never signed (the process signed its ${topUp ? 'gas top-up and ' : ''}approval only); nothing was traded`,
      ]);
      expect(await counted(t, [action.key])).toEqual([]);
      const [approval] = await t.database.db
        .select()
        .from(chainTxs)
        .where(eq(chainTxs.key, `${action.key}:approve`));
      expect(approval!.status).toBe('MINED');
      expect(await disagreementsWithChain(t.database.db, chain.chain.publicClient, fromBlock)).toEqual([]);
    });
  }, 150_000);
});
