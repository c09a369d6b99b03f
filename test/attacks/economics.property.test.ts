// The economics as a property (docs/economics.md "The property test"): over random attack sizes and random prices of
// the primary token from 0.001 to 1 USDC, the closed manipulations of the scores, run beside a random honest field,
// never gain the attacker more reward than they cost in fees and lost value. Each run scores two days with the same
// honest trades, the second with one attack: the company's own wallets buying its token (volume), its owner's wallet
// or another of its agents pumping what its CFO holds before the CFO sells (trading), or a sale inside the minimum
// hold into an outsider's buying (trading). The reward is the epoch's split of the default pool over a window of
// that day, by the real snapshot and epoch scoring; the cost counts the curve fee (1%) of the attack's legs only,
// less than what the attack costs in all.
import fc from 'fast-check';
import { type Address, getAddress } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { rewardOf } from '../../src/chain/merkle.ts';
import { epochScores } from '../../src/domain/epochs/scores.ts';
import { startOfDate } from '../../src/domain/scores/dates.ts';
import { takeScoreSnapshot } from '../../src/domain/scores/snapshot.ts';
import { useTestApp } from '../helpers/app.ts';
import { scoreFixtures, type TradeRow, USDC } from '../helpers/scores.ts';

const t = useTestApp();
const f = scoreFixtures(t);
const CURVE_FEE_BPS = 100n;
const DAY_MS = 86_400_000;
const TOKEN = 10n ** 18n;
const wallet = (tag: string) => getAddress(`0x${tag.padStart(40, '0')}`);
/** Dev account 1 created every fixture company: the attacker's own wallet. */
const OWNER = devAccount(1).address;
const CFO = wallet('cf0');
const CTO = wallet('c70');
const OUTSIDER = wallet('0def');
const HONEST = [2, 3, 4, 5, 6, 7, 8].map((i) => devAccount(i).address);

/** The date `n` days after 2026-05-01, and an instant `minute` minutes into the day it covers. */
const dayOf = (n: number) => new Date(Date.UTC(2026, 4, 1) + n * DAY_MS).toISOString().slice(0, 10);
const during = (date: string, minute: number) => new Date(Date.parse(date) - DAY_MS + minute * 60_000).toISOString();
const feeOf = (usdc: bigint) => (usdc * CURVE_FEE_BPS) / 10_000n;

beforeAll(async () => {
  // The attacker, with its CFO and CTO wallets; two honest companies; a token the attacker's CFO trades. All hold a
  // proven treasury (epoch rewards need one), the attacker's and the rivals' of random sizes below.
  for (const [n, id] of ['atk', 'h1', 'h2', 'tgt'].entries()) {
    await f.company(id, { createdAt: new Date(`2026-01-01T00:00:0${n}Z`), description: `company ${id}` });
  }
  await f.agent('atk', 'CFO', 'ACTIVE', CFO);
  await f.agent('atk', 'CTO', 'ACTIVE', CTO);
  await f.treasury('atk', wallet('a1'), '2026-04-01T00:00:00Z', 2_000n * USDC);
  await f.treasury('h1', wallet('b1'), '2026-04-01T00:00:00Z', 30_000n * USDC);
  await f.treasury('h2', wallet('b2'), '2026-04-01T00:00:00Z', 500n * USDC);
});

type Attack = 'own-volume' | 'own-pump' | 'agent-pump' | 'short-hold';

/** The attack's trades on `date` and their curve fees. */
function attackRows(kind: Attack, date: string, size: bigint, gainBps: bigint): { rows: TradeRow[]; fees: bigint } {
  const row = (token: string, trader: Address, side: 'buy' | 'sell', usdc: bigint, minute: number): TradeRow => ({
    token,
    trader,
    side,
    usdc,
    tokens: 1_000n * TOKEN,
    at: during(date, minute),
  });
  if (kind === 'own-volume') {
    // The owner's wallet and the CFO buy the company's own token.
    const rows = [row('atk', OWNER, 'buy', size, 600), row('atk', CFO, 'buy', size / 2n + 1n, 601)];
    return { rows, fees: rows.reduce((sum, r) => sum + feeOf(r.usdc), 0n) };
  }
  // The CFO buys, someone buys much more, and the CFO sells the same tokens back at a profit of gainBps.
  const pumper = kind === 'own-pump' ? OWNER : kind === 'agent-pump' ? CTO : OUTSIDER;
  const sellMinute = kind === 'short-hold' ? 620 : 800;
  const proceeds = (size * (10_000n + gainBps)) / 10_000n;
  const rows = [
    row('tgt', CFO, 'buy', size, 600),
    row('tgt', pumper, 'buy', size * 3n, 610),
    row('tgt', CFO, 'sell', proceeds, sellMinute),
  ];
  // The outsider's buy is not the attacker's: its fee is not the attacker's cost.
  const fees = rows.filter((r) => r.trader !== OUTSIDER).reduce((sum, r) => sum + feeOf(r.usdc), 0n);
  return { rows, fees };
}

/** The attacker's reward, in primary-token wei, from an epoch whose window holds `date` only. */
async function rewardOn(date: string): Promise<bigint> {
  const start = BigInt(startOfDate(date) / 1000);
  const scores = await epochScores(t.database.db, start, start + 86_400n);
  const total = scores.reduce((sum, s) => sum + s.score, 0n);
  const attacker = scores.find((s) => s.companyId === 'atk')?.score ?? 0n;
  return total === 0n ? 0n : rewardOf(t.config.epochRewardPool, attacker, total);
}

describe('the closed manipulations (property)', () => {
  it('never gain the attacker more reward than they cost, at any price from 0.001 to 1 USDC', async () => {
    let day = 0;
    const honestTrade = fc.record({
      trader: fc.integer({ min: 0, max: HONEST.length - 1 }),
      token: fc.constantFrom('atk', 'h1', 'h2'),
      usdc: fc.bigInt({ min: 1n, max: 20_000n }),
      sells: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(honestTrade, { minLength: 0, maxLength: 12 }),
        fc.constantFrom<Attack>('own-volume', 'own-pump', 'agent-pump', 'short-hold'),
        fc.bigInt({ min: 1n, max: 50_000n }),
        fc.bigInt({ min: 1n, max: 40_000n }),
        // Micro-USDC per whole primary token: 0.001 to 1 USDC.
        fc.bigInt({ min: 1_000n, max: 1_000_000n }),
        async (honest, kind, size, gainBps, price) => {
          const without = dayOf(day++);
          const withAttack = dayOf(day++);
          const honestRows = (date: string): TradeRow[] =>
            honest.flatMap((h, i) => {
              const buy: TradeRow = {
                token: h.token,
                trader: HONEST[h.trader]!,
                side: 'buy',
                usdc: h.usdc * USDC,
                tokens: TOKEN,
                at: during(date, i),
              };
              return h.sells
                ? [buy, { ...buy, side: 'sell', usdc: (h.usdc * USDC) / 2n, at: during(date, i + 60) }]
                : [buy];
            });
          await f.trades(honestRows(without));
          await f.trades(honestRows(withAttack));
          const attack = attackRows(kind, withAttack, size * USDC, gainBps);
          await f.trades(attack.rows);
          for (const date of [without, withAttack]) {
            expect(await takeScoreSnapshot(t.container, t.database.db, date)).toMatchObject({ status: 'taken' });
          }

          const gain = (await rewardOn(withAttack)) - (await rewardOn(without));
          // The reward gained, in USDC base units at the price; the attack's cost, at least its fees.
          const gainedUsdc = gain > 0n ? (gain * price) / TOKEN : 0n;
          expect(attack.fees).toBeGreaterThan(0n);
          expect(gainedUsdc, `${kind}: gained ${gain} wei of reward`).toBeLessThanOrEqual(attack.fees);
          // The attacker's score did not move: the components the attack aimed at counted nothing of it.
          const [a, b] = [(await f.snapshotOf(without)).get('atk')!, (await f.snapshotOf(withAttack)).get('atk')!];
          expect([b.tradingRaw, b.volumeRaw], kind).toEqual([a.tradingRaw, a.volumeRaw]);
        },
      ),
      { numRuns: 24 },
    );
  }, 600_000);
});
