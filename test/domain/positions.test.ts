// Positions at average cost (src/domain/tokens/apply.ts, trader_positions and token_trades.realized_pnl) against an
// independent reference over random trade sequences: each trader's quantity, cost and realised PnL after every
// trade, the realised PnL of each sale on its row, and sales of tokens that were never bought (a transfer in),
// which realise nothing. Trades are recorded as the indexer records them, in several batches.
import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { tokenTrades, traderPositions } from '../../src/db/schema/tokens.ts';
import { useTestApp } from '../helpers/app.ts';
import { seededIntegers } from '../helpers/random.ts';
import { scoreFixtures, type TradeRow } from '../helpers/scores.ts';

const t = useTestApp();
const f = scoreFixtures(t);

/** The reference: average cost, a sale beyond the position realising only on the part held. */
function reference(rows: readonly TradeRow[]) {
  const positions = new Map<string, { quantity: bigint; cost: bigint; realized: bigint }>();
  const pnl: (bigint | null)[] = [];
  for (const r of rows) {
    const p = positions.get(r.trader.toLowerCase()) ?? { quantity: 0n, cost: 0n, realized: 0n };
    positions.set(r.trader.toLowerCase(), p);
    const tokens = r.tokens!;
    if (r.side === 'buy') {
      p.quantity += tokens;
      p.cost += r.usdc;
      pnl.push(null);
      continue;
    }
    const sold = tokens < p.quantity ? tokens : p.quantity;
    const cost = p.quantity === 0n ? 0n : (p.cost * sold) / p.quantity;
    const gain = (r.usdc * sold) / tokens - cost;
    p.quantity -= sold;
    p.cost -= cost;
    p.realized += gain;
    pnl.push(gain);
  }
  return { positions, pnl };
}

describe('positions at average cost', () => {
  it('match the reference over random buys and sales, in batches, with sales of tokens never bought', async () => {
    await f.company('pos1');
    const traders = ['0x1000000000000000000000000000000000000001', '0x2000000000000000000000000000000000000002'];
    const next = seededIntegers(7);
    const rows: TradeRow[] = [];
    for (let i = 0; i < 120; i++) {
      const side = next(3) === 0 ? 'sell' : 'buy';
      rows.push({
        token: 'pos1',
        trader: traders[next(2)]!,
        side,
        usdc: BigInt(1 + next(5_000_000)),
        tokens: BigInt(1 + next(900_000_000)),
        at: new Date(Date.parse('2026-03-09T00:00:00Z') + i * 1000).toISOString(),
      });
    }
    for (let i = 0; i < rows.length; i += 25) await f.trades(rows.slice(i, i + 25));
    const want = reference(rows);

    const recorded = await t.database.db
      .select({ side: tokenTrades.side, pnl: tokenTrades.realizedPnl })
      .from(tokenTrades)
      .where(eq(tokenTrades.companyId, 'pos1'))
      .orderBy(asc(tokenTrades.blockNumber));
    expect(recorded.map((r) => r.pnl)).toEqual(want.pnl);
    const held = await t.database.db.select().from(traderPositions).where(eq(traderPositions.companyId, 'pos1'));
    expect(
      Object.fromEntries(
        held.map((p) => [p.trader, { quantity: p.quantity, cost: p.costUsdc, realized: p.realizedPnlUsdc }]),
      ),
    ).toEqual(Object.fromEntries(want.positions));
    // The sequence holds both gains and losses, and sales beyond the position.
    expect(want.pnl.some((x) => x !== null && x > 0n)).toBe(true);
    expect(want.pnl.some((x) => x !== null && x < 0n)).toBe(true);
  });

  it('gives a sale of tokens that came by transfer no PnL', async () => {
    await f.company('pos2');
    const trader = '0x3000000000000000000000000000000000000003';
    await f.trades([{ token: 'pos2', trader, side: 'sell', usdc: 900n, tokens: 10n, at: '2026-03-09T01:00:00Z' }]);
    const [row] = await t.database.db.select().from(tokenTrades).where(eq(tokenTrades.companyId, 'pos2'));
    expect(row!.realizedPnl).toBe(0n);
  });
});
