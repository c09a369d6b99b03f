// Counted volume (src/domain/scores/volume.ts) against an independent reference, over many random companies: each
// trader's trades of a token net to their position change at their own average price, and the company's total S is
// the largest with sum(min(v_i, 25% of S)) = S, found here by iterating that equation from the plain sum, not by the
// closed form the SQL uses. Trades are rows as the indexer writes them, scored by the real snapshot.
import { beforeAll, describe, expect, it } from 'vitest';
import { VOLUME_TRADER_SHARE_MAX_BPS } from '../../src/domain/scores/formula.ts';
import { takeScoreSnapshot } from '../../src/domain/scores/snapshot.ts';
import { useTestApp } from '../helpers/app.ts';
import { seededIntegers } from '../helpers/random.ts';
import { scoreFixtures, type TradeRow, USDC } from '../helpers/scores.ts';

const t = useTestApp({ now: () => Date.parse('2026-03-10T00:00:01Z') });
const f = scoreFixtures(t);
const COMPANIES = 40;

/** Each trader's netted volume of one token: the position change at their average price on the side that grew. */
function netted(rows: readonly TradeRow[]): bigint[] {
  const byTrader = new Map<string, { bought: bigint; paid: bigint; sold: bigint; received: bigint }>();
  for (const row of rows) {
    const key = row.trader.toLowerCase();
    const p = byTrader.get(key) ?? { bought: 0n, paid: 0n, sold: 0n, received: 0n };
    if (row.side === 'buy') {
      p.bought += row.tokens!;
      p.paid += row.usdc;
    } else {
      p.sold += row.tokens!;
      p.received += row.usdc;
    }
    byTrader.set(key, p);
  }
  return [...byTrader.values()].map((p) => {
    if (p.bought > p.sold) return ((p.bought - p.sold) * p.paid) / p.bought;
    if (p.sold > p.bought) return ((p.sold - p.bought) * p.received) / p.sold;
    return 0n;
  });
}

/** The largest S with sum(min(v_i, share * S)) = S: iterated from the plain sum, which only ever decreases to it. */
function cappedTotal(volumes: readonly bigint[]): number {
  const share = VOLUME_TRADER_SHARE_MAX_BPS / 10_000;
  const values = volumes.map(Number);
  let total = values.reduce((a, b) => a + b, 0);
  for (let i = 0; i < 5_000; i++) total = values.reduce((sum, v) => sum + Math.min(v, share * total), 0);
  return total;
}

const expected = new Map<string, number>();

beforeAll(async () => {
  const next = seededIntegers(20260310);
  const rows: TradeRow[] = [];
  for (let c = 0; c < COMPANIES; c++) {
    const token = `vol${c}`;
    await f.company(token, { createdAt: new Date(`2026-01-01T00:00:${String(c).padStart(2, '0')}Z`) });
    const traders = 1 + next(8);
    const companyRows: TradeRow[] = [];
    for (let i = 0; i < traders; i++) {
      const address = `0x${(c * 16 + i).toString(16).padStart(40, 'a')}`;
      // A whale now and then, round trips, partial sells, sells of tokens bought before the day.
      const size = next(10) === 0 ? 100_000 : 1_000;
      for (let j = 1 + next(4); j > 0; j--) {
        companyRows.push({
          token,
          // The indexer writes checksummed addresses; the same trader in another case is still one trader.
          trader: next(2) ? address : address.toUpperCase().replace('0X', '0x'),
          side: next(3) === 0 ? 'sell' : 'buy',
          usdc: BigInt(1 + next(size)) * USDC + BigInt(next(1_000_000)),
          tokens: BigInt(1 + next(50)) * 10n ** 18n,
          at: `2026-03-09T${String(next(24)).padStart(2, '0')}:00:00Z`,
        });
      }
    }
    rows.push(...companyRows);
    expected.set(token, cappedTotal(netted(companyRows)));
  }
  await f.trades(rows);
  expect(await takeScoreSnapshot(t.container, t.database.db)).toMatchObject({ status: 'taken', companies: COMPANIES });
});

describe('counted volume', () => {
  it('matches the reference for every company, to the base unit', async () => {
    const s = await f.snapshotOf('2026-03-10');
    for (const [token, total] of expected) {
      // The SQL rounds each trader and the total down to base units; the reference is exact up to floats.
      const counted = Number(s.get(token)!.volumeRaw);
      expect(Math.abs(counted - total), `${token}: ${counted} vs ${total}`).toBeLessThanOrEqual(2);
    }
  });

  it('covers both outcomes: companies with counted volume, and companies left at 0', async () => {
    const values = [...expected.values()];
    expect(values.filter((v) => v === 0).length).toBeGreaterThan(3);
    expect(values.filter((v) => v > 0).length).toBeGreaterThan(3);
  });
});
