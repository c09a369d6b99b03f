// The chain's clock, in seconds: the time the chain stamps its next block, never earlier than its latest block's.
// Deadlines and expiries the platform sends to the chain, and windows over times the chain stamped (trades), are
// measured by it and never by the server's clock: a chain runs ahead of or behind the server (the local chain after
// its clock was moved, a real chain by seconds). A node that does not answer is CHAIN_UNAVAILABLE.
import type { PublicClient } from 'viem';
import { onChain } from './errors.ts';

/**
 * The latest block's timestamp, or the pending block's when that is later. A chain that mines only on demand (the
 * local anvil) keeps its clock running between blocks: after ten idle minutes its next block is stamped ten minutes
 * past the latest one, and a deadline counted from the latest block alone would already have passed. A node that
 * serves no pending block gives the latest block's time.
 */
export async function chainTime(client: Pick<PublicClient, 'getBlock'>): Promise<bigint> {
  return (await chainMoment(client)).time;
}

/** The chain's clock (chainTime) and the number of its latest block, read together. */
export async function chainMoment(
  client: Pick<PublicClient, 'getBlock'>,
): Promise<{ time: bigint; latestBlock: bigint }> {
  const [latest, pending] = await onChain(() =>
    Promise.all([
      client.getBlock({ blockTag: 'latest' }),
      client.getBlock({ blockTag: 'pending' }).catch(() => undefined),
    ]),
  );
  const time = pending && pending.timestamp > latest.timestamp ? pending.timestamp : latest.timestamp;
  return { time, latestBlock: latest.number };
}

/** The time the chain stamped block `blockNumber`. */
export async function blockTime(client: Pick<PublicClient, 'getBlock'>, blockNumber: bigint): Promise<Date> {
  const block = await onChain(() => client.getBlock({ blockNumber }));
  return new Date(Number(block.timestamp) * 1000);
}

/** The chain's clock as a Date (for windows over block times stored in the database). */
export async function chainDate(client: Pick<PublicClient, 'getBlock'>): Promise<Date> {
  return new Date(Number(await chainTime(client)) * 1000);
}

/** How long a reading of the clock for reads is reused before it is read again. */
export const READ_CLOCK_REUSE_MS = 5_000;
/** How long a read waits for the node before it takes the last known time instead. */
export const READ_CLOCK_WAIT_MS = 300;
/** How old the last known time may be (since it was read) and still stand in for the chain's clock. */
export const READ_CLOCK_STALE_MS = 600_000;

interface ReadClock {
  known?: { chainMs: number; readAt: number };
  pending?: Promise<void>;
  /** When the pending read started: a read that outlived the wait is not waited for again. */
  pendingSince?: number;
}
const readClocks = new WeakMap<object, ReadClock>();

/**
 * The chain's clock for reads that only place a window over stored block times (the token lists' 24-hour volumes,
 * the Fortune List's next snapshot): such a read never waits on an unreachable node. The clock is read at most once
 * per READ_CLOCK_REUSE_MS per client and shared; when the node has not answered within READ_CLOCK_WAIT_MS the read
 * takes the last time it did answer (at most READ_CLOCK_STALE_MS old, which an outage of the node cannot outdate by
 * much: nothing newer is indexed meanwhile), and with none the server's clock `fallbackNow`. One read is in flight at
 * a time, and the reads that come while it has outlived the wait do not wait again. The node's late answer (or
 * failure, after the RPC timeout) ends it, and updates the clock for the reads after it. Writes and deadlines use chainTime, which waits and fails.
 */
export async function chainDateForReads(
  client: Pick<PublicClient, 'getBlock'>,
  fallbackNow: () => number = Date.now,
): Promise<Date> {
  let clock = readClocks.get(client);
  if (clock === undefined) {
    clock = {};
    readClocks.set(client, clock);
  }
  const state = clock;
  if (state.known && Date.now() - state.known.readAt < READ_CLOCK_REUSE_MS) return new Date(state.known.chainMs);
  if (state.pending === undefined) state.pendingSince = Date.now();
  state.pending ??= chainTime(client)
    .then(
      (seconds) => {
        state.known = { chainMs: Number(seconds) * 1000, readAt: Date.now() };
      },
      () => {},
    )
    .finally(() => {
      state.pending = undefined;
    });
  // What is left of the wait since the pending read started: a node that hangs costs one wait per outage, not one
  // per request.
  const wait = READ_CLOCK_WAIT_MS - (Date.now() - (state.pendingSince ?? 0));
  if (wait > 0) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      state.pending,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, wait);
      }),
    ]);
    clearTimeout(timer);
  }
  const known = state.known;
  if (known && Date.now() - known.readAt < READ_CLOCK_STALE_MS) return new Date(known.chainMs);
  return new Date(fallbackNow());
}
