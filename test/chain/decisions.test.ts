// Decision hashes on-chain: anchorDecisionRoot sends one anchoring per batch's root whatever happens (called twice,
// concurrently, crashed between recording and broadcasting, raced by another anchoring), and lookupDecisionHash tells an anchored hash,
// a legacy ERC-8004 validation entry and an unknown hash apart, in one JSON-RPC batch, with CHAIN_UNAVAILABLE for
// an RPC that does not answer.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DecisionAnchorAbi, IdentityRegistryAbi, ValidationRegistryAbi } from '@ai-economy/shared/abis';
import { eq, inArray } from 'drizzle-orm';
import { type Hex, keccak256, parseEventLogs, stringToHex, type TransactionReceipt } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChainClients } from '../../src/chain/client.ts';
import { type AnchorEntry, anchorDecisionRoot, decisionTree } from '../../src/chain/contracts/anchor.ts';
import { lookupDecisionHash } from '../../src/chain/contracts/anchor-lookup.ts';
import { registeredAgentId } from '../../src/chain/contracts/identity.ts';
import { validationRequestHash } from '../../src/chain/contracts/validation.ts';
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

/** Anchors the entries' root directly from the platform account (dev account 0), outside the outbox. */
function anchorRootDirectly(entries: readonly AnchorEntry[], options: { nonce?: number; gas?: bigint } = {}) {
  return chain.wallet(0).writeContract({
    address: anchorAddress(),
    abi: DecisionAnchorAbi,
    functionName: 'anchorRoot',
    args: [decisionTree(entries).root, BigInt(entries.length)],
    ...options,
  });
}

/** Every BatchAnchored log of the root, to check it was anchored exactly once. */
const rootLogs = (root: Hex) =>
  anvil.getContractEvents({
    address: anchorAddress(),
    abi: DecisionAnchorAbi,
    eventName: 'BatchAnchored',
    args: { root },
    fromBlock: 0n,
  });

/** A batch of `n` fresh rounds of the test company. */
const freshEntries = (n: number): AnchorEntry[] =>
  Array.from({ length: n }, () => ({ companyKey: company, decisionHash: freshHash() }));

describe.each(testDatabases)('anchorDecisionRoot on $name', ({ open }) => {
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

  it('anchors once: the anchoring block and time come back, and a second call, under any key, sends nothing', async () => {
    const entries = freshEntries(2);
    const key = `decision-anchor-root:${entries[0]!.decisionHash}`;
    const first = await anchorDecisionRoot(deps(), key, entries);
    expect(first.anchoredAt).toEqual(await blockTime(first.blockNumber));
    expect(await row(key)).toMatchObject({ status: 'MINED', hash: first.txHash });
    const nonce = await platformNonce();
    expect(await anchorDecisionRoot(deps(), key, entries)).toEqual(first);
    // Under another key too: the root is anchored, so nothing is recorded or sent.
    expect(await anchorDecisionRoot(deps(), `${key}:again`, entries)).toEqual(first);
    expect(await row(`${key}:again`)).toBeUndefined();
    expect(await platformNonce()).toBe(nonce);
    expect(await rootLogs(first.root)).toHaveLength(1);
  });

  it('two concurrent calls for one key anchor once', async () => {
    const entries = freshEntries(3);
    const key = `decision-anchor-root:${entries[0]!.decisionHash}`;
    const [a, b] = await Promise.all([
      anchorDecisionRoot(deps(), key, entries),
      anchorDecisionRoot(deps(outbox()), key, entries),
    ]);
    expect(b).toEqual(a);
    expect(await rootLogs(a.root)).toHaveLength(1);
  });

  it('after a crash, settling at start then calling again returns the same anchoring', async () => {
    const entries = freshEntries(2);
    const key = `decision-anchor-root:${entries[0]!.decisionHash}`;
    await expect(anchorDecisionRoot(deps(crashingOutbox()), key, entries)).rejects.toThrow('crash');
    const recorded = await row(key);
    expect(await outbox().settlePending()).toBe(1);
    const nonce = await platformNonce();
    const result = await anchorDecisionRoot(deps(), key, entries);
    expect(result.txHash).toBe(recorded!.hash);
    expect(result.anchoredAt).toEqual(await blockTime(result.blockNumber));
    expect(await platformNonce()).toBe(nonce);
    expect(await rootLogs(result.root)).toHaveLength(1);
  });

  it('returns an anchoring made by another transaction without sending anything', async () => {
    const entries = freshEntries(2);
    const other = await mined(anchorRootDirectly(entries));
    const nonce = await platformNonce();
    const result = await anchorDecisionRoot(deps(), `decision-anchor-root:${entries[0]!.decisionHash}`, entries);
    expect(result).toMatchObject({
      txHash: other.transactionHash,
      blockNumber: other.blockNumber,
      anchoredAt: await blockTime(other.blockNumber),
    });
    expect(await platformNonce()).toBe(nonce);
  });

  it('returns the other anchoring when the root got anchored meanwhile (its own transaction anchors nothing)', async () => {
    const entries = freshEntries(2);
    const key = `decision-anchor-root:${entries[0]!.decisionHash}`;
    // The race, staged with manual mining: another anchoring of the root waits in the mempool (nonce N) while
    // anchorDecisionRoot reads the root as not anchored and records its own transaction (nonce N + 1, with a fixed
    // gas limit so that it is mined instead of estimated). Both are mined, the other first.
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
      other = await anchorRootDirectly(entries, { gas: 200_000n });
      const result = await anchorDecisionRoot(deps(fixedGas), key, entries);
      const otherReceipt = await anvil.getTransactionReceipt({ hash: other });
      expect(result).toMatchObject({
        txHash: other,
        blockNumber: otherReceipt.blockNumber,
        anchoredAt: await blockTime(otherReceipt.blockNumber),
      });
    } finally {
      await anvil.setAutomine(true);
    }
    // The contract skips a root anchored already: ours is mined and anchors nothing.
    expect((await row(key))!.status).toBe('MINED');
    const { root } = decisionTree(entries);
    expect(await rootLogs(root)).toHaveLength(1);
    // Later calls keep answering with the other anchoring.
    expect((await anchorDecisionRoot(deps(), key, entries)).txHash).toBe(other);
  });

  it('charges each entry a share of the gas, once', async () => {
    const entries = freshEntries(3);
    const key = `decision-anchor-root:${entries[0]!.decisionHash}`;
    await anchorDecisionRoot(deps(), key, entries, ['co-a', 'co-b', 'co-a']);
    const sent = await row(key);
    // The receipt's gas, split in equal shares: two to co-a, one to co-b.
    const gas = sent!.gasUsed!;
    const days = async () =>
      database.db
        .select()
        .from(companyGasDays)
        .where(inArray(companyGasDays.companyId, ['co-a', 'co-b']));
    const of = (rows: Awaited<ReturnType<typeof days>>, id: string) => rows.find((d) => d.companyId === id)!;
    const charged = await days();
    expect(of(charged, 'co-a').gasUsed + of(charged, 'co-b').gasUsed).toBe(gas);
    expect(of(charged, 'co-a').gasUsed).toBeGreaterThanOrEqual(2n * (gas / 3n));
    expect(of(charged, 'co-a').costWei + of(charged, 'co-b').costWei).toBe(gas * sent!.gasPrice!);
    expect(of(charged, 'co-a').transactions).toBe(1);
    // Again under the same key: nothing sent, nothing charged twice.
    await anchorDecisionRoot(deps(), key, entries, ['co-a', 'co-b', 'co-a']);
    expect(of(await days(), 'co-a').gasUsed).toBe(of(charged, 'co-a').gasUsed);
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
    const [first, second] = [freshEntries(1), freshEntries(1)];
    const key = `decision-anchor-root:${first[0]!.decisionHash}`;
    await anchorDecisionRoot(deps(), key, first);
    await expect(anchorDecisionRoot(deps(), key, second)).rejects.toThrow(/did not anchor root/);
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
      recheckMined: () => Promise.resolve([]),
    };

    it('lookupDecisionHash and anchorDecisionRoot throw CHAIN_UNAVAILABLE', async () => {
      for (const rpcUrl of [blackHole.url, 'http://127.0.0.1:1']) {
        const reader = unreachable(rpcUrl);
        const lookup = await lookupDecisionHash(reader, freshHash()).catch((e: unknown) => e);
        expect(lookup).toBeInstanceOf(AppError);
        expect((lookup as AppError).code).toBe('CHAIN_UNAVAILABLE');
        const anchoring = await anchorDecisionRoot({ outbox: unusedOutbox, chain: reader }, 'k', freshEntries(1)).catch(
          (e: unknown) => e,
        );
        expect(anchoring).toBeInstanceOf(AppError);
        expect((anchoring as AppError).code).toBe('CHAIN_UNAVAILABLE');
      }
    });

    it('anchorDecisionRoot throws CHAIN_UNAVAILABLE when the node stops answering during the send', async () => {
      const failing: Outbox = {
        send: () =>
          createChainClients({ chainId: 31337, rpcUrl: blackHole.url, local: false, timeoutMs: 300 })
            .publicClient.getBlockNumber()
            .then(() => {
              throw new Error('unreachable');
            }),
        settlePending: () => Promise.resolve(0),
        recheckMined: () => Promise.resolve([]),
      };
      const err = await anchorDecisionRoot({ outbox: failing, chain: chain.chain }, 'k2', freshEntries(1)).catch(
        (e: unknown) => e,
      );
      expect((err as AppError).code).toBe('CHAIN_UNAVAILABLE');
    });
  });
});
