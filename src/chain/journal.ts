// The chain streams' undo log (docs/indexer.md#reorgs), ponder's approach made generic: while a stream applies a
// batch above the finalized block, the `chain_journal_write` trigger of every table a stream writes records each row
// the batch inserted, changed (the columns' old values) or deleted, with the batch's blocks. A reorg to a common
// ancestor undoes, newest first, every batch that reaches past it, in the transaction that moves the stream's cursor
// back; the stream then reads again from the block before the first batch undone (a batch is undone whole, so its
// blocks at or below the ancestor are read again too). One mechanism for every table, and nothing per stream.
import { and, eq, lte, sql } from 'drizzle-orm';
import { type Db, rowsOf, type Tx } from '../db/client.ts';
import { chainJournal } from '../db/schema/chain.ts';

/** Blocks `from` to `to`, both included. */
export interface BlockRange {
  from: bigint;
  to: bigint;
}

/** Journals the rest of the transaction's writes to journaled tables as the batch `range` of `stream`. */
export async function beginJournal(tx: Tx, stream: string, range: BlockRange): Promise<void> {
  await tx.execute(sql`
    select set_config('chain.stream', ${stream}, true), set_config('chain.from_block', ${range.from.toString()}, true),
      set_config('chain.to_block', ${range.to.toString()}, true)`);
}

/** Stops journaling the transaction's writes (for the bookkeeping that follows a batch). */
export async function endJournal(tx: Tx): Promise<void> {
  await tx.execute(sql`select set_config('chain.stream', '', true)`);
}

/**
 * Undoes every journaled write of the stream's batches that reach past `ancestor`, and answers the block its derived
 * state is then at: `ancestor`, or the block before the first batch undone when that batch began at or below it.
 */
export async function rollbackJournal(tx: Tx, stream: string, ancestor: bigint): Promise<bigint> {
  const [row] = rowsOf<{ target: string }>(
    await tx.execute(sql`select chain_journal_rollback(${stream}, ${ancestor}::bigint)::text as target`),
  );
  return BigInt(row!.target);
}

/** Drops the entries of batches at or below the finalized block: no reorg the follower undoes reaches them. */
export async function pruneJournal(tx: Tx, stream: string, finalized: bigint): Promise<void> {
  await tx.delete(chainJournal).where(and(eq(chainJournal.stream, stream), lte(chainJournal.toBlock, finalized)));
}

/** The tables whose writes are journaled (those with a `chain_journal_write` trigger). */
export async function journaledTables(db: Db | Tx): Promise<string[]> {
  const rows = rowsOf<{ table: string }>(
    await db.execute(sql`
      select distinct c.relname as table from pg_trigger t
      join pg_class c on c.oid = t.tgrelid join pg_proc p on p.oid = t.tgfoid
      where p.proname = 'chain_journal_write' and not t.tgisinternal
      order by 1`),
  );
  return rows.map((r) => r.table);
}
