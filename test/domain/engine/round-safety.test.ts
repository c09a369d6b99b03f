// A decision round acts once and leaves an honest record, against a fake provider that hangs, answers absurd usage
// and fails at the worst moments: a round judged stale while its model call hangs never acts afterwards (the review's
// setup: stale 10 s, timeout 20 s, 4 retries, extraction hanging 4 times, here scaled down tenfold), a failure
// after execution keeps every action signed in the record, the FAILED record falls back to status and error alone,
// a process that dies mid-execution leaves the action it was in on the record, and a stopping engine ends its rounds
// as interrupted.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentActions } from '../../../src/db/schema/agents.ts';
import { decisionRounds } from '../../../src/db/schema/decisions.ts';
import type { EngineDeps } from '../../../src/domain/engine/context.ts';
import { claimExecution } from '../../../src/domain/engine/execution.ts';
import { createOpenAiCompatibleProvider } from '../../../src/domain/engine/models/openai.ts';
import { runRound, startRound } from '../../../src/domain/engine/pipeline.ts';
import { startEnginePool } from '../../../src/domain/engine/pool.ts';
import { failStaleRounds } from '../../../src/domain/engine/runner.ts';
import { useTestApp } from '../../helpers/app.ts';
import { signed, staffedCompany } from '../../helpers/companies.ts';
import { type FakeLlm, type FakeLlmReply, llmReply, roundResponder, startFakeLlm } from '../../helpers/fake-llm.ts';
import { tokenTrading } from '../../helpers/trading.ts';

// COMPANY_CUSTODY=none: this file is about the path where a company's agents act from their own wallets.
const t = useTestApp({ env: { COMPANY_CUSTODY: 'none', MANUAL_ROUND_COOLDOWN_S: '0' } });
const trading = tokenTrading(t);
const USDC = 1_000_000n;
let fake: FakeLlm;

type Co = Awaited<ReturnType<typeof staffedCompany>>;
let co: Co;

/** The engine with a model client on the fake, built directly (start-up would refuse these settings). */
const engine = (timeoutMs: number, maxRetries: number): EngineDeps => ({
  ...t.container,
  models: createOpenAiCompatibleProvider({ gateway: { baseUrl: fake.url }, timeoutMs, maxRetries, backoffBaseMs: 5 }),
});

const buyDecision = (): FakeLlmReply =>
  llmReply.ok(
    JSON.stringify({
      directive: 'Buy 5 USDC of SAFE.',
      actions: [{ role: 'CFO', tool: 'buy_token', args: { token: 'SAFE', usdc: '5' }, rationale: 'as directed' }],
    }),
  );

const roundsOf = (companyId: string) =>
  t.database.db.select().from(decisionRounds).where(eq(decisionRounds.companyId, companyId));
const signedActions = async (companyId: string) =>
  (await t.database.db.select().from(agentActions).where(eq(agentActions.companyId, companyId))).length;
const boughtLines = (rows: { actionsExecuted: string[] | null }[]) =>
  rows.flatMap((r) => (r.actionsExecuted ?? []).filter((l) => /^CFO buy_token: bought/.test(l)));
const until = async (check: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
};

/**
 * The database with its `update(...).set(values)` throwing `message` when `refuse(values)` says so, in and out of
 * transactions: a write that fails at a chosen moment.
 */
function refusingSet<T extends object>(
  db: T,
  refuse: (values: Record<string, unknown>) => boolean,
  message: string,
): T {
  const wrap = <D extends object>(target: D): D =>
    new Proxy(target, {
      get(d, prop, receiver) {
        if (prop === 'transaction') {
          return (run: (tx: unknown) => Promise<unknown>, ...rest: unknown[]) =>
            (d as { transaction: (...a: unknown[]) => Promise<unknown> }).transaction(
              (tx: object) => run(wrap(tx)),
              ...rest,
            );
        }
        if (prop !== 'update') return Reflect.get(d, prop, receiver);
        return (table: unknown) => {
          const builder = (d as { update: (t: unknown) => object }).update(table);
          return new Proxy(builder, {
            get(b, p, r) {
              if (p !== 'set') return Reflect.get(b, p, r);
              return (values: Record<string, unknown>) => {
                if (refuse(values)) throw new Error(message);
                return (b as { set: (v: unknown) => unknown }).set(values);
              };
            },
          });
        };
      },
    });
  return wrap(db);
}

beforeAll(async () => {
  const issuer = await staffedCompany(t, 2, { name: 'Safe Token Co' });
  await trading.launch(issuer.id, 'SAFE', 2);
  co = await staffedCompany(t, 1, { name: 'Once Co', category: 'SPOT_TRADING' });
  await trading.fund(1, co.cfo.address, 100n * USDC);
  // The owner's own signed directive names the token.
  const patched = await signed(t.app, 1, 'PATCH', `/api/companies/${co.id}`, {
    autonomyLevel: 'HUMAN_DIRECTED',
    ceoPrompt: 'Buy 5 USDC of SAFE.',
  });
  expect(patched.statusCode).toBe(200);
  fake = await startFakeLlm();
});

afterAll(async () => {
  await fake?.close();
});

describe('a round judged stale while its model hangs', () => {
  it('acts no more: of the round failed as stale and the round after it, exactly one buys', async () => {
    const deps = engine(2_000, 4);
    let extractions = 0;
    fake.setDefault(
      roundResponder({
        overrides: { extraction: () => (++extractions <= 4 ? llmReply.hang() : buyDecision()) },
      }),
    );
    const a = await startRound(deps, co.id, 'SCHEDULED');
    const ranA = runRound(deps, a);
    await until(() => extractions === 1);
    // No heartbeat for longer than the (scaled) stale limit while A's extraction hangs: A is failed.
    await new Promise((r) => setTimeout(r, 1_200));
    expect(await failStaleRounds(deps, 1_000)).toBe(1);
    const b = await startRound(deps, co.id, 'SCHEDULED');
    const doneB = await runRound(deps, b);
    const doneA = await ranA;

    expect(doneB.status).toBe('COMPLETE');
    expect(boughtLines([doneB])).toHaveLength(1);
    expect(doneA.status).toBe('FAILED');
    expect(doneA.error).toMatch(/interrupted/);
    const rows = await roundsOf(co.id);
    expect(boughtLines(rows)).toHaveLength(1);
    expect(await signedActions(co.id)).toBe(1);
    // A's model made no call after it was failed: B's extraction took requests 2 to 5.
    expect(extractions).toBe(5);
  }, 60_000);
});

describe('the record of a round that fails', () => {
  it('keeps the buy it signed when recording the finished round fails afterwards', async () => {
    const before = await signedActions(co.id);
    fake.reset();
    fake.setDefault(roundResponder({ overrides: { extraction: buyDecision } }));
    const base = engine(5_000, 0);
    let failed = false;
    // Recording the COMPLETE round breaks once (the database went away at that moment).
    const db = refusingSet(
      base.database.db,
      (values) => {
        if (values.status !== 'COMPLETE' || failed) return false;
        failed = true;
        return true;
      },
      'connection terminated unexpectedly',
    );
    const deps = { ...base, database: { ...base.database, db } } as EngineDeps;
    const round = await runRound(deps, await startRound(deps, co.id, 'MANUAL'));
    expect(failed).toBe(true);
    expect(round).toMatchObject({ status: 'FAILED', phase: 'execution' });
    expect(round.error).toMatch(/connection terminated/);
    expect(boughtLines([round])).toHaveLength(1);
    expect(round.actions).toEqual([
      { role: 'CFO', tool: 'buy_token', args: { token: 'SAFE', usdc: '5' }, rationale: 'as directed' },
    ]);
    expect(await signedActions(co.id)).toBe(before + 1);
  });

  it('records FAILED with status and error alone when the full record cannot be written', async () => {
    fake.reset();
    fake.setDefault(roundResponder({ overrides: { brief: () => llmReply.status(500) } }));
    const base = engine(5_000, 0);
    let refused = false;
    // The FAILED record with its phases is refused (as an overflowing column once made it); the status still lands.
    const db = refusingSet(
      base.database.db,
      (values) => {
        if (values.status !== 'FAILED' || !('phases' in values) || refused) return false;
        refused = true;
        return true;
      },
      'value out of range for type integer',
    );
    const deps = { ...base, database: { ...base.database, db } } as EngineDeps;
    const round = await runRound(deps, await startRound(deps, co.id, 'MANUAL'));
    expect(refused).toBe(true);
    expect(round.status).toBe('FAILED');
    expect(round.error).toMatch(/HTTP 500/);
    // Not RUNNING: the company's next round starts at once.
    const next = await startRound(deps, co.id, 'MANUAL');
    await t.database.db.update(decisionRounds).set({ status: 'FAILED' }).where(eq(decisionRounds.id, next.id));
  });

  it('a round whose process died mid-execution keeps a line for the action it was in', async () => {
    const round = await startRound(t.container as EngineDeps, co.id, 'SCHEDULED');
    const actions = [
      { role: 'CMO', tool: 'publish_update', args: { message: 'first' }, rationale: '' },
      { role: 'CFO', tool: 'buy_token', args: { token: 'SAFE', usdc: '1' }, rationale: '' },
    ];
    await claimExecution(t.container as EngineDeps, round.id, actions);
    // Action 0 ran and was recorded; action 1 was admitted and signed, then the process died.
    await t.database.db
      .update(decisionRounds)
      .set({ actionsExecuted: ['CMO publish_update: published: first'], heartbeatAt: new Date(Date.now() - 60_000) })
      .where(eq(decisionRounds.id, round.id));
    await t.database.db.insert(agentActions).values({
      key: `agent:${round.id}:1`,
      companyId: co.id,
      agentId: co.cfo.id,
      roundId: round.id,
      tool: 'buy_token',
      notionalUsdc: USDC,
      day: '2026-01-01',
      status: 'SENT',
      txHash: '0x1234',
    });
    expect(await failStaleRounds(t.container, 30_000)).toBe(1);
    const [row] = await t.database.db.select().from(decisionRounds).where(eq(decisionRounds.id, round.id));
    expect(row!.status).toBe('FAILED');
    expect(row!.actionsExecuted).toEqual([
      'CMO publish_update: published: first',
      expect.stringMatching(/^CFO buy_token: interrupted: the process stopped during this action \(SENT, tx 0x1234\)/),
    ]);
    await t.database.db.delete(agentActions).where(eq(agentActions.key, `agent:${round.id}:1`));
  });
});

describe('a stopping engine', () => {
  it('waits for its rounds up to the grace, then ends them as interrupted: nothing stays RUNNING', async () => {
    fake.reset();
    // Every brief hangs: the rounds cannot finish.
    fake.setDefault(roundResponder({ overrides: { brief: () => llmReply.hang() } }));
    const deps = engine(30_000, 0);
    const logs: string[] = [];
    const pool = startEnginePool(
      {
        ...deps,
        outbox: t.container.outbox,
        config: t.container.config,
        log: { warn: (_o, m) => logs.push(m), debug: () => {} },
      },
      { pollMs: 100, intervalS: 600, maxConcurrency: 8, shutdownGraceMs: 300 },
    );
    await until(() => fake.requests.length > 0);
    const started = Date.now();
    await pool.stop();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(logs).toContain('decision rounds still running at shutdown: ending them as interrupted');
    const running = await t.database.db.select().from(decisionRounds).where(eq(decisionRounds.status, 'RUNNING'));
    expect(running).toEqual([]);
    const interrupted = await t.database.db
      .select()
      .from(decisionRounds)
      .where(
        and(
          eq(decisionRounds.companyId, co.id),
          eq(decisionRounds.trigger, 'SCHEDULED'),
          eq(decisionRounds.phase, 'brief'),
        ),
      );
    expect(interrupted).toHaveLength(1);
    expect(interrupted[0]!.error).toMatch(/interrupted: the engine process stopped \(shutdown\)/);
  });
});
