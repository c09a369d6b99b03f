// `cli reconcile` (docs/operations.md#reconcile): compares every table the chain streams derive with a fresh index of
// the chain, and with `fix` repairs the differences. It is the operator's check after an incident and the tests'
// oracle for reorgs (docs/indexer.md#reorgs).
//
// The mechanism, chosen as the simplest that is total: for each stream, inside a savepoint of one transaction that
// holds every stream's indexer lock (no follower applies meanwhile),
//   1. the rows of its tables are copied aside (temporary tables under other names);
//   2. the stream's own `reset` puts its tables back as they were before its first block;
//   3. its own `read`/`prepare`/`apply` replay its logs from its start block to its cursor, batch by batch, exactly
//      as the follower applied them;
//   4. the copy (the database) and the replayed tables (the chain) are compared row by row on each primary key;
//   5. the savepoint is rolled back: the tables, the events the replay published and their notifications are as
//      before. With `fix`, the chain's rows then replace the database's, in the same transaction.
// Why a replay from the start and not from `from`: positions, balances, holder counts and the treasuries' cumulative
// balances are sums over every earlier block, so the state before `from` cannot be taken from the database (the
// thing under test) nor, below the finalized block, from the journal (pruned). `from` narrows the report of rows
// that belong to one log (a table with a `block_number` column); the rows that sum a history are always compared.
// Why the real tables and not copies under the same names: a prepared statement planned before would still reach
// the real table, silently. The savepoint's writes are never committed, and the indexer's lock is held meanwhile.
import { type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { AbiEvent, Address } from 'viem';
import { type Db, rowsOf, type Tx } from '../db/client.ts';
import { chainCursors } from '../db/schema/chain.ts';
import { type FollowedLog, holdStreamLocks } from './indexer.ts';
import { rollbackJournal } from './journal.ts';
import type { AnyChainStream, StreamDeps } from './streams.ts';

/** Columns never compared: when a row was written says nothing of the chain. */
const UNCHECKED = ['updated_at', 'created_at'];
/** Blocks read by one eth_getLogs of the replay. */
const REPLAY_BATCH = 2000n;

export type Row = Record<string, unknown>;

/** One row on which the database and the chain disagree. */
export interface Difference {
  stream: string;
  table: string;
  /** The row's primary key. */
  key: Row;
  /** The database's row; null when the chain has a row the database lacks. */
  database: Row | null;
  /** The chain's row (a fresh index); null when the database holds a row the chain does not. */
  chain: Row | null;
  /** The columns that differ (every compared column when one side is missing). */
  columns: string[];
}

export interface StreamReconciliation {
  stream: string;
  /** The block both sides were compared at: the stream's cursor, or `to` below it. Undefined when skipped. */
  at?: bigint;
  /** Why the stream was not compared (not followed on this chain, or not indexed yet). */
  skipped?: string;
  differences: Difference[];
}

export interface ReconcileReport {
  streams: StreamReconciliation[];
  differences: Difference[];
  /** True when `fix` repaired the differences (in one transaction). */
  fixed: boolean;
}

export interface ReconcileOptions {
  /** First block whose per-log rows are compared (default: each stream's start block). */
  from?: bigint;
  /** Compare at this block (default and at most: each stream's cursor); below a cursor, only down to its finalized block. */
  to?: bigint;
  /** Repair the differences in the same transaction (only when comparing at the cursors). */
  fix?: boolean;
  /** Blocks per eth_getLogs of the replay (default 2000). */
  batchSize?: bigint;
}

/** A request reconcile cannot answer: a range it has no history for, or --fix below a cursor. */
export class ReconcileRefused extends Error {}

/** Thrown to roll a stream's savepoint back with what it found. */
class Found extends Error {
  constructor(readonly differences: Difference[]) {
    super('reconcile: savepoint rolled back');
  }
}

const tableName = (table: PgTable) => (table as unknown as Record<symbol, string>)[Symbol.for('drizzle:Name')]!;

/** Compares, and with `fix` repairs, every table `streams` derive; see the top of this file. */
export async function reconcile(
  deps: StreamDeps,
  streams: readonly AnyChainStream[],
  options: ReconcileOptions = {},
): Promise<ReconcileReport> {
  if (options.from !== undefined && options.to !== undefined && options.from > options.to) {
    throw new ReconcileRefused(`--from ${options.from} is above --to ${options.to}`);
  }
  return deps.database.db.transaction(async (tx) => {
    // Every follower waits (its try-lock fails) until this transaction ends; in the order every holder takes them.
    await holdStreamLocks(
      tx,
      streams.map((s) => s.name),
    );
    const results: StreamReconciliation[] = [];
    for (const stream of streams) results.push(await reconcileStream(deps, tx, stream, options));
    const differences = results.flatMap((r) => r.differences);
    if (options.fix && differences.length > 0) {
      for (const d of differences) await repair(tx, d);
    }
    return { streams: results, differences, fixed: Boolean(options.fix) && differences.length > 0 };
  });
}

async function reconcileStream(
  deps: StreamDeps,
  tx: Tx,
  stream: AnyChainStream,
  options: ReconcileOptions,
): Promise<StreamReconciliation> {
  const { name } = stream;
  const address = stream.address(deps.chain);
  if (address === undefined) return { stream: name, skipped: 'its contracts are not on this chain', differences: [] };
  const [cursor] = await tx
    .select({ block: chainCursors.block, finalized: chainCursors.finalized })
    .from(chainCursors)
    .where(sql`${chainCursors.name} = ${name}`);
  if (!cursor) return { stream: name, skipped: 'not indexed yet', differences: [] };
  const start = stream.startBlock(deps.chain) ?? 0n;
  let at = options.to !== undefined && options.to < cursor.block ? options.to : cursor.block;
  if (at < cursor.block) {
    if (options.fix) {
      throw new ReconcileRefused(`--fix repairs the rows as they are now: leave --to at or above ${cursor.block}`);
    }
    if (cursor.finalized === null || at < cursor.finalized) {
      throw new ReconcileRefused(
        `${name}: the database keeps no history below its finalized block ${cursor.finalized ?? cursor.block}: ` +
          'use a --to at or above it',
      );
    }
  }
  const from = options.from ?? start;
  try {
    await tx.transaction(async (sp) => {
      // The database's side, at `at`: the journal undoes the batches above it (whole batches: maybe lower).
      if (at < cursor.block) at = await rollbackJournal(sp, name, at);
      const tables = [];
      for (const table of new Set(stream.writes)) {
        const t = tableName(table);
        tables.push({ name: t, key: await primaryKey(sp, t), perLog: await hasColumn(sp, t, 'block_number') });
        await sp.execute(
          sql`create temporary table ${sql.identifier(copyOf(t))} on commit drop as select * from ${sql.identifier(t)}`,
        );
      }
      const before = await blockHash(deps, at);
      await stream.reset(sp);
      if (at >= start) await replay(deps, sp, stream, address, start, at, options.batchSize ?? REPLAY_BATCH);
      if ((await blockHash(deps, at)) !== before) {
        throw new ReconcileRefused(`the chain reorganised at block ${at} while ${name} was replayed: run again`);
      }
      const differences: Difference[] = [];
      for (const table of tables) {
        const skip = [...UNCHECKED, ...(stream.unchecked?.[table.name] ?? [])];
        differences.push(...(await compare(sp, name, table, skip, table.perLog ? { from, to: at } : undefined)));
      }
      throw new Found(differences);
    });
  } catch (err) {
    if (err instanceof Found) return { stream: name, at, differences: err.differences };
    throw err;
  }
  throw new Error('unreachable: the savepoint always rolls back');
}

const copyOf = (table: string) => `reconcile_db_${table}`;

async function blockHash(deps: StreamDeps, block: bigint) {
  if (block < 0n) return undefined;
  return (await deps.chain.publicClient.getBlock({ blockNumber: block })).hash;
}

async function primaryKey(tx: Tx, table: string): Promise<string[]> {
  const rows = rowsOf<{ column: string }>(
    await tx.execute(sql`
      select a.attname as column from pg_index i
      join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey::int2[])
      where i.indrelid = ${table}::regclass and i.indisprimary
      order by array_position(i.indkey::int2[], a.attnum)`),
  );
  if (rows.length === 0) throw new Error(`reconcile: table ${table} has no primary key`);
  return rows.map((r) => r.column);
}

async function hasColumn(tx: Tx, table: string, column: string): Promise<boolean> {
  const rows = rowsOf<{ n: number }>(
    await tx.execute(sql`
      select count(*)::int as n from pg_attribute
      where attrelid = ${table}::regclass and attname = ${column} and not attisdropped`),
  );
  return rows[0]!.n > 0;
}

/** Replays the stream's logs of blocks `from`..`to` into its (reset) tables, as its follower applies them. */
async function replay(
  deps: StreamDeps,
  tx: Tx,
  stream: AnyChainStream,
  address: Address | readonly Address[],
  from: bigint,
  to: bigint,
  batch: bigint,
): Promise<void> {
  // The stream reads what it needs of the database (the accounts it follows, say) in the replay's transaction.
  const within: StreamDeps = { ...deps, database: { db: tx as unknown as Db } };
  for (let first = from; first <= to; first += batch) {
    const range = { from: first, to: first + batch - 1n < to ? first + batch - 1n : to };
    let logs: FollowedLog<any>[];
    let prepared: unknown;
    if (stream.read) {
      ({ logs, prepared } = await stream.read(within, range));
    } else {
      logs = (await deps.chain.publicClient.getLogs({
        address: address as Address[],
        events: stream.events as readonly AbiEvent[],
        fromBlock: range.from,
        toBlock: range.to,
        strict: true,
      })) as unknown as FollowedLog<any>[];
    }
    logs.sort((a, b) =>
      a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1,
    );
    if (!stream.read && logs.length > 0 && stream.prepare) prepared = await stream.prepare(within, logs);
    if (logs.length > 0 || stream.read) await stream.apply(within, tx, logs, prepared, range);
  }
}

/**
 * The rows of `table` (the replayed chain's) and of its copy (the database's) that differ, on the primary key; with
 * `range`, only rows whose block_number lies in it.
 */
async function compare(
  tx: Tx,
  stream: string,
  table: { name: string; key: string[]; perLog: boolean },
  skip: string[],
  range: { from: bigint; to: bigint } | undefined,
): Promise<Difference[]> {
  const keyOf = sql.join(
    table.key.map((c) => sql`${c}::text, x.${sql.identifier(c)}`),
    sql`, `,
  );
  const where = range ? sql`where x.block_number between ${range.from} and ${range.to}` : sql``;
  const skipped = sql`${`{${skip.join(',')}}`}::text[]`;
  // Numbers as text: a numeric of 78 digits survives neither JSON.parse nor a float.
  const exact = (row: SQL) =>
    sql`(select jsonb_object_agg(e.key, case jsonb_typeof(e.value) when 'number' then to_jsonb(e.value #>> '{}')
      else e.value end) from jsonb_each(${row}) e)`;
  const rows = rowsOf<{ key: Row; database: Row | null; chain: Row | null; columns: string[] }>(
    await tx.execute(sql`
      with d as (select ${exact(sql`jsonb_build_object(${keyOf})`)} as k, ${exact(sql`to_jsonb(x)`)} as r
          from ${sql.identifier(copyOf(table.name))} x ${where}),
        c as (select ${exact(sql`jsonb_build_object(${keyOf})`)} as k, ${exact(sql`to_jsonb(x)`)} as r
          from ${sql.identifier(table.name)} x ${where})
      select coalesce(d.k, c.k) as key, d.r as database, c.r as chain,
        array(select k from jsonb_object_keys(coalesce(d.r, c.r)) k
          where not k = any(${skipped}) and (d.r is null or c.r is null or d.r -> k is distinct from c.r -> k)
          order by k) as columns
      from d full join c on d.k = c.k
      where d.r is null or c.r is null or (d.r - ${skipped}) <> (c.r - ${skipped})
      order by coalesce(d.k, c.k)::text`),
  );
  return rows.map((r) => ({
    stream,
    table: table.name,
    key: Object.fromEntries(table.key.map((c) => [c, parseRow(r.key)![c]])),
    database: parseRow(r.database),
    chain: parseRow(r.chain),
    columns: r.columns,
  }));
}

/** jsonb arrives parsed from node-postgres and PGlite, as text from some drivers. */
const parseRow = (value: unknown): Row | null =>
  value === null || value === undefined ? null : typeof value === 'string' ? JSON.parse(value) : (value as Row);

/** Makes the database's row the chain's: deleted, inserted, or its differing columns set. */
async function repair(tx: Tx, d: Difference): Promise<void> {
  const t = sql.identifier(d.table);
  const match = sql.join(
    Object.keys(d.key).map((c) => sql`t.${sql.identifier(c)} = k.${sql.identifier(c)}`),
    sql` and `,
  );
  const key = sql`jsonb_populate_record(null::${t}, ${JSON.stringify(d.key)}::jsonb)`;
  if (d.chain === null) {
    await tx.execute(sql`delete from ${t} t using ${key} k where ${match}`);
  } else if (d.database === null) {
    await tx.execute(
      sql`insert into ${t} select * from jsonb_populate_record(null::${t}, ${JSON.stringify(d.chain)}::jsonb)`,
    );
  } else {
    const set = sql.join(
      d.columns.map((c) => sql`${sql.identifier(c)} = o.${sql.identifier(c)}`),
      sql`, `,
    );
    await tx.execute(sql`
      update ${t} t set ${set}
      from ${key} k, jsonb_populate_record(null::${t}, ${JSON.stringify(d.chain)}::jsonb) o
      where ${match}`);
  }
}

/** One difference in words: table, key, the database's value, the chain's value. */
export function describeDifference(d: Difference): string {
  const key = Object.entries(d.key)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(' ');
  const row = (r: Row) =>
    d.columns
      .filter((c) => r[c] !== null && r[c] !== undefined && !(c in d.key))
      .map((c) => `${c}=${JSON.stringify(r[c])}`)
      .join(' ');
  if (d.database === null) return `${d.table} (${key}): missing from the database; the chain has ${row(d.chain!)}`;
  if (d.chain === null) return `${d.table} (${key}): the database has ${row(d.database)}; not on the chain`;
  const changes = d.columns
    .map((c) => `${c}: database ${JSON.stringify(d.database![c])}, chain ${JSON.stringify(d.chain![c])}`)
    .join('; ');
  return `${d.table} (${key}): ${changes}`;
}
