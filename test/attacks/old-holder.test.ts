// Attack: act on a company after selling its card. Writes were authorized from indexed state, and the index trails
// the chain (seconds here, longer on a real chain with confirmations), so the previous holder could still change
// the treasury, launch the token, terminate agents and more right after the transfer. Writes that cannot be undone
// now read the card's owner on-chain at the latest block first.

import { AccessCardAbi } from '@ai-economy/shared/abis';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChainClients, devAccount } from '../../src/chain/client.ts';
import { agents } from '../../src/db/schema/agents.ts';
import { companies } from '../../src/db/schema/companies.ts';
import { startTestApp, type TestApp, useTestApp } from '../helpers/app.ts';
import { companyBody, mintCard, signed } from '../helpers/companies.ts';
import { type RpcProxy, startRpcProxy } from '../helpers/rpc-proxy.ts';

// COMPANY_CUSTODY=none: the company keeps no treasury of its own (with custody its Safe would be one), so any treasury
// after the old holder's writes is theirs.
const t = useTestApp({ env: { COMPANY_CUSTODY: 'none' } });
let companyId: string;
let agentId: string;

beforeAll(async () => {
  const card = await mintCard(t.chain, 1);
  companyId = (await signed(t.app, 1, 'POST', '/api/companies', companyBody({ name: 'Sold Co' }))).json().data.id;
  expect((await signed(t.app, 1, 'POST', `/api/companies/${companyId}/deploy-suite`)).statusCode).toBe(200);
  [{ id: agentId }] = (await t.database.db
    .select({ id: agents.id })
    .from(agents)
    .where(eq(agents.companyId, companyId))
    .limit(1)) as [{ id: string }];
  // The holder sells the card: on-chain only, before the indexer (not running in this app) has seen it.
  const seller = t.chain.wallet(1);
  await t.chain.chain.publicClient.waitForTransactionReceipt({
    hash: await seller.writeContract({
      address: t.chain.chain.contracts.accessCard!,
      abi: AccessCardAbi,
      functionName: 'transferFrom',
      args: [devAccount(1).address, devAccount(2).address, card],
    }),
  });
  const [row] = await t.database.db.select().from(companies).where(eq(companies.id, companyId));
  expect(row!.creatorAddress).toBe(devAccount(1).address);
});

const writes = (): [string, () => ReturnType<typeof signed>][] => [
  [
    'PUT treasury',
    () => signed(t.app, 1, 'PUT', `/api/companies/${companyId}/treasury`, { treasuryAddress: devAccount(1).address }),
  ],
  ['POST token', () => signed(t.app, 1, 'POST', `/api/companies/${companyId}/token`, { name: 'Sold', symbol: 'SOLD' })],
  ['DELETE agent', () => signed(t.app, 1, 'DELETE', `/api/agents/${agentId}`)],
  ['PUT agent', () => signed(t.app, 1, 'PUT', `/api/agents/${agentId}`, { status: 'PAUSED' })],
  ['POST deploy-suite', () => signed(t.app, 1, 'POST', `/api/companies/${companyId}/deploy-suite`)],
  ['POST claim', () => signed(t.app, 1, 'POST', '/api/epochs/claim', { companyId, epochNumber: 0 })],
  ['PATCH engine', () => signed(t.app, 1, 'PATCH', `/api/companies/${companyId}/engine`, { masterDirective: 'mine' })],
  ['PATCH company', () => signed(t.app, 1, 'PATCH', `/api/companies/${companyId}`, { ceoPrompt: 'mine' })],
  ['POST decisions/run', () => signed(t.app, 1, 'POST', `/api/companies/${companyId}/decisions/run`)],
];

describe('the previous holder of a card', () => {
  it.each(writes())('is refused %s with 403 right after the transfer', async (_name, write) => {
    const res = await write();
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('FORBIDDEN');
    expect(res.json().error.message).toMatch(/has moved to/);
  });

  it('changed nothing', async () => {
    const [row] = await t.database.db.select().from(companies).where(eq(companies.id, companyId));
    expect(row).toMatchObject({
      treasuryAddress: null,
      tokenStatus: 'PRE_PUBLIC',
      ceoPrompt: null,
      masterDirective: null,
    });
    const [agent] = await t.database.db.select().from(agents).where(eq(agents.id, agentId));
    expect(agent!.status).toBe('ACTIVE');
  });

  it('the index still serves reads', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/companies/${companyId}` });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.creatorAddress).toBe(devAccount(1).address);
  });
});

describe('with the chain down', () => {
  let proxy: RpcProxy;
  let down: TestApp;
  beforeAll(async () => {
    proxy = await startRpcProxy(t.chain.node.rpcUrl);
    const clients = createChainClients({ chainId: 31337, rpcUrl: proxy.url, local: true, timeoutMs: 500 });
    down = await startTestApp({
      database: t.database,
      chain: { ...t.chain, chain: { ...t.chain.chain, ...clients } },
      env: { RPC_TIMEOUT_MS: '500' },
    });
    proxy.pause();
  });
  afterAll(async () => {
    await down?.close();
    await proxy?.close();
  });

  it('a write that must ask the chain answers 503 CHAIN_UNAVAILABLE', async () => {
    const res = await signed(down.app, 1, 'PUT', `/api/companies/${companyId}/treasury`, {
      treasuryAddress: devAccount(1).address,
    });
    expect(res.statusCode).toBe(503);
    expect(res.json().error.code).toBe('CHAIN_UNAVAILABLE');
  });
});
