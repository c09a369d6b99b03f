// Helpers of the company tests: a dev account mints an access card, then creates a company with it over HTTP.

import { AccessCardAbi, MockUSDCAbi } from '@ai-economy/shared/abis';
import { eq } from 'drizzle-orm';
import type { Address } from 'viem';
import { expect } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import type { Tx } from '../../src/db/client.ts';
import { agents } from '../../src/db/schema/agents.ts';
import type { App } from '../../src/http/types.ts';
import type { TestChain } from './chain.ts';
import { type HttpMethod, type MessageSigner, sendSigned } from './security.ts';

/** Dev account `index` buys one access card; returns its token id. */
export async function mintCard(chain: TestChain, index: number): Promise<bigint> {
  const { accessCard, usdc } = chain.chain.contracts as { accessCard: Address; usdc: Address };
  const wallet = chain.wallet(index);
  const client = chain.chain.publicClient;
  const price = await client.readContract({ address: accessCard, abi: AccessCardAbi, functionName: 'mintPrice' });
  await client.waitForTransactionReceipt({
    hash: await wallet.writeContract({
      address: usdc,
      abi: MockUSDCAbi,
      functionName: 'approve',
      args: [accessCard, price],
    }),
  });
  const { request, result } = await client.simulateContract({
    account: wallet.account,
    address: accessCard,
    abi: AccessCardAbi,
    functionName: 'mint',
  });
  await client.waitForTransactionReceipt({ hash: await wallet.writeContract(request) });
  return result;
}

/** Sends a request signed by `signer` (dev account index or any signer), never refused as a replay. */
export function signed(app: App, signer: MessageSigner | number, method: HttpMethod, url: string, body?: unknown) {
  const account = typeof signer === 'number' ? devAccount(signer) : signer;
  return sendSigned({ app, now: Date.now }, account, method, url, body);
}

let seq = 0;
/** A fresh, valid company creation body. */
export function companyBody(overrides: Record<string, unknown> = {}) {
  seq++;
  return { name: `Acme Agents ${process.pid}-${seq}`, category: 'AI_TOKENS', ...overrides };
}

/**
 * Dev account `account` mints a card, creates a company with `body` (over a fresh valid body) and deploys its
 * C-suite; returns the company's id and its CFO (id and wallet address).
 */
export async function staffedCompany(
  t: { chain: TestChain; app: App; database: { db: Tx } },
  account: number,
  body: Record<string, unknown> = {},
) {
  await mintCard(t.chain, account);
  const res = await signed(t.app, account, 'POST', '/api/companies', companyBody(body));
  expect(res.statusCode).toBe(201);
  const id = res.json().data.id as string;
  const suite = await signed(t.app, account, 'POST', `/api/companies/${id}/deploy-suite`);
  expect(suite.statusCode, suite.body).toBe(200);
  const cfo = (await t.database.db.select().from(agents).where(eq(agents.companyId, id))).find(
    (a) => a.role === 'CFO',
  )!;
  return { id, account, cfo: { id: cfo.id, address: cfo.onChainAddress as Address } };
}
