// Counted volume (src/domain/scores/volume.ts) against an independent reference, over many random companies: the
// company's own linked wallets (its creator, its agents) are left out, each other trader's trades of a token net to
// their position change at their own average price, and the company's total S is the largest with
// sum(min(v_i, 25% of S)) = S, found here by iterating that equation from the plain sum, not by the closed form the
// SQL uses. Trades are rows as the indexer writes them, scored by the real snapshot.
import { beforeAll, describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { VOLUME_TRADER_SHARE_MAX_BPS } from '../../src/domain/scores/formula.ts';
import { takeScoreSnapshot } from '../../src/domain/scores/snapshot.ts';
import { useTestApp } from '../helpers/app.ts';
import { seededIntegers } from '../helpers/random.ts';
import { scoreFixtures, type TradeRow, USDC } from '../helpers/scores.ts';

const t = useTestApp();
const f = scoreFixtures(t);
const COMPANIES = 40;
/** The last of them are broadly traded: 40 to 120 traders, a few whales among them. */
const BROAD = 16;
/** Per company: whether a trader was capped while others were too small to be ranked (the SQL's shortcut). */
const shortcut = new Map<string, boolean>();

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
    const broad = c >= COMPANIES - BROAD;
    const traders = broad ? 40 + next(81) : 1 + next(8);
    const companyRows: TradeRow[] = [];
    for (let i = 0; i < traders; i++) {
      const address = `0x${(c * 256 + i).toString(16).padStart(40, 'a')}`;
      // A whale now and then, round trips, partial sells, sells of tokens bought before the day.
      const size = next(broad ? 60 : 10) === 0 ? (broad ? 25_000 : 100_000) : 1_000;
      for (let j = broad ? 1 : 1 + next(4); j > 0; j--) {
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
    // The company's own wallets trade its token too: its agent buys, and for some its creator (every fixture
    // company's is dev account 1). Neither counts.
    const agentWallet = `0x${(c * 256).toString(16).padStart(40, 'b')}` as const;
    await f.agent(token, 'CFO', 'ACTIVE', agentWallet);
    const linked = [agentWallet, ...(next(2) ? [devAccount(1).address] : [])].map((trader) => ({
      token,
      trader,
      side: 'buy' as const,
      usdc: BigInt(1 + next(50_000)) * USDC,
      tokens: 10n ** 18n,
      at: '2026-03-09T12:00:00Z',
    }));
    rows.push(...companyRows, ...linked);
    const volumes = netted(companyRows);
    const total = cappedTotal(volumes);
    expected.set(token, total);
    // The SQL ranks only traders above 25% of (sum - 3 * largest), a bound under the capped total.
    const sum = volumes.reduce((a, b) => a + b, 0n);
    const largest = volumes.reduce((a, b) => (a > b ? a : b), 0n);
    const bound = (VOLUME_TRADER_SHARE_MAX_BPS / 10_000) * Math.max(0, Number(sum - 3n * largest));
    shortcut.set(token, total < Number(sum) - 2 && volumes.some((v) => v > 0n && Number(v) <= bound));
  }
  await f.trades(rows);
  expect(await takeScoreSnapshot(t.container, t.database.db, '2026-03-10')).toMatchObject({
    status: 'taken',
    companies: COMPANIES,
  });
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

  it('covers the outcomes: counted volume, none, and whales capped among traders too small to rank', async () => {
    const values = [...expected.values()];
    expect(values.filter((v) => v === 0).length).toBeGreaterThan(3);
    expect(values.filter((v) => v > 0).length).toBeGreaterThan(3);
    // Companies where a whale was capped while small traders were left unranked: the shortcut was taken and still
    // matched the reference above.
    expect([...shortcut.values()].filter(Boolean).length).toBeGreaterThan(2);
  });
});
