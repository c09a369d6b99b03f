// Company token trades written to the database: the trades of the launcher and the fee hook keyed by log, each
// trader's average-cost position moved through them (and through the transfers that carry an agent's position to its
// company's Safe), the companies' spot prices, and the reset of all of it. This module is the one writer of
// token_trades, trader_positions and position_carries. Used by the indexer for every log, so a replayed block changes
// nothing: every statement is conditional on the state it moves from, and trades are keyed by log.
import { type SQL, sql } from 'drizzle-orm';
import { formatUnits, getAddress } from 'viem';
import { COMPANY_TOKEN_DECIMALS, USDC_DECIMALS } from '../../constants.ts';
import { rowsOf, type Tx } from '../../db/client.ts';
import { recordSpotPrices, resetTokenMarkets } from '../companies/store.ts';
import { publishEvents } from '../events/store.ts';
import { unannounced } from './announced.ts';
import { exactPrice, executionPrice } from './prices.ts';
import { type CarryRecord, type TradeRecord, type TransferRecord, tradeEventBase } from './records.ts';

/** Every trade and position deleted, every token as before its launch (the token stream's reset, for `cli reconcile`). */
export async function resetTokenTables(tx: Tx): Promise<void> {
  await tx.execute(sql`delete from position_carries`);
  await tx.execute(sql`delete from trader_positions`);
  await tx.execute(sql`delete from token_trades`);
  await resetTokenMarkets(tx);
}

/**
 * The transfers of `transfers` that carry a position and were not applied before: each from the wallet of an agent
 * of a company into that company's Safe (the sweep of its move into custody), of a token a company launched. One
 * statement.
 */
async function newCarries(tx: Tx, transfers: readonly TransferRecord[]): Promise<CarryRecord[]> {
  if (transfers.length === 0) return [];
  const values = sql.join(
    transfers.map(
      (t) => sql`(${t.txHash}::text, ${t.logIndex}::integer, ${getAddress(t.token)}::text,
        ${t.from.toLowerCase()}::text, ${t.to.toLowerCase()}::text)`,
    ),
    sql`, `,
  );
  const rows = rowsOf<{ tx_hash: string; log_index: number; company_id: string }>(
    await tx.execute(sql`
      with v (tx_hash, log_index, token, from_trader, to_trader) as (values ${values})
      select v.tx_hash, v.log_index, t.id as company_id
      from v join companies t on t.token_address = v.token
      where exists (
          select 1 from companies s join agents a on a.company_id = s.id
          where lower(s.safe_address) = v.to_trader and lower(a.on_chain_address) = v.from_trader)
        and not exists (
          select 1 from position_carries p where p.tx_hash = v.tx_hash and p.log_index = v.log_index)`),
  );
  const companyOf = new Map(rows.map((r) => [`${r.tx_hash}:${r.log_index}`, r.company_id]));
  return transfers.flatMap((t) => {
    const companyId = companyOf.get(`${t.txHash}:${t.logIndex}`);
    return companyId ? [{ ...t, companyId }] : [];
  });
}

/**
 * Records trades of known tokens (one statement) and publishes a `trade` event for each trade recorded for the
 * first time (one more) that clients were not already told of, so a replayed block neither duplicates a trade nor
 * announces it twice (nor does a reorg's replay of a block that stayed on the chain: announced.ts). Of `transfers`,
 * those from an agent's wallet into its company's Safe carry the wallet's position there, in chain order with the
 * trades, each once (position_carries).
 */
export async function applyTrades(
  tx: Tx,
  trades: readonly TradeRecord[],
  transfers: readonly TransferRecord[] = [],
): Promise<number> {
  const carries = await newCarries(tx, transfers);
  if (trades.length === 0) {
    if (carries.length > 0) await applyPositions(tx, [], carries);
    return 0;
  }
  const values: SQL = sql.join(
    trades.map(
      (t) => sql`(${t.txHash}::text, ${t.logIndex}::integer, ${getAddress(t.token)}::text, ${t.blockNumber}::bigint,
        ${t.blockHash?.toLowerCase() ?? null}::text, ${t.blockTime.toISOString()}::timestamptz, ${getAddress(t.trader)}::text, ${t.isBuy ? 'buy' : 'sell'}::text,
        ${t.usdcAmount.toString()}::numeric, ${t.tokenAmount.toString()}::numeric, ${t.fee.toString()}::numeric,
        ${t.venue}::text)`,
    ),
    sql`, `,
  );
  const inserted = rowsOf<{
    tx_hash: string;
    log_index: number;
    company_id: string;
    symbol: string | null;
    slug: string;
    token: string;
  }>(
    await tx.execute(sql`
      with v (tx_hash, log_index, token, block_number, block_hash, block_time, trader, side, usdc_amount, token_amount, fee, venue)
        as (values ${values}),
      ins as (
        insert into token_trades (tx_hash, log_index, company_id, token_address, block_number, block_hash, block_time,
          trader, side, usdc_amount, token_amount, fee_amount, venue)
        select v.tx_hash, v.log_index, c.id, v.token, v.block_number, v.block_hash, v.block_time, v.trader, v.side, v.usdc_amount,
          v.token_amount, v.fee, v.venue
        from v join companies c on c.token_address = v.token
        on conflict (tx_hash, log_index) do nothing
        returning tx_hash, log_index, company_id, token_address
      )
      select ins.tx_hash, ins.log_index, ins.company_id, c.token_symbol as symbol, c.slug, ins.token_address as token
      from ins join companies c on c.id = ins.company_id`),
  );
  if (inserted.length === 0) {
    if (carries.length > 0) await applyPositions(tx, [], carries);
    return 0;
  }
  const byLog = new Map(trades.map((t) => [`${t.txHash}:${t.logIndex}`, t]));
  const ordered = inserted
    .map((row) => ({ row, trade: byLog.get(`${row.tx_hash}:${row.log_index}`)! }))
    .sort((a, b) =>
      a.trade.blockNumber === b.trade.blockNumber
        ? a.trade.logIndex - b.trade.logIndex
        : a.trade.blockNumber < b.trade.blockNumber
          ? -1
          : 1,
    );
  const recorded = ordered.map(({ row, trade }) => ({ ...trade, companyId: row.company_id }));
  await applyPositions(tx, recorded, carries);
  await applySpotPrices(tx, recorded);
  const events = ordered.map(({ row, trade }) => ({
    type: 'trade' as const,
    companyId: row.company_id,
    data: {
      kind: 'trade',
      ...tradeEventBase({ id: row.company_id, slug: row.slug, symbol: row.symbol, token: row.token }, trade),
      side: trade.isBuy ? 'buy' : 'sell',
      amount: trade.tokenAmount.toString(),
      usdcAmount: trade.usdcAmount.toString(),
      price: executionPrice(trade.usdcAmount, trade.tokenAmount).toString(),
      // The forms and names the REST trades use, beside the stream's own (docs/api/README.md "Names and units").
      tokenAmount: formatUnits(trade.tokenAmount, COMPANY_TOKEN_DECIMALS),
      usdcAmountRaw: trade.usdcAmount.toString(),
      usdcAmountDecimal: formatUnits(trade.usdcAmount, USDC_DECIMALS),
      priceRaw: executionPrice(trade.usdcAmount, trade.tokenAmount).toString(),
      priceDecimal: formatUnits(executionPrice(trade.usdcAmount, trade.tokenAmount), USDC_DECIMALS),
      priceExact: exactPrice(trade.usdcAmount, trade.tokenAmount),
      trader: getAddress(trade.trader),
      venue: trade.venue,
    },
  }));
  await publishEvents(tx, await unannounced(tx, events));
  return inserted.length;
}

/**
 * Moves each trader's average-cost position (trader_positions) through newly recorded trades and carries, in chain
 * order, and writes each sale's realised PnL and holding period (when the position was opened, its latest buy) on its
 * trade row, and each carry's share of the position (position_carries): four statements for the whole batch. A sale
 * of more tokens than the position holds (tokens that came by transfer) realises PnL on the held part only, at its
 * share of the proceeds, so tokens given to a wallet never count as profit. A carry moves the sender's tokens (as
 * many as it sent, at most what its position holds) and their share of its cost to the Safe's position, which keeps
 * the earlier opening and the later buy; the PnL the sender realised stays its own.
 */
export async function applyPositions(
  tx: Tx,
  trades: readonly (TradeRecord & { companyId: string })[],
  carries: readonly CarryRecord[] = [],
): Promise<void> {
  const keyOf = (trader: string, token: string) => `${trader.toLowerCase()}|${getAddress(token)}`;
  const pairs = [
    ...new Set([
      ...trades.map((t) => keyOf(t.trader, t.token)),
      ...carries.flatMap((c) => [keyOf(c.from, c.token), keyOf(c.to, c.token)]),
    ]),
  ];
  if (pairs.length === 0) return;
  const held = rowsOf<{
    trader: string;
    token_address: string;
    quantity: string;
    cost_usdc: string;
    realized: string;
    opened_at: Date | string | null;
    last_buy_at: Date | string | null;
  }>(
    await tx.execute(sql`
      select trader, token_address, quantity::text, cost_usdc::text, realized_pnl_usdc::text as realized, opened_at,
        last_buy_at
      from trader_positions
      where (trader, token_address) in (
        select * from unnest(string_to_array(${pairs.map((p) => p.split('|')[0]).join(',')}::text, ','),
          string_to_array(${pairs.map((p) => p.split('|')[1]).join(',')}::text, ',')))
      for update`),
  );
  const dateOf = (value: Date | string | null) => (value === null ? null : new Date(value));
  type Position = { quantity: bigint; cost: bigint; realized: bigint; openedAt: Date | null; lastBuyAt: Date | null };
  const positions = new Map<string, Position>(
    held.map((p) => [
      `${p.trader}|${p.token_address}`,
      {
        quantity: BigInt(p.quantity),
        cost: BigInt(p.cost_usdc),
        realized: BigInt(p.realized),
        openedAt: dateOf(p.opened_at),
        lastBuyAt: dateOf(p.last_buy_at),
      },
    ]),
  );
  const positionOf = (key: string) => {
    const p = positions.get(key) ?? { quantity: 0n, cost: 0n, realized: 0n, openedAt: null, lastBuyAt: null };
    positions.set(key, p);
    return p;
  };
  const realized: { txHash: string; logIndex: number; pnl: bigint; heldSince: Date | null; lastBuyAt: Date | null }[] =
    [];
  const carried: { carry: CarryRecord; quantity: bigint; cost: bigint }[] = [];
  const touched = new Map<string, string>();
  const moves = [
    ...trades.map((trade) => ({ trade, carry: undefined, blockNumber: trade.blockNumber, logIndex: trade.logIndex })),
    ...carries.map((carry) => ({ trade: undefined, carry, blockNumber: carry.blockNumber, logIndex: carry.logIndex })),
  ].sort((a, b) =>
    a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1,
  );
  const earlier = (a: Date | null, b: Date | null) => (a === null ? b : b === null || a < b ? a : b);
  const later = (a: Date | null, b: Date | null) => (a === null ? b : b === null || a > b ? a : b);
  for (const { trade: t, carry: c } of moves) {
    if (c) {
      const fromKey = keyOf(c.from, c.token);
      const toKey = keyOf(c.to, c.token);
      const from = positionOf(fromKey);
      const moved = c.value < from.quantity ? c.value : from.quantity;
      const cost = from.quantity === 0n ? 0n : (from.cost * moved) / from.quantity;
      carried.push({ carry: c, quantity: moved, cost });
      if (moved === 0n) continue;
      const to = positionOf(toKey);
      touched.set(fromKey, c.companyId);
      touched.set(toKey, c.companyId);
      to.openedAt = to.quantity === 0n ? from.openedAt : earlier(to.openedAt, from.openedAt);
      to.lastBuyAt = later(to.lastBuyAt, from.lastBuyAt);
      to.quantity += moved;
      to.cost += cost;
      from.quantity -= moved;
      from.cost -= cost;
      if (from.quantity === 0n) from.openedAt = null;
      continue;
    }
    if (!t) continue;
    const key = keyOf(t.trader, t.token);
    touched.set(key, t.companyId);
    const p = positionOf(key);
    if (t.isBuy) {
      if (p.quantity === 0n) p.openedAt = t.blockTime;
      p.quantity += t.tokenAmount;
      p.cost += t.usdcAmount;
      p.lastBuyAt = t.blockTime;
      continue;
    }
    const sold = t.tokenAmount < p.quantity ? t.tokenAmount : p.quantity;
    const cost = p.quantity === 0n ? 0n : (p.cost * sold) / p.quantity;
    const proceeds = t.tokenAmount === 0n ? 0n : (t.usdcAmount * sold) / t.tokenAmount;
    const pnl = proceeds - cost;
    realized.push({ txHash: t.txHash, logIndex: t.logIndex, pnl, heldSince: p.openedAt, lastBuyAt: p.lastBuyAt });
    p.quantity -= sold;
    p.cost -= cost;
    p.realized += pnl;
    if (p.quantity === 0n) p.openedAt = null;
  }
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  const rows = [...touched].map(([key, companyId]) => {
    const [trader, token] = key.split('|') as [string, string];
    const p = positions.get(key)!;
    return sql`(${trader}::text, ${token}::text, ${companyId}::text, ${p.quantity.toString()}::numeric,
      ${p.cost.toString()}::numeric, ${p.realized.toString()}::numeric, ${iso(p.openedAt)}::timestamptz,
      ${iso(p.lastBuyAt)}::timestamptz)`;
  });
  if (rows.length > 0) {
    await tx.execute(sql`
      insert into trader_positions (trader, token_address, company_id, quantity, cost_usdc, realized_pnl_usdc,
        opened_at, last_buy_at)
      values ${sql.join(rows, sql`, `)}
      on conflict (trader, token_address) do update set quantity = excluded.quantity, cost_usdc = excluded.cost_usdc,
        realized_pnl_usdc = excluded.realized_pnl_usdc, opened_at = excluded.opened_at,
        last_buy_at = excluded.last_buy_at, updated_at = now()`);
  }
  if (carried.length > 0) {
    const values = sql.join(
      carried.map(
        ({ carry: c, quantity, cost }) => sql`(${c.txHash}::text, ${c.logIndex}::integer, ${c.blockNumber}::bigint,
          ${getAddress(c.token)}::text, ${c.companyId}::text, ${c.from.toLowerCase()}::text, ${c.to.toLowerCase()}::text,
          ${c.value.toString()}::numeric, ${quantity.toString()}::numeric, ${cost.toString()}::numeric)`,
      ),
      sql`, `,
    );
    await tx.execute(sql`
      insert into position_carries (tx_hash, log_index, block_number, token_address, company_id, from_trader,
        to_trader, amount, quantity, cost_usdc)
      values ${values}
      on conflict (tx_hash, log_index) do nothing`);
  }
  if (realized.length === 0) return;
  const values = sql.join(
    realized.map(
      (r) => sql`(${r.txHash}::text, ${r.logIndex}::integer, ${r.pnl.toString()}::numeric,
        ${iso(r.heldSince)}::timestamptz, ${iso(r.lastBuyAt)}::timestamptz)`,
    ),
    sql`, `,
  );
  await tx.execute(sql`
    update token_trades t set realized_pnl = v.pnl, held_since = v.held_since, last_buy_at = v.last_buy_at
    from (values ${values}) as v (tx_hash, log_index, pnl, held_since, last_buy_at)
    where t.tx_hash = v.tx_hash and t.log_index = v.log_index`);
}

/**
 * Each company's token price after the newest of these trades, unless the company already holds a price from a
 * later trade (a replayed batch): the v1 token list reads it instead of asking the chain. One statement.
 */
async function applySpotPrices(tx: Tx, trades: readonly (TradeRecord & { companyId: string })[]): Promise<void> {
  const latest = new Map<string, TradeRecord>();
  // The curve's reserve after the newest curve trade: a pool trade after it in the same batch must not hide it (the
  // result would then depend on where the batches of the indexer were cut).
  const curve = new Map<string, bigint>();
  for (const t of trades) {
    if (t.spot === undefined) continue;
    latest.set(t.companyId, t);
    if (t.spot.virtualUsdc !== undefined) curve.set(t.companyId, t.spot.virtualUsdc);
  }
  if (latest.size === 0) return;
  const values = sql.join(
    [...latest].map(
      ([companyId, t]) =>
        sql`(${companyId}::text, ${t.spot!.price.toString()}::numeric, ${t.spot!.marketCap.toString()}::numeric,
          ${curve.get(companyId)?.toString() ?? null}::numeric, ${t.blockNumber}::bigint, ${t.logIndex}::integer)`,
    ),
    sql`, `,
  );
  // The curve's real USDC is its virtual reserve less the opening one, threshold / 3 (TokenLauncher.launch).
  await recordSpotPrices(tx, values);
}
