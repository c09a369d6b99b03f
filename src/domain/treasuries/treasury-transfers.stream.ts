// The treasury stream (docs/indexer.md): follows USDC `Transfer` logs into the balance observations of every
// address that is or was a proven treasury, with its own cursor (`treasury-transfers`), so the treasury score is
// the time-weighted balance over the day and not a balance read at one moment that money can be parked for.
//
// One eth_getLogs reads a batch's USDC transfers (a few per block even on a busy chain, where a filter naming every
// treasury would take hundreds of calls) and the batch keeps those that move a followed address. An address starts
// being followed when a company proves it (followTreasury): its balance is read at the latest block B, which becomes
// its opening observation, and it "catches up" until the stream has applied a range past B. A batch that starts
// after B + 1 (the stream moved on while the address was being added) first reads the address's own transfers of
// the blocks in between, by topic filter: no transfer is lost between the opening read and the stream.
import { eq, isNotNull, sql } from 'drizzle-orm';
import type { Address } from 'viem';
import type { Chain } from '../../chain/client.ts';
import { USDC_TRANSFER_EVENTS, usdcBalanceNow, usdcTransfers, usdcTransfersOf } from '../../chain/contracts/usdc.ts';
import type { BlockRange, FollowedLog } from '../../chain/indexer.ts';
import { defineStream, type StreamDeps } from '../../chain/streams.ts';
import { type Db, rowsOf, type Tx } from '../../db/client.ts';
import { treasuryAccounts, treasuryObservations } from '../../db/schema/treasuries.ts';
import {
  type BalanceChange,
  recordBalanceChanges,
  recordOpeningBalance,
  resetToOpeningBalances,
} from './observations.ts';

export type TransferLog = FollowedLog<typeof USDC_TRANSFER_EVENTS>;

/** What a batch read: where it started, the accounts catching up then (address -> synced block), block times. */
interface ReadBatch {
  from: bigint;
  catching: Map<Address, bigint>;
  times: Map<bigint, Date>;
}

/**
 * Starts following `address` unless it is followed already: reads its USDC balance at the latest block and records
 * it as the opening observation, with the account catching up from that block. Returns the opening block's time
 * (undefined when the address was followed before). A crash after it leaves an address followed for nothing, which
 * the next attempt finds done.
 */
export async function followTreasury(
  deps: { database: { db: Db }; chain: Pick<Chain, 'publicClient' | 'contracts'> },
  address: Address,
): Promise<Date | undefined> {
  const db = deps.database.db;
  const [known] = await db
    .select({ address: treasuryAccounts.address })
    .from(treasuryAccounts)
    .where(eq(treasuryAccounts.address, address));
  if (known) return undefined;
  const opening = await usdcBalanceNow(deps.chain, address);
  const time = new Date(Number(opening.time) * 1000);
  await db.transaction(async (tx) => {
    const added = await tx
      .insert(treasuryAccounts)
      .values({ address, syncedBlock: opening.block })
      .onConflictDoNothing()
      .returning({ address: treasuryAccounts.address });
    if (added.length > 0) await recordOpeningBalance(tx, address, opening.block, time, opening.balance);
  });
  return time;
}

/**
 * Applies one batch: the transfers of followed addresses become observations. An account caught up before the batch
 * takes its transfers from `range.from` on; one catching up takes those after its synced block and is caught up by
 * the batch, unless another process moved the cursor since the batch was read (its transfers before `range.from`
 * are then left out of `logs`): it stays catching up for the next batch.
 */
export async function applyTreasuryTransfers(
  tx: Tx,
  logs: readonly TransferLog[],
  read: ReadBatch,
  range: BlockRange,
): Promise<number> {
  const named = new Set<string>(read.catching.keys());
  for (const log of logs) named.add(log.args.from).add(log.args.to);
  if (named.size === 0) return 0;
  const accounts = rowsOf<{ address: Address; synced_block: string | null }>(
    await tx.execute(sql`
      select address, synced_block::text from ${treasuryAccounts}
      where address = any(string_to_array(${[...named].join(',')}::text, ','))`),
  );
  const synced = new Map(accounts.map((a) => [a.address, a.synced_block === null ? null : BigInt(a.synced_block)]));
  const caughtUp = new Set<Address>();
  if (range.from === read.from) {
    for (const [address, block] of read.catching) {
      if (synced.get(address) === block && block < range.to) caughtUp.add(address);
    }
  }
  const counts = (address: Address, block: bigint) => {
    const at = synced.get(address);
    if (at === undefined) return false;
    return at === null ? block >= range.from : caughtUp.has(address) && block > at;
  };
  const changes: BalanceChange[] = [];
  for (const log of logs) {
    const { from, to, value } = log.args;
    if (from === to) continue;
    const time = read.times.get(log.blockNumber);
    if (!time) throw new Error(`no timestamp read for block ${log.blockNumber}`);
    const base = { blockNumber: log.blockNumber, logIndex: log.logIndex, time };
    if (counts(from, log.blockNumber)) changes.push({ ...base, address: from, delta: -value });
    if (counts(to, log.blockNumber)) changes.push({ ...base, address: to, delta: value });
  }
  const recorded = await recordBalanceChanges(tx, changes);
  if (caughtUp.size > 0) {
    await tx.execute(sql`
      update ${treasuryAccounts} set synced_block = null
      where address = any(string_to_array(${[...caughtUp].join(',')}::text, ','))`);
  }
  return recorded;
}

/**
 * A batch's USDC transfers that move a followed address (one eth_getLogs), with the transfers of accounts still
 * catching up from before the batch (by topic filter), and their blocks' times.
 */
async function readTransfers(
  deps: StreamDeps,
  range: BlockRange,
): Promise<{ logs: TransferLog[]; prepared: ReadBatch }> {
  const db = deps.database.db;
  const client = deps.chain.publicClient;
  const catchingRows = await db
    .select({ address: treasuryAccounts.address, syncedBlock: treasuryAccounts.syncedBlock })
    .from(treasuryAccounts)
    .where(isNotNull(treasuryAccounts.syncedBlock));
  const catching = new Map(catchingRows.map((r) => [r.address as Address, r.syncedBlock!]));
  const prepared: ReadBatch = { from: range.from, catching, times: new Map() };
  const [any] = await db.select({ address: treasuryAccounts.address }).from(treasuryAccounts).limit(1);
  if (!any) return { logs: [], prepared };

  const all = await usdcTransfers(deps.chain, range.from, range.to);
  const touched = [...new Set(all.flatMap((l) => [l.args.from, l.args.to]))];
  const followed = new Set<string>(
    touched.length === 0
      ? []
      : (
          await db
            .select({ address: treasuryAccounts.address })
            .from(treasuryAccounts)
            .where(sql`${treasuryAccounts.address} = any(string_to_array(${touched.join(',')}::text, ','))`)
        ).map((r) => r.address),
  );
  const logs = new Map<string, TransferLog>();
  for (const l of all) {
    if (followed.has(l.args.from) || followed.has(l.args.to)) logs.set(`${l.blockNumber}:${l.logIndex}`, l);
  }
  // Accounts whose synced block lies before this batch: their transfers in between, by topic filter.
  const behind = [...catching].filter(([, block]) => block < range.from - 1n);
  if (behind.length > 0) {
    const start = behind.reduce((min, [, block]) => (block < min ? block : min), range.from) + 1n;
    const missed = await usdcTransfersOf(
      deps.chain,
      behind.map(([address]) => address),
      start,
      range.from - 1n,
    );
    for (const l of missed) logs.set(`${l.blockNumber}:${l.logIndex}`, l as TransferLog);
  }
  const numbers = [...new Set([...logs.values()].map((l) => l.blockNumber))];
  const found = await Promise.all(numbers.map((blockNumber) => client.getBlock({ blockNumber })));
  for (const b of found) prepared.times.set(b.number!, new Date(Number(b.timestamp) * 1000));
  return { logs: [...logs.values()], prepared };
}

/** USDC's Transfer logs of every address that is or was a proven treasury, into its balance observations. */
export const treasuryTransfers = defineStream({
  name: 'treasury-transfers',
  events: USDC_TRANSFER_EVENTS,
  writes: [treasuryAccounts, treasuryObservations],
  scored: true,
  address: (chain) => chain.contracts.usdc,
  // No treasury can be set before the platform exists: a chain's own USDC is far older than its deployment.
  startBlock: (chain) => chain.deployBlocks?.accessCard ?? chain.deployBlocks?.usdc,
  read: readTransfers,
  apply: (_deps, tx, logs, read, range) => applyTreasuryTransfers(tx, logs, read, range),
  // Each account back to its opening balance, catching up from the block it was read at.
  reset: async (tx) => {
    await tx.execute(sql`
      update ${treasuryAccounts} a set synced_block = (
        select min(o.block_number) from treasury_observations o where o.address = a.address and o.log_index = -1)`);
    await resetToOpeningBalances(tx);
  },
});
