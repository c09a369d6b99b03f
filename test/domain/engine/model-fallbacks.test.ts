// Fallbacks across models and providers: each phase has an ordered list of models (its own, the preset's when the
// company chose another, the platform's LLM_FALLBACK_MODELS). Through OpenRouter the list goes as its `models`
// field, with `provider.require_parameters` when a schema or tools are sent; across endpoints the engine falls back
// itself on timeouts, network errors, 429/5xx and malformed answers (not on a refusal), records which model
// answered, and counts what the failed models were billed.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.ts';
import { fallbacksFor } from '../../../src/domain/engine/models/catalog.ts';
import { createOpenAiCompatibleProvider } from '../../../src/domain/engine/models/openai.ts';
import { type ChatRequest, type EngineModelId, ModelError } from '../../../src/domain/engine/models/types.ts';
import { type FakeLlm, llmReply, startFakeLlm } from '../../helpers/fake-llm.ts';
import { CONTEXTS } from './fixtures.ts';

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const chat = (model: EngineModelId, extra: Partial<ChatRequest> = {}): ChatRequest => ({
  model,
  messages: [{ role: 'user', content: 'Decide.' }],
  task: { phase: 'brief', context: CONTEXTS.bonding },
  maxTokens: 100,
  ...extra,
});
const schema = { name: 'decision', schema: { type: 'object', properties: { directive: { type: 'string' } } } };

describe('through an OpenRouter gateway', () => {
  const provider = (kind: 'openrouter' | 'generic') =>
    createOpenAiCompatibleProvider({ gateway: { baseUrl: fake.url }, gatewayKind: kind, maxRetries: 0 });

  it('sends the models list, and require_parameters when a schema or tools go with it', async () => {
    fake.setDefault(llmReply.otherModel('{"directive":"x"}', 'google/gemini-2.5-flash'));
    const fallbacks: EngineModelId[] = ['google/gemini-2.5-flash', 'deepseek/deepseek-chat'];
    const answered = await provider('openrouter').complete(
      chat('openai/gpt-5-mini', { json: true, schema, fallbacks }),
    );
    await provider('openrouter').complete(chat('openai/gpt-5-mini', { fallbacks }));
    await provider('generic').complete(chat('openai/gpt-5-mini', { json: true, schema, fallbacks }));
    const [strict, plain, generic] = fake.requests.map((r) => r.body);
    expect(strict).toMatchObject({
      model: 'openai/gpt-5-mini',
      models: ['openai/gpt-5-mini', 'google/gemini-2.5-flash', 'deepseek/deepseek-chat'],
      provider: { require_parameters: true },
    });
    expect(plain.models).toHaveLength(3);
    expect(plain.provider).toBeUndefined();
    // A gateway that is not OpenRouter gets neither field: the engine falls back itself.
    expect(generic.models).toBeUndefined();
    expect(generic.provider).toBeUndefined();
    // Which model answered is the one the gateway names.
    expect(answered.model).toBe('google/gemini-2.5-flash');
  });
});

describe('across endpoints, by the engine', () => {
  const provider = () =>
    createOpenAiCompatibleProvider({
      gateway: { baseUrl: `${fake.url}/gw` },
      endpoints: { anthropic: { baseUrl: `${fake.url}/anthropic` } },
      timeoutMs: 200,
      maxRetries: 1,
      backoffBaseMs: 5,
    });

  it('falls back from a provider that is down (503) to the next model and records which one answered', async () => {
    fake.setDefault((r) => (r.path.startsWith('/anthropic') ? llmReply.unavailable() : llmReply.ok('from gemini')));
    const result = await provider().complete(
      chat('anthropic/claude-haiku-4.5', { fallbacks: ['google/gemini-2.5-flash'] }),
    );
    expect(result).toMatchObject({ content: 'from gemini', model: 'google/gemini-2.5-flash', provider: 'google' });
    expect(fake.requests.map((r) => r.path.split('/')[1])).toEqual(['anthropic', 'anthropic', 'gw']);
  });

  it("falls back after timeouts and bills the timed-out attempts at their estimate in the answer's cost", async () => {
    fake.setDefault((r) => (r.path.startsWith('/anthropic') ? llmReply.hang() : llmReply.ok('from gemini')));
    const result = await provider().complete(
      chat('anthropic/claude-haiku-4.5', { fallbacks: ['google/gemini-2.5-flash'] }),
    );
    expect(result.model).toBe('google/gemini-2.5-flash');
    expect(result.usageEstimated).toBe(true);
    // Two timed-out attempts of up to 100 tokens each, on top of the answer's 5.
    expect(result.completionTokens).toBeGreaterThan(200);
    expect(result.cost).toBeGreaterThan(0);
  });

  it('does not fall back on a refusal, and fails with the last error when every model fails', async () => {
    fake.setDefault(llmReply.refusal());
    const refused = await provider()
      .complete(chat('anthropic/claude-haiku-4.5', { fallbacks: ['google/gemini-2.5-flash'] }))
      .catch((e) => e);
    expect(refused).toBeInstanceOf(ModelError);
    expect(refused.kind).toBe('refused');
    expect(fake.requests).toHaveLength(1);

    fake.reset();
    fake.setDefault(llmReply.unavailable());
    const down = await provider()
      .complete(chat('anthropic/claude-haiku-4.5', { fallbacks: ['google/gemini-2.5-flash'] }))
      .catch((e) => e);
    expect(down).toBeInstanceOf(ModelError);
    expect(down.message).toMatch(/google\/gemini-2.5-flash via the gateway: HTTP 503/);
    expect(fake.requests).toHaveLength(4);
  });
});

describe('the list of a phase', () => {
  it("is the phase's own model, the preset's when the company chose another, then the platform's list", () => {
    expect(fallbacksFor('BALANCED', null, 'briefGeneration')).toEqual([]);
    const chosen = { briefGeneration: 'deepseek/deepseek-chat' };
    const preset = fallbacksFor('BALANCED', null, 'briefGeneration', ['openai/gpt-5-mini']);
    expect(preset).toEqual(['openai/gpt-5-mini']);
    const both = fallbacksFor('BALANCED', chosen, 'briefGeneration', ['openai/gpt-5-mini', 'deepseek/deepseek-chat']);
    expect(both[0]).not.toBe('deepseek/deepseek-chat');
    expect(both).toContain('openai/gpt-5-mini');
    expect(both).not.toContain('deepseek/deepseek-chat');
  });

  it('reads LLM_FALLBACK_MODELS (at most 3 model ids) and LLM_GATEWAY_KIND (by host when unset)', () => {
    const three = 'openai/gpt-5-mini,google/gemini-2.5-flash,deepseek/deepseek-chat';
    expect(loadConfig({ LLM_FALLBACK_MODELS: three }).llmFallbackModels).toHaveLength(3);
    expect(() => loadConfig({ LLM_FALLBACK_MODELS: `${three},openai/gpt-5` })).toThrow(ConfigError);
    // Any well-formed id (a model the provider does not serve fails its calls, and the next is tried).
    expect(loadConfig({ LLM_FALLBACK_MODELS: 'local/qwen3-32b' }).llmFallbackModels).toEqual(['local/qwen3-32b']);
    expect(() => loadConfig({ LLM_FALLBACK_MODELS: 'openai gpt-9' })).toThrow(/"openai gpt-9" is not a model id/);
    expect(loadConfig({ LLM_BASE_URL: 'https://openrouter.ai/api/v1' }).llmGatewayKind).toBe('openrouter');
    expect(loadConfig({ LLM_BASE_URL: 'http://litellm:4000' }).llmGatewayKind).toBe('generic');
    expect(loadConfig({ LLM_BASE_URL: 'http://proxy:4000', LLM_GATEWAY_KIND: 'openrouter' }).llmGatewayKind).toBe(
      'openrouter',
    );
    expect(() => loadConfig({ LLM_GATEWAY_KIND: 'other' })).toThrow(ConfigError);
  });
});

describe('what a gateway user expects', () => {
  it('sends HTTP-Referer, X-Title, a real User-Agent and the company as user', async () => {
    fake.setDefault(llmReply.ok('fine'));
    const provider = createOpenAiCompatibleProvider({
      gateway: { baseUrl: fake.url },
      appReferer: 'https://economy.example',
      appTitle: 'AI Economy',
    });
    await provider.complete(chat('openai/gpt-5-mini', { user: 'cmp_acme01' }));
    const [sent] = fake.requests;
    expect(sent!.headers).toMatchObject({
      'http-referer': 'https://economy.example',
      'x-title': 'AI Economy',
      'user-agent': expect.stringMatching(/^ai-economy-engine\/\d+\.\d+\.\d+/),
    });
    expect(sent!.body.user).toBe('cmp_acme01');
    const config = loadConfig({ BASE_URL: 'https://economy.example' });
    expect([config.llmAppReferer, config.llmAppTitle]).toEqual(['https://economy.example', 'ai-economy']);
    expect(() => loadConfig({ LLM_APP_TITLE: 'bad\u0001title' })).toThrow(/LLM_APP_TITLE/);
  });
});
