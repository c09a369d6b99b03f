// What the outbox (outbox.ts) asks of the node and works out from its answers, apart from its records: a request's
// gas limit, a receipt, which transaction took a nonce, whether a failure was a revert or ran out of gas, and how a
// transaction's gas is split over the companies it is charged to.
import {
  type Address,
  BaseError,
  CallExecutionError,
  ContractFunctionRevertedError,
  type Hex,
  isAddressEqual,
  numberToHex,
  parseTransaction,
  RawContractError,
  TransactionNotFoundError,
  type TransactionReceipt,
  TransactionReceiptNotFoundError,
} from 'viem';
import type { ChainClients } from './client.ts';

type PublicClient = ChainClients['publicClient'];

export interface TxRequest {
  to: Address;
  data: Hex;
  value?: bigint;
  /** A fixed gas limit: no estimate is made. */
  gas?: bigint;
  /**
   * The call kind's measured worst case: the limit is never below it, whatever the estimate says (an estimate holds
   * for the state and time it was made in, and the block the transaction lands in can cost more).
   */
  gasFloor?: bigint;
}

/** The key of the one retry of a transaction that ran out of gas. */
export const RETRY_SUFFIX = ':out-of-gas-retry';

/**
 * The gas limit of a reverted transaction that ran out of gas, else undefined. Out of gas, a transaction uses all of
 * its limit, or all but the 1/64 kept back from the call that ran out (EIP-150) when its caller then reverted.
 */
export function outOfGas(row: { key: string; rawTx: string }, receipt: TransactionReceipt): bigint | undefined {
  if (receipt.status !== 'reverted' || row.key.endsWith(RETRY_SUFFIX)) return undefined;
  const limit = parseTransaction(row.rawTx as Hex).gas;
  if (limit === undefined) return undefined;
  return receipt.gasUsed * 64n >= limit * 63n ? limit : undefined;
}

/**
 * The limit for a request without one: the node's estimate made in the next block's conditions (its number and
 * timestamp, where the node takes block overrides; the staking contract, for one, does more work in a block later
 * than its pools' last update), with 20% headroom, and never below the call kind's measured worst case. Unused gas
 * costs nothing.
 */
export async function gasLimit(client: PublicClient, from: Address, request: TxRequest): Promise<bigint> {
  const call = {
    from,
    to: request.to,
    data: request.data,
    ...(request.value ? { value: numberToHex(request.value) } : {}),
  };
  let estimate: bigint;
  try {
    const [latest, pending] = await Promise.all([
      client.getBlock({ blockTag: 'latest' }),
      client.getBlock({ blockTag: 'pending' }).catch(() => undefined),
    ]);
    const time = pending && pending.timestamp > latest.timestamp ? pending.timestamp : latest.timestamp + 1n;
    const next = { number: numberToHex(latest.number + 1n), time: numberToHex(time) };
    estimate = BigInt(await client.request({ method: 'eth_estimateGas', params: [call, 'latest', {}, next] } as never));
  } catch {
    // A node without block overrides, or a call that reverts: the node's own estimate, which reports a revert as
    // every estimate does (the call kind's floor carries the difference otherwise).
    estimate = await client.estimateGas({
      account: from,
      to: request.to,
      data: request.data,
      value: request.value ?? 0n,
    });
  }
  const headroom = (estimate * 12n) / 10n;
  return request.gasFloor !== undefined && request.gasFloor > headroom ? request.gasFloor : headroom;
}

export async function receiptOf(client: PublicClient, hash: Hex): Promise<TransactionReceipt | undefined> {
  try {
    return await client.getTransactionReceipt({ hash });
  } catch (err) {
    if (err instanceof TransactionReceiptNotFoundError) return undefined;
    throw err;
  }
}

/**
 * Which transaction of this signer used the row's nonce, as the chain proves it: 'own' when the row's transaction
 * is known to the node (mined, its receipt lagging behind, or pending), 'other' when the block that used the nonce
 * holds another transaction of this signer at it, 'unknown' when the node cannot tell yet (a read replica behind
 * the sequencer). The block is found by bisecting the signer's transaction count over block numbers, within a
 * window found by stepping back from the latest block in doubling steps: a nonce is taken by another shortly
 * before it is settled, and a full node keeps the state of recent blocks only (a count read at an early block
 * fails there, as it does on anvil for blocks before a snapshot was reverted to).
 */
export async function nonceUsedBy(
  client: PublicClient,
  from: Address,
  row: { hash: string; nonce: number },
): Promise<'own' | 'other' | 'unknown'> {
  try {
    await client.getTransaction({ hash: row.hash as Hex });
    return 'own';
  } catch (err) {
    if (!(err instanceof TransactionNotFoundError)) throw err;
  }
  // The node's latest block now, not viem's cached number of up to a polling interval ago, which can predate the
  // block that used the nonce.
  const latest = await client.getBlockNumber({ cacheTime: 0 });
  const countAt = (blockNumber: bigint) => client.getTransactionCount({ address: from, blockNumber });
  if ((await countAt(latest)) <= row.nonce) return 'unknown';
  // high: a block whose count is past the nonce; low - 1: one whose count is not (or the chain's start).
  let high = latest;
  let low = 0n;
  for (let step = 1n; high > 0n; step *= 2n) {
    const probe = high > step ? high - step : 0n;
    if ((await countAt(probe)) <= row.nonce) {
      low = probe + 1n;
      break;
    }
    high = probe;
  }
  while (low < high) {
    const mid = (low + high) / 2n;
    if ((await countAt(mid)) > row.nonce) high = mid;
    else low = mid + 1n;
  }
  const block = await client.getBlock({ blockNumber: low, includeTransactions: true });
  const user = block.transactions.find((t) => isAddressEqual(t.from, from) && t.nonce === row.nonce);
  if (!user) return 'unknown';
  return user.hash.toLowerCase() === row.hash.toLowerCase() ? 'own' : 'other';
}

/** A call the chain answered with a revert (not a node that failed to answer). */
export function isRevert(err: unknown): boolean {
  return (
    err instanceof BaseError &&
    err.walk(
      (e) =>
        e instanceof CallExecutionError || e instanceof ContractFunctionRevertedError || e instanceof RawContractError,
    ) !== null
  );
}

/**
 * `gas` and `cost` split over the entries in equal shares (the remainder of the division going to the first
 * entries, so the shares add up exactly), summed per company.
 */
export function splitEqually(entries: readonly string[], gas: bigint, cost: bigint) {
  const n = BigInt(entries.length);
  const shares = new Map<string, { gas: bigint; cost: bigint }>();
  entries.forEach((companyId, i) => {
    const extra = (total: bigint) => (BigInt(i) < total % n ? 1n : 0n);
    const share = { gas: gas / n + extra(gas), cost: cost / n + extra(cost) };
    const sum = shares.get(companyId);
    shares.set(companyId, sum ? { gas: sum.gas + share.gas, cost: sum.cost + share.cost } : share);
  });
  return shares;
}
