// Attack: volume bought in a thin market. Each score component was scaled against the best company of the day, so
// on a quiet day four fresh wallets buying 100 USDC each of a token (the fewest traders the per-trader cap counts)
// made it the best: volume score 100, 20 points of overall for 4 USDC of curve fees. The company's own wallets
// (creator, agents) counted as traders too. Now each component is scaled against the larger of the best company and
// its floor (10,000 USDC for volume, docs/api/fortune.md "Scaling"), and the issuing company's linked wallets do not
// count. Real trades on the launcher's curve, rows written by the token indexer, scored by the real snapshot.
import type { LocalAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import { takeScoreSnapshot } from '../../src/domain/scores/snapshot.ts';
import { useTestApp } from '../helpers/app.ts';
import { anvilTestClient } from '../helpers/chain.ts';
import { finalizeScored, scoreFixtures, USDC } from '../helpers/scores.ts';
import { tokenTrading } from '../helpers/trading.ts';

const t = useTestApp();
const f = scoreFixtures(t);
const trading = tokenTrading(t);
let date: string;
let feesPaid = 0n;

/** A fresh wallet with gas and `usdc` whole USDC. */
async function freshWallet(usdc: bigint): Promise<LocalAccount> {
  const account = privateKeyToAccount(generatePrivateKey());
  await anvilTestClient(t.chain.node.rpcUrl).setBalance({ address: account.address, value: 10n ** 18n });
  await trading.fund(2, account.address, usdc * USDC);
  return account;
}

beforeAll(async () => {
  // The only company on the platform: a quiet day.
  await f.company('lonely', { createdAt: new Date('2026-01-01T00:00:01Z') });
  const agent = await freshWallet(1_000n);
  await f.agent('lonely', 'CFO', 'ACTIVE', agent.address);
  const token = await trading.launch('lonely', 'LONE');
  date = await trading.startTradingDay();
  // Four fresh wallets buy 100 USDC each; so do the company's creator (dev account 1) and its CFO.
  const fresh: LocalAccount[] = [];
  for (let i = 0; i < 4; i++) fresh.push(await freshWallet(100n));
  for (const wallet of [...fresh, agent]) {
    const before = await trading.usdcOf(wallet.address);
    await trading.buy(wallet, token, 100n * USDC);
    expect(before - (await trading.usdcOf(wallet.address))).toBe(100n * USDC);
    // The curve keeps 1% of each buy as its fee (TokenLauncher's default curveFeeBps).
    feesPaid += USDC;
  }
  await trading.buy(1, token, 100n * USDC);
  feesPaid += USDC;
  await trading.index();
  // The day's blocks finalized: a snapshot reads no block above the finalized one.
  await finalizeScored(t);
  expect(await takeScoreSnapshot(t.container, t.database.db, date)).toMatchObject({ status: 'taken', companies: 1 });
});

describe('volume in a thin market', () => {
  it("counts the four fresh wallets' 400 USDC and not the company's own wallets", async () => {
    const s = await f.snapshotOf(date);
    // Each fresh wallet's 100 USDC buys 99 USDC of tokens after the fee; the position counts what was paid.
    expect(s.get('lonely')!.volumeRaw).toBe(400n * USDC);
  });

  it('no longer makes the best of a quiet day worth full points: 34.87, not 100', async () => {
    const s = await f.snapshotOf(date);
    // 100 ln(1 + 400/100) / ln(1 + 10,000/100): the floor, not the best company (itself), sets the scale.
    expect(s.get('lonely')!.volumeScore).toBe(34.87);
    // At most 0.2 * 34.87 = 6.97 points of overall, bought with 6 USDC of fees and 600 USDC held in the token.
    expect(feesPaid).toBe(6n * USDC);
  });
});
