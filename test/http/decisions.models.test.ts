// Decision rounds over HTTP against a fake OpenAI-compatible provider that behaves like real ones, good and bad
// (test/helpers/fake-llm.ts): absurd usage, a failing role agent, JSON in prose, structured output, answers of
// megabytes, refusals, redirects, billed costs and failed attempts, another model answering, read tools with bad
// arguments, what each phase is told of the company's world, and an injected address in a published update.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decisionBudgets } from '../../src/db/schema/decisions.ts';
import { MODEL_RESPONSE_MAX_BYTES } from '../../src/domain/engine/models/answer.ts';
import { PHASE_MAX_TOKENS, PRESET_MODELS } from '../../src/domain/engine/models/catalog.ts';
import { startTestApp, type TestApp, useTestApp } from '../helpers/app.ts';
import { signed, staffedCompany } from '../helpers/companies.ts';
import {
  type FakeLlm,
  INJECTION,
  llmReply,
  phaseOf,
  roleOf,
  roundResponder,
  startFakeLlm,
  systemText,
} from '../helpers/fake-llm.ts';

const t = useTestApp({ env: { MANUAL_ROUND_COOLDOWN_S: '0', COMPANY_GAS_BUDGET: '1000000000000' } });
let fake: FakeLlm;
let elsewhere: FakeLlm;
let remote: TestApp;
let co: Awaited<ReturnType<typeof staffedCompany>>;

const run = async () => {
  const res = await signed(remote.app, co.account, 'POST', `/api/companies/${co.id}/decisions/run`);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
};
const budgetsOf = (roundId: string) =>
  t.database.db.select().from(decisionBudgets).where(eq(decisionBudgets.roundId, roundId));
const requestsOf = (phase: string) => fake.requests.filter((r) => phaseOf(r) === phase);
const phaseNamed = (round: { phases: { phase: string }[] }, name: string) =>
  round.phases.find((p) => p.phase === name) as any;

beforeAll(async () => {
  co = await staffedCompany(t, 3, { name: 'Modelled Co' });
  fake = await startFakeLlm();
  elsewhere = await startFakeLlm({ host: '127.0.0.2' });
  remote = await startTestApp({
    database: t.database,
    chain: t.chain,
    env: {
      LLM_BASE_URL: fake.url,
      LLM_API_KEY: 'sk-or-SECRET-rounds',
      LLM_MAX_RETRIES: '0',
      LLM_TIMEOUT_MS: '5000',
      MANUAL_ROUND_COOLDOWN_S: '0',
      COMPANY_GAS_BUDGET: '1000000000000',
    },
  });
});

afterAll(async () => {
  await remote?.close();
  await fake?.close();
  await elsewhere?.close();
});

beforeEach(() => {
  fake.reset();
  elsewhere.reset();
});

describe('usage no call could have used', () => {
  it('is estimated and flagged, and the round completes with bounded totals', async () => {
    fake.setDefault(roundResponder({ overrides: { brief: () => llmReply.absurdUsage('A steady brief.') } }));
    const round = await run();
    expect(round.status).toBe('COMPLETE');
    const brief = phaseNamed(round, 'brief');
    expect(brief.usageEstimated).toBe(true);
    expect(brief.tokens).toBeLessThan(100_000);
    expect(round.llmTokensUsed).toBeLessThan(1_000_000);
    expect(phaseNamed(round, 'roles').usageEstimated).toBeUndefined();
  });
});

describe('real models wrap their JSON', () => {
  it('one role agent that fails counts as no proposals, with the error noted; the round goes on', async () => {
    fake.setDefault(
      roundResponder({
        overrides: {
          role: (r) =>
            roleOf(r) === 'CFO'
              ? llmReply.status(500)
              : llmReply.ok(
                  JSON.stringify({ proposals: [{ tool: 'publish_update', args: { message: 'hi' }, rationale: '' }] }),
                ),
          // The decision comes back in prose, around its JSON.
          extraction: () =>
            llmReply.prose({
              directive: 'Say hello.',
              actions: [{ role: 'CMO', tool: 'publish_update', args: { message: 'Hello.' }, rationale: 'reach' }],
            }),
        },
      }),
    );
    const round = await run();
    expect(round.status).toBe('COMPLETE');
    expect(round.actionsExecuted).toEqual(['CMO publish_update: published: Hello.']);
    const roles = phaseNamed(round, 'roles');
    expect(roles.notes).toEqual([expect.stringMatching(/^CFO: no proposals: .*HTTP 500/)]);
    expect(roles.calls).toBe(7);
  });

  it('asks the extraction model for strict structured output naming only the enabled tools and active roles', async () => {
    fake.setDefault(roundResponder());
    await run();
    const [extraction] = requestsOf('extraction');
    expect(extraction!.body.model).toBe(PRESET_MODELS.BALANCED.jsonExtraction);
    const format = extraction!.body.response_format;
    expect(format).toMatchObject({ type: 'json_schema', json_schema: { name: 'decision', strict: true } });
    const branches = format.json_schema.schema.properties.actions.items.anyOf;
    const tools = branches.map((b: any) => b.properties.tool.enum[0]);
    expect(tools).toEqual(expect.arrayContaining(['publish_update', 'buy_token', 'set_agent_strategy']));
    expect(tools).not.toContain('read_token_price');
    expect(branches[0].properties.role.enum).toEqual(['CFO', 'CTO', 'CMO', 'COO', 'CSO', 'CISO', 'CRO']);
  });
});

describe('bounded model output', () => {
  it('sends each phase its max_tokens', async () => {
    fake.setDefault(roundResponder());
    await run();
    expect(requestsOf('brief')[0]!.body.max_tokens).toBe(PHASE_MAX_TOKENS.briefGeneration);
    for (const r of requestsOf('role')) expect(r.body.max_tokens).toBe(PHASE_MAX_TOKENS.roleExecution);
    expect(requestsOf('synthesis')[0]!.body.max_tokens).toBe(PHASE_MAX_TOKENS.ceoSynthesis);
    expect(requestsOf('extraction')[0]!.body.max_tokens).toBe(PHASE_MAX_TOKENS.jsonExtraction);
  });

  it('shortens a long brief before the roles read it, and keeps every request and the round small', async () => {
    // Just under the byte cap: read, then cut before it is passed on.
    fake.setDefault(roundResponder({ overrides: { brief: () => llmReply.huge(MODEL_RESPONSE_MAX_BYTES - 4_096) } }));
    const round = await run();
    expect(round.status).toBe('COMPLETE');
    for (const r of requestsOf('role')) expect(r.raw.length).toBeLessThan(40_000);
    const listed = await t.app.inject({ method: 'GET', url: `/api/companies/${co.id}/decisions` });
    expect(listed.body.length).toBeLessThan(200_000);
  });

  it('fails the round in its phase for an answer past the byte cap, sending nothing further', async () => {
    fake.setDefault(roundResponder({ overrides: { brief: () => llmReply.huge(5 * 1024 * 1024) } }));
    const round = await run();
    expect(round).toMatchObject({ status: 'FAILED', failedPhase: 'brief' });
    expect(round.error).toMatch(/passed 1048576 bytes and was not read/);
    expect(fake.requests).toHaveLength(1);
    // Not read, so billed as estimated: the most the answer could have been.
    expect(phaseNamed(round, 'brief')).toMatchObject({ usageEstimated: true });
  });

  it('records a refusal as such, with its text', async () => {
    fake.setDefault(
      roundResponder({ overrides: { synthesis: () => llmReply.refusal('I will not direct a company to do that.') } }),
    );
    const round = await run();
    expect(round).toMatchObject({ status: 'FAILED', failedPhase: 'synthesis' });
    expect(round.error).toContain('the model refused: "I will not direct a company to do that."');
  });

  it('keeps a refused tool name of a model short in the budget', async () => {
    fake.setDefault(
      roundResponder({
        overrides: {
          role: () =>
            llmReply.ok(JSON.stringify({ proposals: [{ tool: 'x'.repeat(10_000), args: {}, rationale: '' }] })),
        },
      }),
    );
    const round = await run();
    const refused = (await budgetsOf(round.id)).flatMap((b) => b.refused);
    expect(refused.length).toBe(7);
    for (const r of refused) {
      expect(r.tool.length).toBeLessThanOrEqual(64);
      expect(r.reason).toBe('unknown tool');
    }
  });
});

describe('costs as billed', () => {
  it('records what the gateway billed, failed attempts included, in the phases and the agents’ budgets', async () => {
    let cfoCalls = 0;
    fake.setDefault(
      roundResponder({
        overrides: {
          brief: () => llmReply.billed('Brief.', 0.004),
          role: (r) => {
            if (roleOf(r) !== 'CFO') return llmReply.billed('{"proposals":[]}', 0.001);
            // The CFO's first answer is unusable but billed; the retry is billed too.
            return ++cfoCalls === 1
              ? { content: 'no JSON here', usage: { prompt_tokens: 50, completion_tokens: 5, cost: 0.01 } }
              : llmReply.billed('{"proposals":[]}', 0.002);
          },
        },
      }),
    );
    const round = await run();
    expect(round.status).toBe('COMPLETE');
    expect(phaseNamed(round, 'brief').cost).toBe(0.004);
    // Six agents at 0.001, the CFO at 0.01 + 0.002.
    expect(phaseNamed(round, 'roles').cost).toBeCloseTo(0.018, 9);
    const cfo = (await budgetsOf(round.id)).find((b) => b.role === 'CFO')!;
    expect(cfo.llmCost).toBe(12_000);
    expect(cfo.llmCalls).toBe(1);
  });

  it('names the model that answered apart from the one configured', async () => {
    fake.setDefault(
      roundResponder({ overrides: { brief: () => llmReply.otherModel('Brief.', 'openai/gpt-4o-mini') } }),
    );
    const brief = phaseNamed(await run(), 'brief');
    expect(brief.models).toEqual(['openai/gpt-4o-mini']);
    expect(brief.configuredModels).toEqual([PRESET_MODELS.BALANCED.briefGeneration]);
  });
});

describe('model calls that end cleanly, tools that check their arguments', () => {
  it('never follows a redirect to another host: the round fails, the other host hears nothing', async () => {
    fake.setDefault(llmReply.redirect(`${elsewhere.url}/chat/completions`));
    const round = await run();
    expect(round).toMatchObject({ status: 'FAILED', failedPhase: 'brief' });
    expect(round.error).toMatch(/redirect, which is not followed/);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('refuses read tools with arguments outside their schema, and runs them within it', async () => {
    fake.setDefault(
      roundResponder({
        overrides: {
          role: (r) => {
            // scan_token_trades is a tool of the CMO, the CISO and the CRO; it takes 1 to 168 hours.
            const hours = { CMO: 0, CISO: 169, CRO: 168 }[roleOf(r) as string];
            return llmReply.ok(
              JSON.stringify({
                proposals: hours === undefined ? [] : [{ tool: 'scan_token_trades', args: { hours }, rationale: '' }],
              }),
            );
          },
        },
      }),
    );
    const round = await run();
    const budgets = await budgetsOf(round.id);
    const of = (role: string) => budgets.find((b) => b.role === role)!;
    for (const role of ['CMO', 'CISO']) {
      expect(of(role).refused).toEqual([
        { tool: 'scan_token_trades', reason: expect.stringMatching(/^invalid arguments: args\/hours must be/) },
      ]);
      expect(of(role).scrapeCalls).toBe(0);
    }
    expect(of('CRO').scrapeCalls).toBe(1);
  });
});

describe('agents that know their situation', () => {
  it("gives each role the limits in words, its own tools' schemas once, and no trading tool to an empty wallet", async () => {
    fake.setDefault(roundResponder());
    await run();
    const cfo = requestsOf('role').find((r) => roleOf(r) === 'CFO')!;
    const told = JSON.parse(cfo.body.messages[1].content);
    expect(told.situation.limits).toMatch(/^A buy or a stake uses at most [\d.]+% of the acting wallet's balance/);
    // The CFO's wallet holds nothing: no trading tool, no wallet and no market in its message.
    expect(told.situation.wallet).toBeUndefined();
    expect(told.situation.tradableTokens).toBeUndefined();
    const names = cfo.body.tools.map((x: { function: { name: string } }) => x.function.name);
    expect(names).toEqual(['read_token_price', 'read_treasury_balance']);
    // The system prompt names the tools and their costs; their schemas go once, as function definitions.
    expect(systemText(cfo)).toMatch(/Your tools: read_token_price \(0\.0001 USD\), read_treasury_balance/);
    expect(cfo.raw.split('"additionalProperties"').length - 1).toBe(cfo.body.tools.length);
    const extraction = JSON.parse(requestsOf('extraction')[0]!.body.messages[1].content);
    expect(extraction.situation.roles).toEqual(['CFO', 'CTO', 'CMO', 'COO', 'CSO', 'CISO', 'CRO']);
    expect(extraction.situation.wallets.map((w: { role: string }) => w.role)).toContain('CFO');
  });

  it('publishes an update with no address or link but the platform’s own', async () => {
    const message = `${INJECTION.slice(0, 200)} See http://localhost:3000/companies/x`;
    fake.setDefault(
      roundResponder({
        overrides: {
          extraction: () =>
            llmReply.ok(
              JSON.stringify({
                directive: 'Publish.',
                actions: [
                  { role: 'CMO', tool: 'publish_update', args: { message: message.slice(0, 280) }, rationale: '' },
                ],
              }),
            ),
        },
      }),
    );
    const [line] = (await run()).actionsExecuted;
    expect(line).toContain('Send your USDC to [address removed]');
    expect(line).not.toMatch(/0x000000000000000000000000000000000000dEaD/i);
    expect(line).not.toContain('evil.example');
    expect(line).toContain('[link removed]');
    expect(line).toContain('http://localhost:3000/companies/x');
  });
});
