// Follows one contract's event logs into the database: a persisted block cursor per stream, reorg detection by parent
// hash (reorgs.ts) with a rollback to the common ancestor, and each batch applied in the same transaction that
// advances the cursor, so a crash never skips a block or applies one twice, and replicas share the work through an
// advisory lock.
import { eq, sql } from 'drizzle-orm';
import type { AbiEvent, Address, GetLogsReturnType, PublicClient, Transport, Chain as ViemChain } from 'viem';
import { type Db, rowsOf, type Tx } from '../db/client.ts';
import { chainCursors } from '../db/schema/chain.ts';
import { isChainUnavailable } from '../errors.ts';
import { type BlockRange, beginJournal, endJournal, pruneJournal } from './journal.ts';
import {
  type BlockRef,
  commonAncestor,
  type Finality,
  finalizedBlock,
  forgetBlocksAbove,
  missingBlock,
  pruneFinalized,
  recordBlocks,
  recordedHash,
} from './reorgs.ts';

/** A decoded log of one of the followed events. */
export type FollowedLog<TEvents extends readonly AbiEvent[]> = GetLogsReturnType<
  undefined,
  TEvents,
  true,
  bigint,
  bigint
>[number];

export const DEFAULT_BATCH_BLOCKS = 2000;
/** Longest wait between attempts while polls keep failing. */
const MAX_BACKOFF_MS = 60_000;

export interface FollowerLogger {
  debug(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export type { BlockRange } from './journal.ts';

export interface LogFollowerOptions<TEvents extends readonly AbiEvent[], TPrepared = undefined> {
  /** Names the cursor and the advisory lock, e.g. `access-card-transfers`. */
  name: string;
  db: Db;
  client: PublicClient<Transport, ViemChain | undefined> | PublicClient<Transport, ViemChain>;
  /** The contract, or contracts, whose logs are followed (read by one eth_getLogs, unless `read` is given). */
  address: Address | readonly Address[];
  events: TEvents;
  /** First block that can hold a followed log (the contract's deployment block). */
  fromBlock: bigint;
  /** Blocks a log must be buried under before it is applied. */
  confirmations: number;
  /** Most blocks read by one eth_getLogs; default 2000. */
  batchSize?: number;
  /**
   * Applies one batch, logs sorted by (blockNumber, logIndex), in the transaction that advances the cursor to
   * `range.to`; `range.from` is the first block not applied yet (past `from` of the read when another replica
   * moved the cursor meanwhile: the logs before it are left out). It must be idempotent: applying the same batch
   * twice leaves the same state.
   */
  apply(tx: Tx, logs: FollowedLog<TEvents>[], prepared: TPrepared, range: BlockRange): Promise<unknown>;
  /**
   * Reads what `apply` needs from the chain (block timestamps, say) before the database transaction opens, so no
   * RPC round trip holds it. Called only for a batch with logs.
   */
  prepare?(logs: FollowedLog<TEvents>[]): Promise<TPrepared>;
  /**
   * Reads the logs of a range and what `apply` needs, in place of the one eth_getLogs over `address` and `prepare`:
   * for a stream whose filter changes with the database (the treasury stream follows the transfers of a set of
   * accounts). With it, `apply` runs for every batch, empty ones too, so it can record that the range was read.
   */
  read?(range: BlockRange): Promise<{ logs: FollowedLog<TEvents>[]; prepared: TPrepared }>;
  /**
   * When a block counts as finalized (default 64 blocks under the head): the follower keeps the hashes of the blocks
   * it applied above it, to detect a reorg.
   */
  finality?: Finality;
  /**
   * Undoes, in the transaction that moves the cursor back to `ancestor`, every row derived from the blocks above it
   * (a reorg orphaned them); they are then read again from the new branch. It may answer a lower block its state is
   * at (the journal undoes whole batches): the cursor then goes back there. Without it the cursor still goes back,
   * and rows of orphaned blocks stay (a warning says so).
   */
  rollback?(tx: Tx, ancestor: bigint): Promise<bigint | undefined | unknown>;
  /**
   * Journal `apply`'s writes above the finalized block (src/chain/journal.ts), so that `rollback` can undo them with
   * rollbackJournal; entries of finalized batches are pruned.
   */
  journal?: boolean;
  log?: FollowerLogger;
}

/** A reorg a poll found and undid: the blocks above `ancestor` up to `orphanedTo` left the chain. */
export interface ReorgResult {
  ancestor: bigint;
  orphanedTo: bigint;
}

/** A reorg below every block a stream recorded (deeper than finality): the follower stops and says so. */
export class DeepReorgError extends Error {
  constructor(stream: string, cursor: bigint) {
    super(`log follower ${stream}: reorg below every recorded block (cursor ${cursor}): deeper than finality`);
    this.name = 'DeepReorgError';
  }
}

export interface PollResult {
  /** First and last block read; `to < from` when there was nothing new to read. */
  from: bigint;
  to: bigint;
  /** Logs handed to `apply`. */
  applied: number;
  /** The chain's latest block when the poll began. */
  headBlock: bigint;
  /** Last block fully applied after this poll. */
  cursor: bigint;
  /** The cursor has reached the confirmed head: nothing more to read until new blocks arrive. */
  caughtUp: boolean;
  /** Another process held the stream's lock, so this poll did nothing. */
  busy: boolean;
  /** This poll found that the cursor's block left the chain, and rolled the stream back to the common ancestor. */
  reorg?: ReorgResult;
}

export interface LogFollower {
  readonly name: string;
  /** Reads and applies at most one batch. Throws when the chain or the database fails; the cursor then stays. */
  pollOnce(): Promise<PollResult>;
  /** Polls until caught up, waits `intervalMs`, and so on; failures are logged and retried with a backoff. */
  start(intervalMs: number): void;
  /** Stops the loop and waits for a poll in progress to finish. */
  stop(): Promise<void>;
  /** Blocks between the chain head and the cursor at the last poll (confirmations included); unknown before one. */
  lag(): bigint | undefined;
  /** When (epoch ms) a poll last read the chain's head and finished; undefined before one. Stays put while the RPC is down. */
  lastPolledAt(): number | undefined;
  /** The persisted cursor: the last block whose logs were applied (fromBlock - 1 before any). */
  cursor(): Promise<bigint>;
}

const hashIn = (blocks: readonly BlockRef[], n: bigint) => blocks.find((b) => b.number === n)?.hash.toLowerCase();

/** The advisory lock a stream's batch and rollback take (per transaction), so one process applies it at a time. */
const streamLockKey = (name: string) => `indexer:${name}`;

/**
 * Waits for the batch or rollback of `stream` in progress, then holds the stream's lock to the end of `tx`: no batch
 * nor rollback of the stream commits meanwhile (a follower's poll finds it busy and tries again). For a reader whose
 * answer must not change under it, e.g. the score snapshot reading a stream's rows up to its finalized block. Streams
 * in a fixed order, so two such readers never wait for each other.
 */
export async function holdStreamLocks(tx: Tx, streams: readonly string[]): Promise<void> {
  for (const name of [...streams].sort()) {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${streamLockKey(name)}))`);
  }
}

export function createLogFollower<const TEvents extends readonly AbiEvent[], TPrepared = undefined>(
  options: LogFollowerOptions<TEvents, TPrepared>,
): LogFollower {
  const { name, db, events, fromBlock, apply, prepare, read, rollback, journal, log } = options;
  const finality = options.finality ?? { depth: 64 };
  const address = options.address as Address | Address[];
  // One client type for both the chain's typed client and a test's loosely typed one.
  const client = options.client as PublicClient<Transport, ViemChain | undefined>;
  const confirmations = BigInt(options.confirmations);
  const batchSize = BigInt(options.batchSize ?? DEFAULT_BATCH_BLOCKS);
  if (batchSize < 1n) throw new Error(`log follower ${name}: batchSize must be at least 1`);
  if (confirmations < 0n) throw new Error(`log follower ${name}: confirmations must not be negative`);
  const lockKey = streamLockKey(name);
  // Shrinks after a failed eth_getLogs (providers cap ranges and result sizes) and grows back after successes.
  let span = batchSize;
  let lastLag: bigint | undefined;
  let lastPolled: number | undefined;

  const readCursor = async (tx: Tx): Promise<bigint> => {
    const [row] = await tx.select({ block: chainCursors.block }).from(chainCursors).where(eq(chainCursors.name, name));
    return row?.block ?? fromBlock - 1n;
  };

  async function pollOnce(): Promise<PollResult> {
    const cursor = await readCursor(db);
    // Uncached: viem otherwise reuses a block number for a polling interval.
    const headBlock = await client.getBlockNumber({ cacheTime: 0 });
    const safeHead = headBlock - confirmations;
    lastLag = headBlock > cursor ? headBlock - cursor : 0n;
    const from = cursor + 1n;
    if (safeHead < from) {
      // Nothing new: the cursor's block must still be the chain's (a reorg that kept the height, or shortened it).
      const recorded = await recordedHash(db, name, cursor);
      if (recorded !== undefined) {
        const block = await client.getBlock({ blockNumber: cursor }).catch(missingBlock);
        if (block?.hash?.toLowerCase() !== recorded) return rollBack(cursor, headBlock);
      }
      lastPolled = Date.now();
      return { from, to: cursor, applied: 0, headBlock, cursor, caughtUp: true, busy: false };
    }
    const to = safeHead < cursor + span ? safeHead : cursor + span;

    // The last block's hash before and after the read: the same hash means the chain up to it did not change meanwhile.
    const lastBefore = await client.getBlock({ blockNumber: to });
    let logs: FollowedLog<TEvents>[];
    let prepared: TPrepared;
    try {
      if (read) {
        ({ logs, prepared } = await read({ from, to }));
      } else {
        logs = (await client.getLogs({
          address,
          events: events as readonly AbiEvent[],
          fromBlock: from,
          toBlock: to,
          strict: true,
        })) as unknown as FollowedLog<TEvents>[];
        prepared = undefined as TPrepared;
      }
    } catch (err) {
      if (!isChainUnavailable(err) && span > 1n) span = span / 2n;
      throw err;
    }
    if (span < batchSize) span = span * 2n < batchSize ? span * 2n : batchSize;
    const [first, last, finalized, cursorHash] = await Promise.all([
      client.getBlock({ blockNumber: from }),
      client.getBlock({ blockNumber: to }),
      finalizedBlock(client, finality, headBlock),
      recordedHash(db, name, cursor),
    ]);
    if (last.hash !== lastBefore.hash) throw new Error(`log follower ${name}: block ${to} changed while read`);
    if (cursorHash !== undefined && first.parentHash.toLowerCase() !== cursorHash) {
      return rollBack(cursor, headBlock);
    }
    const seen: BlockRef[] = [{ number: to, hash: last.hash! }];
    for (const l of logs) {
      // A removed log, or one of a block whose hash the read's ends disagree with, is of a branch that left the chain.
      const expected = l.blockNumber === to ? last.hash : l.blockNumber === from ? first.hash : undefined;
      if (l.removed || (expected && l.blockHash !== expected)) {
        throw new Error(`log follower ${name}: a log of block ${l.blockNumber} left the chain while read`);
      }
      seen.push({ number: l.blockNumber, hash: l.blockHash });
    }
    logs.sort((a, b) =>
      a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1,
    );
    if (!read && logs.length > 0 && prepare) prepared = await prepare(logs);

    const outcome = await db.transaction(async (tx) => {
      const [lock] = rowsOf<{ locked: boolean }>(
        await tx.execute(sql`select pg_try_advisory_xact_lock(hashtext(${lockKey})) as locked`),
      );
      if (!lock?.locked) return { busy: true, applied: 0, cursor };
      // Another replica may have moved the cursor since it was read. Ahead of `from` but short of `to`, the logs
      // already fetched still cover the rest of the range; anything else is left to the next poll.
      const current = await readCursor(tx);
      if (current < cursor || current >= to) return { busy: false, applied: 0, cursor: current };
      // Another replica moved the cursor: its block must be the one this read's branch has (else the next poll sees).
      if (current !== cursor && (await recordedHash(tx, name, current)) !== hashIn(seen, current)) {
        return { busy: false, applied: 0, cursor: current };
      }
      const fresh = current === cursor ? logs : logs.filter((l) => l.blockNumber > current);
      if (fresh.length > 0 || read) {
        // A batch a reorg can still orphan is journaled, to be undone exactly.
        const journaled = journal && to > finalized;
        if (journaled) await beginJournal(tx, name, { from: current + 1n, to });
        await apply(tx, fresh, prepared, { from: current + 1n, to });
        if (journaled) await endJournal(tx);
      }
      await recordBlocks(
        tx,
        name,
        // The last block always (the anchor of the next parent check), others while not finalized.
        seen.filter((b) => b.number > current && (b.number === to || b.number >= finalized)),
      );
      await pruneFinalized(tx, name, finalized);
      if (journal) await pruneJournal(tx, name, finalized);
      await tx
        .insert(chainCursors)
        .values({ name, block: to, finalized })
        .onConflictDoUpdate({ target: chainCursors.name, set: { block: to, finalized, updatedAt: sql`now()` } });
      return { busy: false, applied: fresh.length, cursor: to };
    });

    lastLag = headBlock > outcome.cursor ? headBlock - outcome.cursor : 0n;
    lastPolled = Date.now();
    if (outcome.applied > 0) log?.debug({ follower: name, from, to, logs: outcome.applied }, 'applied chain logs');
    return {
      from,
      to,
      applied: outcome.applied,
      headBlock,
      cursor: outcome.cursor,
      caughtUp: !outcome.busy && outcome.cursor >= safeHead,
      busy: outcome.busy,
    };
  }

  /** The cursor's block left the chain: undo the stream back to the common ancestor, in one transaction. */
  async function rollBack(cursor: bigint, headBlock: bigint): Promise<PollResult> {
    const ancestor = await commonAncestor(db, client, name, cursor);
    if (ancestor === undefined) throw new DeepReorgError(name, cursor);
    const moved = await db.transaction(async (tx) => {
      const [lock] = rowsOf<{ locked: boolean }>(
        await tx.execute(sql`select pg_try_advisory_xact_lock(hashtext(${lockKey})) as locked`),
      );
      if (!lock?.locked) return 'busy' as const;
      if ((await readCursor(tx)) !== cursor) return 'moved' as const;
      const undone = rollback ? await rollback(tx, ancestor) : undefined;
      const target = typeof undone === 'bigint' && undone < ancestor ? undone : ancestor;
      await forgetBlocksAbove(tx, name, target);
      await tx.update(chainCursors).set({ block: target, updatedAt: sql`now()` }).where(eq(chainCursors.name, name));
      return target;
    });
    const current = typeof moved === 'bigint' ? moved : cursor;
    if (typeof moved === 'bigint') {
      log?.warn(
        { follower: name, ancestor, orphanedTo: cursor, cursor: moved, undone: Boolean(rollback) },
        rollback
          ? 'reorg: rolled back to the common ancestor'
          : 'reorg: cursor moved back to the common ancestor; rows of orphaned blocks stay (no rollback)',
      );
    }
    lastLag = headBlock > current ? headBlock - current : 0n;
    return {
      from: cursor + 1n,
      to: cursor,
      applied: 0,
      headBlock,
      cursor: current,
      caughtUp: false,
      busy: moved === 'busy',
      ...(typeof moved === 'bigint' && { reorg: { ancestor, orphanedTo: cursor } }),
    };
  }

  let running = false;
  let loop: Promise<void> | undefined;
  let wake: (() => void) | undefined;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  async function run(intervalMs: number) {
    let failures = 0;
    while (running) {
      let wait = intervalMs;
      try {
        const result = await pollOnce();
        failures = 0;
        // Behind the head: read the next batch at once.
        if (!result.caughtUp && !result.busy) wait = 0;
      } catch (err) {
        failures++;
        wait = Math.min(intervalMs * 2 ** Math.min(failures - 1, 10), Math.max(intervalMs, MAX_BACKOFF_MS));
        log?.warn(
          { follower: name, err, failures, retryInMs: wait },
          isChainUnavailable(err) ? 'chain RPC unavailable; log follower retries' : 'log follower poll failed; retries',
        );
      }
      if (running && wait > 0) await sleep(wait);
      else if (running) await new Promise((resolve) => setImmediate(resolve));
    }
  }

  return {
    name,
    pollOnce,
    start(intervalMs) {
      if (running) return;
      running = true;
      loop = run(intervalMs);
    },
    async stop() {
      running = false;
      wake?.();
      await loop;
      loop = undefined;
    },
    lag: () => lastLag,
    lastPolledAt: () => lastPolled,
    cursor: () => readCursor(db),
  };
}
