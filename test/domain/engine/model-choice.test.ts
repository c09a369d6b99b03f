// Any model the configured provider serves (docs/api/decisions.md "Configuring the models"): a company may choose
// any model id its provider's `/models` list names (the fake provider serves one), is refused one the list does not
// name or no endpoint serves (400 VALIDATION_ERROR), and an endpoint without a list is taken at its word. A round
// then calls the chosen model, priced from the operator's table, or with its cost recorded as unknown.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAiCompatibleProvider } from '../../../src/domain/engine/models/openai.ts';
import { startTestApp, type TestApp, useTestApp } from '../../helpers/app.ts';
import { signed, staffedCompany } from '../../helpers/companies.ts';
import { type FakeLlm, phaseOf, roundResponder, startFakeLlm } from '../../helpers/fake-llm.ts';

const t = useTestApp();
let fake: FakeLlm;
let remote: TestApp;
let priced: TestApp;
let co: Awaited<ReturnType<typeof staffedCompany>>;
const LOCAL = 'local/qwen3-32b';
const env = { LLM_MAX_RETRIES: '0', MANUAL_ROUND_COOLDOWN_S: '0' };

beforeAll(async () => {
  fake = await startFakeLlm();
  fake.setDefault(roundResponder({ usage: { prompt_tokens: 1_000, completion_tokens: 100 } }));
  remote = await startTestApp({ database: t.database, chain: t.chain, env: { ...env, LLM_BASE_URL: fake.url } });
  priced = await startTestApp({
    database: t.database,
    chain: t.chain,
    env: { ...env, LLM_BASE_URL: fake.url, LLM_PRICES: `{"${LOCAL}": {"input": 1, "output": 2}}` },
  });
  co = await staffedCompany(t, 1, { name: 'Chooser Co' });
});
afterAll(async () => {
  await remote?.close();
  await priced?.close();
  await fake?.close();
});

const choose = (app: TestApp['app'], model: string) =>
  signed(app, co.account, 'PATCH', `/api/companies/${co.id}`, { engineConfig: { briefGeneration: model } });
const runRound = async (app: TestApp['app']) => {
  const res = await signed(app, co.account, 'POST', `/api/companies/${co.id}/decisions/run`);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
};

describe("the provider's model list", () => {
  it('says which models are served, and takes an endpoint without a list at its word', async () => {
    fake.setModels(['openai/gpt-5-mini', LOCAL]);
    const provider = createOpenAiCompatibleProvider({ gateway: { baseUrl: fake.url }, timeoutMs: 5_000 });
    expect(await provider.serves!(LOCAL)).toEqual({ served: true, listed: true });
    expect(await provider.serves!('openai/gpt-5')).toMatchObject({
      served: false,
      listed: true,
      reason: 'the gateway does not list openai/gpt-5 among its models',
    });
    // The list is read once and kept.
    const reads = fake.modelListReads;
    await provider.serves!('openai/gpt-5-mini');
    expect(fake.modelListReads).toBe(reads);
    fake.setModels(null);
    const unlisted = createOpenAiCompatibleProvider({ gateway: { baseUrl: fake.url }, timeoutMs: 5_000 });
    expect(await unlisted.serves!('anything/at-all')).toEqual({ served: true, listed: false });
    // A provider endpoint of its own is asked for the name after the `/`.
    fake.setModels(['gpt-5']);
    const own = createOpenAiCompatibleProvider({ endpoints: { openai: { baseUrl: fake.url } }, timeoutMs: 5_000 });
    expect(await own.serves!('openai/gpt-5')).toEqual({ served: true, listed: true });
    expect(await own.serves!('local/x')).toMatchObject({ served: false, reason: /no endpoint serves local models/ });
  });
});

describe("a company's choice of model", () => {
  it('takes any model the list names, and refuses one it does not name, a malformed id, or a model without endpoint', async () => {
    fake.setModels([...['openai/gpt-5-mini', 'google/gemini-2.5-flash'], LOCAL, `a/${'m'.repeat(126)}`]);
    const taken = await choose(remote.app, LOCAL);
    expect(taken.statusCode, taken.body).toBe(200);
    expect(taken.json().data.engineConfig).toEqual({ briefGeneration: LOCAL });
    // 128 characters: the longest id; 129 is refused by the schema.
    expect((await choose(remote.app, `a/${'m'.repeat(126)}`)).statusCode).toBe(200);
    expect((await choose(remote.app, `a/${'m'.repeat(127)}`)).statusCode).toBe(400);
    for (const bad of ['has space', '/leading-slash', '']) expect((await choose(remote.app, bad)).statusCode).toBe(400);
    const unlisted = await choose(remote.app, 'openai/gpt-5');
    expect(unlisted.statusCode).toBe(400);
    expect(unlisted.json().error).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringMatching(
        /openai\/gpt-5 is not served by the configured provider: the gateway does not list/,
      ),
    });
    // With no endpoint at all, the built-in model answers the eight known ids only.
    expect((await choose(t.app, 'openai/gpt-5')).statusCode).toBe(200);
    const builtin = await choose(t.app, LOCAL);
    expect(builtin.statusCode).toBe(400);
    expect(builtin.json().error.message).toMatch(/no LLM endpoint is configured/);
  });

  it("is what the round calls, priced by the operator's table or recorded with an unknown cost", async () => {
    fake.setModels(null);
    expect((await choose(remote.app, LOCAL)).statusCode).toBe(200);
    fake.requests.length = 0;
    const unknown = await runRound(remote.app);
    expect(unknown.status, unknown.error ?? '').toBe('COMPLETE');
    const brief = fake.requests.find((r) => phaseOf(r) === 'brief')!;
    expect(brief.body.model).toBe(LOCAL);
    const phase = (round: { phases: { phase: string; cost: number; costUnknown?: boolean }[] }) =>
      round.phases.find((p) => p.phase === 'brief')!;
    expect(phase(unknown)).toMatchObject({ cost: 0, costUnknown: true });
    // Priced by LLM_PRICES: 1,000 prompt tokens at 1 USD and 100 completion tokens at 2 USD per 1M.
    const known = await runRound(priced.app);
    expect(phase(known).costUnknown).toBeUndefined();
    expect(phase(known).cost).toBeCloseTo(0.0012, 9);
  });
});
