// A chain stream, declared once (docs/indexer.md): its name (the cursor's and the lock's), the contracts and events
// it follows, the block it starts at, how it reads a range when one eth_getLogs over its contracts is not enough, and
// how it applies a batch. The registry of the platform's streams is src/domain/streams/registry.ts; followStream
// turns any stream into a log follower (indexer.ts), which applies each batch of logs for a block range inside the
// one database transaction that moves the stream's cursor.
import type { PgTable } from 'drizzle-orm/pg-core';
import type { AbiEvent, Address } from 'viem';
import type { Db, Tx } from '../db/client.ts';
import type { Chain } from './client.ts';
import {
  type BlockRange,
  createLogFollower,
  type FollowedLog,
  type FollowerLogger,
  type LogFollower,
} from './indexer.ts';
import { rollbackJournal } from './journal.ts';
import type { Finality } from './reorgs.ts';

/** What a stream reads and writes through: the database, the chain, the confirmation and finality depths. */
export interface StreamDeps {
  database: { db: Db };
  chain: Pick<Chain, 'publicClient' | 'contracts' | 'deployBlocks'>;
  /** `chainFinalityDepth` undefined: the chain's `finalized` tag (docs/indexer.md#reorgs). */
  config: { chainConfirmations: number; chainFinalityDepth?: number | undefined };
}

/** What a stream's declaration reads of the chain: its contracts file. */
type StreamChain = Pick<Chain, 'contracts' | 'deployBlocks'>;

export interface ChainStream<TEvents extends readonly AbiEvent[] = readonly AbiEvent[], TPrepared = any> {
  /** Names the cursor and the advisory lock, e.g. `access-card-transfers`. */
  name: string;
  /** The events it follows (the decoded logs `apply` receives). */
  events: TEvents;
  /** The contract, or contracts, it follows; undefined when the contracts file has none (it is then not followed). */
  address(chain: StreamChain): Address | readonly Address[] | undefined;
  /** First block that can hold one of its logs (its contracts' deployment); undefined when the file does not say. */
  startBlock(chain: StreamChain): bigint | undefined;
  /**
   * Every table `apply` writes. Each has a `chain_journal_write` trigger (created by the migration that journals it,
   * naming its primary key), so a reorg undoes the stream's writes to it exactly (src/chain/journal.ts);
   * test/chain/journal.test.ts checks that the triggers exist and that `apply` writes no other table.
   */
  writes: readonly PgTable[];
  /**
   * `apply` also appends to the platform event log (platform_events): what clients were told is never undone; a
   * reorg is told by the stream's `rollback` instead.
   */
  publishes?: boolean;
  /** The daily score snapshot waits until this stream has applied the day (src/domain/scores/readiness.ts). */
  scored?: boolean;
  /**
   * Reads a range's logs and what `apply` needs, in place of one eth_getLogs over `address` and `prepare`: for a
   * stream whose filter changes with the database. With it, `apply` runs for every batch, empty ones too.
   */
  read?(deps: StreamDeps, range: BlockRange): Promise<{ logs: FollowedLog<TEvents>[]; prepared: TPrepared }>;
  /** Reads what `apply` needs from the chain (block times, say) before the transaction opens; batches with logs. */
  prepare?(deps: StreamDeps, logs: FollowedLog<TEvents>[]): Promise<TPrepared>;
  /**
   * Applies one batch, logs in chain order, for the blocks of `range`, in the transaction that moves the cursor to
   * `range.to`. Must be idempotent: applying the same batch twice leaves the same state.
   */
  apply(
    deps: StreamDeps,
    tx: Tx,
    logs: FollowedLog<TEvents>[],
    prepared: TPrepared,
    range: BlockRange,
  ): Promise<unknown>;
  /**
   * What a reorg needs besides undoing the tables of `writes` (which the journal does after it, in the same
   * transaction that moves the cursor back): e.g. telling clients what left the chain. The rows of the blocks above
   * `ancestor` are still there when it runs.
   */
  rollback?(deps: StreamDeps, tx: Tx, ancestor: bigint): Promise<unknown>;
  /**
   * Puts the tables of `writes` back as they were before the stream's first block: the rows it derives deleted, the
   * columns it derives on rows others write cleared. `cli reconcile` (src/chain/reconcile.ts) calls it in a
   * transaction it rolls back, then replays the stream from its start block and compares; what `reset` leaves in
   * place is compared as it stands.
   */
  reset(tx: Tx): Promise<unknown>;
  /** Columns of its tables reconcile does not compare (by SQL table name): watermarks of where a batch stood. */
  unchecked?: Readonly<Record<string, readonly string[]>>;
}

/** A stream of any events, as the registry holds them. */
export type AnyChainStream = ChainStream<any, any>;

/** Declares a stream, its events' types inferred for `read`, `prepare` and `apply`. */
export function defineStream<const TEvents extends readonly AbiEvent[], TPrepared = undefined>(
  stream: ChainStream<TEvents, TPrepared>,
): ChainStream<TEvents, TPrepared> {
  return stream;
}

export interface FollowOptions {
  log?: FollowerLogger;
  /** Blocks a log must be buried under; default the configuration's CHAIN_CONFIRMATIONS. */
  confirmations?: number;
  /** When a block is final; default the configuration's CHAIN_FINALITY_DEPTH, else the chain's `finalized` tag. */
  finality?: Finality;
  batchSize?: number;
}

/**
 * The log follower of `stream`; call `start(config.indexerPollMs)` to run it. Undefined (with a warning) when the
 * contracts file has none of its contracts.
 */
export function followStream<TEvents extends readonly AbiEvent[], TPrepared>(
  deps: StreamDeps,
  stream: ChainStream<TEvents, TPrepared>,
  options: FollowOptions = {},
): LogFollower | undefined {
  const address = stream.address(deps.chain);
  if (address === undefined) {
    options.log?.warn({ follower: stream.name }, 'its contracts are not in the contracts file: not followed');
    return undefined;
  }
  const fromBlock = stream.startBlock(deps.chain);
  if (fromBlock === undefined) {
    options.log?.warn(
      { follower: stream.name },
      'the contracts file has no deploy block for its contracts: following them from block 0',
    );
  }
  const { read, prepare, rollback } = stream;
  const depth = deps.config.chainFinalityDepth;
  return createLogFollower<TEvents, TPrepared>({
    name: stream.name,
    db: deps.database.db,
    client: deps.chain.publicClient,
    address,
    events: stream.events,
    fromBlock: fromBlock ?? 0n,
    confirmations: options.confirmations ?? deps.config.chainConfirmations,
    finality: options.finality ?? (depth === undefined ? 'tag' : { depth }),
    ...(options.batchSize !== undefined && { batchSize: options.batchSize }),
    ...(options.log && { log: options.log }),
    ...(read && { read: (range: BlockRange) => read(deps, range) }),
    ...(prepare && { prepare: (logs: FollowedLog<TEvents>[]) => prepare(deps, logs) }),
    apply: (tx, logs, prepared, range) => stream.apply(deps, tx, logs, prepared, range),
    journal: true,
    rollback: async (tx: Tx, ancestor: bigint) => {
      if (rollback) await rollback(deps, tx, ancestor);
      return rollbackJournal(tx, stream.name, ancestor);
    },
  });
}
