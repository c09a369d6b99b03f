// How many rounds one engine process holds at once past 10,000 an hour: the schedule's need, up to ENGINE_CONCURRENCY
// and up to what its model calls in flight allow (LLM_MAX_IN_FLIGHT a lane, over the lanes open, at the calls a round
// has in flight), so rounds do not queue for a provider slot; and a round's calls spread over the lanes of its
// fallback models (LLM_SPREAD) when its own model's lane is full, so a second provider adds to what a process runs.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { createProviderLimiter } from '../../../src/domain/engine/models/limiter.ts';
import { createOpenAiCompatibleProvider } from '../../../src/domain/engine/models/openai.ts';
import type { ChatRequest, EngineModelId } from '../../../src/domain/engine/models/types.ts';
import { concurrencyFor, roundsProviderAllows } from '../../../src/domain/engine/pool.ts';
import { type FakeLlm, llmReply, startFakeLlm } from '../../helpers/fake-llm.ts';
import { CONTEXTS } from './fixtures.ts';

describe('the pool sizing rule', () => {
  // 6,000 companies every 600 s at 20 s a round: 200 rounds at once, 300 with headroom.
  const base = { scheduled: 6_000, due: 0, intervalS: 600, roundSeconds: 20, replicas: 1, max: 1_024 };

  it('follows the schedule past the old fixed cap of 128 when nothing else binds', () => {
    expect(concurrencyFor(base)).toBe(300);
    expect(concurrencyFor({ ...base, providerMax: Number.POSITIVE_INFINITY })).toBe(300);
  });

  it('stops at what the provider allows, just inside and just outside', () => {
    expect(concurrencyFor({ ...base, providerMax: 300 })).toBe(300);
    expect(concurrencyFor({ ...base, providerMax: 301 })).toBe(300);
    expect(concurrencyFor({ ...base, providerMax: 299 })).toBe(299);
    // ENGINE_CONCURRENCY still caps it, whichever is lower.
    expect(concurrencyFor({ ...base, max: 299, providerMax: 1_000 })).toBe(299);
    expect(concurrencyFor({ ...base, max: 301, providerMax: 1_000 })).toBe(300);
    // Two replicas each take half of the need, each within its own provider limit.
    expect(concurrencyFor({ ...base, replicas: 2, providerMax: 150 })).toBe(150);
    expect(concurrencyFor({ ...base, replicas: 2, providerMax: 149 })).toBe(149);
    // However small the schedule, the few places a hanging company needs, within what the provider allows.
    expect(concurrencyFor({ ...base, scheduled: 3, providerMax: 100 })).toBe(4);
    expect(concurrencyFor({ ...base, scheduled: 3, providerMax: 2 })).toBe(2);
  });

  it('allows as many rounds as the lanes take calls at once, at the calls a round has in flight', () => {
    // One lane of 256 calls at 2 calls a round: 128 rounds; 2.01 a round: 127; a second lane doubles it.
    expect(roundsProviderAllows({ limit: 256, lanes: 1, callsPerRound: 2 })).toBe(128);
    expect(roundsProviderAllows({ limit: 256, lanes: 1, callsPerRound: 2.01 })).toBe(127);
    expect(roundsProviderAllows({ limit: 512, lanes: 2, callsPerRound: 2 })).toBe(256);
    // A lane halved by a 429 allows half.
    expect(roundsProviderAllows({ limit: 128, lanes: 1, callsPerRound: 2 })).toBe(64);
    // A measured average near zero (rounds between their calls) is taken as half a call a round at least.
    expect(roundsProviderAllows({ limit: 256, lanes: 1, callsPerRound: 0 })).toBe(512);
    // No lane (the built-in model): no limit from the provider.
    expect(roundsProviderAllows({ limit: 0, lanes: 0, callsPerRound: 2 })).toBe(Number.POSITIVE_INFINITY);
  });

  it('sums the lanes of a provider, opened lanes included, and follows a 429', async () => {
    const limiter = createProviderLimiter(4);
    expect(limiter.total()).toEqual({ limit: 0, inFlight: 0, waiting: 0, lanes: 0 });
    limiter.open('gateway:anthropic');
    const releases = await Promise.all([1, 2, 3, 4].map(() => limiter.acquire('gateway:openai')));
    const fifth = limiter.acquire('gateway:openai');
    expect(limiter.total()).toEqual({ limit: 8, inFlight: 4, waiting: 1, lanes: 2 });
    limiter.rateLimited('gateway:openai', 0);
    expect(limiter.total().limit).toBe(6);
    for (const release of releases) release();
    (await fifth)();
    expect(limiter.total()).toMatchObject({ inFlight: 0, waiting: 0 });
  });

  it('ENGINE_CONCURRENCY is a safety cap of 1,024 by default; LLM_SPREAD is off unless on', () => {
    const config = loadConfig({});
    expect(config.engineConcurrency).toBe(1_024);
    expect(config.llmSpread).toBe(false);
    expect(loadConfig({ LLM_SPREAD: 'on' }).llmSpread).toBe(true);
    expect(() => loadConfig({ LLM_SPREAD: 'yes' })).toThrow(/LLM_SPREAD must be one of on, off/);
  });
});

describe('spreading a round’s calls over the lanes of its fallback models', () => {
  let fake: FakeLlm;
  beforeAll(async () => {
    fake = await startFakeLlm();
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  const chat = (model: EngineModelId, fallbacks: EngineModelId[]): ChatRequest => ({
    model,
    fallbacks,
    messages: [{ role: 'user', content: 'Decide.' }],
    task: { phase: 'brief', context: CONTEXTS.bonding },
    maxTokens: 100,
  });
  const provider = (spread: boolean) =>
    createOpenAiCompatibleProvider({
      gateway: { baseUrl: fake.url },
      maxInFlight: 1,
      maxRetries: 0,
      timeoutMs: 2_000,
      ...(spread && { spread: { models: ['anthropic/claude-haiku-4.5'] } }),
    });

  it('sends a call whose lane is full to a fallback model with a free lane, and records that model', async () => {
    fake.setDefault((r) => ({ ...llmReply.ok(`answer of ${r.body.model}`), delayMs: 300 }));
    const models = provider(true);
    // The fallback's lane is open from the start, so the pool counts it before any call goes there.
    expect(models.load?.()).toEqual({ limit: 1, inFlight: 0, waiting: 0, lanes: 1 });
    const first = models.complete(chat('openai/gpt-5-mini', ['anthropic/claude-haiku-4.5']));
    await new Promise((r) => setTimeout(r, 50));
    expect(models.load?.()).toMatchObject({ inFlight: 1, lanes: 2 });
    const started = performance.now();
    const second = await models.complete(chat('openai/gpt-5-mini', ['anthropic/claude-haiku-4.5']));
    // Not queued behind the first call's 300 ms: sent at once to the other lane.
    expect(second.model).toBe('anthropic/claude-haiku-4.5');
    expect(performance.now() - started).toBeLessThan(290 + 200);
    expect((await first).model).toBe('openai/gpt-5-mini');
    // With both lanes free, a call goes to its own model.
    expect((await models.complete(chat('openai/gpt-5-mini', ['anthropic/claude-haiku-4.5']))).model).toBe(
      'openai/gpt-5-mini',
    );
  });

  it('without spreading, the call waits for its own model’s lane', async () => {
    fake.setDefault((r) => ({ ...llmReply.ok(`answer of ${r.body.model}`), delayMs: 300 }));
    const models = provider(false);
    const first = models.complete(chat('openai/gpt-5-mini', ['anthropic/claude-haiku-4.5']));
    await new Promise((r) => setTimeout(r, 50));
    const second = await models.complete(chat('openai/gpt-5-mini', ['anthropic/claude-haiku-4.5']));
    expect(second.model).toBe('openai/gpt-5-mini');
    await first;
    expect(fake.requests.map((r) => r.body.model)).toEqual(['openai/gpt-5-mini', 'openai/gpt-5-mini']);
  });
});
