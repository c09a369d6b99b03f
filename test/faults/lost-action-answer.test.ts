// Fault: the answer to an agent's trade is lost. A round's CFO buys; the RPC passes the broadcast on to
// the node, which mines it, and loses its answer, so the round records "failed: the chain RPC did not answer" and
// its action stays SENT without a hash. After settle-outbox the action is MINED with the hash the chain mined, the
// round's line names that hash, and the exactly-once checker finds every outbox row, action and line in agreement
// with the chain.
import { eq } from 'drizzle-orm';
import { type Address, parseTransaction } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Chain, createChainClients } from '../../src/chain/client.ts';
import type { Database } from '../../src/db/client.ts';
import { agentActions } from '../../src/db/schema/agents.ts';
import { decisionRounds } from '../../src/db/schema/decisions.ts';
import { jobs, runJobOnce } from '../../src/jobs/scheduler.ts';
import { startTestApp, type TestEnv } from '../helpers/app.ts';
import { startTestChain, type TestChain } from '../helpers/chain.ts';
import { signed, staffedCompany } from '../helpers/companies.ts';
import { primaryTestDatabase } from '../helpers/db.ts';
import { disagreementsWithChain } from '../helpers/exactly-once.ts';
import { type RpcProxy, startRpcProxy } from '../helpers/rpc-proxy.ts';
import { tokenTrading } from '../helpers/trading.ts';

const USDC = 1_000_000n;
let chain: TestChain;
let database: Database;
let proxy: RpcProxy;
let t: TestEnv;
/** While true, the answer to every broadcast to the token launcher (a trade) is lost. */
let losing = false;
let companyId: string;
let cfo: { id: string; address: Address };
let fromBlock: bigint;

beforeAll(async () => {
  [chain, database] = await Promise.all([startTestChain(), primaryTestDatabase.open()]);
  proxy = await startRpcProxy(chain.node.rpcUrl, {
    lose: (call) =>
      losing &&
      call.method === 'eth_sendRawTransaction' &&
      parseTransaction(call.params![0] as `0x${string}`).to?.toLowerCase() ===
        chain.chain.contracts.tokenLauncher!.toLowerCase(),
  });
  const proxied: Chain = {
    ...chain.chain,
    ...createChainClients({ chainId: 31337, rpcUrl: proxy.url, local: true, timeoutMs: 1000 }),
  };
  // COMPANY_CUSTODY=none: this file is about the path where a company's agents act from their own wallets.
  const app = await startTestApp({
    database,
    chain: { ...chain, chain: proxied },
    env: { COMPANY_CUSTODY: 'none', RPC_TIMEOUT_MS: '1000', MANUAL_ROUND_COOLDOWN_S: '0' },
  });
  t = { ...app, chain: { ...chain, chain: proxied }, database };
  const trading = tokenTrading(t);
  const targetCo = await staffedCompany(t, 2, { name: 'Lost Answer Target' });
  await trading.launch(targetCo.id, 'LAT', 2);
  const trader = await staffedCompany(t, 1, { name: 'Lost Answer Trader', category: 'SPOT_TRADING' });
  companyId = trader.id;
  cfo = trader.cfo;
  const directive = await signed(t.app, 1, 'PATCH', `/api/companies/${companyId}`, {
    ceoPrompt: 'Buy 50 USDC of LAT every round.',
  });
  expect(directive.statusCode).toBe(200);
  await trading.fund(1, cfo.address, 1_000n * USDC);
  fromBlock = (await chain.chain.publicClient.getBlockNumber()) + 1n;
}, 120_000);

afterAll(async () => {
  await t?.close();
  await proxy?.close();
  await database?.close();
  await chain?.stop();
});

const runRound = async () => {
  const res = await signed(t.app, 1, 'POST', `/api/companies/${companyId}/decisions/run`);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: string; status: string; actionsExecuted: string[] };
};
const actionOf = async (key: string) =>
  (await database.db.select().from(agentActions).where(eq(agentActions.key, key)))[0]!;
const settleOutbox = () => runJobOnce(jobs.find((j) => j.name === 'settle-outbox')!, t.container);

describe('an agent trade whose broadcast answer is lost', () => {
  it('records the mined trade as executed with its hash once settle-outbox settles it, on a COMPLETE round', async () => {
    losing = true;
    let round: Awaited<ReturnType<typeof runRound>>;
    try {
      round = await runRound();
    } finally {
      losing = false;
    }
    expect(round.status).toBe('COMPLETE');
    expect(round.actionsExecuted[0]).toMatch(/^CFO buy_token: failed: /);
    const key = `agent:${round.id}:0`;
    expect(await actionOf(key)).toMatchObject({ status: 'SENT', txHash: null });
    // The chain mined the buy all the same.
    const usdcLeft = await tokenTrading(t).usdcOf(cfo.address);
    expect(usdcLeft).toBe(950n * USDC);

    expect(await settleOutbox()).toBe(true);
    const action = await actionOf(key);
    expect(action.status).toBe('MINED');
    const receipt = await chain.chain.publicClient.getTransactionReceipt({ hash: action.txHash as `0x${string}` });
    expect(receipt).toMatchObject({ status: 'success' });
    expect(receipt.from.toLowerCase()).toBe(cfo.address.toLowerCase());
    const [row] = await database.db.select().from(decisionRounds).where(eq(decisionRounds.id, round.id));
    expect(row!.status).toBe('COMPLETE');
    expect(row!.actionsExecuted![0]).toBe(
      `CFO buy_token: executed (its transaction was mined after the round recorded it), tx ${action.txHash}`,
    );
    expect(await disagreementsWithChain(database.db, chain.chain.publicClient, fromBlock)).toEqual([]);
    // Settling again changes nothing.
    expect(await settleOutbox()).toBe(true);
    expect(await actionOf(key)).toMatchObject({ status: 'MINED', txHash: action.txHash });
  });
});
