// What the models of a round are told, and what it costs in input tokens (docs/benchmarks.md "Tokens a round"). One
// round of a staffed SPOT_TRADING company whose CFO holds USDC and whose token trades, against the fake provider:
// the input of each request (the messages, the tools' schemas, the answer's schema) is counted in characters and
// in estimated tokens (characters / 4), and the round's total is held at least 40% under the figure measured
// before the prompts were cut (15,500). Each role hears its description and only its tools (the CRO alone the veto,
// the CFO alone, whose wallet holds USDC, the trading tools and the market); every agent hears the date, the
// owner's directive, the limits with what is left today, and the last rounds' outcomes: a refusal's reason reaches
// every prompt of the next round.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies } from '../../../src/db/schema/companies.ts';
import type { EngineDeps } from '../../../src/domain/engine/context.ts';
import { createOpenAiCompatibleProvider } from '../../../src/domain/engine/models/openai.ts';
import { runRound, startRound } from '../../../src/domain/engine/pipeline.ts';
import { useTestApp } from '../../helpers/app.ts';
import { staffedCompany } from '../../helpers/companies.ts';
import {
  type FakeLlm,
  type FakeLlmRequest,
  llmReply,
  phaseOf,
  roleOf,
  roundResponder,
  startFakeLlm,
  systemText,
} from '../../helpers/fake-llm.ts';
import { tokenTrading } from '../../helpers/trading.ts';

/** Estimated input tokens of this round before the prompts were cut (docs/benchmarks.md). */
const TOKENS_BEFORE = 15_500;

// COMPANY_CUSTODY=none: this file is about the path where a company's agents act from their own wallets.
const t = useTestApp({
  env: { COMPANY_CUSTODY: 'none', MANUAL_ROUND_COOLDOWN_S: '0', COMPANY_GAS_BUDGET: '1000000000000' },
});
let fake: FakeLlm;
let co: Awaited<ReturnType<typeof staffedCompany>>;
const engine = (): EngineDeps => ({
  ...t.container,
  models: createOpenAiCompatibleProvider({ gateway: { baseUrl: fake.url }, timeoutMs: 5_000, maxRetries: 0 }),
});
const run = async () => {
  fake.requests.length = 0;
  const deps = engine();
  const done = await runRound(deps, await startRound(deps, co.id, 'MANUAL'));
  expect(done.status, done.error ?? '').toBe('COMPLETE');
  return done;
};

/** The input a request sends a model: its messages, its tools and its answer's schema. */
function inputChars(request: FakeLlmRequest): number {
  const body = request.body ?? {};
  // A system message sent with a cache breakpoint is a list of parts: count its text.
  const text = (content: unknown) =>
    Array.isArray(content)
      ? content.map((part: { text?: unknown }) => String(part?.text ?? '')).join('')
      : String(content);
  const messages = (body.messages ?? []).reduce((n: number, m: { content: unknown }) => n + text(m.content).length, 0);
  const tools = body.tools ? JSON.stringify(body.tools).length : 0;
  const schema = body.response_format ? JSON.stringify(body.response_format).length : 0;
  return messages + tools + schema;
}
const toolsOf = (r: FakeLlmRequest): string[] =>
  (r.body.tools ?? []).map((x: { function: { name: string } }) => x.function.name);
const situationOf = (r: FakeLlmRequest) => JSON.parse(r.body.messages[1].content).situation;
const rolesAsked = () => fake.requests.filter((r) => phaseOf(r) === 'role');
const ask = (role: string) => rolesAsked().find((r) => roleOf(r) === role)!;

beforeAll(async () => {
  co = await staffedCompany(t, 1, { name: 'Prompt Co', category: 'SPOT_TRADING' });
  const trading = tokenTrading(t);
  const token = await trading.launch(co.id, 'PRMT', 1);
  await trading.buy(2, token, 20_000_000n);
  await trading.index();
  await trading.fund(1, co.cfo.address, 100_000_000n);
  fake = await startFakeLlm();
  fake.setDefault(roundResponder());
});
afterAll(() => fake?.close());

describe('the input of a round', () => {
  it('is at least 40% smaller than before, counted request by request', async () => {
    await run();
    const rows = fake.requests.map((r) => ({
      phase: phaseOf(r),
      role: roleOf(r) ?? '',
      tokens: Math.ceil(inputChars(r) / 4),
    }));
    const total = rows.reduce((n, r) => n + r.tokens, 0);
    console.log(JSON.stringify({ requests: rows.length, total, rows }));
    expect(rows).toHaveLength(11);
    expect(total).toBeLessThanOrEqual(TOKENS_BEFORE * 0.6);
  });
});

describe('what each role is told', () => {
  it('gives the veto to the CRO only, and the trading tools and the market to the wallet that holds USDC', async () => {
    await run();
    expect(rolesAsked()).toHaveLength(7);
    expect(toolsOf(ask('CRO'))).toContain('veto_action');
    expect(toolsOf(ask('CFO'))).toEqual(expect.arrayContaining(['buy_token', 'read_treasury_balance']));
    // The CFO holds USDC and no token: nothing to sell, stake or harvest.
    expect(toolsOf(ask('CFO'))).not.toContain('sell_token');
    expect(situationOf(ask('CFO')).wallet).toMatchObject({ usdc: expect.stringMatching(/^100(\.0+)?$/) });
    expect(situationOf(ask('CFO')).tradableTokens.map((m: { symbol: string }) => m.symbol)).toContain('PRMT');
    for (const role of ['CTO', 'CMO', 'COO', 'CSO', 'CISO', 'CRO']) {
      const request = ask(role);
      expect(toolsOf(request), role).not.toContain('buy_token');
      if (role !== 'CRO') expect(toolsOf(request), role).not.toContain('veto_action');
      expect(situationOf(request).tradableTokens, role).toBeUndefined();
      expect(situationOf(request).wallet, role).toBeUndefined();
      // Each role's system prompt says what the role is for and names its tools with their costs.
      expect(systemText(request), role).toMatch(new RegExp(`^You are the ${role} of .* in charge of `));
    }
    // No schema goes to a role that may not use it: 14 tools' schemas were sent to each of seven roles before.
    expect(rolesAsked().reduce((n, r) => n + toolsOf(r).length, 0)).toBeLessThanOrEqual(20);
  });

  it("tells every agent the chain's date, the owner's directive and the limits with what is left today", async () => {
    await t.database.db
      .update(companies)
      .set({ autonomyLevel: 'STRATEGY_AUTONOMOUS', masterDirective: 'Grow PRMT volume without selling the treasury.' })
      .where(eq(companies.id, co.id));
    try {
      await run();
      const synthesis = fake.requests.find((r) => phaseOf(r) === 'synthesis')!;
      for (const request of [...rolesAsked(), synthesis]) {
        const told = situationOf(request);
        expect(told.date).toMatch(/^\d{4}-\d{2}-\d{2}T/);
        expect(told.ownerDirective).toEqual({
          directive: 'Grow PRMT volume without selling the treasury.',
          binding: expect.stringMatching(/strategy/),
        });
        expect(told.limits).toMatch(
          /trade at most 1000 USDC a day; [\d.]+ used today \(\d{4}-\d{2}-\d{2}\), [\d.]+ left/,
        );
        expect(told.limits).toMatch(/more gas for the company today/);
        expect(told.limits).toMatch(/sales realised -?[\d.]+ USDC/);
      }
      // The CEO decides with every wallet, the tokens and the action tools, each with the roles that may use it.
      const ceo = situationOf(synthesis);
      expect(ceo.wallets.find((w: { role: string }) => w.role === 'CFO')).toMatchObject({ usdc: expect.any(String) });
      expect(ceo.tradableTokens.map((m: { symbol: string }) => m.symbol)).toContain('PRMT');
      expect(ceo.tools).toContainEqual(expect.objectContaining({ tool: 'buy_token', roles: ['CFO'] }));
      expect(ceo.tools).toContainEqual(expect.objectContaining({ tool: 'publish_update', roles: ['CMO'] }));
      expect(systemText(synthesis)).toContain('"Grow PRMT volume without selling the treasury."');
    } finally {
      await t.database.db
        .update(companies)
        .set({ autonomyLevel: 'FULLY_AUTONOMOUS', masterDirective: null })
        .where(eq(companies.id, co.id));
    }
  });
});

describe('the last rounds', () => {
  it("bring a refused action's reason into every prompt of the next round", async () => {
    const reason = 'PRMT curve too thin today (check 7f3)';
    fake.setDefault(
      roundResponder({
        overrides: {
          role: (r) =>
            roleOf(r) === 'CRO'
              ? llmReply.toolCalls([{ name: 'veto_action', args: { tool: 'buy_token', token: 'PRMT', reason } }])
              : llmReply.ok('{"proposals":[]}'),
          extraction: () =>
            llmReply.ok(
              JSON.stringify({
                directive: 'Buy a little PRMT.',
                actions: [{ role: 'CFO', tool: 'buy_token', args: { token: 'PRMT', usdc: '1' }, rationale: 'entry' }],
              }),
            ),
        },
      }),
    );
    const vetoed = await run();
    expect(vetoed.actionsExecuted).toEqual([`CFO buy_token: refused: vetoed by the CRO (${reason})`]);
    fake.setDefault(roundResponder());
    const next = await run();
    const asked = fake.requests.filter((r) => phaseOf(r) !== 'scrape' && phaseOf(r) !== 'extraction');
    expect(asked.map(phaseOf)).toEqual(['brief', ...Array(7).fill('role'), 'synthesis']);
    for (const request of asked) {
      const told = phaseOf(request) === 'brief' ? JSON.parse(request.body.messages[1].content) : situationOf(request);
      expect(told.lastRounds[0], `${phaseOf(request)} ${roleOf(request) ?? ''}`).toMatchObject({
        cycle: vetoed.cycle,
        status: 'COMPLETE',
        directive: 'Buy a little PRMT.',
        outcomes: [`CFO buy_token: refused: vetoed by the CRO (${reason})`],
      });
    }
    expect(next.cycle).toBe(vetoed.cycle + 1);
    // With a past the rounds carry, the round stays under the goal too.
    const total = fake.requests.reduce((n, r) => n + Math.ceil(inputChars(r) / 4), 0);
    console.log(JSON.stringify({ withHistory: total }));
    expect(total).toBeLessThanOrEqual(TOKENS_BEFORE * 0.6);
  });
});
