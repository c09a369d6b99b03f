// Daily model-spend caps (docs/api/decisions.md "Spending caps"): the creator sets the company's cap by a signed PATCH
// /engine within the platform's maximum (bounds just inside and just outside); a round starts only when its
// reservation still fits under the company's and the platform's cap for the chain's day, else it makes no model
// call and records why (a manual run answers 429 MODEL_SPEND_CAP_REACHED); the brief, scrape, synthesis and
// extraction phases have budgets of their own. Costs come from the fake provider's `usage.cost`.
import { and, eq, gte, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY_MODEL_SPEND_CAP_MAX_MICRO_USD } from '../../../src/constants.ts';
import { rowsOf } from '../../../src/db/client.ts';
import { agents } from '../../../src/db/schema/agents.ts';
import { decisionRounds } from '../../../src/db/schema/decisions.ts';
import { dayOf } from '../../../src/domain/costs/gas-budget.ts';
import { roundReservation, usdText } from '../../../src/domain/costs/model-spend.ts';
import { allocationFor } from '../../../src/domain/engine/budget.ts';
import type { EngineDeps } from '../../../src/domain/engine/context.ts';
import { createOpenAiCompatibleProvider } from '../../../src/domain/engine/models/openai.ts';
import { runRound, startRound } from '../../../src/domain/engine/pipeline.ts';
import { useTestApp } from '../../helpers/app.ts';
import { signed, staffedCompany } from '../../helpers/companies.ts';
import { type FakeLlm, llmReply, phaseOf, roundResponder, startFakeLlm } from '../../helpers/fake-llm.ts';

const t = useTestApp({ env: { MANUAL_ROUND_COOLDOWN_S: '0', COMPANY_GAS_BUDGET: '1000000000000' } });
let fake: FakeLlm;
let co: { id: string; account: number };
let reservation: bigint;
/** Each answer bills 0.01 USD (10,000 micro-USD), as OpenRouter reports it. */
const BILLED = { prompt_tokens: 100, completion_tokens: 50, cost: 0.01 };
const engine = (platformCap = 0n): EngineDeps => ({
  ...t.container,
  config: { ...t.container.config, platformModelSpendCap: platformCap },
  models: createOpenAiCompatibleProvider({ gateway: { baseUrl: fake.url }, timeoutMs: 5_000, maxRetries: 0 }),
});
const reset = () => {
  fake.reset();
  fake.setDefault(roundResponder({ usage: BILLED }));
};
const setCap = (cap: string | null, signer = co.account) =>
  signed(t.app, signer, 'PATCH', `/api/companies/${co.id}/engine`, { dailyModelSpendCap: cap });
const run = async (platformCap?: bigint) => {
  const deps = engine(platformCap);
  return runRound(deps, await startRound(deps, co.id, 'MANUAL'));
};
/** What the company's rounds (or every round) spent on the chain's day of its last round. */
async function spentToday(companyId?: string) {
  const [last] = await t.database.db
    .select({ at: decisionRounds.createdAt })
    .from(decisionRounds)
    .orderBy(sql`${decisionRounds.createdAt} desc`)
    .limit(1);
  const start = new Date(`${dayOf(last!.at.getTime())}T00:00:00Z`);
  const [row] = rowsOf<{ s: string | null }>(
    await t.database.db.execute(
      sql`select sum(llm_cost) as s from decision_rounds where ${and(
        gte(decisionRounds.createdAt, start),
        companyId ? eq(decisionRounds.companyId, companyId) : undefined,
      )}`,
    ),
  );
  return BigInt(row?.s ?? 0);
}

beforeAll(async () => {
  co = await staffedCompany(t, 1, { name: 'Capped Co' });
  fake = await startFakeLlm();
  reset();
  const active = await t.database.db
    .select({ id: agents.id })
    .from(agents)
    .where(and(eq(agents.companyId, co.id), eq(agents.status, 'ACTIVE')));
  reservation = roundReservation(allocationFor('BALANCED'), active.length);
});
afterAll(() => fake?.close());

describe("the company's cap, set by its creator", () => {
  it('takes the platform maximum and refuses a cent past it, or a malformed amount', async () => {
    const max = usdText(COMPANY_MODEL_SPEND_CAP_MAX_MICRO_USD);
    const inside = await setCap(max);
    expect(inside.statusCode, inside.body).toBe(200);
    expect(inside.json().data.dailyModelSpendCap).toBe(max);
    const past = await setCap(usdText(COMPANY_MODEL_SPEND_CAP_MAX_MICRO_USD + 1n));
    expect(past.statusCode).toBe(400);
    expect(past.json().error.code).toBe('VALIDATION_ERROR');
    for (const bad of ['-1', '1.0000001', '1e3', '']) expect((await setCap(bad)).statusCode, bad).toBe(400);
    expect((await setCap('0.000001')).json().data.dailyModelSpendCap).toBe('0.000001');
    expect((await setCap(null)).json().data.dailyModelSpendCap).toBe(max);
  });

  it("is the creator's alone", async () => {
    await staffedCompany(t, 2, { name: 'Other Co' });
    const res = await setCap('1', 2);
    expect([401, 403]).toContain(res.statusCode);
  });
});

describe('a round that would pass a cap', () => {
  it('records what the provider billed, then starts only while its reservation fits under the cap', async () => {
    reset();
    const first = await run();
    expect(first.status, first.error ?? '').toBe('COMPLETE');
    expect(first.llmCost).toBe(fake.requests.length * 10_000);
    const spent = await spentToday(co.id);
    expect(spent).toBeGreaterThan(0n);

    // Just inside: what was spent plus the round's reservation is exactly the cap.
    expect((await setCap(usdText(spent + reservation))).statusCode).toBe(200);
    const inside = await run();
    expect(inside.status, inside.error ?? '').toBe('COMPLETE');

    // Just outside: one micro-USD less than spent + reservation.
    const now = await spentToday(co.id);
    expect((await setCap(usdText(now + reservation - 1n))).statusCode).toBe(200);
    reset();
    const refused = await run();
    expect(refused.status).toBe('FAILED');
    expect(refused.phase).toBe('context');
    expect(refused.error).toMatch(/^Not started: .*company's daily model-spend cap/);
    expect(refused.llmCost).toBe(0);
    expect(fake.requests).toHaveLength(0);

    // Visible in the API: the round's record says why.
    const listed = await t.app.inject({ method: 'GET', url: `/api/companies/${co.id}/decisions` });
    expect(JSON.stringify(listed.json())).toContain("company's daily model-spend cap");

    // A manual run is refused before it starts, with when rounds start again.
    const manual = await signed(t.app, co.account, 'POST', `/api/companies/${co.id}/decisions/run`);
    expect(manual.statusCode).toBe(429);
    expect(manual.json().error.code).toBe('MODEL_SPEND_CAP_REACHED');
    expect(Number(manual.headers['retry-after'])).toBeGreaterThan(0);
    await setCap(null);
  });

  it("does not start past the platform's cap, and starts just inside it", async () => {
    reset();
    const all = await spentToday();
    const refused = await run(all + reservation - 1n);
    expect(refused.status).toBe('FAILED');
    expect(refused.error).toMatch(/^Not started: .*platform's daily model-spend cap/);
    expect(fake.requests).toHaveLength(0);
    const inside = await run(all + reservation);
    expect(inside.status, inside.error ?? '').toBe('COMPLETE');
  });
});

describe('the phases outside the roles', () => {
  it('stop calling once their budget is spent: no repair of a bad decision past it', async () => {
    reset();
    const dear = { ...BILLED, cost: Number(allocationFor('BALANCED')) / 1e6 };
    fake.setDefault(
      roundResponder({
        usage: BILLED,
        overrides: {
          extraction: () =>
            llmReply.ok(
              JSON.stringify({ directive: 'x', actions: [{ role: 'NOBODY', tool: 'x', args: {}, rationale: 'r' }] }),
              dear,
            ),
        },
      }),
    );
    const done = await run();
    const extractions = fake.requests.filter((r) => phaseOf(r) === 'extraction').length;
    reset();
    expect(done.status).toBe('FAILED');
    expect(done.phase).toBe('extraction');
    expect(done.error).toMatch(/extraction phase spent its budget of 100000 micro-USD/);
    expect(extractions).toBe(1);
  });
});
