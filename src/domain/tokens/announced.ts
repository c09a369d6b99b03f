// What the `trade` events told clients about each chain log, and the corrections a reorg sends
// (docs/api/events.md "Reorgs"). A log's latest `trade` event, keyed by (txHash, logIndex), is either its
// announcement or, after a reorg took its block away, the same event with `removed: true`. The token stream's
// rollback sends the correction for every announced log above the common ancestor; a log the stream applies again
// (a batch is undone whole, so its blocks at or below the ancestor are read again) is not announced a second time.
import { sql } from 'drizzle-orm';
import { rowsOf, type Tx } from '../../db/client.ts';
import { platformEvents } from '../../db/schema/events.ts';
import { type NewPlatformEvent, publishEvents } from '../events/store.ts';

/** A `trade` event's data as far as this file reads it. */
interface LogEventData {
  txHash: string;
  logIndex: number;
  blockNumber: number;
  removed?: boolean;
}

const keyOf = (data: { txHash: string; logIndex: number }) => `${data.txHash.toLowerCase()}:${data.logIndex}`;

/**
 * The events of `events` (all `trade` events of chain logs) whose log clients were not already told of: its latest
 * `trade` event is absent, or says `removed: true` (a log the chain took back and then included again).
 */
export async function unannounced<T extends NewPlatformEvent & { data: { txHash: string; logIndex: number } }>(
  tx: Tx,
  events: readonly T[],
): Promise<T[]> {
  if (events.length === 0) return [];
  const values = sql.join(
    events.map((e) => sql`(${e.data.txHash.toLowerCase()}::text, ${String(e.data.logIndex)}::text)`),
    sql`, `,
  );
  // One index probe per log (platform_events_trade_log_idx).
  const told = rowsOf<{ tx_hash: string; log_index: string }>(
    await tx.execute(sql`
      select v.tx_hash, v.log_index from (values ${values}) as v (tx_hash, log_index)
      cross join lateral (
        select e.data from ${platformEvents} e
        where e.type = 'trade' and e.data->>'txHash' = v.tx_hash and e.data->>'logIndex' = v.log_index
        order by e.id desc limit 1
      ) latest
      where coalesce((latest.data->>'removed')::boolean, false) = false`),
  );
  const skip = new Set(told.map((r) => `${r.tx_hash}:${r.log_index}`));
  return events.filter((e) => !skip.has(keyOf(e.data)));
}

/**
 * Tells clients that every trade, launch and graduation announced above `ancestor` left the chain: the same event
 * again with `removed: true`, newest log first, in the caller's transaction (the reorg's rollback). Logs at or
 * below the ancestor are still on the chain and are not touched. Returns how many were sent.
 */
export async function publishRemovedAbove(tx: Tx, ancestor: bigint): Promise<number> {
  const latest = rowsOf<{ company_id: string; data: LogEventData | string }>(
    await tx.execute(sql`
      select distinct on (e.data->>'txHash', e.data->>'logIndex') e.company_id, e.data
      from ${platformEvents} e
      where e.type = 'trade' and (e.data->>'blockNumber')::bigint > ${ancestor}::bigint
      order by e.data->>'txHash', e.data->>'logIndex', e.id desc`),
  );
  const removed = latest
    .map((row) => ({
      companyId: row.company_id,
      data: (typeof row.data === 'string' ? JSON.parse(row.data) : row.data) as LogEventData,
    }))
    .filter((e) => e.data.removed !== true)
    .sort((a, b) => b.data.blockNumber - a.data.blockNumber || b.data.logIndex - a.data.logIndex);
  await publishEvents(
    tx,
    removed.map((e) => ({ type: 'trade' as const, companyId: e.companyId, data: { ...e.data, removed: true } })),
  );
  return removed.length;
}
