// Live rounds are not failed as stale while they wait for their provider: under back-pressure (one call in flight
// per provider, the roles phase's seven calls queued behind it) and through a 429's Retry-After sleep, the heartbeat
// keeps moving, so the stale job, run all along with a cut-off shorter than the wait, fails none of them. A round that
// is stopped meanwhile cancels its queued calls: they are never sent.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decisionRounds } from '../../../src/db/schema/decisions.ts';
import type { EngineDeps } from '../../../src/domain/engine/context.ts';
import { createOpenAiCompatibleProvider } from '../../../src/domain/engine/models/openai.ts';
import { runRound, startRound } from '../../../src/domain/engine/pipeline.ts';
import { failStaleRounds } from '../../../src/domain/engine/runner.ts';
import { useTestApp } from '../../helpers/app.ts';
import { staffedCompany } from '../../helpers/companies.ts';
import { type FakeLlm, llmReply, phaseOf, roundResponder, startFakeLlm } from '../../helpers/fake-llm.ts';

const t = useTestApp({ env: { MANUAL_ROUND_COOLDOWN_S: '0' } });
const STALE_MS = 1_000;
let fake: FakeLlm;
let companyIds: string[];

/** The engine with one call in flight per provider, and a stale period shorter than the waits it will see. */
const engine = (): EngineDeps => ({
  ...t.container,
  config: { ...t.container.config, roundStaleMs: STALE_MS },
  models: createOpenAiCompatibleProvider({
    gateway: { baseUrl: fake.url },
    timeoutMs: 800,
    maxRetries: 2,
    backoffBaseMs: 5,
    maxInFlight: 1,
  }),
});

/** Runs the stale job every 100 ms until `work` settles; returns what it failed. */
async function withStaleJob<T>(deps: EngineDeps, work: Promise<T>): Promise<{ result: T; failed: number }> {
  let failed = 0;
  let done = false;
  const job = (async () => {
    while (!done) {
      failed += await failStaleRounds(deps, STALE_MS);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  try {
    return { result: await work, failed };
  } finally {
    done = true;
    await job;
  }
}

beforeAll(async () => {
  companyIds = [];
  for (let i = 0; i < 2; i++) companyIds.push((await staffedCompany(t, 1 + i, { name: `Queue Co ${i}` })).id);
  fake = await startFakeLlm();
});
afterAll(() => fake?.close());

describe('rounds waiting for a provider slot', () => {
  it('are not failed as stale while queued behind one call in flight (waits of seconds, stale cut-off 1 s)', async () => {
    fake.reset();
    // Every answer takes 300 ms; seven role calls per round, two rounds, one at a time: 4 s and more in the queue.
    fake.setDefault(roundResponder({ latencyMs: [300, 300] }));
    const deps = engine();
    const rounds = await Promise.all(companyIds.map((id) => startRound(deps, id, 'SCHEDULED')));
    const { result, failed } = await withStaleJob(deps, Promise.all(rounds.map((r) => runRound(deps, r))));
    expect(failed).toBe(0);
    for (const round of result) expect(round.status, round.error ?? '').toBe('COMPLETE');
  }, 60_000);

  it('are not failed as stale while a 429 Retry-After longer than the cut-off is waited out', async () => {
    fake.reset();
    let limited = false;
    const answer = roundResponder();
    fake.setDefault((request) => {
      if (phaseOf(request) === 'brief' && !limited) {
        limited = true;
        return llmReply.rateLimited('2');
      }
      return answer(request);
    });
    const deps = engine();
    const round = await startRound(deps, companyIds[0]!, 'SCHEDULED');
    const started = Date.now();
    const { result, failed } = await withStaleJob(deps, runRound(deps, round));
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
    expect(failed).toBe(0);
    expect(result.status, result.error ?? '').toBe('COMPLETE');
  }, 60_000);

  it('cancels its queued calls once it is stopped: they are never sent', async () => {
    fake.reset();
    fake.setDefault(roundResponder({ latencyMs: [400, 400] }));
    const deps = engine();
    const round = await startRound(deps, companyIds[1]!, 'SCHEDULED');
    const running = runRound(deps, round);
    // Stop it (as the stale job of another process would) once its roles phase is queued.
    for (let i = 0; i < 200 && !fake.requests.some((r) => phaseOf(r) === 'role'); i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    await t.database.db
      .update(decisionRounds)
      .set({ status: 'FAILED', error: 'stopped by the test', finishedAt: new Date() })
      .where(eq(decisionRounds.id, round.id));
    const done = await running;
    expect(done.status).toBe('FAILED');
    await new Promise((r) => setTimeout(r, 1_000));
    // At most the call in flight and the one granted as the stop was found; never all seven.
    expect(fake.requests.filter((r) => phaseOf(r) === 'role').length).toBeLessThanOrEqual(2);
  }, 60_000);
});
