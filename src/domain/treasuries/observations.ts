// Balance observations of followed treasury addresses (db/schema/treasuries.ts): each USDC transfer that moves a
// followed address adds one, holding the new balance and the cumulative balance-time up to the transfer, as
// PoolTogether v5's TwabLib records an observation per balance change. The average balance over [a, b) is then
// (cumulative(b) - cumulative(a)) / (b - a), with cumulative(t) extrapolated from the last observation at or
// before t: the snapshot reads two observations per treasury, however many transfers it made.
import { sql } from 'drizzle-orm';
import type { Address } from 'viem';
import { rowsOf, type Tx } from '../../db/client.ts';
import { treasuryObservations } from '../../db/schema/treasuries.ts';

/** A change of one followed address's balance by one transfer log. */
export interface BalanceChange {
  address: Address;
  blockNumber: bigint;
  logIndex: number;
  /** The block's time. */
  time: Date;
  /** Base units received (positive) or sent (negative). */
  delta: bigint;
}

/** Observations per INSERT: 6 bind parameters each, well below PostgreSQL's 65,535. */
const OBSERVATIONS_PER_STATEMENT = 5_000;

/** The opening observation of a newly followed address: its balance read at `blockNumber`, cumulative 0. */
export async function recordOpeningBalance(
  tx: Tx,
  address: Address,
  blockNumber: bigint,
  time: Date,
  balance: bigint,
): Promise<void> {
  await tx
    .insert(treasuryObservations)
    .values({ address, blockNumber, logIndex: -1, observedAt: time, balance, cumulative: 0n })
    .onConflictDoNothing();
}

/** Every observation but the opening balances deleted (the treasury stream's reset, for `cli reconcile`). */
export async function resetToOpeningBalances(tx: Tx): Promise<void> {
  await tx.execute(sql`delete from ${treasuryObservations} where log_index <> -1`);
}

/**
 * Adds an observation per change, in chain order, after each address's last one: two statements for the batch. A
 * change at or before an address's last observation was recorded already (a batch applied again) and is skipped.
 */
export async function recordBalanceChanges(tx: Tx, changes: readonly BalanceChange[]): Promise<number> {
  if (changes.length === 0) return 0;
  const addresses = [...new Set(changes.map((c) => c.address))];
  const last = rowsOf<{
    address: string;
    block_number: string;
    log_index: number;
    observed_at: Date | string;
    balance: string;
    cumulative: string;
  }>(
    await tx.execute(sql`
      select distinct on (address) address, block_number::text, log_index, observed_at, balance::text,
        cumulative::text
      from ${treasuryObservations}
      where address = any(string_to_array(${addresses.join(',')}::text, ','))
      -- The columns, not the text of the select list: '99' sorts after '102'.
      order by address, ${treasuryObservations.blockNumber} desc, ${treasuryObservations.logIndex} desc`),
  );
  const state = new Map(
    last.map((o) => [
      o.address,
      {
        blockNumber: BigInt(o.block_number),
        logIndex: o.log_index,
        seconds: BigInt(Math.floor(new Date(o.observed_at).getTime() / 1000)),
        balance: BigInt(o.balance),
        cumulative: BigInt(o.cumulative),
      },
    ]),
  );
  const ordered = [...changes].sort((a, b) =>
    a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1,
  );
  const rows: (typeof treasuryObservations.$inferInsert)[] = [];
  for (const change of ordered) {
    const seconds = BigInt(Math.floor(change.time.getTime() / 1000));
    const prev = state.get(change.address);
    if (
      prev &&
      (change.blockNumber < prev.blockNumber ||
        (change.blockNumber === prev.blockNumber && change.logIndex <= prev.logIndex))
    ) {
      continue;
    }
    // Before its first observation an address is not followed: nothing held, nothing accumulated.
    const balance = (prev?.balance ?? 0n) + change.delta;
    const cumulative = prev ? prev.cumulative + prev.balance * (seconds - prev.seconds) : 0n;
    state.set(change.address, {
      blockNumber: change.blockNumber,
      logIndex: change.logIndex,
      seconds,
      balance,
      cumulative,
    });
    rows.push({
      address: change.address,
      blockNumber: change.blockNumber,
      logIndex: change.logIndex,
      observedAt: change.time,
      balance,
      cumulative,
    });
  }
  for (let i = 0; i < rows.length; i += OBSERVATIONS_PER_STATEMENT) {
    await tx
      .insert(treasuryObservations)
      .values(rows.slice(i, i + OBSERVATIONS_PER_STATEMENT))
      .onConflictDoNothing();
  }
  return rows.length;
}
