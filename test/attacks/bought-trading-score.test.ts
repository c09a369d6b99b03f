// Attack: a bought trading score. Realised PnL counted whoever moved the price: a company's CFO bought SCOUT, the
// owner's own wallet bought 800 USDC of it, and the CFO sold, which took the company's trading score to 100 for the
// cost of the curve fees. Now a sale's PnL counts only when no other wallet linked to the company (its creator,
// treasuries, other agents) traded the token while the position was held, and only after the position was held
// TRADING_MIN_HOLD_S since its latest buy (docs/api/fortune.md "Trading"). Real trades on the launcher's curve,
// rows written by the token indexer, scored by the real snapshot; an honest sale into an outsider's buying counts.

import type { Address, LocalAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import { takeScoreSnapshot } from '../../src/domain/scores/snapshot.ts';
import { useTestApp } from '../helpers/app.ts';
import { anvilTestClient } from '../helpers/chain.ts';
import { finalizeScored, scoreFixtures, USDC } from '../helpers/scores.ts';
import { tokenTrading } from '../helpers/trading.ts';
import { treasuryHelpers } from '../helpers/treasuries.ts';

// COMPANY_CUSTODY=none: this file is about the path where a company's agents act from their own wallets.
const t = useTestApp({ env: { COMPANY_CUSTODY: 'none' } });
const f = scoreFixtures(t);
const trading = tokenTrading(t);
const tr = treasuryHelpers(t);
const HOUR = 3600;
/** Dev account 1 created every fixture company: the attacker's own wallet. */
const OWNER = 1;
const OUTSIDER = 3;

/** An agent wallet of `companyId` with a key the test holds, funded with gas and 1,000 USDC. */
async function agentWallet(companyId: string, role: string): Promise<LocalAccount> {
  const account = privateKeyToAccount(generatePrivateKey());
  await f.agent(companyId, role, 'ACTIVE', account.address);
  await anvilTestClient(t.chain.node.rpcUrl).setBalance({ address: account.address, value: 10n ** 18n });
  await trading.fund(2, account.address, 1_000n * USDC);
  return account;
}

/** Buys for 100 USDC, waits `holdS`, lets `pumper` buy 800 USDC, then sells everything; returns the PnL made. */
async function pumpAndSell(cfo: LocalAccount, token: Address, pumper: number | LocalAccount, holdS: number) {
  const before = await trading.usdcOf(cfo.address);
  await trading.buy(cfo, token, 100n * USDC);
  const latest = await t.chain.chain.publicClient.getBlock();
  await tr.at(Number(latest.timestamp) + holdS);
  await trading.buy(pumper, token, 800n * USDC);
  await trading.sell(cfo, token, await trading.balanceOf(cfo, token));
  return (await trading.usdcOf(cfo.address)) - before;
}

let date: string;
/** What each company's CFO gained in USDC on-chain. */
const made = new Map<string, bigint>();
const tokens = {} as Record<'scout' | 'crew' | 'market' | 'quick', Address>;

beforeAll(async () => {
  for (const [id, symbol] of [
    ['scout', 'SCOUT'],
    ['crew', 'CREW'],
    ['market', 'MKT'],
    ['quick', 'QUICK'],
  ] as const) {
    await f.company(`${id}-issuer`, { createdAt: new Date('2026-01-01T00:00:00Z') });
    tokens[id] = await trading.launch(`${id}-issuer`, symbol);
  }
  for (const [n, id] of ['attacker', 'crewed', 'honest', 'hasty'].entries()) {
    await f.company(id, { createdAt: new Date(`2026-01-01T00:00:0${n + 1}Z`) });
  }
  const cfos = {
    attacker: await agentWallet('attacker', 'CFO'),
    crewed: await agentWallet('crewed', 'CFO'),
    honest: await agentWallet('honest', 'CFO'),
    hasty: await agentWallet('hasty', 'CFO'),
  };
  const cto = await agentWallet('crewed', 'CTO');
  date = await trading.startTradingDay();
  // The attack: the owner's own wallet pumps what the CFO holds, two hours after it bought.
  made.set('attacker', await pumpAndSell(cfos.attacker, tokens.scout, OWNER, 2 * HOUR));
  // The same through another agent of the company.
  made.set('crewed', await pumpAndSell(cfos.crewed, tokens.crew, cto, 2 * HOUR));
  // An honest profit: someone with no link to the company buys while the CFO holds.
  made.set('honest', await pumpAndSell(cfos.honest, tokens.market, OUTSIDER, 2 * HOUR));
  // An outsider's buy, but the CFO sells ten minutes after buying: held too briefly to count.
  made.set('hasty', await pumpAndSell(cfos.hasty, tokens.quick, OUTSIDER, 600));
  await trading.index();
  // The day's blocks finalized: a snapshot reads no block above the finalized one.
  await finalizeScored(t);
  expect(await takeScoreSnapshot(t.container, t.database.db, date)).toMatchObject({ status: 'taken' });
});

describe('a trading score bought with linked wallets', () => {
  it('made each CFO a real profit on-chain', () => {
    for (const id of ['attacker', 'crewed', 'honest', 'hasty']) expect(made.get(id), id).toBeGreaterThan(40n * USDC);
  });

  it("counts nothing when the owner's wallet or another agent of the company moved the price", async () => {
    const s = await f.snapshotOf(date);
    for (const id of ['attacker', 'crewed']) {
      expect([s.get(id)!.tradingRaw, s.get(id)!.tradingScore], id).toEqual([0n, 0]);
    }
  });

  it('counts nothing for a position held less than the minimum hold', async () => {
    const s = await f.snapshotOf(date);
    expect([s.get('hasty')!.tradingRaw, s.get('hasty')!.tradingScore]).toEqual([0n, 0]);
  });

  it("counts an honest sale's realised PnL, so the honest company ranks above the attacker", async () => {
    const s = await f.snapshotOf(date);
    const honest = s.get('honest')!;
    // The realised PnL against the CFO's cost (the buy's 1% fee included), what the CFO's wallet gained.
    expect(honest.tradingRaw).toBe(made.get('honest'));
    expect(honest.tradingScore).toBeGreaterThan(0);
    expect(honest.rank).toBeLessThan(s.get('attacker')!.rank);
  });
});
