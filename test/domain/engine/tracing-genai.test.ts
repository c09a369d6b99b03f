// The model-call and tool spans after OpenTelemetry's GenAI conventions, read from the SDK's in-memory exporter:
// registered provider names (the gateway named when it is the server), error.type as the HTTP status, the cost out
// of the reserved gen_ai.* namespace, the company, the agent, the round as the conversation, the answer's id, cached
// tokens; execute_tool spans with their outcome; service.version and service.instance.id on the resource.
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { providerNameOf } from '../../../src/domain/engine/models/call-span.ts';
import { createOpenAiCompatibleProvider } from '../../../src/domain/engine/models/openai.ts';
import type { ChatRequest } from '../../../src/domain/engine/models/types.ts';
import { outcomeOfLine, toolSpan } from '../../../src/domain/engine/tracing.ts';
import { SERVICE_INSTANCE_ID, tracingTo } from '../../../src/tracing.ts';
import { VERSION } from '../../../src/version.ts';
import { type FakeLlm, llmReply, startFakeLlm } from '../../helpers/fake-llm.ts';
import { CONTEXTS } from './fixtures.ts';

const chat = (extra: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'google/gemini-2.5-flash',
  messages: [
    { role: 'system', content: 'You are the CFO of Acme Yield.' },
    { role: 'user', content: 'Propose.' },
  ],
  task: { phase: 'brief', context: CONTEXTS.bonding },
  maxTokens: 300,
  user: 'cmp_acme01',
  conversationId: 'rnd_42',
  agentRole: 'CFO',
  ...extra,
});

describe('GenAI spans', () => {
  let fake: FakeLlm;
  const exporter = new InMemorySpanExporter();
  const tracing = tracingTo(exporter, 'ai-economy-test');
  beforeAll(async () => {
    fake = await startFakeLlm();
  });
  afterAll(async () => {
    await fake.close();
    await tracing.shutdown();
  });
  beforeEach(() => {
    fake.reset();
    exporter.reset();
  });

  const provider = (extra: Parameters<typeof createOpenAiCompatibleProvider>[0] = {}) =>
    createOpenAiCompatibleProvider({
      gateway: { baseUrl: fake.url },
      maxRetries: 0,
      tracer: tracing.tracer,
      ...extra,
    });
  const spans = async () => {
    await tracing.flush();
    return exporter.getFinishedSpans();
  };

  it('names registered providers, and the gateway when it is the server', () => {
    expect(providerNameOf('google/gemini-2.5-pro', 'gateway', 'generic')).toBe('gcp.gemini');
    expect(providerNameOf('google/gemini-2.5-pro', 'google')).toBe('gcp.gemini');
    expect(providerNameOf('anthropic/claude-haiku-4.5', 'anthropic')).toBe('anthropic');
    expect(providerNameOf('openai/gpt-5', 'gateway', 'openrouter')).toBe('openrouter');
    expect(providerNameOf('local/qwen3-32b', 'gateway', 'generic')).toBe('local');
  });

  it('puts the company, the agent, the round, the answer id, the cost and cached tokens on the chat span', async () => {
    fake.setDefault({
      content: 'fine',
      usage: { prompt_tokens: 600, completion_tokens: 20, cost: 0.0012, prompt_tokens_details: { cached_tokens: 256 } },
    });
    const answer = await provider({ gatewayKind: 'openrouter' }).complete(chat());
    const [span] = await spans();
    expect(span!.name).toBe('chat google/gemini-2.5-flash');
    expect(span!.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openrouter',
      'gen_ai.request.model': 'google/gemini-2.5-flash',
      'gen_ai.conversation.id': 'rnd_42',
      'gen_ai.agent.name': 'CFO',
      'ai_economy.agent.role': 'CFO',
      'ai_economy.company.id': 'cmp_acme01',
      'gen_ai.response.id': answer.responseId,
      'gen_ai.usage.input_tokens': 600,
      'gen_ai.usage.output_tokens': 20,
      'gen_ai.usage.cache_read.input_tokens': 256,
      'ai_economy.cost_usd': 0.0012,
    });
    expect(answer.responseId).toMatch(/^chatcmpl-/);
    // Nothing in the reserved namespace that the conventions do not define.
    expect(Object.keys(span!.attributes).filter((k) => k === 'gen_ai.usage.cost')).toEqual([]);
  });

  it('gives error.type as the HTTP status of a failed call, and the kind when there was none', async () => {
    fake.setDefault(llmReply.rateLimited('0'));
    await expect(provider().complete(chat())).rejects.toThrow();
    fake.setDefault(llmReply.hang());
    await expect(provider({ timeoutMs: 150 }).complete(chat())).rejects.toThrow();
    const [limited, timedOut] = await spans();
    expect(limited!.attributes['error.type']).toBe('429');
    expect(limited!.status.code).toBe(2);
    expect(timedOut!.attributes['error.type']).toBe('timeout');
  });

  it('makes execute_tool spans under their parent, with the outcome', async () => {
    const parent = tracing.tracer.startSpan('phase execution');
    const who = { role: 'CFO', companyId: 'cmp_acme01', roundId: 'rnd_42' };
    toolSpan(tracing.tracer, parent, { name: 'read_token_price', kind: 'chain_read' }, who).end('executed');
    toolSpan(tracing.tracer, parent, { name: 'buy_token', kind: 'action' }, who).end('vetoed');
    toolSpan(tracing.tracer, parent, { name: 'sell_token', kind: 'action' }, who).end('failed', 'reverted');
    parent.end();
    const all = await spans();
    const tools = all.filter((s) => s.name.startsWith('execute_tool '));
    expect(tools.map((s) => s.name)).toEqual([
      'execute_tool read_token_price',
      'execute_tool buy_token',
      'execute_tool sell_token',
    ]);
    for (const s of tools) expect(s.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    expect(tools[0]!.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'read_token_price',
      'ai_economy.tool.kind': 'chain_read',
      'ai_economy.agent.role': 'CFO',
      'ai_economy.company.id': 'cmp_acme01',
      'gen_ai.conversation.id': 'rnd_42',
      'ai_economy.tool.outcome': 'executed',
    });
    expect(tools[1]!.attributes['ai_economy.tool.outcome']).toBe('vetoed');
    expect(tools[2]!.attributes).toMatchObject({ 'ai_economy.tool.outcome': 'failed', 'error.type': 'tool_error' });
    expect(tools[2]!.status.code).toBe(2);
    expect(tools[0]!.resource.attributes).toMatchObject({
      'service.name': 'ai-economy-test',
      'service.version': VERSION,
      'service.instance.id': SERVICE_INSTANCE_ID,
    });
  });

  it("reads an action line's outcome", () => {
    expect(outcomeOfLine('CFO buy_token: bought 10 TGT for 1 USDC, tx 0xabc')).toBe('executed');
    expect(outcomeOfLine('CFO buy_token: refused: vetoed by the CRO (too risky)')).toBe('vetoed');
    expect(outcomeOfLine('CFO buy_token: refused: over budget (0.1 USD this round)')).toBe('refused');
    expect(outcomeOfLine('CFO sell_token: failed: reverted')).toBe('failed');
  });
});
