// Helpers of the company tests: a dev account mints an access card, then creates a company with it over HTTP.

import { AccessCardAbi, MockUSDCAbi } from '@ai-economy/shared/abis';
import { eq } from 'drizzle-orm';
import { type Address, type Hex, numberToHex } from 'viem';
import { expect } from 'vitest';
import { storageSlot } from '../../src/chain/artifacts.ts';
import { devAccount } from '../../src/chain/client.ts';
import { CARD_MINT_PRICE_USDC } from '../../src/constants.ts';
import type { Tx } from '../../src/db/client.ts';
import { agents } from '../../src/db/schema/agents.ts';
import type { App } from '../../src/http/types.ts';
import { anvilTestClient, type TestChain } from './chain.ts';
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

/**
 * Sells the current tranche out on paper (the card's totalMinted counter) and opens the next, as the owner, then moves
 * the chain's clock past the delay after which its cards can be minted: the next mintCard is the tranche's first
 * card (Gold 1001, Silver 4001). Tranches open in order: 2, then 3.
 */
export async function openCardTranche(chain: TestChain, tranche: 2 | 3): Promise<void> {
  const card = chain.chain.contracts.accessCard!;
  const testClient = anvilTestClient(chain.node.rpcUrl, chain.chain.viemChain);
  const send = async (hash: Promise<Hex>) => {
    const receipt = await testClient.waitForTransactionReceipt({ hash: await hash });
    expect(receipt.status).toBe('success');
  };
  await testClient.setStorageAt({
    address: card,
    index: numberToHex(storageSlot('AccessCard', 'totalMinted'), { size: 32 }),
    value: numberToHex(tranche === 2 ? 1_000n : 4_000n, { size: 32 }),
  });
  // Price changes (a tranche's too) happen only while minting is paused.
  const owner = chain.wallet(0);
  const setMintActive = (active: boolean) =>
    send(owner.writeContract({ address: card, abi: AccessCardAbi, functionName: 'setMintActive', args: [active] }));
  await setMintActive(false);
  await send(
    owner.writeContract({
      address: card,
      abi: AccessCardAbi,
      functionName: 'activateTranche',
      args: [tranche, CARD_MINT_PRICE_USDC],
    }),
  );
  await setMintActive(true);
  // The tranche's cards can be minted once its price is in effect, MINT_PRICE_DELAY after the activation.
  const delay = await testClient.readContract({ address: card, abi: AccessCardAbi, functionName: 'MINT_PRICE_DELAY' });
  await testClient.increaseTime({ seconds: Number(delay) });
  await testClient.mine({ blocks: 1 });
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
