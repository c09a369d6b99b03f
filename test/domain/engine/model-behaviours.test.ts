// The OpenAI-compatible client against a fake provider behaving as real ones do (test/helpers/fake-llm.ts): JSON
// wrapped in fences and prose, structured output, bounded answers (max_tokens, a byte cap), refusals, empty and
// cut-off answers, redirects to another host, absurd or missing usage, OpenRouter's billed cost, another model
// answering, failed attempts billed, a heartbeat before every attempt, and the per-provider limit on calls in
// flight that backs off on 429.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { jsonObjectText, MODEL_RESPONSE_MAX_BYTES } from '../../../src/domain/engine/models/answer.ts';
import { costOf } from '../../../src/domain/engine/models/catalog.ts';
import { createProviderLimiter } from '../../../src/domain/engine/models/limiter.ts';
import { createOpenAiCompatibleProvider } from '../../../src/domain/engine/models/openai.ts';
import { strictSchema, withoutNulls } from '../../../src/domain/engine/models/request.ts';
import { type ChatRequest, type EngineModelId, ModelError } from '../../../src/domain/engine/models/types.ts';
import { TOOLS, toolSpec } from '../../../src/domain/engine/tools.ts';
import { type FakeLlm, llmReply, startFakeLlm } from '../../helpers/fake-llm.ts';
import { CONTEXTS } from './fixtures.ts';

const KEY = 'sk-or-SECRET-behaviours';
let fake: FakeLlm;
let elsewhere: FakeLlm;

beforeAll(async () => {
  fake = await startFakeLlm();
  // Another host on the loopback range: a redirect there must never be followed.
  elsewhere = await startFakeLlm({ host: '127.0.0.2' });
});
afterAll(async () => {
  await fake.close();
  await elsewhere.close();
});
beforeEach(() => {
  fake.reset();
  elsewhere.reset();
});

const gateway = (extra: Parameters<typeof createOpenAiCompatibleProvider>[0] = {}) =>
  createOpenAiCompatibleProvider({
    gateway: { baseUrl: fake.url, apiKey: KEY },
    timeoutMs: 2_000,
    maxRetries: 2,
    backoffBaseMs: 5,
    ...extra,
  });

function chat(model: EngineModelId, extra: Partial<ChatRequest> = {}): ChatRequest {
  return {
    model,
    messages: [
      { role: 'system', content: 'Extract the decision.' },
      { role: 'user', content: 'The CEO wants to publish an update.' },
    ],
    task: { phase: 'brief', context: CONTEXTS.bonding },
    ...extra,
  };
}

async function failure(promise: Promise<unknown>): Promise<ModelError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(ModelError);
    expect(JSON.stringify({ message: (err as Error).message, err })).not.toContain(KEY);
    return err as ModelError;
  }
  throw new Error('expected a ModelError');
}

const decision = {
  directive: 'Ship.',
  actions: [{ role: 'CMO', tool: 'publish_update', args: { message: 'We ship.' }, rationale: 'reach' }],
};

describe('JSON where real models put it', () => {
  it('takes the JSON out of a fence, or out of prose around it, at the first attempt', async () => {
    for (const reply of [llmReply.fenced(decision), llmReply.prose(decision)]) {
      fake.reset();
      fake.reply(reply);
      const result = await gateway().complete(chat('openai/gpt-5-mini', { json: true }));
      expect(JSON.parse(result.content)).toEqual(decision);
      expect(fake.requests).toHaveLength(1);
    }
  });

  it('jsonObjectText: the whole text, the first fenced object, else the first balanced object anywhere', () => {
    expect(jsonObjectText('{"a":1}')).toBe('{"a":1}');
    expect(jsonObjectText('Here:\n```json\n{"a":{"b":"}"}}\n```\nthanks')).toBe('{"a":{"b":"}"}}');
    expect(jsonObjectText('```\nnot json\n``` and then {"c":[1,2]} after')).toBe('{"c":[1,2]}');
    // Braces in prose before the JSON, and braces inside its strings, do not derail it.
    expect(jsonObjectText('I {think} so: {"d":"a { brace"} end')).toBe('{"d":"a { brace"}');
    expect(jsonObjectText('an array [1,2] is not an object')).toBeUndefined();
    expect(jsonObjectText('{"unterminated": ')).toBeUndefined();
    // Hostile text is searched a bounded number of times, not once per brace.
    const hostile = `${'{'.repeat(200_000)}x`;
    const started = performance.now();
    expect(jsonObjectText(hostile)).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('structured output where the provider has it', () => {
  const schema = {
    name: 'decision',
    schema: {
      type: 'object',
      properties: { directive: { type: 'string', minLength: 1 }, note: { type: 'string' } },
      required: ['directive'],
      additionalProperties: false,
    },
  };

  it('sends a strict json_schema to OpenAI, Google and (through the gateway) Anthropic models, JSON mode to DeepSeek', async () => {
    fake.setDefault(llmReply.ok('{"directive":"x"}'));
    const p = gateway();
    for (const model of [
      'openai/gpt-5-mini',
      'google/gemini-2.5-flash',
      'deepseek/deepseek-chat',
      'anthropic/claude-haiku-4.5',
    ] as const) {
      await p.complete(chat(model, { json: true, schema }));
    }
    const [openai, google, deepseek, anthropic] = fake.requests.map((r) => r.body.response_format);
    expect(openai).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'decision',
        strict: true,
        // Every property required, the optional one nullable, the keyword strict mode refuses left out.
        schema: {
          type: 'object',
          properties: { directive: { type: 'string' }, note: { type: ['string', 'null'] } },
          required: ['directive', 'note'],
          additionalProperties: false,
        },
      },
    });
    expect(google).toEqual(openai);
    expect(deepseek).toEqual({ type: 'json_object' });
    // OpenRouter passes structured output on to Anthropic's models; Anthropic's own endpoint ignores it (its test:
    // partial-extraction.test.ts).
    expect(anthropic).toEqual(openai);
  });

  it('strictSchema closes nested objects; withoutNulls takes back the nulls it allows', () => {
    const veto = TOOLS.find((t) => t.name === 'veto_action')!;
    const strict = strictSchema(veto.parameters);
    expect(strict.required).toEqual(['tool', 'token', 'reason']);
    expect((strict.properties as Record<string, unknown>).token).toMatchObject({ type: ['string', 'null'] });
    expect(withoutNulls({ tool: 'buy_token', token: null, reason: 'r', nested: [{ a: null, b: 1 }] })).toEqual({
      tool: 'buy_token',
      reason: 'r',
      nested: [{ b: 1 }],
    });
  });

  it('offers the tools as strict function definitions to OpenAI models, plain to the others', async () => {
    fake.setDefault(llmReply.toolCalls([{ name: 'publish_update', args: { message: 'hi' } }]));
    const tools = TOOLS.filter((t) => t.name === 'publish_update' || t.name === 'veto_action').map(toolSpec);
    const viaOpenAi = await gateway().complete(chat('openai/gpt-5-mini', { json: true, tools }));
    await gateway().complete(chat('anthropic/claude-haiku-4.5', { json: true, tools }));
    expect(JSON.parse(viaOpenAi.content)).toEqual({
      proposals: [{ tool: 'publish_update', args: { message: 'hi' }, rationale: '' }],
    });
    const [openai, anthropic] = fake.requests.map((r) => r.body.tools);
    const vetoOpenAi = openai.find((t: { function: { name: string } }) => t.function.name === 'veto_action').function;
    expect(vetoOpenAi.strict).toBe(true);
    expect(vetoOpenAi.parameters.required).toEqual(['tool', 'token', 'reason']);
    const vetoAnthropic = anthropic.find(
      (t: { function: { name: string } }) => t.function.name === 'veto_action',
    ).function;
    expect(vetoAnthropic.strict).toBeUndefined();
    expect(vetoAnthropic.parameters.required).toEqual(['tool', 'reason']);
  });
});

describe('bounded output', () => {
  it('always sends max_tokens, as max_completion_tokens to an OpenAI reasoning model on its own endpoint', async () => {
    fake.setDefault(llmReply.ok('x'));
    await gateway().complete(chat('google/gemini-2.5-flash', { maxTokens: 1234 }));
    await gateway().complete(chat('google/gemini-2.5-flash'));
    const own = createOpenAiCompatibleProvider({ endpoints: { openai: { baseUrl: fake.url } } });
    await own.complete(chat('openai/gpt-5', { maxTokens: 2000 }));
    expect(fake.requests[0]!.body.max_tokens).toBe(1234);
    expect(fake.requests[1]!.body.max_tokens).toBeGreaterThan(0);
    expect(fake.requests[2]!.body).toMatchObject({ model: 'gpt-5', max_completion_tokens: 2000 });
  });

  it('stops reading an answer past the byte cap: 5 MB is not read, not retried, billed as estimated', async () => {
    fake.setDefault(llmReply.huge(5 * 1024 * 1024));
    const err = await failure(gateway().complete(chat('openai/gpt-5-mini', { maxTokens: 1000 })));
    expect(err.kind).toBe('oversize');
    expect(err.message).toContain(`passed ${MODEL_RESPONSE_MAX_BYTES} bytes`);
    expect(fake.requests).toHaveLength(1);
    expect(err.spent).toMatchObject({ estimated: true });
    expect(err.spent!.completionTokens).toBeLessThanOrEqual(1100);
  });

  it('a refusal fails the call as refused, keeping its text, with no retry', async () => {
    fake.setDefault(llmReply.refusal('I cannot help with moving these funds.'));
    const err = await failure(gateway().complete(chat('openai/gpt-5-mini', { json: true })));
    expect(err.kind).toBe('refused');
    expect(err.message).toContain('"I cannot help with moving these funds."');
    expect(fake.requests).toHaveLength(1);
    // Billed all the same.
    expect(err.spent).toMatchObject({ promptTokens: 10, completionTokens: 5 });
  });

  it('empty choices and empty content are retried once, then fail as empty', async () => {
    fake.setDefault(llmReply.noChoices());
    expect((await failure(gateway().complete(chat('openai/gpt-5-mini')))).kind).toBe('empty');
    expect(fake.requests).toHaveLength(2);
    fake.reset();
    fake.setDefault({ content: '   ' });
    expect((await failure(gateway().complete(chat('openai/gpt-5-mini')))).kind).toBe('empty');
  });

  it('a JSON answer cut off at its limit fails as cut_off; a text answer cut off is kept and says so', async () => {
    fake.setDefault(llmReply.cutOff());
    const err = await failure(gateway().complete(chat('openai/gpt-5-mini', { json: true, maxTokens: 300 })));
    expect(err.kind).toBe('cut_off');
    expect(err.message).toContain('limit of 300 tokens');
    expect(fake.requests).toHaveLength(1);
    fake.reset();
    fake.setDefault({ content: 'The company stands well, its treasury', finishReason: 'length' });
    const text = await gateway().complete(chat('openai/gpt-5-mini'));
    expect(text).toMatchObject({ content: 'The company stands well, its treasury', finishReason: 'length' });
  });
});

describe('costs as billed', () => {
  it("records OpenRouter's usage.cost as the cost, not the list price", async () => {
    fake.reply(llmReply.billed('ok', 0.003159, { prompt_tokens: 1000, completion_tokens: 100 }));
    const result = await gateway().complete(chat('openai/gpt-5-mini'));
    expect(result.cost).toBe(0.003159);
    expect(costOf('openai/gpt-5-mini', 1000, 100)).not.toBe(0.003159);
    expect(result.usageEstimated).toBeUndefined();
  });

  it('believes no usage beyond what the request could have used: estimated, bounded, and flagged', async () => {
    fake.reply(llmReply.absurdUsage('fine'));
    const result = await gateway().complete(chat('openai/gpt-5-mini', { maxTokens: 500 }));
    expect(result.usageEstimated).toBe(true);
    expect(result.promptTokens).toBeLessThan(2_000);
    expect(result.completionTokens).toBeLessThanOrEqual(500);
    expect(result.cost).toBe(costOf('openai/gpt-5-mini', result.promptTokens, result.completionTokens));
    // A billed cost no call could cost is not believed either.
    fake.reply(llmReply.billed('fine', 82.7));
    const priced = await gateway().complete(chat('openai/gpt-5-mini', { maxTokens: 500 }));
    expect(priced.cost).toBe(costOf('openai/gpt-5-mini', 10, 5));
    // Missing usage is estimated from the text.
    fake.reply(llmReply.noUsage('x'.repeat(400)));
    const missing = await gateway().complete(chat('openai/gpt-5-mini'));
    expect(missing).toMatchObject({ usageEstimated: true, completionTokens: 100 });
  });

  it('names the model that answered, not the one asked for', async () => {
    fake.reply(llmReply.otherModel('ok', 'openai/gpt-4o-mini-2024-07-18'));
    expect((await gateway().complete(chat('openai/gpt-5-mini'))).model).toBe('openai/gpt-4o-mini-2024-07-18');
    // A provider's own endpoint names its model without the provider: recorded with it.
    const own = createOpenAiCompatibleProvider({ endpoints: { anthropic: { baseUrl: fake.url } } });
    fake.reply(llmReply.otherModel('ok', 'claude-haiku-4-5-20251001'));
    expect((await own.complete(chat('anthropic/claude-haiku-4.5'))).model).toBe('anthropic/claude-haiku-4-5-20251001');
  });

  it('adds what failed attempts were billed to the answer that followed', async () => {
    fake.reply(
      llmReply.refusal('no'),
      // A refusal is not retried: a malformed answer is, and its usage counts.
      { content: 'no json here', usage: { prompt_tokens: 100, completion_tokens: 20, cost: 0.001 } },
      llmReply.billed('{"ok":true}', 0.002, { prompt_tokens: 100, completion_tokens: 10 }),
    );
    await failure(gateway().complete(chat('openai/gpt-5-mini', { json: true })));
    const result = await gateway().complete(chat('openai/gpt-5-mini', { json: true }));
    expect(result).toMatchObject({ promptTokens: 200, completionTokens: 30, cost: 0.003 });
  });
});

describe('calls that end cleanly', () => {
  it('never follows a redirect: the other host gets neither the prompt nor the key', async () => {
    fake.setDefault(llmReply.redirect(`${elsewhere.url}/chat/completions`));
    const err = await failure(gateway().complete(chat('openai/gpt-5-mini')));
    expect(err.kind).toBe('http');
    expect(err.message).toMatch(/redirect, which is not followed/);
    expect(fake.requests).toHaveLength(1);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('beats before every attempt, and a beat that throws stops the call before it is sent', async () => {
    fake.reply(llmReply.status(500), llmReply.ok('second'));
    let beats = 0;
    const result = await gateway().complete(chat('openai/gpt-5-mini', { onAttempt: async () => void beats++ }));
    expect(result.content).toBe('second');
    expect(beats).toBe(2);
    fake.reset();
    fake.reply(llmReply.status(500), llmReply.ok('never asked'));
    let n = 0;
    const stopped = new Error('the round is no longer RUNNING');
    await expect(
      gateway().complete(
        chat('openai/gpt-5-mini', {
          onAttempt: async () => {
            if (++n === 2) throw stopped;
          },
        }),
      ),
    ).rejects.toBe(stopped);
    expect(fake.requests).toHaveLength(1);
  });

  it('a hanging endpoint times out each attempt', async () => {
    fake.setDefault(llmReply.hang());
    const err = await failure(gateway({ timeoutMs: 100, maxRetries: 1 }).complete(chat('openai/gpt-5-mini')));
    expect(err.kind).toBe('timeout');
    expect(fake.requests).toHaveLength(2);
  });
});

describe('calls in flight per provider', () => {
  it('holds each provider to its limit; a 429 halves it and pauses that provider only', async () => {
    let clock = 0;
    const limiter = createProviderLimiter(4, () => clock);
    const releases = await Promise.all([1, 2, 3, 4].map(() => limiter.acquire('gateway:openai')));
    let fifth = false;
    const waiting = limiter.acquire('gateway:openai').then((r) => {
      fifth = true;
      return r;
    });
    await Promise.resolve();
    expect(fifth).toBe(false);
    expect(limiter.state('gateway:openai')).toMatchObject({ limit: 4, inFlight: 4, waiting: 1 });
    // Another provider is not held up.
    (await limiter.acquire('gateway:google'))();
    limiter.rateLimited('gateway:openai', 1_000);
    expect(limiter.state('gateway:openai')).toMatchObject({ limit: 2, pausedForMs: 1_000 });
    for (const r of releases) r();
    await Promise.resolve();
    expect(fifth).toBe(false);
    clock = 1_001;
    releases[0]!();
    (await limiter.acquire('gateway:google'))();
    // Paused: the waiter goes once the pause ends (a timer), within the halved limit.
    await new Promise((r) => setTimeout(r, 1_100));
    expect(fifth).toBe(true);
    (await waiting)();
    // Successes as many as the limit give one back.
    limiter.succeeded('gateway:openai');
    limiter.succeeded('gateway:openai');
    expect(limiter.state('gateway:openai').limit).toBe(3);
  });

  it('a 429 from one provider pauses its next calls and leaves another provider at full pace', async () => {
    const p = gateway({ maxInFlight: 8, backoffBaseMs: 5 });
    let limited = 0;
    fake.setDefault((req) => {
      if (String(req.body.model).startsWith('openai/') && limited++ < 1) return llmReply.rateLimited('0.4');
      return llmReply.ok('ok');
    });
    const first = p.complete(chat('openai/gpt-5-mini'));
    await new Promise((r) => setTimeout(r, 100));
    // Asked after the 429: the openai call waits out the pause, the google one does not.
    const asked = performance.now();
    const timed = (promise: Promise<unknown>) => promise.then(() => performance.now() - asked);
    const [openaiMs, googleMs] = await Promise.all([
      timed(p.complete(chat('openai/gpt-5-mini'))),
      timed(p.complete(chat('google/gemini-2.5-flash'))),
    ]);
    await first;
    expect(openaiMs).toBeGreaterThanOrEqual(200);
    expect(googleMs).toBeLessThan(150);
  });
});
