// Attack: make the platform pay gas without limit. Terminating a company's seven agents and calling deploy-suite
// again had the platform send 15 transactions (about 1.6 M gas) per cycle, with no cap; manual decision rounds were
// unlimited too, each anchored on-chain. Every platform transaction is now charged to the company that caused it,
// from its receipt; a company's day has a gas budget (429 GAS_BUDGET_EXCEEDED past it), manual rounds a cooldown
// (429 RATE_LIMITED), and rounds are anchored in batches.
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.ts';
import { agents } from '../../src/db/schema/agents.ts';
import { chainTxs } from '../../src/db/schema/chain.ts';
import { decisionRounds } from '../../src/db/schema/decisions.ts';
import { PLATFORM_GAS_ESTIMATES } from '../../src/domain/costs/gas-budget.ts';
import { runDueRounds } from '../../src/domain/engine/runner.ts';
import { startTestApp, useTestApp } from '../helpers/app.ts';
import { companyBody, mintCard, signed } from '../helpers/companies.ts';

const t = useTestApp();

async function staffed(account: number, name: string, app = t.app) {
  await mintCard(t.chain, account);
  const id = (await signed(app, account, 'POST', '/api/companies', companyBody({ name }))).json().data.id as string;
  expect((await signed(app, account, 'POST', `/api/companies/${id}/deploy-suite`)).statusCode).toBe(200);
  return id;
}

/** Gas of the mined transactions charged to the company alone, from the outbox's receipts. */
async function receiptGasOf(companyId: string): Promise<bigint> {
  const [row] = rowsOf<{ gas: string | null }>(
    await t.database.db.execute(
      sql`select sum(gas_used)::text as gas from ${chainTxs} where charged_to = array[${companyId}]::text[]`,
    ),
  );
  return BigInt(row?.gas ?? 0);
}

const view = async (id: string) => (await t.app.inject({ method: 'GET', url: `/api/companies/${id}` })).json().data;

describe('platform gas', () => {
  it('a terminate-and-redeploy loop is stopped by the daily gas budget', async () => {
    const id = await staffed(1, 'Loop Co');
    const first = await view(id);
    expect(BigInt(first.platformGas.usedToday)).toBeGreaterThan(1_000_000n);
    // What the view counts is what the receipts say (the card lock and the 14 identity transactions).
    expect(BigInt(first.platformGas.usedToday)).toBe(await receiptGasOf(id));
    expect(first.platformGas.budget).toBe('4000000');

    let refused: Awaited<ReturnType<typeof signed>> | undefined;
    for (let cycle = 0; cycle < 5 && !refused; cycle++) {
      const live = await t.database.db.select().from(agents).where(eq(agents.companyId, id));
      for (const agent of live.filter((a) => a.status !== 'TERMINATED')) {
        expect((await signed(t.app, 1, 'DELETE', `/api/agents/${agent.id}`)).statusCode).toBe(200);
      }
      const res = await signed(t.app, 1, 'POST', `/api/companies/${id}/deploy-suite`);
      if (res.statusCode === 429) refused = res;
      else expect(res.statusCode).toBe(200);
    }
    expect(refused, 'deploy-suite was never refused').toBeDefined();
    expect(refused!.json().error.code).toBe('GAS_BUDGET_EXCEEDED');
    const retryAfter = Number(refused!.headers['retry-after']);
    const untilMidnight = Math.ceil((Math.floor(Date.now() / 86_400_000 + 1) * 86_400_000 - Date.now()) / 1000);
    expect(Math.abs(retryAfter - untilMidnight)).toBeLessThanOrEqual(5);
    const last = await view(id);
    expect(BigInt(last.platformGas.usedToday)).toBeLessThanOrEqual(4_000_000n);
    expect(BigInt(last.platformGas.usedToday)).toBe(await receiptGasOf(id));
  });

  it('manual rounds: one per cooldown, the next answers 429 RATE_LIMITED with Retry-After', async () => {
    const id = await staffed(2, 'Spam Co');
    expect((await signed(t.app, 2, 'POST', `/api/companies/${id}/decisions/run`)).statusCode).toBe(201);
    const again = await signed(t.app, 2, 'POST', `/api/companies/${id}/decisions/run`);
    expect(again.statusCode).toBe(429);
    expect(again.json().error.code).toBe('RATE_LIMITED');
    const retryAfter = Number(again.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(290);
    expect(retryAfter).toBeLessThanOrEqual(300);
    const rounds = await t.database.db.select().from(decisionRounds).where(eq(decisionRounds.companyId, id));
    expect(rounds).toHaveLength(1);
  });

  it('a manual round past the budget answers 429 GAS_BUDGET_EXCEEDED and runs nothing', async () => {
    const id = await staffed(3, 'Tight Co');
    const used = BigInt((await view(id)).platformGas.usedToday);
    // A budget one gas short of what a round's anchoring is estimated at, on top of what the suite used.
    const budget = used + PLATFORM_GAS_ESTIMATES.decisionAnchor - 1n;
    const tight = await startTestApp({
      database: t.database,
      chain: t.chain,
      env: { COMPANY_GAS_BUDGET: String(budget) },
    });
    try {
      const res = await signed(tight.app, 3, 'POST', `/api/companies/${id}/decisions/run`);
      expect(res.statusCode).toBe(429);
      expect(res.json().error.code).toBe('GAS_BUDGET_EXCEEDED');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(await t.database.db.select().from(decisionRounds).where(eq(decisionRounds.companyId, id))).toEqual([]);
    } finally {
      await tight.close();
    }
  });

  it('the rounds of one engine pass are anchored by one transaction, each company charged its share', async () => {
    const ids = [await staffed(4, 'Batch A'), await staffed(5, 'Batch B'), await staffed(6, 'Batch C')];
    const before = await Promise.all(ids.map(async (id) => BigInt((await view(id)).platformGas.usedToday)));
    expect(await runDueRounds(t.container, { intervalS: 3600, concurrency: 3, limit: 50 })).toBeGreaterThanOrEqual(3);
    const rounds = await t.database.db.select().from(decisionRounds).where(sql`${decisionRounds.companyId} in ${ids}`);
    expect(rounds).toHaveLength(3);
    const txs = new Set(rounds.map((r) => r.anchorTxHash));
    expect(txs.size).toBe(1);
    expect([...txs][0]).toMatch(/^0x[0-9a-f]{64}$/);
    const after = await Promise.all(ids.map(async (id) => BigInt((await view(id)).platformGas.usedToday)));
    const shares = after.map((a, i) => a - before[i]!);
    for (const share of shares) expect(share).toBeGreaterThan(0n);
    expect(Math.max(...shares.map(Number)) - Math.min(...shares.map(Number))).toBeLessThanOrEqual(1);
  });
});
