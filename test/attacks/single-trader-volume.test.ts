// Attack: one wallet buying volume. A creator (or anyone backing a company) buys its token from one wallet and
// raises its volume score past companies whose token many people trade. No single trader counts for more than a
// quarter of a company's counted volume (VOLUME_TRADER_SHARE_MAX in src/domain/scores/formula.ts), so one wallet
// alone counts nothing and a whale beside three small traders counts as much as each of them. Real trades on the
// launcher's curve (anvil), rows written by the token indexer, scored by the real snapshot.
import type { Address } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { takeScoreSnapshot } from '../../src/domain/scores/snapshot.ts';
import { useTestApp } from '../helpers/app.ts';
import { finalizeScored, scoreFixtures, USDC } from '../helpers/scores.ts';
import { tokenTrading } from '../helpers/trading.ts';

const t = useTestApp();
const f = scoreFixtures(t);
const trading = tokenTrading(t);
let snapshotDate: string;

beforeAll(async () => {
  await f.company('broad', { createdAt: new Date('2026-01-01T00:00:01Z') });
  await f.company('whaled', { createdAt: new Date('2026-01-01T00:00:02Z') });
  await f.company('alone', { createdAt: new Date('2026-01-01T00:00:03Z') });
  const broad = await trading.launch('broad', 'BRD');
  const whaled = await trading.launch('whaled', 'WHL');
  const alone = await trading.launch('alone', 'ALN');
  snapshotDate = await trading.startTradingDay();
  const buy = async (token: Address, accounts: number[], usdc: bigint) => {
    for (const account of accounts) await trading.buy(account, token, usdc * USDC);
  };
  // broad: four traders buy 100 USDC each (not dev account 1, which created the companies: its trades would not
  // count).
  await buy(broad, [2, 3, 4, 6], 100n);
  // whaled: one wallet buys 2,000 USDC, three others 10 USDC each.
  await buy(whaled, [5], 2_000n);
  await buy(whaled, [6, 7, 8], 10n);
  // alone: one wallet buys 1,000 USDC and nobody else trades it.
  await buy(alone, [9], 1_000n);
  await trading.index();
  // The day's blocks finalized: a snapshot reads no block above the finalized one.
  await finalizeScored(t);
  expect(await takeScoreSnapshot(t.container, t.database.db, snapshotDate)).toMatchObject({ status: 'taken' });
});

describe('volume bought by one wallet', () => {
  it('counts the whale as one of four equal traders: 10 of 40 USDC', async () => {
    const s = await f.snapshotOf(snapshotDate);
    expect(s.get('whaled')!.volumeRaw).toBe(40n * USDC);
  });

  it('counts nothing for a token traded by one wallet alone', async () => {
    const s = await f.snapshotOf(snapshotDate);
    expect([s.get('alone')!.volumeRaw, s.get('alone')!.volumeScore]).toEqual([0n, 0]);
  });

  it('keeps the broadly traded company first on volume and overall', async () => {
    const s = await f.snapshotOf(snapshotDate);
    expect(s.get('broad')!.volumeRaw).toBe(400n * USDC);
    // Against the 10,000 USDC floor: 100 ln(1 + 400/100) / ln(101) = 34.87, 100 ln(1 + 40/100) / ln(101) = 7.29.
    expect([s.get('broad')!.volumeScore, s.get('whaled')!.volumeScore]).toEqual([34.87, 7.29]);
    expect([...s.keys()]).toEqual(['broad', 'whaled', 'alone']);
  });
});
