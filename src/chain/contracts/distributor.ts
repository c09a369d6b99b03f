// The epoch distributor (contracts/EpochDistributor.sol): its reads, the finalize and claim transactions the oracle
// sends, and the lookups that repair a crash (the transaction that finalized an epoch or paid a leaf, found from
// the outbox's record or, failing that, the logs). Every call maps an unreachable node to CHAIN_UNAVAILABLE.

import { EpochDistributorAbi } from '@ai-economy/shared/abis';
import { eq } from 'drizzle-orm';
import {
  type Address,
  encodeFunctionData,
  type Hex,
  isAddressEqual,
  parseEventLogs,
  type TransactionReceipt,
  TransactionReceiptNotFoundError,
} from 'viem';
import type { Database } from '../../db/client.ts';
import { chainTxs } from '../../db/schema/chain.ts';
import type { Chain } from '../client.ts';
import { onChain } from '../errors.ts';
import type { TxRequest } from '../outbox.ts';
import { requireContract } from './addresses.ts';

type Deps = { chain: Chain; database: Database };

/** The outbox key of epoch `epoch`'s finalize transaction. */
export const finalizeKey = (epoch: number) => `epoch-finalize:${epoch}`;
/** The outbox key of a company's claim in epoch `epoch`. */
export const claimKey = (epoch: number, companyId: string) => `epoch-claim:${epoch}:${companyId}`;

export function distributorAddress(deps: Pick<Deps, 'chain'>): Address {
  return requireContract(deps.chain.contracts, 'distributor');
}

/** The distributor's EpochInfo of one epoch (all zero until finalized). */
export interface EpochInfo {
  merkleRoot: Hex;
  totalScore: bigint;
  rewardPool: bigint;
  totalClaimed: bigint;
  companyCount: bigint;
  finalizedAt: bigint;
}

const at = (deps: Deps) => ({ address: distributorAddress(deps), abi: EpochDistributorAbi }) as const;

/** The epoch running at the latest block. */
export function readCurrentEpoch(deps: Deps): Promise<bigint> {
  return onChain(() => deps.chain.publicClient.readContract({ ...at(deps), functionName: 'currentEpoch' }));
}

/** The epoch's window [start, end) in seconds, and its EpochInfo, in one batch. */
export async function readEpoch(deps: Deps, epoch: number): Promise<{ start: bigint; end: bigint; info: EpochInfo }> {
  const client = deps.chain.publicClient;
  const e = BigInt(epoch);
  const [start, end, info] = await onChain(() =>
    Promise.all([
      client.readContract({ ...at(deps), functionName: 'epochStart', args: [e] }),
      client.readContract({ ...at(deps), functionName: 'epochEnd', args: [e] }),
      client.readContract({ ...at(deps), functionName: 'epochInfo', args: [e] }),
    ]),
  );
  return { start, end, info };
}

export function readIsClaimed(deps: Deps, epoch: number, index: number): Promise<boolean> {
  return onChain(() =>
    deps.chain.publicClient.readContract({
      ...at(deps),
      functionName: 'isClaimed',
      args: [BigInt(epoch), BigInt(index)],
    }),
  );
}

/** A transaction of the distributor found for a repair, with its block's time. */
export interface FoundTx {
  txHash: Hex;
  blockNumber: bigint;
}

/** The receipt of the transaction the outbox recorded under `key`, when it was mined. */
async function outboxReceipt(deps: Deps, key: string): Promise<TransactionReceipt | undefined> {
  const [row] = await deps.database.db.select().from(chainTxs).where(eq(chainTxs.key, key));
  if (!row) return undefined;
  try {
    return await onChain(() => deps.chain.publicClient.getTransactionReceipt({ hash: row.hash as Hex }));
  } catch (err) {
    if (err instanceof TransactionReceiptNotFoundError) return undefined;
    throw err;
  }
}

function distributorLogs(deps: Deps, receipt: TransactionReceipt) {
  if (receipt.status !== 'success') return [];
  return parseEventLogs({
    abi: EpochDistributorAbi,
    logs: receipt.logs.filter((l) => isAddressEqual(l.address, distributorAddress(deps))),
  });
}

/** The transaction that finalized `epoch`: the outbox's own, else the EpochFinalized log. */
export async function findFinalizeTx(deps: Deps, epoch: number): Promise<FoundTx | undefined> {
  const receipt = await outboxReceipt(deps, finalizeKey(epoch));
  if (receipt) {
    const log = distributorLogs(deps, receipt).find(
      (l) => l.eventName === 'EpochFinalized' && l.args.epoch === BigInt(epoch),
    );
    if (log) return { txHash: receipt.transactionHash, blockNumber: receipt.blockNumber };
  }
  const [log] = await onChain(() =>
    deps.chain.publicClient.getContractEvents({
      ...at(deps),
      eventName: 'EpochFinalized',
      args: { epoch: BigInt(epoch) },
      fromBlock: deps.chain.deployBlocks?.distributor ?? 0n,
      strict: true,
    }),
  );
  return log && { txHash: log.transactionHash, blockNumber: log.blockNumber };
}

/**
 * The transaction that paid leaf `index` of `epoch`: the outbox's own claim, else the Claimed log (anyone may
 * claim with the public proof), searched from the epoch's finalization on.
 */
export async function findClaimTx(
  deps: Deps,
  claim: { epoch: number; companyId: string; leafIndex: number; companyKey: string },
  fromBlock: bigint | undefined,
): Promise<FoundTx | undefined> {
  const receipt = await outboxReceipt(deps, claimKey(claim.epoch, claim.companyId));
  if (receipt) {
    const log = distributorLogs(deps, receipt).find(
      (l) =>
        l.eventName === 'Claimed' && l.args.epoch === BigInt(claim.epoch) && l.args.index === BigInt(claim.leafIndex),
    );
    if (log) return { txHash: receipt.transactionHash, blockNumber: receipt.blockNumber };
  }
  const logs = await onChain(() =>
    deps.chain.publicClient.getContractEvents({
      ...at(deps),
      eventName: 'Claimed',
      args: { epoch: BigInt(claim.epoch), companyKey: claim.companyKey as Hex },
      fromBlock: fromBlock ?? deps.chain.deployBlocks?.distributor ?? 0n,
      strict: true,
    }),
  );
  const log = logs.find((l) => l.args.index === BigInt(claim.leafIndex));
  return log && { txHash: log.transactionHash, blockNumber: log.blockNumber };
}

/** The oracle's finalize transaction of `epoch`. */
export function finalizeCall(
  deps: Pick<Deps, 'chain'>,
  epoch: number,
  root: { merkleRoot: Hex; totalScore: bigint; rewardPool: bigint; companyCount: number },
): TxRequest {
  return {
    to: distributorAddress(deps),
    data: encodeFunctionData({
      abi: EpochDistributorAbi,
      functionName: 'finalize',
      args: [BigInt(epoch), root.merkleRoot, root.totalScore, root.rewardPool, BigInt(root.companyCount)],
    }),
  };
}

/** The claim transaction of a company's leaf in `epoch` (paid to its claimTo). */
export function claimCall(
  deps: Pick<Deps, 'chain'>,
  epoch: number,
  leaf: { index: number; companyKey: Hex; claimTo: Address; score: bigint; proof: Hex[] },
): TxRequest {
  return {
    to: distributorAddress(deps),
    data: encodeFunctionData({
      abi: EpochDistributorAbi,
      functionName: 'claim',
      args: [BigInt(epoch), BigInt(leaf.index), leaf.companyKey, leaf.claimTo, leaf.score, leaf.proof],
    }),
  };
}

/**
 * The distributor's immutable start time and epoch length, read once per chain and contract. Keyed by the chain's
 * clients rather than its URL: a local node reverted to a snapshot can hold another contract at the same address.
 */
const immutables = new WeakMap<object, Map<string, Promise<{ startTime: bigint; epochDuration: bigint }>>>();

function readImmutables(deps: Pick<Deps, 'chain'>, address: Address) {
  let ofChain = immutables.get(deps.chain.publicClient);
  if (!ofChain) {
    ofChain = new Map();
    immutables.set(deps.chain.publicClient, ofChain);
  }
  const key = address.toLowerCase();
  let found = ofChain.get(key);
  if (!found) {
    const client = deps.chain.publicClient;
    found = Promise.all([
      client.readContract({ address, abi: EpochDistributorAbi, functionName: 'startTime' }),
      client.readContract({ address, abi: EpochDistributorAbi, functionName: 'epochDuration' }),
    ]).then(([startTime, epochDuration]) => ({ startTime, epochDuration }));
    // A failed read is not kept: the next request tries again.
    found.catch(() => ofChain.delete(key));
    ofChain.set(key, found);
  }
  return found;
}

/**
 * The epoch whose window holds `seconds` (the distributor's clock: start time plus whole epoch lengths), or null
 * before the first epoch starts. The start time and length are read once.
 */
export async function epochAt(deps: Pick<Deps, 'chain'>, seconds: bigint): Promise<number | null> {
  const address = distributorAddress(deps);
  const { startTime, epochDuration } = await onChain(() => readImmutables(deps, address));
  return seconds < startTime ? null : Number((seconds - startTime) / epochDuration);
}

/**
 * The epoch running at the latest block: its number, window and EpochInfo in one JSON-RPC batch pinned to that
 * block (the start time and epoch length never change and are read once), and the block's time.
 */
export function readRunningEpoch(deps: Pick<Deps, 'chain'>): Promise<{
  epoch: bigint;
  start: bigint;
  end: bigint;
  info: EpochInfo;
  epochDuration: bigint;
  blockTime: bigint;
}> {
  const address = distributorAddress(deps);
  const client = deps.chain.publicClient;
  return onChain(async () => {
    const [block, { startTime, epochDuration }] = await Promise.all([
      client.getBlock({ blockTag: 'latest' }),
      readImmutables(deps, address),
    ]);
    const pinned = { address, abi: EpochDistributorAbi, blockNumber: block.number } as const;
    const expected = block.timestamp >= startTime ? (block.timestamp - startTime) / epochDuration : 0n;
    const [current, start, end, info] = await Promise.all([
      client.readContract({ ...pinned, functionName: 'currentEpoch' }),
      client.readContract({ ...pinned, functionName: 'epochStart', args: [expected] }),
      client.readContract({ ...pinned, functionName: 'epochEnd', args: [expected] }),
      client.readContract({ ...pinned, functionName: 'epochInfo', args: [expected] }),
    ]);
    if (current !== expected) throw new Error(`distributor says epoch ${current}, its clock says ${expected}`);
    return { epoch: current, start, end, info, epochDuration, blockTime: block.timestamp };
  });
}

/** The receipt of a transaction, or undefined when the node does not know it. */
export async function readReceipt(deps: Pick<Deps, 'chain'>, hash: Hex): Promise<TransactionReceipt | undefined> {
  return onChain(() => deps.chain.publicClient.getTransactionReceipt({ hash })).catch(() => undefined);
}
