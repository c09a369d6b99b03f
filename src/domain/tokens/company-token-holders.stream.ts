// The holder stream (docs/indexer.md): follows every company token's `Transfer` logs into its balances and holder
// count, with its own cursor (`company-token-holders`). It learns which tokens exist from the launcher's
// `TokenLaunched` logs of the same range, so it needs nothing from the token stream and backfills from the launcher's
// deployment when it first runs. A holder is any address but the zero address with a positive balance (the launcher,
// which holds a curve's unsold tokens, and the v4 PoolManager count too, as on any explorer).
import { sql } from 'drizzle-orm';
import { type Address, getAddress, zeroAddress } from 'viem';
import { companyTokenTransfers, launchesIn, TOKEN_HOLDER_EVENTS } from '../../chain/contracts/launcher.ts';
import type { BlockRange, FollowedLog } from '../../chain/indexer.ts';
import { defineStream } from '../../chain/streams.ts';
import { rowsOf, type Tx } from '../../db/client.ts';
import { tokenBalances, tokenHolderCounts } from '../../db/schema/tokens.ts';

export type HolderLog = FollowedLog<typeof TOKEN_HOLDER_EVENTS>;

/** (block, log index) of a log after (block, log index) of a watermark. */
const after = (block: bigint, index: number, mark: { block: bigint; log: number }) =>
  block > mark.block || (block === mark.block && index > mark.log);

/**
 * Applies one batch, logs in chain order: launched tokens start being counted, and each transfer after its token's
 * watermark moves two balances and, when one leaves or reaches 0, the holder count. Idempotent: a transfer at or
 * before the watermark was counted already. Returns the transfers counted.
 */
export async function applyHolderLogs(tx: Tx, logs: readonly HolderLog[]): Promise<number> {
  const launched = [
    ...new Set(logs.flatMap((l) => (l.eventName === 'TokenLaunched' ? [getAddress(l.args.token)] : []))),
  ];
  if (launched.length > 0) {
    await tx
      .insert(tokenHolderCounts)
      .values(launched.map((tokenAddress) => ({ tokenAddress })))
      .onConflictDoNothing();
  }
  const transfers = logs.filter((l) => l.eventName === 'Transfer');
  if (transfers.length === 0) return 0;
  const tokens = [...new Set(transfers.map((l) => getAddress(l.address)))];
  const marks = new Map(
    rowsOf<{ token_address: string; applied_block: string; applied_log: number }>(
      await tx.execute(sql`
        select token_address, applied_block::text, applied_log from ${tokenHolderCounts}
        where token_address = any(string_to_array(${tokens.join(',')}::text, ','))
        for update`),
    ).map((r) => [r.token_address, { block: BigInt(r.applied_block), log: r.applied_log }]),
  );

  // The net change of each (token, holder), and each token's last transfer counted.
  const deltas = new Map<string, { token: Address; holder: Address; delta: bigint }>();
  const last = new Map<Address, { block: bigint; log: number }>();
  const supply = new Map<Address, bigint>();
  const move = (token: Address, holder: Address, delta: bigint) => {
    // The zero address sends mints and receives burns: the supply moves the other way.
    if (holder === zeroAddress) supply.set(token, (supply.get(token) ?? 0n) - delta);
    if (holder === zeroAddress || delta === 0n) return;
    const key = `${token}:${holder}`;
    const entry = deltas.get(key) ?? { token, holder, delta: 0n };
    entry.delta += delta;
    deltas.set(key, entry);
  };
  let counted = 0;
  for (const log of transfers) {
    if (log.eventName !== 'Transfer') continue;
    const token = getAddress(log.address);
    const mark = marks.get(token);
    // A token this stream has not seen launched is not a company token; one counted already up to here is skipped.
    if (!mark || !after(log.blockNumber, log.logIndex, mark)) continue;
    move(token, getAddress(log.args.from), -log.args.value);
    move(token, getAddress(log.args.to), log.args.value);
    last.set(token, { block: log.blockNumber, log: log.logIndex });
    counted++;
  }
  if (last.size === 0) return 0;

  const changed = [...deltas.values()].filter((d) => d.delta !== 0n);
  const before = new Map<string, bigint>();
  if (changed.length > 0) {
    const pairs = sql.join(
      changed.map((d) => sql`(${d.token}::text, ${d.holder}::text)`),
      sql`, `,
    );
    for (const row of rowsOf<{ token_address: string; holder: string; balance: string }>(
      await tx.execute(sql`
        select token_address, holder, balance::text from ${tokenBalances}
        where (token_address, holder) in (${pairs})`),
    )) {
      before.set(`${row.token_address}:${row.holder}`, BigInt(row.balance));
    }
  }
  const holderDelta = new Map<Address, number>();
  const kept: { tokenAddress: string; holder: string; balance: bigint }[] = [];
  const emptied: typeof changed = [];
  for (const d of changed) {
    const old = before.get(`${d.token}:${d.holder}`) ?? 0n;
    const now = old + d.delta;
    // Every balance starts at the token's mint, which this stream reads: a negative one means a log was lost.
    if (now < 0n) throw new Error(`token ${d.token}: balance of ${d.holder} would be negative (${now})`);
    const step = (now > 0n ? 1 : 0) - (old > 0n ? 1 : 0);
    if (step !== 0) holderDelta.set(d.token, (holderDelta.get(d.token) ?? 0) + step);
    if (now > 0n) kept.push({ tokenAddress: d.token, holder: d.holder, balance: now });
    else if (old > 0n) emptied.push(d);
  }
  if (kept.length > 0) {
    await tx
      .insert(tokenBalances)
      .values(kept)
      .onConflictDoUpdate({
        target: [tokenBalances.tokenAddress, tokenBalances.holder],
        set: { balance: sql`excluded.balance` },
      });
  }
  if (emptied.length > 0) {
    const pairs = sql.join(
      emptied.map((d) => sql`(${d.token}::text, ${d.holder}::text)`),
      sql`, `,
    );
    await tx.execute(sql`delete from ${tokenBalances} where (token_address, holder) in (${pairs})`);
  }
  const updates = sql.join(
    [...last].map(
      ([token, mark]) =>
        sql`(${token}::text, ${holderDelta.get(token) ?? 0}::int, ${(supply.get(token) ?? 0n).toString()}::numeric,
          ${mark.block}::bigint, ${mark.log}::int)`,
    ),
    sql`, `,
  );
  await tx.execute(sql`
    update ${tokenHolderCounts} c
    set holders = c.holders + v.delta, supply = c.supply + v.supply, applied_block = v.block, applied_log = v.log
    from (values ${updates}) as v (token, delta, supply, block, log)
    where c.token_address = v.token`);
  return counted;
}

/** Every company token's Transfer logs, learning the tokens from the launcher's TokenLaunched logs of each range. */
export const companyTokenHolders = defineStream({
  name: 'company-token-holders',
  events: TOKEN_HOLDER_EVENTS,
  address: (chain) => chain.contracts.tokenLauncher,
  startBlock: (chain) => chain.deployBlocks?.tokenLauncher,
  writes: [tokenHolderCounts, tokenBalances],
  read: async (deps, range: BlockRange): Promise<{ logs: HolderLog[]; prepared: undefined }> => {
    const launches = await launchesIn(deps.chain, range.from, range.to);
    const known = await deps.database.db.select({ token: tokenHolderCounts.tokenAddress }).from(tokenHolderCounts);
    const tokens = [...new Set([...known.map((k) => k.token), ...launches.map((l) => getAddress(l.args.token))])];
    const transfers =
      tokens.length === 0 ? [] : await companyTokenTransfers(deps.chain, tokens as Address[], range.from, range.to);
    return { logs: [...launches, ...transfers] as HolderLog[], prepared: undefined };
  },
  apply: (_deps, tx, logs) => applyHolderLogs(tx, logs),
  reset: async (tx) => {
    await tx.execute(sql`delete from ${tokenBalances}`);
    await tx.execute(sql`delete from ${tokenHolderCounts}`);
  },
});

/** The holder count of each of `tokens` (checksummed) that the stream has seen launched; one primary-key read. */
export async function holderCountsOf(db: Tx, tokens: readonly string[]): Promise<Map<string, number>> {
  if (tokens.length === 0) return new Map();
  const rows = rowsOf<{ token_address: string; holders: number }>(
    await db.execute(sql`
      select token_address, holders from ${tokenHolderCounts}
      where token_address = any(string_to_array(${tokens.join(',')}::text, ','))`),
  );
  return new Map(rows.map((r) => [r.token_address, r.holders]));
}
