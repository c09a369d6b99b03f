// The service with WALLET_PROVIDER=remote, against a signer of the tests' own on loopback: deploy-suite gives the
// C-suite wallets held by the signer (and proves them to the identity registry with its typed-data signatures), a
// decision round buys a token through the remote key on anvil, a round while the signer is down fails its action
// with a clear line and records no transaction, and the next round once it is back buys. The signer's token reaches
// no log and no response. At start, a refused credential stops the service; a signer that is down only warns.
import { Writable } from 'node:stream';
import { and, eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { type Address, getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createContainer } from '../../src/container.ts';
import type { Database } from '../../src/db/client.ts';
import { agents } from '../../src/db/schema/agents.ts';
import { chainTxs } from '../../src/db/schema/chain.ts';
import { startTestApp, type TestEnv } from '../helpers/app.ts';
import { startTestChain } from '../helpers/chain.ts';
import { signed, staffedCompany } from '../helpers/companies.ts';
import { primaryTestDatabase } from '../helpers/db.ts';
import { startTestSigner, type TestSigner } from '../helpers/remote-signer.ts';
import { tokenTrading } from '../helpers/trading.ts';

const TOKEN = 'Bearer tok-9f8e7d6c5b4a-signer';
const USDC = 1_000_000n;

const logs: string[] = [];
const logger = pino(
  { level: 'debug' },
  new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  }),
);
const bodies: string[] = [];

let signer: TestSigner;
const t = {} as TestEnv;
const trading = tokenTrading(t);
let companyId: string;
let cfo: { id: string; address: Address };

// COMPANY_CUSTODY=none: this file is about the path where a company's agents act from their own wallets.
const signerEnv = () => ({
  WALLET_PROVIDER: 'remote',
  WALLET_SIGNER_URL: signer.url,
  WALLET_SIGNER_AUTH_HEADER: `Authorization: ${TOKEN}`,
  WALLET_SIGNER_TIMEOUT_MS: '2000',
});

const runRound = async () => {
  const res = await signed(t.app, 1, 'POST', `/api/companies/${companyId}/decisions/run`);
  bodies.push(res.body);
  expect(res.statusCode).toBe(201);
  return res.json().data as { id: string; status: string; actionsExecuted: string[] };
};

const sentBy = async (address: Address) =>
  t.database.db.select().from(chainTxs).where(sql`lower(${chainTxs.fromAddress}) = ${address.toLowerCase()}`);

beforeAll(async () => {
  let chain: TestEnv['chain'];
  let database: Database;
  [signer, chain, database] = await Promise.all([
    startTestSigner({ keys: 16, authorization: TOKEN }),
    startTestChain(),
    primaryTestDatabase.open(),
  ]);
  Object.assign(
    t,
    { chain, database },
    await startTestApp({
      database,
      chain,
      logger,
      env: { COMPANY_CUSTODY: 'none', ...signerEnv(), MANUAL_ROUND_COOLDOWN_S: '0' },
    }),
  );
  const targetCo = await staffedCompany(t, 2, { name: 'Target Token Co' });
  await trading.launch(targetCo.id, 'TGT', 2);
  const trader = await staffedCompany(t, 1, { name: 'Remote Keys Co', category: 'SPOT_TRADING' });
  companyId = trader.id;
  cfo = trader.cfo;
  const res = await signed(t.app, 1, 'PATCH', `/api/companies/${companyId}`, {
    ceoPrompt: 'Buy 50 USDC of TGT every round.',
  });
  expect(res.statusCode).toBe(200);
});

afterAll(async () => {
  await t.close?.();
  await t.database?.close();
  await t.chain?.stop();
  await signer?.stop();
});

describe('agent wallets held by a remote signer', () => {
  it('gives the C-suite keys of the signer, proved to the identity registry by its signatures', async () => {
    expect(t.container.wallets.kind).toBe('remote');
    const team = await t.database.db.select().from(agents).where(eq(agents.companyId, companyId));
    expect(team).toHaveLength(7);
    for (const agent of team) {
      expect(agent.status).toBe('ACTIVE');
      expect(signer.addresses).toContain(getAddress(agent.onChainAddress!));
    }
    expect(new Set(team.map((a) => a.onChainAddress)).size).toBe(7);
    expect(signer.calls.filter((c) => c.method === 'eth_signTypedData').length).toBeGreaterThanOrEqual(14);
  });

  it('buys in a decision round with a transaction the remote key signed, mined on anvil', async () => {
    await trading.fund(1, cfo.address, 1_000n * USDC);
    const round = await runRound();
    expect(round.status).toBe('COMPLETE');
    const line = round.actionsExecuted.find((a) => a.startsWith('CFO buy_token:'))!;
    expect(line).toMatch(/bought about [\d.]+ TGT for 50 USDC .*tx 0x[0-9a-f]{64}$/);
    const receipt = await t.chain.chain.publicClient.getTransactionReceipt({ hash: line.slice(-66) as `0x${string}` });
    expect(receipt.status).toBe('success');
    expect(getAddress(receipt.from)).toBe(getAddress(cfo.address));
    expect(signer.calls.some((c) => c.method === 'eth_signTransaction')).toBe(true);
    expect(await trading.usdcOf(cfo.address)).toBe(950n * USDC);
  });

  it('fails the action clearly while the signer is down, records no transaction, and buys once it is back', async () => {
    const before = await sentBy(cfo.address);
    await signer.down();
    let round: Awaited<ReturnType<typeof runRound>>;
    try {
      round = await runRound();
    } finally {
      await signer.up();
    }
    const line = round.actionsExecuted.find((a) => a.startsWith('CFO buy_token:'))!;
    expect(line).toMatch(
      /remote signer http:\/\/127\.0\.0\.1:\d+: eth_signTransaction did not answer \(ECONNREFUSED\)/,
    );
    expect(await sentBy(cfo.address)).toHaveLength(before.length);
    expect(await trading.usdcOf(cfo.address)).toBe(950n * USDC);
    const again = await runRound();
    expect(again.actionsExecuted).toContainEqual(expect.stringMatching(/^CFO buy_token: bought about/));
    expect(await trading.usdcOf(cfo.address)).toBe(900n * USDC);
    const mined = await t.database.db
      .select()
      .from(chainTxs)
      .where(and(sql`lower(${chainTxs.fromAddress}) = ${cfo.address.toLowerCase()}`, eq(chainTxs.status, 'MINED')));
    expect(mined.length).toBeGreaterThan(before.length);
  });

  it('shows the signer token in no log line and no response', async () => {
    const views = await Promise.all(
      [`/api/companies/${companyId}`, `/api/agents/${cfo.id}`, `/api/companies/${companyId}/decisions`].map((url) =>
        t.app.inject({ method: 'GET', url }),
      ),
    );
    bodies.push(...views.map((v) => v.body));
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.join('\n')).toContain('remote signer');
    for (const text of [...logs, ...bodies]) {
      expect(text).not.toContain('tok-9f8e7d6c5b4a');
    }
  });
});

describe('the remote signer at start', () => {
  const start = (env: Record<string, string>, warnings: string[] = []) =>
    createContainer(
      loadConfig({ LOG_LEVEL: 'silent', BASE_URL: 'http://localhost:3000', ...env }),
      { info: () => {}, warn: (m: unknown) => warnings.push(String(m)), error: () => {} },
      { database: t.database, chain: { chain: t.chain.chain, stop: async () => {} } },
    );

  it('stops the start when the signer refuses the credential, naming the variable and not the value', async () => {
    const err = await start({ ...signerEnv(), WALLET_SIGNER_AUTH_HEADER: 'Authorization: Bearer wrong-one' }).catch(
      (e) => e,
    );
    expect(err.message).toBe(
      `remote signer ${signer.url}: eth_accounts was refused with HTTP 401: check WALLET_SIGNER_AUTH_HEADER and the client certificate`,
    );
  });

  it('starts with a warning while the signer is down: signing waits for it', async () => {
    const warnings: string[] = [];
    await signer.down();
    try {
      const container = await start(signerEnv(), warnings);
      expect(container.wallets.kind).toBe('remote');
      await container.close();
    } finally {
      await signer.up();
    }
    expect(warnings).toEqual([
      expect.stringMatching(/^agent wallets: remote signer http:\/\/127\.0\.0\.1:\d+: eth_accounts did not answer/),
    ]);
  });
});
