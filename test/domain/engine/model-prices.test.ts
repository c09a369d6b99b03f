// Where the cost of a model call comes from (docs/api/decisions.md "Prices"): what the endpoint says it billed
// (OpenRouter's `usage.cost` in the body, LiteLLM's `x-litellm-response-cost` header), else the operator's price
// table (LLM_PRICES or LLM_PRICES_FILE) over the built-in list prices, else nothing: the cost of a model no table
// knows is recorded as unknown, not invented, and the day's spending caps count a round with such a cost at no less
// than its whole reservation. Each source against the fake provider.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelPrices } from '../../../src/config/endpoints.ts';
import { ConfigError } from '../../../src/config/parse.ts';
import { decisionRounds } from '../../../src/db/schema/decisions.ts';
import { spendToday } from '../../../src/domain/costs/model-spend.ts';
import { createOpenAiCompatibleProvider } from '../../../src/domain/engine/models/openai.ts';
import type { ChatRequest, EngineModelId } from '../../../src/domain/engine/models/types.ts';
import { useTestApp } from '../../helpers/app.ts';
import { staffedCompany } from '../../helpers/companies.ts';
import { type FakeLlm, llmReply, startFakeLlm } from '../../helpers/fake-llm.ts';

const t = useTestApp();
let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm();
});
afterAll(() => fake?.close());

const USAGE = { prompt_tokens: 1_000, completion_tokens: 500 };
const ask = (model: string): ChatRequest => ({
  model: model as EngineModelId,
  messages: [{ role: 'user', content: 'hello' }],
  task: { phase: 'brief' } as never,
  maxTokens: 1_000,
});
const provider = (prices?: Parameters<typeof modelPrices>[0]) =>
  createOpenAiCompatibleProvider({
    gateway: { baseUrl: fake.url },
    timeoutMs: 5_000,
    maxRetries: 0,
    ...(prices && { prices: modelPrices(prices) }),
  });

describe('the price table of the operator', () => {
  it('reads LLM_PRICES in USD per 1M tokens, from 0 to 1000, and LLM_PRICES_FILE', () => {
    expect(modelPrices({})).toEqual({});
    expect(modelPrices({ LLM_PRICES: '{"local/qwen3-32b": {"input": 0, "output": 1000}}' })).toEqual({
      'local/qwen3-32b': { inputMicroUsdPerM: 0, outputMicroUsdPerM: 1_000_000_000 },
    });
    const dir = mkdtempSync(path.join(tmpdir(), 'prices-'));
    const file = path.join(dir, 'prices.json');
    writeFileSync(file, JSON.stringify({ 'openai/gpt-5': { input: 0.5, output: 4.25 } }));
    expect(modelPrices({ LLM_PRICES_FILE: file })).toEqual({
      'openai/gpt-5': { inputMicroUsdPerM: 500_000, outputMicroUsdPerM: 4_250_000 },
    });
  });

  it('refuses a price outside 0-1000, a missing or extra field, a bad id, bad JSON, a missing file, or both', () => {
    for (const LLM_PRICES of [
      '{"a/b": {"input": 1000.000001, "output": 1}}',
      '{"a/b": {"input": -0.000001, "output": 1}}',
      '{"a/b": {"input": 1}}',
      '{"a/b": {"input": 1, "output": 1, "cached": 0.1}}',
      '{"a/b": {"input": "1", "output": 1}}',
      '{"a b": {"input": 1, "output": 1}}',
      '[]',
      'not json',
    ]) {
      expect(() => modelPrices({ LLM_PRICES }), LLM_PRICES).toThrow(ConfigError);
    }
    expect(() => modelPrices({ LLM_PRICES_FILE: '/nonexistent/prices.json' })).toThrow(/cannot read/);
    expect(() => modelPrices({ LLM_PRICES: '{}', LLM_PRICES_FILE: '/x' })).toThrow(/not both/);
  });
});

describe('the cost of a call', () => {
  it("is OpenRouter's usage.cost when the answer carries it", async () => {
    fake.reset();
    fake.reply(llmReply.billed('hi', 0.0042, USAGE));
    const r = await provider().complete(ask('openai/gpt-5'));
    expect(r.cost).toBe(0.0042);
    expect(r.costUnknown).toBeUndefined();
  });

  it("is LiteLLM's x-litellm-response-cost header when it carries one, for any model", async () => {
    fake.reset();
    fake.reply({ content: 'hi', usage: USAGE, headers: { 'x-litellm-response-cost': '0.00125' } });
    const r = await provider().complete(ask('local/qwen3-32b'));
    expect(r.cost).toBe(0.00125);
    expect(r.costUnknown).toBeUndefined();
    // A header that is not a number is no bill.
    fake.reply({ content: 'hi', usage: USAGE, headers: { 'x-litellm-response-cost': 'n/a' } });
    expect((await provider().complete(ask('local/qwen3-32b'))).costUnknown).toBe(true);
  });

  it("is the operator's price when the endpoint says nothing, over the built-in list price", async () => {
    fake.reset();
    fake.setDefault(llmReply.ok('hi', USAGE));
    // GPT-5's list price: 1.25 USD / 10 USD per 1M tokens.
    expect((await provider().complete(ask('openai/gpt-5'))).cost).toBeCloseTo(0.00125 + 0.005, 12);
    // A local model aliased as openai/gpt-5 is priced as the operator says (here: free), not at GPT-5's list price.
    const own = provider({
      LLM_PRICES: '{"openai/gpt-5": {"input": 0, "output": 0}, "local/qwen3-32b": {"input": 0.2, "output": 0.6}}',
    });
    expect((await own.complete(ask('openai/gpt-5'))).cost).toBe(0);
    const local = await own.complete(ask('local/qwen3-32b'));
    expect(local.cost).toBeCloseTo(0.0002 + 0.0003, 12);
    expect(local.costUnknown).toBeUndefined();
  });

  it('is unknown, not invented, for a model no table prices whose endpoint says nothing', async () => {
    fake.reset();
    fake.setDefault(llmReply.ok('hi', USAGE));
    const r = await provider().complete(ask('local/qwen3-32b'));
    expect(r).toMatchObject({ cost: 0, costUnknown: true, promptTokens: 1_000, completionTokens: 500 });
  });
});

describe('the spending caps', () => {
  it('count a finished round whose cost is partly unknown at no less than the reservation', async () => {
    const co = await staffedCompany(t, 1, { name: 'Unpriced Co' });
    const now = Date.now();
    const row = (cycle: number, costUnknown: boolean) => ({
      id: `rnd_unpriced_${cycle}`,
      companyId: co.id,
      cycle,
      status: 'COMPLETE',
      trigger: 'MANUAL',
      llmCost: 1_000,
      createdAt: new Date(now),
      phases: [
        {
          phase: 'brief',
          durationMs: 1,
          tokens: 10,
          cost: 1_000,
          calls: 1,
          models: ['x'],
          ...(costUnknown && { costUnknown }),
        },
      ],
    });
    await t.database.db.insert(decisionRounds).values(row(1, false));
    const reservation = 50_000n;
    expect((await spendToday(t.database.db, now, { companyId: co.id, runningAt: reservation })).spent).toBe(1_000n);
    await t.database.db.insert(decisionRounds).values(row(2, true));
    expect((await spendToday(t.database.db, now, { companyId: co.id, runningAt: reservation })).spent).toBe(
      1_000n + reservation,
    );
  });
});
