// What the chain says about company tokens, written to the database. Used by the indexer for every log of the
// launcher and the fee hook, and by the launch route for its own receipt, so whichever comes first wins and the
// other changes nothing: every statement is conditional on the state it moves from, and trades are keyed by log.
import { type SQL, sql } from 'drizzle-orm';
import { type Address, formatUnits, getAddress, type Hex } from 'viem';
import { COMPANY_TOKEN_DECIMALS, USDC_DECIMALS } from '../../constants.ts';
import { rowsOf, type Tx } from '../../db/client.ts';
import { publishEvents } from '../events/store.ts';

export interface LaunchRecord {
  token: Address;
  txHash: Hex;
  blockTime: Date;
}

export interface TradeRecord {
  txHash: Hex;
  logIndex: number;
  blockNumber: bigint;
  blockTime: Date;
  token: Address;
  trader: Address;
  isBuy: boolean;
  usdcAmount: bigint;
  tokenAmount: bigint;
  fee: bigint;
  venue: 'CURVE' | 'POOL';
}

export interface GraduationRecord {
  token: Address;
  poolId: Hex;
  blockTime: Date;
}

/**
 * PRE_PUBLIC -> BONDING for each launched token whose launch was requested here (matched by its CREATE2 address),
 * and the company PUBLIC. Returns the ids of the companies moved.
 */
export async function applyLaunches(tx: Tx, launches: readonly LaunchRecord[]): Promise<string[]> {
  if (launches.length === 0) return [];
  const values = sql.join(
    launches.map(
      (l) => sql`(${getAddress(l.token)}::text, ${l.txHash}::text, ${l.blockTime.toISOString()}::timestamptz)`,
    ),
    sql`, `,
  );
  const rows = rowsOf<{ id: string }>(
    await tx.execute(sql`
      update companies c
      set token_status = 'BONDING', status = 'PUBLIC', token_launch_tx_hash = v.tx_hash,
          token_public_at = v.block_time, updated_at = now()
      from (values ${values}) as v (token, tx_hash, block_time)
      where c.token_address = v.token and c.token_status = 'PRE_PUBLIC'
      returning c.id`),
  );
  return rows.map((r) => r.id);
}

/** BONDING -> GRADUATED with the pool id and the time. */
export async function applyGraduations(tx: Tx, graduations: readonly GraduationRecord[]): Promise<string[]> {
  if (graduations.length === 0) return [];
  const values = sql.join(
    graduations.map(
      (g) => sql`(${getAddress(g.token)}::text, ${g.poolId}::text, ${g.blockTime.toISOString()}::timestamptz)`,
    ),
    sql`, `,
  );
  const rows = rowsOf<{ id: string }>(
    await tx.execute(sql`
      update companies c
      set token_status = 'GRADUATED', token_graduated_at = v.block_time, token_pool_id = v.pool_id,
          updated_at = now()
      from (values ${values}) as v (token, pool_id, block_time)
      where c.token_address = v.token and c.token_status <> 'GRADUATED'
      returning c.id`),
  );
  return rows.map((r) => r.id);
}

/** Execution price in USDC base units per whole token. */
export const executionPrice = (usdcAmount: bigint, tokenAmount: bigint) =>
  tokenAmount === 0n ? 0n : (usdcAmount * 10n ** 18n) / tokenAmount;

/**
 * Records trades of known tokens (one statement) and publishes a `trade` event for each trade recorded for the
 * first time (one more), so a replayed block neither duplicates a trade nor announces it twice.
 */
export async function applyTrades(tx: Tx, trades: readonly TradeRecord[]): Promise<number> {
  if (trades.length === 0) return 0;
  const values: SQL = sql.join(
    trades.map(
      (t) => sql`(${t.txHash}::text, ${t.logIndex}::integer, ${getAddress(t.token)}::text, ${t.blockNumber}::bigint,
        ${t.blockTime.toISOString()}::timestamptz, ${getAddress(t.trader)}::text, ${t.isBuy ? 'buy' : 'sell'}::text,
        ${t.usdcAmount.toString()}::numeric, ${t.tokenAmount.toString()}::numeric, ${t.fee.toString()}::numeric,
        ${t.venue}::text)`,
    ),
    sql`, `,
  );
  const inserted = rowsOf<{ tx_hash: string; log_index: number; company_id: string; symbol: string | null }>(
    await tx.execute(sql`
      with v (tx_hash, log_index, token, block_number, block_time, trader, side, usdc_amount, token_amount, fee, venue)
        as (values ${values}),
      ins as (
        insert into token_trades (tx_hash, log_index, company_id, token_address, block_number, block_time, trader,
          side, usdc_amount, token_amount, fee_amount, venue)
        select v.tx_hash, v.log_index, c.id, v.token, v.block_number, v.block_time, v.trader, v.side, v.usdc_amount,
          v.token_amount, v.fee, v.venue
        from v join companies c on c.token_address = v.token
        on conflict (tx_hash, log_index) do nothing
        returning tx_hash, log_index, company_id, token_address
      )
      select ins.tx_hash, ins.log_index, ins.company_id, c.token_symbol as symbol
      from ins join companies c on c.id = ins.company_id`),
  );
  if (inserted.length === 0) return 0;
  const byLog = new Map(trades.map((t) => [`${t.txHash}:${t.logIndex}`, t]));
  const events = inserted
    .map((row) => ({ row, trade: byLog.get(`${row.tx_hash}:${row.log_index}`)! }))
    .sort((a, b) =>
      a.trade.blockNumber === b.trade.blockNumber
        ? a.trade.logIndex - b.trade.logIndex
        : a.trade.blockNumber < b.trade.blockNumber
          ? -1
          : 1,
    )
    .map(({ row, trade }) => ({
      type: 'trade' as const,
      companyId: row.company_id,
      data: {
        tokenSymbol: row.symbol,
        side: trade.isBuy ? 'buy' : 'sell',
        amount: formatUnits(trade.tokenAmount, COMPANY_TOKEN_DECIMALS),
        price: formatUnits(executionPrice(trade.usdcAmount, trade.tokenAmount), USDC_DECIMALS),
        txHash: trade.txHash,
        trader: getAddress(trade.trader),
      },
    }));
  await publishEvents(tx, events);
  return inserted.length;
}
