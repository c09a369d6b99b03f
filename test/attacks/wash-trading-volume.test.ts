// Attack: wash trading for volume. Volume is 20% of the score that splits epoch rewards; a trader who buys a
// company's token and sells it straight back raises the gross volume as often as they like while holding nothing.
// The volume score counts each trader's net position change over the day instead (docs/api/fortune.md "Scores",
// docs/api/fortune.md "Volume"), so round trips count nothing. Real trades on the launcher's curve (anvil), rows
// written by the token indexer, scored by the real snapshot.
import { and, eq } from 'drizzle-orm';
import type { Address } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { tokenTrades } from '../../src/db/schema/tokens.ts';
import { takeScoreSnapshot } from '../../src/domain/scores/snapshot.ts';
import { useTestApp } from '../helpers/app.ts';
import { scoreFixtures, USDC } from '../helpers/scores.ts';
import { tokenTrading } from '../helpers/trading.ts';

const t = useTestApp();
const f = scoreFixtures(t);
const trading = tokenTrading(t);
const WASHER = 6;
const ROUND_TRIPS = 5;
let snapshotDate: string;

beforeAll(async () => {
  await f.company('honest', { createdAt: new Date('2026-01-01T00:00:01Z') });
  await f.company('washed', { createdAt: new Date('2026-01-01T00:00:02Z') });
  const honest = await trading.launch('honest', 'HON');
  const washed = await trading.launch('washed', 'WSH');
  snapshotDate = await trading.startTradingDay();
  // Each token is bought by the same four traders for 100 USDC each (dev account 1 created both companies: its
  // trades of their tokens would not count).
  const buyers = async (token: Address, accounts: number[]) => {
    for (const account of accounts) await trading.buy(account, token, 100n * USDC);
  };
  await buyers(honest, [2, 3, 4, 5]);
  await buyers(washed, [2, 3, 4, 5]);
  // One more trader washes `washed`: buys 500 USDC of it and sells everything back, five times.
  for (let i = 0; i < ROUND_TRIPS; i++) {
    await trading.buy(WASHER, washed, 500n * USDC);
    await trading.sell(WASHER, washed, await trading.balanceOf(WASHER, washed));
  }
  await trading.index();
  const result = await takeScoreSnapshot(t.container, t.database.db, snapshotDate);
  expect(result).toMatchObject({ status: 'taken', companies: 2 });
});

describe('wash trading', () => {
  it('happened on-chain and was indexed: the washer moved 5,000 USDC of gross volume', async () => {
    const rows = await t.database.db
      .select()
      .from(tokenTrades)
      .where(and(eq(tokenTrades.companyId, 'washed'), eq(tokenTrades.trader, devAccount(WASHER).address)));
    expect(rows).toHaveLength(2 * ROUND_TRIPS);
    const bought = rows.filter((r) => r.side === 'buy').reduce((sum, r) => sum + r.usdcAmount, 0n);
    expect(bought).toBe(BigInt(ROUND_TRIPS) * 500n * USDC);
    // Every token bought was sold again: the washer holds nothing.
    const net = rows.reduce((sum, r) => sum + (r.side === 'buy' ? r.tokenAmount : -r.tokenAmount), 0n);
    expect(net).toBe(0n);
  });

  it('adds nothing to the volume of the washed company', async () => {
    const s = await f.snapshotOf(snapshotDate);
    // Each company counts its four buyers' 100 USDC; the round trips count 0. 400 USDC against the 10,000 USDC
    // floor: 100 ln(1 + 400/100) / ln(1 + 10,000/100) = 34.87 each.
    expect(s.get('washed')!.volumeRaw).toBe(400n * USDC);
    expect(s.get('honest')!.volumeRaw).toBe(400n * USDC);
    expect([s.get('washed')!.volumeScore, s.get('honest')!.volumeScore]).toEqual([34.87, 34.87]);
  });

  it('does not lift the washed company above the honest one', async () => {
    const s = await f.snapshotOf(snapshotDate);
    expect(s.get('washed')!.overall).toBe(s.get('honest')!.overall);
    expect([s.get('honest')!.rank, s.get('washed')!.rank]).toEqual([1, 2]);
  });
});
