// Fault: a company created before custody moves into its Safe (POST /api/companies/{id}/custody), and the answer to
// the sweep's first transfer is lost: the node mines it, the request fails. The company's Safe and roles are set up
// and recorded already; running the move again settles what was signed, sends what is left, and sends nothing
// twice: the Safe receives each agent's USDC exactly once, and a third run finds nothing to do.
import { eq } from 'drizzle-orm';
import { type Address, erc20Abi, parseEventLogs, parseTransaction } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Chain, createChainClients } from '../../src/chain/client.ts';
import type { Database } from '../../src/db/client.ts';
import { agents } from '../../src/db/schema/agents.ts';
import { companies } from '../../src/db/schema/companies.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { startTestChain, type TestChain } from '../helpers/chain.ts';
import { signed, staffedCompany } from '../helpers/companies.ts';
import { primaryTestDatabase } from '../helpers/db.ts';
import { type RpcProxy, startRpcProxy } from '../helpers/rpc-proxy.ts';
import { tokenTrading } from '../helpers/trading.ts';

const USDC = 1_000_000n;
let chain: TestChain;
let database: Database;
let proxy: RpcProxy;
let before: TestApp;
let after: TestApp;
/** While above 0, the answers to that many broadcasts of USDC transfers are lost. */
let losing = 0;
let companyId: string;
let wallets: { id: string; role: string | null; address: Address }[];
let fromBlock: bigint;

beforeAll(async () => {
  [chain, database] = await Promise.all([startTestChain(), primaryTestDatabase.open()]);
  const usdc = chain.chain.contracts.usdc!.toLowerCase();
  proxy = await startRpcProxy(chain.node.rpcUrl, {
    lose: (call) => {
      if (losing <= 0 || call.method !== 'eth_sendRawTransaction') return false;
      if (parseTransaction(call.params![0] as `0x${string}`).to?.toLowerCase() !== usdc) return false;
      losing--;
      return true;
    },
  });
  const proxied: Chain = {
    ...chain.chain,
    ...createChainClients({ chainId: 31337, rpcUrl: proxy.url, local: true, timeoutMs: 1000 }),
  };
  // Created while the platform gave companies no Safe: its agents hold their own money.
  before = await startTestApp({ database, chain, env: { COMPANY_CUSTODY: 'none' } });
  const co = await staffedCompany({ chain, database, app: before.app }, 1, { name: 'Before Custody Co' });
  companyId = co.id;
  const rows = await database.db.select().from(agents).where(eq(agents.companyId, companyId));
  wallets = rows.map((a) => ({ id: a.id, role: a.role, address: a.onChainAddress as Address }));
  const trading = tokenTrading({ ...before, chain, database });
  await trading.fund(1, co.cfo.address, 100n * USDC);
  await trading.fund(1, wallets.find((w) => w.role === 'CMO')!.address, 30n * USDC);
  after = await startTestApp({
    database,
    chain: { ...chain, chain: proxied },
    env: { COMPANY_CUSTODY: 'safe', RPC_TIMEOUT_MS: '1000' },
  });
  fromBlock = (await chain.chain.publicClient.getBlockNumber()) + 1n;
}, 240_000);

afterAll(async () => {
  await after?.close();
  await before?.close();
  await proxy?.close();
  await database?.close();
  await chain?.stop();
});

const move = (app = after, signer = 1) => signed(app.app, signer, 'POST', `/api/companies/${companyId}/custody`);
const usdcOf = (address: Address) =>
  chain.chain.publicClient.readContract({
    address: chain.chain.contracts.usdc!,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [address],
  });
const custodyRow = async () =>
  (
    await database.db
      .select({ safe: companies.safeAddress, roles: companies.rolesModuleAddress })
      .from(companies)
      .where(eq(companies.id, companyId))
  )[0]!;

describe('moving a company created before custody into its Safe', () => {
  it('is refused where the platform sets up no Safe, to anyone but the card holder', async () => {
    const off = await move(before);
    expect(off.statusCode).toBe(409);
    expect(off.json().error.message).toMatch(/COMPANY_CUSTODY/);
    expect((await move(after, 2)).statusCode).toBe(403);
    expect((await custodyRow()).safe).toBeNull();
  });

  it('fails when the answer to a sweep transfer is lost, with the Safe set up and nothing lost', async () => {
    losing = 1;
    const res = await move();
    expect(res.statusCode, res.body).toBeGreaterThanOrEqual(500);
    expect(losing).toBe(0);
    const row = await custodyRow();
    expect(row.safe).toMatch(/^0x[0-9a-fA-F]{40}$/);
    // Every USDC unit is in an agent wallet or the Safe, none elsewhere.
    const held = await Promise.all(wallets.map((w) => usdcOf(w.address)));
    expect(held.reduce((a, b) => a + b, 0n) + (await usdcOf(row.safe as Address))).toBe(130n * USDC);
  });

  it('finishes when run again, each agent’s money sent into the Safe once', async () => {
    const res = await move();
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    const row = await custodyRow();
    expect(data.custody).toMatchObject({ safe: row.safe, roles: row.roles });
    const safe = row.safe as Address;
    expect(await usdcOf(safe)).toBe(130n * USDC);
    for (const w of wallets) expect(await usdcOf(w.address)).toBe(0n);
    // Exactly two USDC transfers reached the Safe: 100 from the CFO, 30 from the CMO.
    const logs = await chain.chain.publicClient.getLogs({ address: chain.chain.contracts.usdc!, fromBlock });
    const intoSafe = parseEventLogs({ abi: erc20Abi, logs, eventName: 'Transfer' }).filter(
      (l) => l.args.to.toLowerCase() === safe.toLowerCase(),
    );
    expect(intoSafe.map((l) => l.args.value).sort((a, b) => Number(a - b))).toEqual([30n * USDC, 100n * USDC]);
  });

  it('does nothing more on a third run', async () => {
    const res = await move();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.swept).toEqual([]);
  });
});
