// The model layer: the price and preset tables, the LLM configuration, and the OpenAI-compatible HTTP provider
// against a scripted fake server (routing, timeouts, retries, malformed answers, secrecy of the API keys).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.ts';
import { ENGINE_CONFIG_KEYS, ENGINE_MODEL_IDS, ENGINE_PRESETS, MODEL_PROVIDERS } from '../../../src/constants.ts';
import { parseRetryAfter } from '../../../src/domain/engine/models/attempt.ts';
import {
  costOf,
  costPicoUsd,
  MODEL_PRICES,
  modelFor,
  modelNameOf,
  PHASE_KEYS,
  PRESET_MODELS,
  providerOf,
} from '../../../src/domain/engine/models/catalog.ts';
import { createModelProvider, hasLlmEndpoint } from '../../../src/domain/engine/models/index.ts';
import {
  createOpenAiCompatibleProvider,
  type OpenAiCompatibleOptions,
} from '../../../src/domain/engine/models/openai.ts';
import { type ChatRequest, type EngineModelId, ModelError } from '../../../src/domain/engine/models/types.ts';
import { type FakeLlm, llmReply, startFakeLlm } from '../../helpers/fake-llm.ts';
import { CONTEXTS } from './fixtures.ts';

describe('catalog', () => {
  it('prices exactly the 8 engine models', () => {
    expect(Object.keys(MODEL_PRICES).sort()).toEqual([...ENGINE_MODEL_IDS].sort());
    for (const price of Object.values(MODEL_PRICES)) {
      expect(Number.isSafeInteger(price.inputMicroUsdPerM) && price.inputMicroUsdPerM > 0).toBe(true);
      expect(Number.isSafeInteger(price.outputMicroUsdPerM) && price.outputMicroUsdPerM > 0).toBe(true);
    }
  });

  it('maps every phase of every preset to one of the 8 models', () => {
    expect(Object.keys(PRESET_MODELS).sort()).toEqual([...ENGINE_PRESETS].sort());
    for (const preset of ENGINE_PRESETS) {
      expect(Object.keys(PRESET_MODELS[preset]).sort()).toEqual([...ENGINE_CONFIG_KEYS].sort());
      for (const key of ENGINE_CONFIG_KEYS) expect(ENGINE_MODEL_IDS).toContain(PRESET_MODELS[preset][key]);
    }
    expect(Object.values(PHASE_KEYS).sort()).toEqual([...ENGINE_CONFIG_KEYS].sort());
  });

  it('orders the presets by what a round costs, and always extracts JSON with the same cheap model', () => {
    // A nominal round: each phase reads 3,000 tokens and writes 600 (role execution runs 7 times).
    const roundCost = (preset: (typeof ENGINE_PRESETS)[number]) =>
      ENGINE_CONFIG_KEYS.reduce(
        (sum, key) => sum + (key === 'roleExecution' ? 7 : 1) * costOf(PRESET_MODELS[preset][key], 3000, 600),
        0,
      );
    const costs = ENGINE_PRESETS.map(roundCost);
    expect(costs).toEqual([...costs].sort((a, b) => a - b));
    expect(costs[0]).toBeLessThan(costs[3]! / 5);
    const extraction = new Set(ENGINE_PRESETS.map((p) => PRESET_MODELS[p].jsonExtraction));
    expect([...extraction]).toEqual(['openai/gpt-5-mini']);
  });

  it('modelFor: engineConfig overrides the preset phase by phase; unknown values and presets fall back', () => {
    expect(modelFor('PREMIUM', null, 'ceoSynthesis')).toBe(PRESET_MODELS.PREMIUM.ceoSynthesis);
    expect(modelFor('BUDGET', undefined, 'roleExecution')).toBe(PRESET_MODELS.BUDGET.roleExecution);
    const config = { roleExecution: 'google/gemini-2.5-pro' as const };
    expect(modelFor('BUDGET', config, 'roleExecution')).toBe('google/gemini-2.5-pro');
    expect(modelFor('BUDGET', config, 'briefGeneration')).toBe(PRESET_MODELS.BUDGET.briefGeneration);
    // Any well-formed id the provider serves is taken (checked against its model list when the setting is saved);
    // a value that is not a model id falls back to the preset.
    expect(modelFor('BUDGET', { roleExecution: 'openai/gpt-4' }, 'roleExecution')).toBe('openai/gpt-4');
    expect(modelFor('BUDGET', { roleExecution: 'not a model id' }, 'roleExecution')).toBe(
      PRESET_MODELS.BUDGET.roleExecution,
    );
    expect(modelFor('BUDGET', { roleExecution: 42 }, 'roleExecution')).toBe(PRESET_MODELS.BUDGET.roleExecution);
    expect(modelFor('LUDICROUS', null, 'jsonExtraction')).toBe(PRESET_MODELS.BALANCED.jsonExtraction);
  });

  it('costOf: exact integer arithmetic, converted once', () => {
    // 1,000 x 1.25 + 500 x 10 USD per 1M tokens
    expect(costOf('openai/gpt-5', 1000, 500)).toBe(0.00625);
    expect(costOf('anthropic/claude-sonnet-4.5', 1_000_000, 1_000_000)).toBe(18);
    // 123,457 x 0.28 + 9,876 x 0.42 USD per 1M = 0.03456796 + 0.00414792
    expect(costPicoUsd('deepseek/deepseek-chat', 123_457, 9_876)).toBe(38_715_880_000n);
    expect(costOf('deepseek/deepseek-chat', 123_457, 9_876)).toBe(0.03871588);
    expect(costOf('meta-llama/llama-4-maverick', 0, 0)).toBe(0);
    // Summing in pico-USD loses nothing, where summing floats would drift.
    const pico = Array.from({ length: 1000 }, () => costPicoUsd('openai/gpt-5-mini', 7, 3)).reduce((a, b) => a + b);
    expect(pico).toBe(7_750_000_000n);
    expect(() => costOf('openai/gpt-5', -1, 0)).toThrow(RangeError);
    expect(() => costOf('openai/gpt-5', 1.5, 0)).toThrow(RangeError);
  });

  it('providerOf and modelNameOf split the model id at its slash', () => {
    expect(providerOf('meta-llama/llama-4-maverick')).toBe('meta-llama');
    expect(modelNameOf('meta-llama/llama-4-maverick')).toBe('llama-4-maverick');
    expect(providerOf('anthropic/claude-haiku-4.5')).toBe('anthropic');
    expect(new Set(ENGINE_MODEL_IDS.map((id) => providerOf(id)))).toEqual(new Set(MODEL_PROVIDERS));
  });
});

describe('LLM configuration', () => {
  it('defaults: no endpoint, 30 s timeout, 2 retries', () => {
    const c = loadConfig({});
    expect(c.llmGateway).toBeUndefined();
    expect(c.llmEndpoints).toEqual({});
    expect(c.llmTimeoutMs).toBe(30_000);
    expect(c.llmMaxRetries).toBe(2);
    expect(hasLlmEndpoint(c)).toBe(false);
    expect(createModelProvider(c).kind).toBe('builtin');
  });

  it('reads the gateway and per-provider endpoints, without trailing slashes', () => {
    const c = loadConfig({
      LLM_BASE_URL: 'https://openrouter.ai/api/v1/',
      LLM_API_KEY: 'sk-or-1',
      LLM_ANTHROPIC_BASE_URL: 'https://api.anthropic.com/v1',
      LLM_ANTHROPIC_API_KEY: 'sk-ant-1',
      LLM_META_LLAMA_BASE_URL: 'http://127.0.0.1:8000/v1',
      LLM_TIMEOUT_MS: '5000',
      LLM_MAX_RETRIES: '0',
    });
    expect(c.llmGateway).toEqual({ baseUrl: 'https://openrouter.ai/api/v1', apiKey: 'sk-or-1' });
    expect(c.llmEndpoints).toEqual({
      anthropic: { baseUrl: 'https://api.anthropic.com/v1', apiKey: 'sk-ant-1' },
      'meta-llama': { baseUrl: 'http://127.0.0.1:8000/v1', apiKey: undefined },
    });
    expect(c.llmTimeoutMs).toBe(5000);
    expect(c.llmMaxRetries).toBe(0);
    expect(createModelProvider(c).kind).toBe('openai-compatible');
  });

  it.each([
    [{ LLM_BASE_URL: 'ftp://llm.example' }, /LLM_BASE_URL must use one of http:, https:/],
    [{ LLM_GOOGLE_BASE_URL: 'not a url' }, /LLM_GOOGLE_BASE_URL must be a URL/],
    [{ LLM_TIMEOUT_MS: '10' }, /LLM_TIMEOUT_MS must be between 100 and 600000/],
    [{ LLM_MAX_RETRIES: 'many' }, /LLM_MAX_RETRIES must be a whole number/],
  ])('rejects %o with a readable message', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('refuses a key without its endpoint, or with spaces, never echoing it', () => {
    for (const [env, message] of [
      [{ LLM_DEEPSEEK_API_KEY: 'sk-secret-deepseek' }, /LLM_DEEPSEEK_API_KEY is set but LLM_DEEPSEEK_BASE_URL is not/],
      [{ LLM_BASE_URL: 'https://gw.example', LLM_API_KEY: 'sk-secret with space' }, /LLM_API_KEY must be printable/],
    ] as const) {
      try {
        loadConfig(env);
        expect.unreachable();
      } catch (err) {
        expect((err as Error).message).toMatch(message);
        expect((err as Error).message).not.toContain('sk-secret');
      }
    }
  });
});

describe('engine settings that could let a round act twice', () => {
  it('refuses a stale cut-off not above twice the longest model call, just at the bound; accepts one past it', () => {
    // 30 s x (2 retries + 2 attempts) = 120 s a call at most: the cut-off must be above 240 s.
    const env = { LLM_TIMEOUT_MS: '30000', LLM_MAX_RETRIES: '2' };
    expect(() => loadConfig({ ...env, ROUND_STALE_MS: '240000' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...env, ROUND_STALE_MS: '240000' })).toThrow(
      /ROUND_STALE_MS \(240000\) must be more than twice the longest model call, .* = 120000 ms/,
    );
    expect(loadConfig({ ...env, ROUND_STALE_MS: '240001' }).roundStaleMs).toBe(240_001);
    // The review's setup: stale 10 s, timeout 20 s, 4 retries.
    expect(() => loadConfig({ ROUND_STALE_MS: '10000', LLM_TIMEOUT_MS: '20000', LLM_MAX_RETRIES: '4' })).toThrow(
      ConfigError,
    );
    // The defaults hold: 600 s against 240 s.
    expect(loadConfig({}).roundStaleMs).toBe(600_000);
  });

  it('reads the per-provider limit of calls in flight and the shutdown grace within their bounds', () => {
    expect(loadConfig({}).llmMaxInFlight).toBe(256);
    expect(loadConfig({ LLM_MAX_IN_FLIGHT: '1' }).llmMaxInFlight).toBe(1);
    expect(() => loadConfig({ LLM_MAX_IN_FLIGHT: '0' })).toThrow(/LLM_MAX_IN_FLIGHT must be between 1 and 100000/);
    expect(loadConfig({}).engineShutdownGraceMs).toBe(60_000);
    expect(loadConfig({ ENGINE_SHUTDOWN_GRACE_MS: '0' }).engineShutdownGraceMs).toBe(0);
    expect(() => loadConfig({ ENGINE_SHUTDOWN_GRACE_MS: '3600001' })).toThrow(/ENGINE_SHUTDOWN_GRACE_MS/);
    expect(loadConfig({ ENGINE_CONCURRENCY: '4096' }).engineConcurrency).toBe(4096);
    expect(() => loadConfig({ ENGINE_CONCURRENCY: '4097' })).toThrow(/ENGINE_CONCURRENCY/);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds, fractions and HTTP dates', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter('0.25')).toBe(250);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });
});

const GATEWAY_KEY = 'sk-gateway-SECRET-0123456789';
const ANTHROPIC_KEY = 'sk-ant-SECRET-9876543210';
const OPENAI_KEY = 'sk-openai-SECRET-5555';

function chat(model: EngineModelId, extra: Partial<ChatRequest> = {}): ChatRequest {
  return {
    model,
    messages: [
      { role: 'system', content: 'You are the CFO of Acme Yield.' },
      { role: 'user', content: 'Propose one action for this cycle.' },
    ],
    task: { phase: 'brief', context: CONTEXTS.bonding },
    ...extra,
  };
}

describe('createOpenAiCompatibleProvider', () => {
  let fake: FakeLlm;
  const logs: { obj: object; msg: string }[] = [];
  const log = {
    info: (obj: object, msg: string) => logs.push({ obj, msg }),
    warn: (obj: object, msg: string) => logs.push({ obj, msg }),
  };
  const errors: unknown[] = [];

  beforeAll(async () => {
    fake = await startFakeLlm();
  });
  afterAll(async () => {
    await fake.close();
    // Whatever failed in these tests, no key was in an error message or a log line.
    const seen = JSON.stringify([errors.map((e) => `${(e as Error).message} ${String(e)}`), logs]);
    for (const key of [GATEWAY_KEY, ANTHROPIC_KEY, OPENAI_KEY]) expect(seen).not.toContain(key);
  });
  beforeEach(() => {
    fake.reset();
    logs.length = 0;
  });

  const provider = (options: Partial<OpenAiCompatibleOptions> = {}) =>
    createOpenAiCompatibleProvider({
      gateway: { baseUrl: `${fake.url}/gw`, apiKey: GATEWAY_KEY },
      endpoints: {
        anthropic: { baseUrl: `${fake.url}/anthropic/v1/`, apiKey: ANTHROPIC_KEY },
        openai: { baseUrl: `${fake.url}/openai`, apiKey: OPENAI_KEY },
        deepseek: { baseUrl: `${fake.url}/local` },
      },
      timeoutMs: 1000,
      maxRetries: 2,
      backoffBaseMs: 5,
      log,
      ...options,
    });

  async function failure(promise: Promise<unknown>): Promise<ModelError> {
    try {
      await promise;
    } catch (err) {
      errors.push(err);
      expect(err).toBeInstanceOf(ModelError);
      return err as ModelError;
    }
    throw new Error('expected a ModelError');
  }

  it('answers with the content, usage and cost from the price table', async () => {
    fake.reply(llmReply.ok('Hold the treasury steady.', { prompt_tokens: 1200, completion_tokens: 300 }));
    const result = await provider().complete(chat('google/gemini-2.5-flash', { maxTokens: 400, temperature: 0.2 }));
    expect(result).toMatchObject({
      content: 'Hold the treasury steady.',
      model: 'google/gemini-2.5-flash',
      provider: 'google',
      promptTokens: 1200,
      completionTokens: 300,
      cost: costOf('google/gemini-2.5-flash', 1200, 300),
    });
    expect(result.usageEstimated).toBeUndefined();
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    const [req] = fake.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/gw/chat/completions');
    expect(req!.headers.authorization).toBe(`Bearer ${GATEWAY_KEY}`);
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.body).toEqual({
      model: 'google/gemini-2.5-flash',
      messages: chat('google/gemini-2.5-flash').messages,
      max_tokens: 400,
      temperature: 0.2,
    });
  });

  it('routes a provider with its own endpoint there, with the model name after the slash and its key', async () => {
    const p = provider();
    fake.reply(llmReply.ok('a'), llmReply.ok('b'), llmReply.ok('c'));
    const viaAnthropic = await p.complete(chat('anthropic/claude-haiku-4.5'));
    const viaGateway = await p.complete(chat('meta-llama/llama-4-maverick'));
    const viaLocal = await p.complete(chat('deepseek/deepseek-chat'));
    expect([viaAnthropic.provider, viaGateway.provider, viaLocal.provider]).toEqual([
      'anthropic',
      'meta-llama',
      'deepseek',
    ]);
    const [a, g, l] = fake.requests;
    expect(a!.path).toBe('/anthropic/v1/chat/completions');
    expect(a!.body.model).toBe('claude-haiku-4.5');
    expect(a!.headers.authorization).toBe(`Bearer ${ANTHROPIC_KEY}`);
    expect(g!.path).toBe('/gw/chat/completions');
    expect(g!.body.model).toBe('meta-llama/llama-4-maverick');
    expect(g!.headers.authorization).toBe(`Bearer ${GATEWAY_KEY}`);
    // An endpoint without a key (a local server) gets no Authorization header.
    expect(l!.path).toBe('/local/chat/completions');
    expect(l!.body.model).toBe('deepseek-chat');
    expect(l!.headers.authorization).toBeUndefined();
  });

  it("sends OpenAI's own endpoint max_completion_tokens and no temperature for its reasoning models", async () => {
    fake.reply(llmReply.ok('x'));
    await provider().complete(chat('openai/gpt-5', { maxTokens: 500, temperature: 0.3 }));
    expect(fake.requests[0]!.body).toMatchObject({ model: 'gpt-5', max_completion_tokens: 500 });
    expect(fake.requests[0]!.body.max_tokens).toBeUndefined();
    expect(fake.requests[0]!.body.temperature).toBeUndefined();
  });

  it('asks for a JSON object with response_format and accepts one wrapped in a code fence', async () => {
    fake.reply(llmReply.ok('```json\n{"proposals":[]}\n```'));
    const result = await provider().complete(chat('google/gemini-2.5-pro', { json: true }));
    expect(fake.requests[0]!.body.response_format).toEqual({ type: 'json_object' });
    expect(JSON.parse(result.content)).toEqual({ proposals: [] });
    fake.reply(llmReply.ok('plain'));
    await provider().complete(chat('google/gemini-2.5-pro'));
    expect(fake.requests[1]!.body.response_format).toBeUndefined();
  });

  it('estimates tokens from text length when the answer has no usage, and says so', async () => {
    fake.reply(llmReply.ok('x'.repeat(400), null));
    const result = await provider().complete(chat('google/gemini-2.5-flash'));
    expect(result.usageEstimated).toBe(true);
    expect(result.completionTokens).toBe(100);
    expect(result.promptTokens).toBeGreaterThan(10);
    expect(result.cost).toBe(costOf('google/gemini-2.5-flash', result.promptTokens, 100));
  });

  it('times out each attempt, retries, then fails as timeout within the expected time', async () => {
    fake.setDefault(llmReply.slow(3000));
    const started = Date.now();
    const err = await failure(provider({ timeoutMs: 100, maxRetries: 2 }).complete(chat('google/gemini-2.5-flash')));
    const elapsed = Date.now() - started;
    expect(err.kind).toBe('timeout');
    expect(err.message).toMatch(/no answer within 100 ms \(after 3 attempts\)/);
    expect(fake.requests).toHaveLength(3);
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(1500);
    expect(logs.filter((l) => l.msg.startsWith('model call failed, retrying'))).toHaveLength(2);
  });

  it('honours a 429 Retry-After before retrying', async () => {
    fake.reply(llmReply.rateLimited('0.3'), llmReply.ok('after the wait'));
    const started = Date.now();
    const result = await provider().complete(chat('google/gemini-2.5-flash'));
    expect(result.content).toBe('after the wait');
    expect(fake.requests).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('caps a long Retry-After', async () => {
    fake.reply(llmReply.rateLimited('3600'), llmReply.ok('capped'));
    const started = Date.now();
    const result = await provider({ retryAfterMaxMs: 100 }).complete(chat('google/gemini-2.5-flash'));
    expect(result.content).toBe('capped');
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(90);
    expect(elapsed).toBeLessThan(1000);
  });

  it('retries 5xx answers and succeeds; gives up with the status after its retries', async () => {
    fake.reply(llmReply.status(500), llmReply.status(503), llmReply.ok('third time'));
    expect((await provider().complete(chat('google/gemini-2.5-flash'))).content).toBe('third time');
    expect(fake.requests).toHaveLength(3);

    fake.reset();
    fake.setDefault(llmReply.status(502));
    const err = await failure(provider({ maxRetries: 1 }).complete(chat('google/gemini-2.5-flash')));
    expect(err).toMatchObject({ kind: 'http', status: 502 });
    expect(fake.requests).toHaveLength(2);
  });

  it('does not retry other 4xx answers', async () => {
    fake.reply(llmReply.status(400, {}, { error: { message: 'unknown parameter' } }));
    const err = await failure(provider().complete(chat('google/gemini-2.5-flash')));
    expect(err).toMatchObject({ kind: 'http', status: 400 });
    expect(err.message).toMatch(/HTTP 400: .*unknown parameter/);
    expect(fake.requests).toHaveLength(1);
  });

  it.each([
    ['not JSON', llmReply.notJson(), false, 'malformed', /is not JSON/],
    ['no choices', llmReply.noChoices(), false, 'empty', /the answer has no choices/],
    ['non-JSON content when JSON was asked', llmReply.nonJsonContent(), true, 'malformed', /the content holds none/],
  ])('retries an unusable answer (%s) once, then fails as such', async (_, reply, json, kind, message) => {
    fake.setDefault(reply);
    const err = await failure(provider().complete(chat('google/gemini-2.5-flash', { json })));
    expect(err.kind).toBe(kind);
    expect(err.message).toMatch(message);
    expect(fake.requests).toHaveLength(2);

    fake.reset();
    fake.reply(reply, llmReply.ok('{"ok":true}'));
    const result = await provider().complete(chat('google/gemini-2.5-flash', { json }));
    expect(result.content).toBe('{"ok":true}');
    expect(fake.requests).toHaveLength(2);
  });

  it('counts the billed tokens of a malformed answer in the cost', async () => {
    fake.reply(
      { content: 'not json at all', usage: { prompt_tokens: 100, completion_tokens: 20 } },
      llmReply.ok('{"a":1}', { prompt_tokens: 100, completion_tokens: 10 }),
    );
    const result = await provider().complete(chat('openai/gpt-5-mini', { json: true }));
    expect(result).toMatchObject({
      promptTokens: 200,
      completionTokens: 30,
      cost: costOf('openai/gpt-5-mini', 200, 30),
    });

    fake.setDefault({ content: 'still not json', usage: { prompt_tokens: 50, completion_tokens: 5 } });
    const err = await failure(provider().complete(chat('openai/gpt-5-mini', { json: true })));
    expect(err.spent).toEqual({ promptTokens: 100, completionTokens: 10, cost: costOf('openai/gpt-5-mini', 100, 10) });
  });

  it('fails as network after its retries when nothing listens', async () => {
    const dead = await startFakeLlm();
    const url = dead.url;
    await dead.close();
    const err = await failure(
      createOpenAiCompatibleProvider({
        gateway: { baseUrl: url, apiKey: GATEWAY_KEY },
        maxRetries: 1,
        backoffBaseMs: 5,
      }).complete(chat('google/gemini-2.5-flash')),
    );
    expect(err.kind).toBe('network');
    expect(err.message).toMatch(/request failed \(ECONNREFUSED\) \(after 2 attempts\)/);
  });

  it('never puts an API key in an error, even when the endpoint echoes it', async () => {
    fake.setDefault((req) => ({
      status: 401,
      body: { error: { message: `Incorrect API key provided: ${String(req.headers.authorization)}` } },
    }));
    const err = await failure(provider().complete(chat('anthropic/claude-sonnet-4.5')));
    expect(err).toMatchObject({ kind: 'http', status: 401 });
    expect(err.message).toContain('[redacted]');
    expect(err.message).not.toContain(ANTHROPIC_KEY);
    expect(JSON.stringify(err)).not.toContain(ANTHROPIC_KEY);
    expect(err.stack).not.toContain(ANTHROPIC_KEY);
  });

  it("stops at once when the caller's signal aborts, without retrying", async () => {
    fake.setDefault(llmReply.slow(3000));
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('round cancelled')), 50);
    const started = Date.now();
    await expect(
      provider({ timeoutMs: 2000 }).complete(chat('google/gemini-2.5-flash', { signal: controller.signal })),
    ).rejects.toThrow('round cancelled');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(fake.requests).toHaveLength(1);
  });

  it('without an endpoint for the model: unconfigured, or the fallback with one warning per provider', async () => {
    const bare = createOpenAiCompatibleProvider({ endpoints: { anthropic: { baseUrl: fake.url } } });
    const err = await failure(bare.complete(chat('google/gemini-2.5-flash')));
    expect(err.kind).toBe('unconfigured');
    expect(err.message).toMatch(/LLM_BASE_URL or LLM_GOOGLE_BASE_URL/);

    const c = loadConfig({ LLM_ANTHROPIC_BASE_URL: fake.url, LLM_ANTHROPIC_API_KEY: ANTHROPIC_KEY });
    const models = createModelProvider(c, { log });
    fake.reply(llmReply.ok('from anthropic'));
    const answered = await models.complete(chat('anthropic/claude-haiku-4.5'));
    expect(answered).toMatchObject({ content: 'from anthropic', model: 'anthropic/claude-haiku-4.5' });
    const first = await models.complete(chat('google/gemini-2.5-flash'));
    const second = await models.complete(chat('google/gemini-2.5-pro'));
    expect(first).toMatchObject({ provider: 'builtin', model: 'builtin', cost: 0, promptTokens: 0 });
    expect(second.provider).toBe('builtin');
    expect(fake.requests).toHaveLength(1);
    expect(logs.filter((l) => /no LLM endpoint for google models/.test(l.msg))).toHaveLength(1);
  });
});
