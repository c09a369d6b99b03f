// The decision schedule and the continuous pool: slots spread over the interval, a company claimed once however
// many replicas claim at once, a pool that a hanging company does not hold up, concurrency sized from the schedule
// and split between the replicas alive, and due-ness by the chain's clock (it follows the chain when the chain's
// clock moves 3 days while the server's does not).
import { createId } from '@paralleldrive/cuid2';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devAccount } from '../../../src/chain/client.ts';
import { AGENT_ROLES } from '../../../src/constants.ts';
import { rowsOf } from '../../../src/db/client.ts';
import { decisionRounds, decisionSchedule, engineReplicas } from '../../../src/db/schema/decisions.ts';
import type { EngineDeps } from '../../../src/domain/engine/context.ts';
import { createOpenAiCompatibleProvider } from '../../../src/domain/engine/models/openai.ts';
import { concurrencyFor, startEnginePool } from '../../../src/domain/engine/pool.ts';
import { dueCompanies, runDueRounds } from '../../../src/domain/engine/runner.ts';
import { claimDueRounds, syncSchedule } from '../../../src/domain/engine/schedule.ts';
import { useTestApp } from '../../helpers/app.ts';
import { type FakeLlm, llmReply, roundResponder, startFakeLlm } from '../../helpers/fake-llm.ts';

const t = useTestApp({ env: { COMPANY_GAS_BUDGET: '1000000000000' } });
const DAY_S = 86_400;
let fake: FakeLlm;

/** `n` companies of seven active agents each, written as deploy-suite leaves them (no wallets: no trading reads). */
let cards = 100_000;
async function companiesWithAgents(n: number, prefix: string): Promise<string[]> {
  const ids = Array.from({ length: n }, (_, i) => `${prefix}-${i}-${createId().slice(0, 6)}`);
  const creator = devAccount(1).address;
  const firstCard = cards;
  cards += n;
  await t.database.db.execute(sql`
    insert into companies (id, slug, name, category, creator_address, card_token_id)
    select id, id, 'Co ' || id, 'AI_TOKENS', ${creator}, ${firstCard} + n
    from unnest(${`{${ids.join(',')}}`}::text[]) with ordinality as t(id, n)`);
  const roles = `{${AGENT_ROLES.join(',')}}`;
  await t.database.db.execute(sql`
    insert into agents (id, company_id, name, role, status, creator_address, persona, skills, strategy)
    select c || '-' || r, c, r || ' of ' || c, r, 'ACTIVE', ${creator},
      jsonb_build_object('role', r, 'description', 'test agent'), '["research"]'::jsonb,
      '{"type":"momentum","preset":"BALANCED"}'::jsonb
    from unnest(${`{${ids.join(',')}}`}::text[]) as c, unnest(${roles}::text[]) as r`);
  return ids;
}

const engine = (): EngineDeps & Pick<typeof t.container, 'outbox' | 'config'> => ({
  ...t.container,
  models: createOpenAiCompatibleProvider({ gateway: { baseUrl: fake.url }, timeoutMs: 10_000, maxRetries: 0 }),
});
const silent = { warn: () => {}, debug: () => {} };
const until = async (check: () => Promise<boolean>, ms = 20_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
};
const chainNow = async () => Number((await t.chain.chain.publicClient.getBlock()).timestamp);

beforeAll(async () => {
  fake = await startFakeLlm();
  fake.setDefault(roundResponder());
});
afterAll(async () => {
  await fake?.close();
});

describe('the schedule', () => {
  it('spreads the companies’ next slots over the interval, each at least half an interval after its round', async () => {
    const ids = await companiesWithAgents(240, 'spread');
    const now = new Date((await chainNow()) * 1000);
    await syncSchedule(t.container, now);
    const claimed = await claimDueRounds(t.container, { now, intervalS: 600, limit: 1000 });
    expect(claimed.map((r) => r.companyId)).toEqual(expect.arrayContaining(ids));
    // Ended at once (no model is asked here): the slots are what is under test.
    await t.database.db
      .update(decisionRounds)
      .set({ status: 'FAILED', error: 'test' })
      .where(inArray(decisionRounds.companyId, ids));
    const rows = await t.database.db.select().from(decisionSchedule).where(inArray(decisionSchedule.companyId, ids));
    const offsets = rows.map((r) => (r.nextAt.getTime() - now.getTime()) / 1000);
    for (const s of offsets) {
      expect(s).toBeGreaterThanOrEqual(300);
      expect(s).toBeLessThanOrEqual(900);
    }
    // Spread: 240 companies over ten minutes, no minute holds more than three times its share.
    const perMinute = new Map<number, number>();
    for (const s of offsets) perMinute.set(Math.floor(s / 60), (perMinute.get(Math.floor(s / 60)) ?? 0) + 1);
    expect(Math.max(...perMinute.values())).toBeLessThanOrEqual(3 * (240 / 10));
    expect(perMinute.size).toBeGreaterThanOrEqual(9);
    // Each round records the slot it ran for.
    expect(claimed.every((r) => r.trigger === 'SCHEDULED' && r.scheduledFor !== null)).toBe(true);
    // None is due again before its slot.
    expect(await dueCompanies(t.container, 1000)).not.toEqual(expect.arrayContaining([ids[0]]));
  });

  it('claims a company once however many claims run at once', async () => {
    const ids = await companiesWithAgents(30, 'race');
    const now = new Date((await chainNow()) * 1000);
    await syncSchedule(t.container, now);
    const claims = await Promise.all(
      Array.from({ length: 4 }, () => claimDueRounds(t.container, { now, intervalS: 600, limit: 20 })),
    );
    const mine = claims.flat().filter((r) => ids.includes(r.companyId));
    expect(mine).toHaveLength(30);
    expect(new Set(mine.map((r) => r.companyId)).size).toBe(30);
    await t.database.db
      .update(decisionRounds)
      .set({ status: 'FAILED', error: 'test' })
      .where(inArray(decisionRounds.companyId, ids));
  });
});

describe('the continuous pool', () => {
  it('sizes the concurrency from the schedule, more while companies wait, split between the replicas', () => {
    // 1,667 companies every 600 s at 19 s a round: 53 at once, with headroom 80; two replicas take half each.
    const base = { scheduled: 1_667, due: 0, intervalS: 600, roundSeconds: 19, max: 256 };
    expect(concurrencyFor({ ...base, replicas: 1 })).toBe(80);
    expect(concurrencyFor({ ...base, replicas: 2 })).toBe(40);
    // 1,667 due at once (a cold start): caught up within about two minutes, up to the cap.
    expect(concurrencyFor({ ...base, due: 1_667, replicas: 1 })).toBe(256);
    // However small the schedule, a few places: one hanging company must not hold up the rest.
    expect(concurrencyFor({ ...base, scheduled: 3, replicas: 3 })).toBe(4);
    expect(concurrencyFor({ ...base, scheduled: 3, replicas: 1, max: 2 })).toBe(2);
  });

  it('a hanging company holds one place; the others’ rounds run and end meanwhile', async () => {
    const ids = await companiesWithAgents(6, 'pool');
    const [stuck] = ids;
    fake.setDefault(
      roundResponder({
        overrides: {
          brief: (r) => (r.raw.includes(`Co ${stuck}`) ? llmReply.hang() : llmReply.ok('A brief.')),
        },
      }),
    );
    const pool = startEnginePool(
      { ...engine(), log: silent },
      { pollMs: 100, intervalS: 600, maxConcurrency: 4, shutdownGraceMs: 200, syncMs: 0 },
    );
    try {
      await until(async () => {
        const done = await t.database.db
          .select({ id: decisionRounds.id })
          .from(decisionRounds)
          .where(
            sql`${decisionRounds.companyId} in (${sql.join(
              ids.slice(1).map((id) => sql`${id}`),
              sql`, `,
            )}) and ${decisionRounds.status} = 'COMPLETE'`,
          );
        return done.length === 5;
      });
      const [held] = await t.database.db.select().from(decisionRounds).where(eq(decisionRounds.companyId, stuck!));
      expect(held!.status).toBe('RUNNING');
    } finally {
      await pool.stop();
      fake.setDefault(roundResponder());
    }
    const [ended] = await t.database.db.select().from(decisionRounds).where(eq(decisionRounds.companyId, stuck!));
    expect(ended!.status).toBe('FAILED');
  });

  it('two replicas share the work: each runs rounds, no company runs twice, both record themselves', async () => {
    const ids = await companiesWithAgents(16, 'replica');
    fake.setDefault(roundResponder({ latencyMs: [20, 60] }));
    const options = { pollMs: 100, intervalS: 600, maxConcurrency: 3, shutdownGraceMs: 1_000, syncMs: 0 };
    const ran = [new Set<string>(), new Set<string>()];
    const pools = [0, 1].map((i) =>
      startEnginePool(
        {
          ...engine(),
          models: {
            kind: 'counting',
            complete: (request) => {
              if (request.task.phase === 'brief') ran[i]!.add(request.task.context.company.id);
              return engine().models.complete(request);
            },
          },
          log: silent,
        },
        options,
      ),
    );
    try {
      await until(async () => {
        const replicas = await t.database.db.select().from(engineReplicas);
        return replicas.length === 2;
      });
      await until(async () => {
        const rows = await t.database.db
          .select({ companyId: decisionRounds.companyId })
          .from(decisionRounds)
          .where(and(inArray(decisionRounds.companyId, ids), eq(decisionRounds.status, 'COMPLETE')));
        return rows.length >= 16;
      }, 60_000);
    } finally {
      await Promise.all(pools.map((p) => p.stop()));
      fake.setDefault(roundResponder());
    }
    const rows = await t.database.db.select().from(decisionRounds).where(inArray(decisionRounds.companyId, ids));
    // One scheduled round per company for its slot: none ran twice.
    expect(rows).toHaveLength(16);
    expect(new Set(rows.map((r) => r.companyId)).size).toBe(16);
    expect(rows.every((r) => r.status === 'COMPLETE')).toBe(true);
    expect(ran[0]!.size).toBeGreaterThan(0);
    expect(ran[1]!.size).toBeGreaterThan(0);
    expect(await t.database.db.select().from(engineReplicas)).toEqual([]);
  });
});

describe('one clock', () => {
  it('a company that just ran is due again once the chain’s clock moves 3 days, the server’s unmoved', async () => {
    const [id] = await companiesWithAgents(1, 'clock');
    // The other companies' slots would all come in three days too: only this one is under test.
    await t.database.db.execute(sql`delete from decision_schedule`);
    await t.database.db.execute(sql`update agents set status = 'TERMINATED' where company_id <> ${id}`);
    expect(await runDueRounds(engine(), { intervalS: 3600, concurrency: 4, limit: 1000 })).toBeGreaterThanOrEqual(1);
    expect(await dueCompanies(t.container, 1000)).not.toContain(id);
    const client = t.chain.chain.publicClient;
    const before = await chainNow();
    await client.request({ method: 'evm_increaseTime' as never, params: [3 * DAY_S] as never });
    await client.request({ method: 'evm_mine' as never, params: [] as never });
    // By the server's clock it ran moments ago; by the chain's, three days ago.
    expect(await dueCompanies(t.container, 1000)).toContain(id);
    expect(await runDueRounds(engine(), { intervalS: 3600, concurrency: 4, limit: 1000 })).toBeGreaterThanOrEqual(1);
    const rounds = await t.database.db
      .select()
      .from(decisionRounds)
      .where(eq(decisionRounds.companyId, id!))
      .orderBy(decisionRounds.cycle);
    expect(rounds).toHaveLength(2);
    // The round is dated by the chain's clock, and so is the slot it ran for.
    const second = rounds[1]!;
    expect(second.createdAt.getTime() / 1000).toBeGreaterThanOrEqual(before + 3 * DAY_S - 5);
    expect(second.createdAt.getTime()).toBeGreaterThan(Date.now() + 2 * DAY_S * 1000);
    // It ran for the slot that fell due while the chain's clock moved (three days late by that clock); the next
    // slot is counted from the chain's now.
    expect(second.scheduledFor!.getTime() / 1000).toBeLessThan(before + 2 * 3600);
    const [next] = await t.database.db.select().from(decisionSchedule).where(eq(decisionSchedule.companyId, id!));
    expect(next!.nextAt.getTime() / 1000).toBeGreaterThanOrEqual(before + 3 * DAY_S + 1800 - 5);
    const [load] = rowsOf<{ n: number }>(
      await t.database.db.execute(sql`select count(*)::int as n from decision_rounds where status = 'RUNNING'`),
    );
    expect(load!.n).toBe(0);
  });
});
