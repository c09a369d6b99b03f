// Fault: the RPC's read side lags behind its sequencer, so receipts of mined transactions read null for
// a while, and the answer to a broadcast is lost. The outbox's transaction was broadcast (its answer lost) and mined;
// settling it through the lagging RPC gets "nonce too low" with no receipt. It must not take that for "another
// transaction took the nonce": the row stays SENT (nothing DROPPED, nothing signed a second time, even by a later
// send under the same key), and once the receipts catch up it settles MINED with its gas on the company's day.
// A nonce really taken by another transaction is still proven from the block that used it, receipts lagging or not.

import { MockUSDCAbi } from '@ai-economy/shared/abis';
import { eq } from 'drizzle-orm';
import { encodeFunctionData, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChainClients, devAddresses } from '../../src/chain/client.ts';
import type { Outbox, TxRequest } from '../../src/chain/outbox.ts';
import type { Database } from '../../src/db/client.ts';
import { chainTxs, companyGasDays } from '../../src/db/schema/chain.ts';
import { startTestChain, type TestChain } from '../helpers/chain.ts';
import { testDatabases } from '../helpers/db.ts';
import { crashBeforeBroadcast, testOutbox } from '../helpers/outbox.ts';
import { type RpcProxy, startRpcProxy } from '../helpers/rpc-proxy.ts';

let chain: TestChain;
let database: Database;
let proxy: RpcProxy;
/** While true, the proxy answers every receipt with null, as a read replica behind the sequencer does. */
let lagging = false;

beforeAll(async () => {
  chain = await startTestChain();
  database = await testDatabases[0]!.open();
  proxy = await startRpcProxy(chain.node.rpcUrl, {
    answer: (call) => (lagging && call.method === 'eth_getTransactionReceipt' ? { result: null } : undefined),
  });
});
afterAll(async () => {
  await proxy?.close();
  await database?.close();
  await chain?.stop();
});

const recipient = devAddresses()[8]!;
const mintTx = (amount: bigint): TxRequest => ({
  to: chain.chain.contracts.usdc!,
  data: encodeFunctionData({ abi: MockUSDCAbi, functionName: 'mint', args: [recipient, amount] }),
});
const balance = () =>
  chain.chain.publicClient.readContract({
    address: chain.chain.contracts.usdc!,
    abi: MockUSDCAbi,
    functionName: 'balanceOf',
    args: [recipient],
  });
const rowOf = async (key: string) => (await database.db.select().from(chainTxs).where(eq(chainTxs.key, key)))[0]!;
const platformNonce = () =>
  chain.chain.publicClient.getTransactionCount({ address: chain.chain.platform.account.address, blockTag: 'latest' });

/** An outbox that reads the chain through the lagging proxy (it signs with the platform key as ever). */
function laggingOutbox(): Outbox {
  const through = createChainClients({ chainId: 31337, rpcUrl: proxy.url, local: true, timeoutMs: 3000 });
  return testOutbox(database, chain, {
    chain: { publicClient: through.publicClient, viemChain: through.viemChain },
    receiptTimeoutMs: 1500,
  });
}

/** Records a transaction under `key` (charged to `company`), then broadcasts it as a send whose answer was lost. */
async function minedWithAnswerLost(key: string, amount: bigint, company: string) {
  await expect(
    testOutbox(database, chain, crashBeforeBroadcast).send(key, () => mintTx(amount), { chargedTo: [company] }),
  ).rejects.toThrow('crash');
  const row = await rowOf(key);
  const hash = await chain.chain.publicClient.sendRawTransaction({ serializedTransaction: row.rawTx as Hex });
  return chain.chain.publicClient.waitForTransactionReceipt({ hash });
}

describe('the outbox behind an RPC whose receipts lag', () => {
  it('keeps a mined transaction SENT while its receipt lags, signs nothing anew, then settles it and charges its gas', async () => {
    const before = await balance();
    const receipt = await minedWithAnswerLost('lag:mint', 13n, 'co-lagging');
    expect(await balance()).toBe(before + 13n);
    const nonceAfterMine = await platformNonce();

    lagging = true;
    try {
      // "nonce too low" with no receipt: not proof that another transaction took the nonce.
      await expect(laggingOutbox().settlePending()).rejects.toThrow();
      expect((await rowOf('lag:mint')).status).toBe('SENT');
      // A caller sending under the same key meanwhile gets an error, not a second transaction.
      await expect(
        laggingOutbox().send('lag:mint', () => mintTx(13n), { chargedTo: ['co-lagging'] }),
      ).rejects.toThrow();
      expect((await rowOf('lag:mint')).status).toBe('SENT');
    } finally {
      lagging = false;
    }
    expect(await platformNonce()).toBe(nonceAfterMine);
    expect(await balance()).toBe(before + 13n);

    // The receipts caught up: settled once, with its gas on the company's day of the block that mined it.
    expect(await laggingOutbox().settlePending()).toBeGreaterThanOrEqual(1);
    const row = await rowOf('lag:mint');
    expect(row).toMatchObject({ status: 'MINED', hash: receipt.transactionHash, blockNumber: receipt.blockNumber });
    const days = await database.db.select().from(companyGasDays).where(eq(companyGasDays.companyId, 'co-lagging'));
    expect(days).toHaveLength(1);
    expect(days[0]).toMatchObject({ gasUsed: receipt.gasUsed, transactions: 1 });
    const again = await laggingOutbox().send('lag:mint', () => mintTx(13n), { chargedTo: ['co-lagging'] });
    expect(again.transactionHash).toBe(receipt.transactionHash);
    expect(await balance()).toBe(before + 13n);
  });

  it('still marks DROPPED, receipts lagging, a transaction whose nonce another transaction of the signer took', async () => {
    const before = await balance();
    await expect(
      testOutbox(database, chain, crashBeforeBroadcast).send('lag:taken', () => mintTx(17n)),
    ).rejects.toThrow('crash');
    const row = await rowOf('lag:taken');
    const other = await chain.chain.platform.sendTransaction({ to: recipient, value: 0n, nonce: row.nonce });
    await chain.chain.publicClient.waitForTransactionReceipt({ hash: other });
    lagging = true;
    try {
      await laggingOutbox().settlePending();
    } finally {
      lagging = false;
    }
    expect((await rowOf('lag:taken')).status).toBe('DROPPED');
    const receipt = await laggingOutbox().send('lag:taken', () => mintTx(17n));
    expect(receipt.transactionHash).not.toBe(row.hash);
    expect(await balance()).toBe(before + 17n);
  });
});
