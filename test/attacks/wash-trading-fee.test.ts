// Attack, as a property: a wash trader (one wallet buying a company's token and selling the same tokens back, in any
// sizes, any number of times, among any honest trading) tries to raise the company's share of the epoch reward. Two
// days of the same honest trades are scored by the real snapshot, the second with the wash trades added: the
// company's score, and so its share of the default reward pool (EPOCH_REWARD_POOL, split by score), does not move,
// while every one of those trades paid the curve fee (1% each way, test/contracts/token-launcher.fee.test.ts). The
// reward gain (zero, at any price of the reward token) never exceeds what the trades cost in fees (positive).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { takeScoreSnapshot } from '../../src/domain/scores/snapshot.ts';
import { useTestApp } from '../helpers/app.ts';
import { scoreFixtures, type TradeRow, USDC } from '../helpers/scores.ts';

const t = useTestApp();
const f = scoreFixtures(t);
const CURVE_FEE_BPS = 100n;
const DAY_MS = 86_400_000;
const trader = (i: number) => devAccount(i).address;
const WASHER = trader(9);

/** The date `n` days after 2026-03-01, and a time inside the day it covers (the day before). */
const dayOf = (n: number) => new Date(Date.UTC(2026, 2, 1) + n * DAY_MS).toISOString().slice(0, 10);
const during = (date: string, minute: number) => new Date(Date.parse(date) - DAY_MS + minute * 60_000).toISOString();

describe('wash trading against the epoch reward (property)', () => {
  it("never gains a company more reward than the wash trades' fees cost", async () => {
    await f.company('target', { createdAt: new Date('2026-01-01T00:00:01Z') });
    await f.company('rival', { createdAt: new Date('2026-01-01T00:00:02Z') });
    const pool = t.config.epochRewardPool;
    let day = 0;
    const honestTrade = fc.record({
      trader: fc.integer({ min: 1, max: 8 }),
      token: fc.constantFrom('target', 'rival'),
      usdc: fc.bigInt({ min: 1n, max: 5_000n }),
      sells: fc.boolean(),
    });
    const roundTrip = fc.record({
      usdc: fc.bigInt({ min: 1n, max: 50_000n }),
      tokens: fc.bigInt({ min: 1n, max: 10n ** 24n }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(honestTrade, { minLength: 1, maxLength: 12 }),
        fc.array(roundTrip, { minLength: 1, maxLength: 6 }),
        async (honest, trips) => {
          const without = dayOf(day++);
          const withWash = dayOf(day++);
          const honestRows = (date: string): TradeRow[] =>
            honest.flatMap((h, i) => {
              const buy: TradeRow = {
                token: h.token,
                trader: trader(h.trader),
                side: 'buy',
                usdc: h.usdc * USDC,
                at: during(date, i),
              };
              return h.sells
                ? [buy, { ...buy, side: 'sell', usdc: (h.usdc * USDC) / 2n, at: during(date, i + 100) }]
                : [buy];
            });
          await f.trades(honestRows(without));
          await f.trades(honestRows(withWash));
          // The washer: buy `tokens` for `usdc`, sell the same tokens back for what the curve pays after both fees.
          let fees = 0n;
          const wash: TradeRow[] = trips.flatMap((trip, i) => {
            const paid = trip.usdc * USDC;
            const received = (paid * (10_000n - 2n * CURVE_FEE_BPS)) / 10_000n;
            fees += paid - received;
            return [
              {
                token: 'target',
                trader: WASHER,
                side: 'buy',
                usdc: paid,
                tokens: trip.tokens,
                at: during(withWash, 300 + 2 * i),
              },
              {
                token: 'target',
                trader: WASHER,
                side: 'sell',
                usdc: received,
                tokens: trip.tokens,
                at: during(withWash, 301 + 2 * i),
              },
            ];
          });
          await f.trades(wash);
          for (const date of [without, withWash]) await takeScoreSnapshot(t.container, t.database.db, date);

          const rewardOf = async (date: string) => {
            const s = await f.snapshotOf(date);
            const target = s.get('target')!.overall;
            const total = target + s.get('rival')!.overall;
            // The epoch splits the pool by score: the target's share in reward tokens (18 decimals), scaled 1e4.
            return total === 0 ? 0n : (pool * BigInt(Math.round(target * 100))) / BigInt(Math.round(total * 100));
          };
          const gain = (await rewardOf(withWash)) - (await rewardOf(without));
          expect(fees).toBeGreaterThan(0n);
          // Zero gain is below the fees at any positive price of the reward token.
          expect(gain).toBeLessThanOrEqual(0n);
          expect((await f.snapshotOf(withWash)).get('target')!.volumeRaw).toBe(
            (await f.snapshotOf(without)).get('target')!.volumeRaw,
          );
        },
      ),
      { numRuns: 12 },
    );
  }, 180_000);
});
