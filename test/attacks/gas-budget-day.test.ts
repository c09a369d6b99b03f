// The daily gas budget follows the chain's clock, not the server's (docs/decisions.md "Costs the platform pays"): with
// the server's clock held still, moving the chain's clock past its midnight gives a company that used up its budget
// a new day, the transactions sent then are booked to the chain's new day, and Retry-After counts down to the
// chain's midnight. Before, the server's day was counted (and a transaction's row's creation time booked it), so
// agents of the local demo, whose chain runs days ahead, were refused GAS_BUDGET_EXCEEDED for good.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { chainTime } from '../../src/chain/time.ts';
import { companyGasDays } from '../../src/db/schema/chain.ts';
import { dayOf, PLATFORM_GAS_ESTIMATES } from '../../src/domain/costs/gas-budget.ts';
import { startTestApp, useTestApp } from '../helpers/app.ts';
import { anvilTestClient } from '../helpers/chain.ts';
import { companyBody, mintCard, signed } from '../helpers/companies.ts';

/** The server's clock, held still for the whole file. */
const SERVER_NOW = Date.now();
const t = useTestApp({ now: () => SERVER_NOW });

const chainMs = async () => Number(await chainTime(t.chain.chain.publicClient)) * 1000;

async function gasRow(companyId: string, day: string) {
  const [row] = await t.database.db
    .select()
    .from(companyGasDays)
    .where(and(eq(companyGasDays.companyId, companyId), eq(companyGasDays.day, day)));
  return row;
}

describe("the gas budget's day is the chain's", () => {
  it('a company out of budget spends again once the chain (not the server) enters a new day, booked to that day', async () => {
    await mintCard(t.chain, 1);
    const id = (await signed(t.app, 1, 'POST', '/api/companies', companyBody({ name: 'Chain Day Co' }))).json().data
      .id as string;
    expect((await signed(t.app, 1, 'POST', `/api/companies/${id}/deploy-suite`)).statusCode).toBe(200);
    const firstDay = dayOf(await chainMs());
    const used = (await gasRow(id, firstDay))?.gasUsed ?? 0n;
    expect(used).toBeGreaterThan(1_000_000n); // the card lock and the suite's identities, booked to the chain's day

    // A budget one gas short of a manual round's anchoring on top of what the suite used.
    const tight = await startTestApp({
      database: t.database,
      chain: t.chain,
      now: () => SERVER_NOW,
      env: { COMPANY_GAS_BUDGET: String(used + PLATFORM_GAS_ESTIMATES.decisionAnchor - 1n) },
    });
    try {
      const refused = await signed(tight.app, 1, 'POST', `/api/companies/${id}/decisions/run`);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error.code).toBe('GAS_BUDGET_EXCEEDED');
      const now = await chainMs();
      const untilChainMidnight = Math.ceil((Math.floor(now / 86_400_000 + 1) * 86_400_000 - now) / 1000);
      expect(Math.abs(Number(refused.headers['retry-after']) - untilChainMidnight)).toBeLessThanOrEqual(5);

      // The chain's clock moves past its next midnight; the server's stays where it was.
      const testClient = anvilTestClient(t.chain.node.rpcUrl, t.chain.chain.viemChain);
      await testClient.increaseTime({ seconds: 86_400 });
      await testClient.mine({ blocks: 1 });
      const secondDay = dayOf(await chainMs());
      expect(secondDay).not.toBe(firstDay);
      expect(dayOf(SERVER_NOW)).toBe(firstDay);

      const view = (await tight.app.inject({ method: 'GET', url: `/api/companies/${id}` })).json().data;
      expect(view.platformGas).toMatchObject({ day: secondDay, usedToday: '0' });

      const ran = await signed(tight.app, 1, 'POST', `/api/companies/${id}/decisions/run`);
      expect(ran.statusCode, ran.body).toBe(201);
      // The round's anchoring was mined in the chain's new day and is booked there; the first day keeps its count.
      const booked = await gasRow(id, secondDay);
      expect(booked?.gasUsed ?? 0n).toBeGreaterThan(0n);
      expect(booked?.transactions).toBe(1);
      expect((await gasRow(id, firstDay))?.gasUsed).toBe(used);
      const after = (await tight.app.inject({ method: 'GET', url: `/api/companies/${id}` })).json().data;
      expect(after.platformGas).toMatchObject({ day: secondDay, usedToday: booked!.gasUsed.toString() });
    } finally {
      await tight.close();
    }
  });
});
