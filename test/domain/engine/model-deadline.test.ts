// Every model-call attempt ends on time, whatever the answer's body does, even when garbage collections run during
// the attempt (Node's fetch followed the caller's AbortSignal through a weak reference, so after a GC an answer
// whose headers had arrived and whose body stalled or trickled ran until undici's own 300 s body timeout). The
// attempt's deadline and the round's own abort both end the socket: the fake server sees it close.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAiCompatibleProvider } from '../../../src/domain/engine/models/openai.ts';
import { type ChatRequest, ModelError } from '../../../src/domain/engine/models/types.ts';
import { type FakeLlm, llmReply, startFakeLlm } from '../../helpers/fake-llm.ts';
import { CONTEXTS } from './fixtures.ts';

// `--expose-gc` for this file: the flag set at run time, `gc` taken from a fresh context that sees it.
const gc: () => void =
  (globalThis as { gc?: () => void }).gc ??
  (() => {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  })();

const chat = (extra: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'google/gemini-2.5-flash',
  messages: [
    { role: 'system', content: 'You are the CFO of Acme Yield.' },
    { role: 'user', content: 'Propose one action for this cycle.' },
  ],
  task: { phase: 'brief', context: CONTEXTS.bonding },
  maxTokens: 200,
  ...extra,
});

/** Runs `work` while forcing a full garbage collection every 10 ms. */
async function underGc<T>(work: Promise<T>): Promise<{ settled: PromiseSettledResult<T>; ms: number; gcs: number }> {
  const started = performance.now();
  let gcs = 0;
  const collector = setInterval(() => {
    gc();
    gcs++;
  }, 10);
  try {
    const [settled] = await Promise.allSettled([work]);
    return { settled: settled!, ms: performance.now() - started, gcs };
  } finally {
    clearInterval(collector);
  }
}

async function closed(fake: FakeLlm): Promise<void> {
  for (let i = 0; i < 100 && fake.open > 0; i++) await new Promise((r) => setTimeout(r, 10));
  expect(fake.open).toBe(0);
}

describe('the deadline of a model-call attempt', () => {
  let fake: FakeLlm;
  beforeAll(async () => {
    fake = await startFakeLlm();
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  const provider = () =>
    createOpenAiCompatibleProvider({ gateway: { baseUrl: fake.url }, timeoutMs: 300, maxRetries: 0 });

  for (const [name, reply] of [
    ['stalls after its headers', llmReply.stallAfterHeaders()],
    ['trickles a byte every 20 ms', llmReply.trickle(20)],
  ] as const) {
    it(`ends an answer that ${name} at the timeout, with GCs forced during the attempt, and closes the socket`, async () => {
      fake.setDefault(reply);
      const { settled, ms, gcs } = await underGc(provider().complete(chat()));
      expect(gcs).toBeGreaterThanOrEqual(2);
      expect(settled.status).toBe('rejected');
      const err = (settled as PromiseRejectedResult).reason as ModelError;
      expect(err).toBeInstanceOf(ModelError);
      expect(err.kind).toBe('timeout');
      expect(err.message).toContain('no answer within 300 ms');
      expect(ms).toBeGreaterThanOrEqual(290);
      // The stalled body never ends and the trickle lasts a minute: well under either proves the deadline ended it,
      // with room for a two-core machine at load 10 running the suite beside it (2.9 s seen).
      expect(ms).toBeLessThan(10_000);
      // The provider may still bill it: recorded at its estimate (the prompt and the most the answer could be).
      expect(err.spent).toMatchObject({ estimated: true });
      expect(err.spent!.completionTokens).toBeGreaterThanOrEqual(200);
      expect(err.spent!.cost).toBeGreaterThan(0);
      await closed(fake);
    });
  }

  it("ends the socket on the round's own abort (shutdown, stale) while the body stalls, under GC", async () => {
    fake.setDefault(llmReply.stallAfterHeaders());
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('the round was stopped')), 100);
    // The attempt's own timer is far off: only the round's abort can end it this soon (the bound leaves room for a
    // loaded machine's forced GCs).
    const slow = createOpenAiCompatibleProvider({ gateway: { baseUrl: fake.url }, timeoutMs: 60_000, maxRetries: 0 });
    const { settled, ms } = await underGc(slow.complete(chat({ signal: controller.signal })));
    expect(settled.status).toBe('rejected');
    expect(String((settled as PromiseRejectedResult).reason)).toContain('the round was stopped');
    expect(ms).toBeLessThan(10_000);
    await closed(fake);
  });

  it('reads a whole answer as before and keeps the connection for the next call', async () => {
    fake.setDefault(llmReply.ok('fine'));
    // A whole answer is not a timeout test: the deadline is long enough that a loaded machine, with a full
    // collection every 10 ms, still reads both answers in it.
    const p = createOpenAiCompatibleProvider({ gateway: { baseUrl: fake.url }, timeoutMs: 10_000, maxRetries: 0 });
    const { settled } = await underGc(Promise.all([p.complete(chat()), p.complete(chat())]));
    expect(settled.status).toBe('fulfilled');
    expect((settled as PromiseFulfilledResult<{ content: string }[]>).value.map((r) => r.content)).toEqual([
      'fine',
      'fine',
    ]);
    expect(fake.requests[0]!.headers['user-agent']).toMatch(/^ai-economy-engine\//);
  });
});
