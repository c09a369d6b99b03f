// One clock for the economy (docs/api/fortune.md "Days"): after the chain's clock moves three days ahead of the
// server's (as the demo moves the local chain), the score-snapshot job takes the chain's day, not the server's; its
// windows hold the trades and treasury transfers the chain stamped in that day, the activity window counts back from
// it, and the epoch whose window holds it on the chain's clock rewards it. Real chain, indexer streams, job and
// distribution.
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import { distributeEpoch } from '../../src/domain/epochs/distribute.ts';
import { readClaimable } from '../../src/domain/epochs/queries.ts';
import { utcDateOf } from '../../src/domain/scores/dates.ts';
import { jobs, runJobOnce } from '../../src/jobs/scheduler.ts';
import { useTestApp } from '../helpers/app.ts';
import { finalizeScored, scoreFixtures, USDC } from '../helpers/scores.ts';
import { tokenTrading } from '../helpers/trading.ts';
import { treasuryHelpers } from '../helpers/treasuries.ts';

const t = useTestApp();
const f = scoreFixtures(t);
const trading = tokenTrading(t);
const tr = treasuryHelpers(t);
const DAY_S = 86_400;
const snapshotJob = jobs.find((j) => j.name === 'score-snapshot')!;

/** Seconds of the chain's latest block. */
const chainNow = async () => Number((await t.chain.chain.publicClient.getBlock()).timestamp);

let serverDay: string;
let chainDay: string;
let fundedAt: number;

beforeAll(async () => {
  await f.company('ahead', { createdAt: new Date('2026-01-01T00:00:01Z'), description: 'on the chain clock' });
  const token = await trading.launch('ahead', 'AHEAD');
  const treasury = privateKeyToAccount(generatePrivateKey());
  await tr.prove(1, 'ahead', treasury);

  // The chain's clock moves more than three days ahead of the server's, to 06:00 of its day.
  const serverS = Math.floor(Date.now() / 1000);
  const start = (Math.floor(serverS / DAY_S) + 4) * DAY_S + 6 * 3600;
  await tr.at(start);
  serverDay = utcDateOf(Date.now());
  // During that chain day: four outsiders buy 100 USDC each, 10,000 USDC arrive in the treasury at 18:00, and the
  // company ran three scheduled rounds (recorded at the chain's times).
  for (const account of [2, 3, 4, 5]) await trading.buy(account, token, 100n * USDC);
  fundedAt = start + 12 * 3600;
  await tr.mintAt(treasury.address, 10_000n * USDC, fundedAt);
  for (const hours of [-30, -20, -10]) {
    await f.round('ahead', 'COMPLETE', new Date((fundedAt + hours * 3600) * 1000).toISOString());
  }
  // The chain passes its next midnight; the indexer applies the day, and its blocks are finalized.
  const midnight = (Math.floor(start / DAY_S) + 1) * DAY_S;
  await tr.at(midnight + 60);
  chainDay = utcDateOf(midnight * 1000);
  await finalizeScored(t);
});

describe("the score snapshot on the chain's clock", () => {
  it("takes the chain's day, three or more days after the server's", async () => {
    expect(Date.parse(chainDay) - Date.parse(serverDay)).toBeGreaterThanOrEqual(3 * DAY_S * 1000);
    expect(await runJobOnce(snapshotJob, t.container)).toBe(true);
    const s = await f.snapshotOf(chainDay);
    expect(s.size).toBe(1);
    expect((await f.snapshotOf(serverDay)).size).toBe(0);
  });

  it("scores the trades, the treasury and the rounds of the chain's day", async () => {
    const row = (await f.snapshotOf(chainDay)).get('ahead')!;
    // The four buys, stamped on the chain's day before its midnight.
    expect(row.volumeRaw).toBe(400n * USDC);
    // 10,000 USDC held from 18:00 to midnight: a quarter of the day.
    const held = BigInt(Date.parse(chainDay) / 1000 - fundedAt);
    expect(held).toBe(6n * 3600n);
    expect(row.treasuryRaw).toBe((10_000n * USDC * held) / 86_400n);
    // The rounds of the last chain days are inside the 7-day window counted back from the chain's midnight.
    expect(row.activityRaw).toBe(3);
  });

  it('rewards it in the epoch whose window holds it on the chain', async () => {
    // Epoch 0 started when the contracts were deployed and lasts a week of the chain's clock.
    await tr.at((await chainNow()) + 5 * DAY_S);
    const result = await distributeEpoch(t.container);
    expect(result).toMatchObject({ epoch: 0, status: 'finalized', participantCount: 1 });
    const claimable = await readClaimable(t.container, 'ahead');
    expect(claimable.claimable).toEqual([
      { epochNumber: 0, amount: t.config.epochRewardPool.toString(), alreadyClaimed: false },
    ]);
  });
});
