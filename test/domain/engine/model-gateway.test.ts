// What a gateway user expects of each request: the reasoning effort configured for the phase, sent the way the route
// takes it and only to models that reason; prompt caching where the provider offers it (a `cache_control`
// breakpoint on the system message of Anthropic's models through a gateway, a `prompt_cache_key` on OpenAI's own
// endpoint); and the prompt tokens read from a cache recorded from the usage.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { createOpenAiCompatibleProvider } from '../../../src/domain/engine/models/openai.ts';
import { takesReasoning } from '../../../src/domain/engine/models/request.ts';
import type { ChatRequest } from '../../../src/domain/engine/models/types.ts';
import { type FakeLlm, llmReply, startFakeLlm } from '../../helpers/fake-llm.ts';
import { CONTEXTS, ENGINE_TOOLS } from './fixtures.ts';

const SYSTEM = 'You are the CFO of the company "Acme Yield", in charge of the treasury. Your tools: ...';
const chat = (extra: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'anthropic/claude-sonnet-4.5',
  messages: [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: '{"brief":"this round"}' },
  ],
  task: { phase: 'brief', context: CONTEXTS.bonding },
  maxTokens: 500,
  ...extra,
});

describe('requests through a gateway and to providers', () => {
  let fake: FakeLlm;
  beforeAll(async () => {
    fake = await startFakeLlm();
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  const viaGateway = (gatewayKind: 'openrouter' | 'generic') =>
    createOpenAiCompatibleProvider({ gateway: { baseUrl: fake.url }, gatewayKind, maxRetries: 0 });
  const direct = (provider: 'openai' | 'anthropic' | 'google') =>
    createOpenAiCompatibleProvider({ endpoints: { [provider]: { baseUrl: fake.url } }, maxRetries: 0 });
  const sent = async (provider: ReturnType<typeof viaGateway>, request: ChatRequest) => {
    fake.requests.length = 0;
    await provider.complete(request);
    return fake.requests[0]!.body;
  };

  describe('reasoning effort', () => {
    it('goes to OpenRouter as reasoning.effort, to other routes as reasoning_effort', async () => {
      expect(await sent(viaGateway('openrouter'), chat({ reasoning: 'high' }))).toMatchObject({
        reasoning: { effort: 'high' },
      });
      const generic = await sent(viaGateway('generic'), chat({ model: 'openai/gpt-5', reasoning: 'minimal' }));
      expect(generic.reasoning_effort).toBe('minimal');
      expect(generic.reasoning).toBeUndefined();
      expect(await sent(direct('openai'), chat({ model: 'openai/gpt-5-mini', reasoning: 'low' }))).toMatchObject({
        model: 'gpt-5-mini',
        reasoning_effort: 'low',
      });
      // Gemini has no minimal effort: the least it has.
      expect(
        (await sent(direct('google'), chat({ model: 'google/gemini-2.5-flash', reasoning: 'minimal' })))
          .reasoning_effort,
      ).toBe('low');
    });

    it('is not sent to a model that does not reason, to Anthropic’s own endpoint, or when none is configured', async () => {
      for (const model of ['deepseek/deepseek-chat', 'meta-llama/llama-4-maverick', 'local/qwen3-32b']) {
        const body = await sent(viaGateway('openrouter'), chat({ model, reasoning: 'high' }));
        expect(body.reasoning).toBeUndefined();
        expect(body.reasoning_effort).toBeUndefined();
      }
      const own = await sent(direct('anthropic'), chat({ reasoning: 'high' }));
      expect(own.reasoning).toBeUndefined();
      expect(own.reasoning_effort).toBeUndefined();
      const none = await sent(viaGateway('openrouter'), chat());
      expect(none.reasoning).toBeUndefined();
    });

    it('knows which models reason', () => {
      expect(
        [
          'openai/gpt-5',
          'openai/o4-mini',
          'anthropic/claude-sonnet-4.5',
          'anthropic/claude-haiku-4.5',
          'anthropic/claude-3-7-sonnet',
          'google/gemini-2.5-pro',
        ].every(takesReasoning),
      ).toBe(true);
      expect(
        ['openai/gpt-4o', 'anthropic/claude-3-5-haiku', 'google/gemini-2.0-flash', 'deepseek/deepseek-chat'].some(
          takesReasoning,
        ),
      ).toBe(false);
    });

    it('is configured for every phase or per phase (LLM_REASONING_EFFORT)', () => {
      expect(loadConfig({}).llmReasoningEffort).toEqual({});
      expect(loadConfig({ LLM_REASONING_EFFORT: 'low' }).llmReasoningEffort).toEqual({
        briefGeneration: 'low',
        scrapeSummary: 'low',
        roleExecution: 'low',
        ceoSynthesis: 'low',
        jsonExtraction: 'low',
      });
      expect(
        loadConfig({ LLM_REASONING_EFFORT: 'ceoSynthesis=high, jsonExtraction=minimal' }).llmReasoningEffort,
      ).toEqual({ ceoSynthesis: 'high', jsonExtraction: 'minimal' });
      expect(() => loadConfig({ LLM_REASONING_EFFORT: 'extreme' })).toThrow(/not one of minimal, low, medium, high/);
      expect(() => loadConfig({ LLM_REASONING_EFFORT: 'ceoSynthesis=extreme' })).toThrow(/"extreme"/);
      expect(() => loadConfig({ LLM_REASONING_EFFORT: 'synthesis=high' })).toThrow(/<phase>=<effort>/);
      expect(() => loadConfig({ LLM_REASONING_EFFORT: 'ceoSynthesis=high=low' })).toThrow(/<phase>=<effort>/);
    });
  });

  describe('prompt caching', () => {
    it("puts a cache_control breakpoint on the system message of Anthropic's models through a gateway", async () => {
      fake.setDefault(llmReply.ok('{}'));
      for (const kind of ['openrouter', 'generic'] as const) {
        const body = await sent(viaGateway(kind), chat({ tools: ENGINE_TOOLS.slice(0, 2), json: true }));
        expect(body.messages[0]).toEqual({
          role: 'system',
          content: [{ type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral' } }],
        });
        expect(body.messages[1]).toEqual(chat().messages[1]);
        // The tools come before the system prompt in Anthropic's prefix: the breakpoint covers them too.
        expect(body.tools).toHaveLength(2);
      }
    });

    it('sends plain messages to other providers and to Anthropic’s own endpoint', async () => {
      for (const [provider, request] of [
        [viaGateway('openrouter'), chat({ model: 'openai/gpt-5' })],
        [viaGateway('openrouter'), chat({ model: 'deepseek/deepseek-chat' })],
        [direct('anthropic'), chat()],
      ] as const) {
        const body = await sent(provider, request);
        expect(body.messages).toEqual(request.messages);
        expect(body.prompt_cache_key).toBeUndefined();
      }
    });

    it("keys OpenAI's own cache by the company and the stable prefix", async () => {
      fake.setDefault(llmReply.ok('{}'));
      const openai = direct('openai');
      const tools = ENGINE_TOOLS.slice(0, 3);
      const key = async (extra: Partial<ChatRequest>) =>
        (await sent(openai, chat({ model: 'openai/gpt-5-mini', tools, json: true, user: 'cmp_a', ...extra })))
          .prompt_cache_key as string;
      const first = await key({});
      expect(first).toMatch(/^[0-9a-f]{32}$/);
      // Another round's data in the user message: the same prefix, the same key.
      expect(await key({ messages: [chat().messages[0]!, { role: 'user', content: '{"brief":"next round"}' }] })).toBe(
        first,
      );
      expect(await key({ user: 'cmp_b' })).not.toBe(first);
      expect(await key({ tools: ENGINE_TOOLS.slice(0, 2) })).not.toBe(first);
    });

    it('records the prompt tokens read from the cache, within the prompt tokens', async () => {
      const p = viaGateway('openrouter');
      // Prompt tokens are believed up to the request's bytes (about 1,300 here).
      const usage = { prompt_tokens: 800, completion_tokens: 5 };
      fake.setDefault(llmReply.cached('cached answer', 512, usage));
      const answer = await p.complete(chat());
      expect(answer).toMatchObject({ promptTokens: 800, cachedTokens: 512 });
      // Anthropic's own figure, as some gateways pass it on.
      fake.setDefault(
        llmReply.ok('x', { prompt_tokens: 900, completion_tokens: 5, cache_read_input_tokens: 600 } as never),
      );
      expect((await p.complete(chat())).cachedTokens).toBe(600);
      // No figure, or 0: none recorded.
      fake.setDefault(llmReply.ok('x'));
      expect((await p.complete(chat())).cachedTokens).toBeUndefined();
      fake.setDefault(llmReply.cached('x', 0, usage));
      expect((await p.complete(chat())).cachedTokens).toBeUndefined();
      // More cached than prompted is not believed past the prompt.
      fake.setDefault(llmReply.cached('x', 5_000, usage));
      expect((await p.complete(chat())).cachedTokens).toBe(800);
      // Usage past what the request could have used is estimated, and no cached figure is kept from it.
      fake.setDefault(llmReply.cached('x', 1_000, { prompt_tokens: 9_000_000, completion_tokens: 5 }));
      const absurd = await p.complete(chat());
      expect(absurd.usageEstimated).toBe(true);
      expect(absurd.cachedTokens).toBeUndefined();
    });
  });
});
