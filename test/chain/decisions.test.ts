// Decision hashes on-chain: anchorDecision sends one anchoring per hash whatever happens (called twice, crashed
// between recording and broadcasting, raced by another anchoring), and lookupDecisionHash tells an anchored hash,
// a legacy ERC-8004 validation entry and an unknown hash apart, in one JSON-RPC batch, with CHAIN_UNAVAILABLE for
// an RPC that does not answer.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, inArray } from 'drizzle-orm';
import { type Hex, keccak256, parseEventLogs, stringToHex, type TransactionReceipt } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChainClients } from '../../src/chain/client.ts';
import { type AnchorDeps, anchorDecisionRoot, anchorDecisions } from '../../src/chain/contracts/anchor.ts';
import { lookupDecisionHash } from '../../src/chain/contracts/anchor-lookup.ts';
import { registeredAgentId } from '../../src/chain/contracts/identity.ts';
import { validationRequestHash } from '../../src/chain/contracts/validation.ts';
import { DecisionAnchorAbi, IdentityRegistryAbi, ValidationRegistryAbi } from '../../src/chain/generated/abis.ts';
import type { Outbox, OutboxOptions } from '../../src/chain/outbox.ts';
import type { Database } from '../../src/db/client.ts';
import { chainTxs, companyGasDays } from '../../src/db/schema/chain.ts';
import { AppError } from '../../src/errors.ts';
import { useBlackHoleRpc } from '../helpers/black-hole.ts';
import { anvilTestClient, startTestChain, type TestChain } from '../helpers/chain.ts';
import { testDatabases } from '../helpers/db.ts';
import { crashBeforeBroadcast, testOutbox } from '../helpers/outbox.ts';

let chain: TestChain;
let anvil: ReturnType<typeof anvilTestClient>;

beforeAll(async () => {
  chain = await startTestChain();
  anvil = anvilTestClient(chain.node.rpcUrl, undefined, 20);
});
afterAll(async () => {
  await chain?.stop();
});

const company = keccak256(stringToHex('company-acme'));
let counter = 0;
/** A decision hash no other test uses. */
const freshHash = () => keccak256(stringToHex(`decision-${++counter}-${Math.random()}`));
const anchorAddress = () => chain.chain.contracts.decisionAnchor!;
const platform = () => chain.chain.platform.account.address;
/** The requester of the legacy validation entries below: the owner of their agent, account 1. */
const requester = () => chain.wallet(1).account.address;
const platformNonce = () => anvil.getTransactionCount({ address: platform() });

async function mined(hash: Promise<Hex>): Promise<TransactionReceipt> {
  const receipt = await anvil.waitForTransactionReceipt({ hash: await hash });
  expect(receipt.status).toBe('success');
  return receipt;
}

const blockTime = async (blockNumber: bigint) =>
  new Date(Number((await anvil.getBlock({ blockNumber })).timestamp) * 1000);

/** Every DecisionAnchored log of the hash, to check it was anchored exactly once. */
const anchoredLogs = (decisionHash: Hex) =>
  anvil.getContractEvents({
    address: anchorAddress(),
    abi: DecisionAnchorAbi,
    eventName: 'DecisionAnchored',
    args: { decisionHash },
    fromBlock: 0n,
  });

/** Anchors directly from the platform account (dev account 0, nonce from the node), outside the outbox. */
function anchorBatchDirectly(hashes: Hex[], options: { nonce?: number; gas?: bigint } = {}) {
  return chain.wallet(0).writeContract({
    address: anchorAddress(),
    abi: DecisionAnchorAbi,
    functionName: 'anchorBatch',
    args: [hashes.map(() => company), hashes],
    ...options,
  });
}

/** One hash anchored as a batch of one: its anchoring. */
async function anchorDecision(deps: AnchorDeps, key: string, companyKey: Hex, decisionHash: Hex) {
  const anchorings = await anchorDecisions(deps, key, [{ companyKey, decisionHash }]);
  return anchorings.get(decisionHash.toLowerCase() as Hex)!;
}

describe.each(testDatabases)('anchorDecisions on $name', ({ open }) => {
  let database: Database;
  const outbox = (extra: Partial<OutboxOptions> = {}) => testOutbox(database, chain, extra);
  const crashingOutbox = () => outbox(crashBeforeBroadcast);
  const deps = (o: Outbox = outbox()) => ({ outbox: o, chain: chain.chain });
  const row = async (key: string) => (await database.db.select().from(chainTxs).where(eq(chainTxs.key, key)))[0];

  beforeAll(async () => {
    database = await open();
  });
  afterAll(async () => {
    await database?.close();
  });

  it('anchors once: the anchoring block and time come back, and a second call sends nothing', async () => {
    const h = freshHash();
    const key = `decision-anchor:${h}`;
    const first = await anchorDecision(deps(), key, company, h);
    expect(first.anchoredAt).toEqual(await blockTime(first.blockNumber));
    const receipt = await anvil.getTransactionReceipt({ hash: first.txHash });
    expect(receipt.blockNumber).toBe(first.blockNumber);
    expect(await row(key)).toMatchObject({ status: 'MINED', hash: first.txHash });
    expect(
      await anvil.readContract({
        address: anchorAddress(),
        abi: DecisionAnchorAbi,
        functionName: 'companyOf',
        args: [h],
      }),
    ).toBe(company);

    const nonce = await platformNonce();
    expect(await anchorDecision(deps(), key, company, h)).toEqual(first);
    // Under another key too: the hash is anchored, so nothing is recorded or sent.
    expect(await anchorDecision(deps(), `${key}:again`, company, h)).toEqual(first);
    expect(await row(`${key}:again`)).toBeUndefined();
    expect(await platformNonce()).toBe(nonce);
    expect(await anchoredLogs(h)).toHaveLength(1);
  });

  it('two concurrent calls for one key anchor once', async () => {
    const h = freshHash();
    const key = `decision-anchor:${h}`;
    const [a, b] = await Promise.all([
      anchorDecision(deps(), key, company, h),
      anchorDecision(deps(outbox()), key, company, h),
    ]);
    expect(b).toEqual(a);
    expect(await anchoredLogs(h)).toHaveLength(1);
  });

  it('finishes an anchoring interrupted between recording and broadcasting with the recorded transaction', async () => {
    const h = freshHash();
    const key = `decision-anchor:${h}`;
    await expect(anchorDecision(deps(crashingOutbox()), key, company, h)).rejects.toThrow('crash');
    const recorded = await row(key);
    expect(recorded!.status).toBe('SENT');
    expect(await anchoredLogs(h)).toHaveLength(0);

    const result = await anchorDecision(deps(), key, company, h);
    expect(result.txHash).toBe(recorded!.hash);
    expect(await row(key)).toMatchObject({ status: 'MINED' });
    expect(await anchoredLogs(h)).toHaveLength(1);
  });

  it('after a crash, settling at start then calling again returns the same anchoring', async () => {
    const h = freshHash();
    const key = `decision-anchor:${h}`;
    await expect(anchorDecision(deps(crashingOutbox()), key, company, h)).rejects.toThrow('crash');
    const recorded = await row(key);
    expect(await outbox().settlePending()).toBe(1);
    const nonce = await platformNonce();
    const result = await anchorDecision(deps(), key, company, h);
    expect(result.txHash).toBe(recorded!.hash);
    expect(result.anchoredAt).toEqual(await blockTime(result.blockNumber));
    expect(await platformNonce()).toBe(nonce);
    expect(await anchoredLogs(h)).toHaveLength(1);
  });

  it('returns an anchoring made by another transaction (a batch) without sending anything', async () => {
    const [h1, h2] = [freshHash(), freshHash()];
    const batch = await mined(anchorBatchDirectly([h1, h2]));
    const nonce = await platformNonce();
    const result = await anchorDecision(deps(), `decision-anchor:${h2}`, company, h2);
    expect(result).toEqual({
      txHash: batch.transactionHash,
      blockNumber: batch.blockNumber,
      anchoredAt: await blockTime(batch.blockNumber),
    });
    expect(await platformNonce()).toBe(nonce);
  });

  it('returns the other anchoring when the hash got anchored meanwhile (its own batch skips it)', async () => {
    const h = freshHash();
    const key = `decision-anchor:${h}`;
    // The race, staged with manual mining: another anchoring of h waits in the mempool (nonce N) while
    // anchorDecisions reads h as not anchored and records its own transaction (nonce N + 1, with a fixed gas limit
    // so that it is mined instead of estimated). Both are mined, the other first.
    const fixedGas: Outbox = {
      ...outbox({
        beforeBroadcast: async () => {
          await anvil.mine({ blocks: 1 });
          await anvil.setAutomine(true);
        },
      }),
    };
    const inner = fixedGas.send;
    fixedGas.send = (k, build, options) => inner(k, async () => ({ ...(await build()), gas: 200_000n }), options);

    await anvil.setAutomine(false);
    let other: Hex;
    try {
      other = await anchorBatchDirectly([h], { gas: 200_000n });
      const result = await anchorDecision(deps(fixedGas), key, company, h);
      const otherReceipt = await anvil.getTransactionReceipt({ hash: other });
      expect(result).toEqual({
        txHash: other,
        blockNumber: otherReceipt.blockNumber,
        anchoredAt: await blockTime(otherReceipt.blockNumber),
      });
    } finally {
      await anvil.setAutomine(true);
    }
    // The contract skips a hash anchored already: our batch is mined and anchors nothing.
    const ours = await row(key);
    expect(ours!.status).toBe('MINED');
    expect(await anchoredLogs(h)).toHaveLength(1);
    // Later calls keep answering with the other anchoring.
    expect((await anchorDecision(deps(), key, company, h)).txHash).toBe(other);
  });

  it('anchors a batch in one transaction, skipping a hash anchored already, and charges each entry a share', async () => {
    const [anchored, h1, h2, h3] = [freshHash(), freshHash(), freshHash(), freshHash()];
    await anchorDecision(deps(), `decision-anchor:${anchored}`, company, anchored);
    const key = `decision-anchor-batch:${h1}`;
    const entries = [anchored, h1, h2, h3].map((decisionHash) => ({ companyKey: company, decisionHash }));
    const result = await anchorDecisions(deps(), key, entries, ['co-a', 'co-b', 'co-a']);
    const sent = await row(key);
    for (const h of [h1, h2, h3]) {
      expect(result.get(h)!.txHash).toBe(sent!.hash);
      expect(await anchoredLogs(h)).toHaveLength(1);
    }
    expect(result.get(anchored)!.txHash).not.toBe(sent!.hash);
    // The receipt's gas, split in equal shares: two to co-a, one to co-b.
    const gas = sent!.gasUsed!;
    const days = await database.db
      .select()
      .from(companyGasDays)
      .where(inArray(companyGasDays.companyId, ['co-a', 'co-b']));
    const of = (id: string) => days.find((d) => d.companyId === id)!;
    expect(of('co-a').gasUsed + of('co-b').gasUsed).toBe(gas);
    expect(of('co-a').gasUsed).toBeGreaterThanOrEqual(2n * (gas / 3n));
    expect(of('co-a').costWei + of('co-b').costWei).toBe(gas * sent!.gasPrice!);
    expect(of('co-a').transactions).toBe(1);
    // Again under the same key: nothing sent, nothing charged twice.
    await anchorDecisions(deps(), key, entries, ['co-a', 'co-b', 'co-a']);
    const [again] = await database.db.select().from(companyGasDays).where(eq(companyGasDays.companyId, 'co-a'));
    expect(again!.gasUsed).toBe(of('co-a').gasUsed);
  });

  it('anchors a batch as one Merkle root, once; a crash before broadcasting finishes with the same transaction', async () => {
    const entries = [freshHash(), freshHash(), freshHash()].map((decisionHash) => ({
      companyKey: company,
      decisionHash,
    }));
    const key = `decision-anchor-root:${entries[0]!.decisionHash}`;
    await expect(anchorDecisionRoot(deps(crashingOutbox()), key, entries)).rejects.toThrow('crash');
    const recorded = await row(key);
    expect(recorded!.status).toBe('SENT');
    const result = await anchorDecisionRoot(deps(), key, entries);
    expect(result.txHash).toBe(recorded!.hash);
    expect(result.anchoredAt).toEqual(await blockTime(result.blockNumber));
    // Again, and the same entries in another order under another key: the same root, nothing sent.
    const nonce = await platformNonce();
    expect(await anchorDecisionRoot(deps(), key, entries)).toEqual(result);
    expect(await anchorDecisionRoot(deps(), `${key}:again`, [...entries].reverse())).toEqual(result);
    expect(await platformNonce()).toBe(nonce);
    // Each round checks with its proof, through the contract and through the verify route's lookup.
    for (const { decisionHash } of entries) {
      const proof = result.proofs.get(decisionHash)!;
      expect(
        await anvil.readContract({
          address: anchorAddress(),
          abi: DecisionAnchorAbi,
          functionName: 'anchoredAt',
          args: [company, decisionHash, proof],
        }),
      ).toBe(BigInt(result.anchoredAt.getTime() / 1000));
      expect(await lookupDecisionHash(chain.chain, decisionHash, { batch: { companyKey: company, proof } })).toEqual({
        method: 'decision_anchor',
        anchoredAt: result.anchoredAt,
        txHash: result.txHash,
        blockNumber: result.blockNumber,
        companyKey: company,
        merkleRoot: result.root,
        merkleProof: proof,
      });
      // Not a per-hash record: without the proof the hash is unknown.
      expect(await lookupDecisionHash(chain.chain, decisionHash)).toEqual({ method: 'none' });
    }
    // An edited round (another hash) with a real proof proves nothing.
    const proof = result.proofs.get(entries[0]!.decisionHash)!;
    expect(await lookupDecisionHash(chain.chain, freshHash(), { batch: { companyKey: company, proof } })).toEqual({
      method: 'none',
    });
  });

  it('refuses an outbox key that belongs to another transaction', async () => {
    const [h1, h2] = [freshHash(), freshHash()];
    const key = `decision-anchor:${h1}`;
    await anchorDecision(deps(), key, company, h1);
    await expect(anchorDecision(deps(), key, company, h2)).rejects.toThrow(/did not anchor/);
  });
});

describe('lookupDecisionHash', () => {
  /**
   * Registers an agent for account 1, which asks the platform's validator (account 0, allowed at deployment) to
   * validate `dataHash`, and has it answer; the request's hash is derived from account 1 and the data.
   */
  async function validate(dataHash: Hex, response: number | undefined) {
    const identity = chain.chain.contracts.identityRegistry!;
    const registry = chain.chain.contracts.validationRegistry!;
    const registered = await mined(
      chain.wallet(1).writeContract({
        address: identity,
        abi: IdentityRegistryAbi,
        functionName: 'register',
        args: ['https://agents.example/ceo.json'],
      }),
    );
    const agentId = registeredAgentId(registered, identity);
    await mined(
      chain.wallet(1).writeContract({
        address: registry,
        abi: ValidationRegistryAbi,
        functionName: 'validationRequest',
        args: [platform(), agentId, 'https://ai-economy.example/decisions/1', dataHash],
      }),
    );
    if (response === undefined) return { agentId, receipt: registered };
    const receipt = await mined(
      chain.wallet(0).writeContract({
        address: registry,
        abi: ValidationRegistryAbi,
        functionName: 'validationResponse',
        args: [
          validationRequestHash(requester(), dataHash),
          response,
          '',
          `0x${'00'.repeat(32)}`,
          stringToHex('decision', { size: 32 }),
        ],
      }),
    );
    return { agentId, receipt };
  }

  it('finds an anchored hash with its time and transaction', async () => {
    const h = freshHash();
    const receipt = await mined(anchorBatchDirectly([h]));
    expect(await lookupDecisionHash(chain.chain, h)).toEqual({
      method: 'decision_anchor',
      anchoredAt: await blockTime(receipt.blockNumber),
      txHash: receipt.transactionHash,
      blockNumber: receipt.blockNumber,
      companyKey: company,
    });
  });

  it('finds a legacy ERC-8004 validation entry answered by its validator', async () => {
    const h = freshHash();
    const { agentId, receipt } = await validate(h, 100);
    const events = parseEventLogs({ abi: ValidationRegistryAbi, eventName: 'ValidationResponse', logs: receipt.logs });
    expect(events).toHaveLength(1);
    expect(await lookupDecisionHash(chain.chain, h, { requester: requester() })).toEqual({
      method: 'erc8004_validation',
      validatedAt: await blockTime(receipt.blockNumber),
      agentId,
      validatorAddress: platform(),
      response: 100,
    });
  });

  it('does not count a validation request without an answer, nor an answer of 0', async () => {
    const unanswered = freshHash();
    await validate(unanswered, undefined);
    expect(await lookupDecisionHash(chain.chain, unanswered, { requester: requester() })).toEqual({ method: 'none' });
    const failed = freshHash();
    await validate(failed, 0);
    expect(await lookupDecisionHash(chain.chain, failed, { requester: requester() })).toEqual({ method: 'none' });
    // Another requester's entry for the same data is another request: not this one.
    expect(await lookupDecisionHash(chain.chain, failed, { requester: platform() })).toEqual({ method: 'none' });
  });

  it('prefers the anchor contract when the hash is in both', async () => {
    const h = freshHash();
    await validate(h, 100);
    const receipt = await mined(anchorBatchDirectly([h]));
    expect(await lookupDecisionHash(chain.chain, h, { requester: requester() })).toMatchObject({
      method: 'decision_anchor',
      txHash: receipt.transactionHash,
    });
  });

  it('answers none for an unknown hash, and for a chain without the contracts', async () => {
    expect(await lookupDecisionHash(chain.chain, freshHash())).toEqual({ method: 'none' });
    expect(await lookupDecisionHash({ ...chain.chain, contracts: {} }, freshHash())).toEqual({ method: 'none' });
  });

  describe('over a counting proxy', () => {
    let proxy: Server;
    let proxyUrl: string;
    const requests: unknown[] = [];

    beforeAll(async () => {
      proxy = createServer(async (req, res) => {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        const body = Buffer.concat(chunks).toString();
        requests.push(JSON.parse(body));
        const upstream = await fetch(chain.node.rpcUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        res.writeHead(upstream.status, { 'content-type': 'application/json' });
        res.end(await upstream.text());
      });
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
      proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      proxy?.closeAllConnections();
      await new Promise((resolve) => proxy?.close(resolve));
    });

    const proxied = () => ({
      ...createChainClients({ chainId: 31337, rpcUrl: proxyUrl, local: true, timeoutMs: 5000 }),
      contracts: chain.chain.contracts,
    });
    const methods = (request: unknown) =>
      (Array.isArray(request) ? request : [request]).map((r: { method: string }) => r.method);

    it('reads the anchor and the validation entry in one JSON-RPC batch', async () => {
      const reader = proxied();
      requests.length = 0;
      expect(await lookupDecisionHash(reader, freshHash(), { requester: requester() })).toEqual({ method: 'none' });
      expect(requests.map(methods)).toEqual([['eth_call', 'eth_call']]);

      const h = freshHash();
      const receipt = await mined(anchorBatchDirectly([h]));
      requests.length = 0;
      expect(await lookupDecisionHash(reader, h, { requester: requester() })).toMatchObject({
        txHash: receipt.transactionHash,
      });
      // The batch, then the DecisionAnchored log of the one block the anchor names.
      expect(requests.map(methods)).toEqual([['eth_call', 'eth_call'], ['eth_getLogs']]);
      type GetLogs = { params: [{ fromBlock: Hex; toBlock: Hex }] };
      const getLogs = (Array.isArray(requests[1]) ? requests[1][0] : requests[1]) as GetLogs;
      expect(getLogs.params[0].fromBlock).toBe(`0x${receipt.blockNumber.toString(16)}`);
      expect(getLogs.params[0].toBlock).toBe(getLogs.params[0].fromBlock);
    });
  });

  describe('with an RPC that does not answer', () => {
    const blackHole = useBlackHoleRpc();

    const unreachable = (rpcUrl: string) => ({
      ...createChainClients({ chainId: 31337, rpcUrl, local: false, timeoutMs: 300 }),
      contracts: chain.chain.contracts,
    });
    const unusedOutbox: Outbox = {
      send: () => Promise.reject(new Error('the outbox must not be reached')),
      settlePending: () => Promise.resolve(0),
    };

    it('lookupDecisionHash and anchorDecision throw CHAIN_UNAVAILABLE', async () => {
      for (const rpcUrl of [blackHole.url, 'http://127.0.0.1:1']) {
        const reader = unreachable(rpcUrl);
        const lookup = await lookupDecisionHash(reader, freshHash()).catch((e: unknown) => e);
        expect(lookup).toBeInstanceOf(AppError);
        expect((lookup as AppError).code).toBe('CHAIN_UNAVAILABLE');
        const anchoring = await anchorDecision(
          { outbox: unusedOutbox, chain: reader },
          'k',
          company,
          freshHash(),
        ).catch((e: unknown) => e);
        expect(anchoring).toBeInstanceOf(AppError);
        expect((anchoring as AppError).code).toBe('CHAIN_UNAVAILABLE');
      }
    });

    it('anchorDecision throws CHAIN_UNAVAILABLE when the node stops answering during the send', async () => {
      const failing: Outbox = {
        send: () =>
          createChainClients({ chainId: 31337, rpcUrl: blackHole.url, local: false, timeoutMs: 300 })
            .publicClient.getBlockNumber()
            .then(() => {
              throw new Error('unreachable');
            }),
        settlePending: () => Promise.resolve(0),
      };
      const err = await anchorDecision({ outbox: failing, chain: chain.chain }, 'k2', company, freshHash()).catch(
        (e: unknown) => e,
      );
      expect((err as AppError).code).toBe('CHAIN_UNAVAILABLE');
    });
  });
});
