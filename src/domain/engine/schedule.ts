// The decision schedule (docs/api/decisions.md "Scheduling"): every company with an active agent runs a round once
// per DECISION_INTERVAL_S, at a slot of its own within the interval (an offset from a hash of its id), so rounds
// spread over the interval as a real schedule does rather than all falling due at once. Slots are counted on the
// chain's clock, the one clock of the economy: when the local chain's clock is moved, schedules move with it. A
// company is due when its slot has come; the engine's replicas claim due companies and start their rounds in one
// statement (FOR UPDATE SKIP LOCKED), so no company is claimed twice and each replica takes its own share.
import { inArray, sql } from 'drizzle-orm';
import { rowsOf } from '../../db/client.ts';
import { decisionRounds } from '../../db/schema/decisions.ts';
import type { Deps } from '../deps.ts';
import { insertScheduledRounds, type RoundRow } from './rounds.ts';

type ScheduleDeps = Pick<Deps, 'database' | 'now'>;

/**
 * The company's next slot after a round at `now`: the first slot of its own at least half an interval later, so a
 * round run late (or a new company's first, run at once) is not followed by another within the same interval.
 * SQL over the schedule row's `s.company_id`, the interval in seconds and `now`.
 */
const nextSlot = (intervalS: number, now: string) => {
  const offset = sql`mod(hashtext(s.company_id)::bigint + 2147483648, ${intervalS}::bigint)`;
  return sql`to_timestamp(${offset} + ceil((extract(epoch from ${now}::timestamptz) + ${intervalS / 2}::float8 - ${offset}) / ${intervalS}::float8) * ${intervalS}::float8)`;
};

/**
 * Puts on the schedule every company with an active agent that is not on it yet (due at once: a company's first
 * round is not kept waiting), and takes off those without one.
 */
export async function syncSchedule(deps: ScheduleDeps, now: Date): Promise<void> {
  const db = deps.database.db;
  await db.execute(sql`
    insert into decision_schedule (company_id, next_at)
    select c.id, ${now.toISOString()}::timestamptz from companies c
    where exists (select 1 from agents a where a.company_id = c.id and a.status = 'ACTIVE')
      and not exists (select 1 from decision_schedule s where s.company_id = c.id)
    on conflict do nothing`);
  await db.execute(sql`
    delete from decision_schedule s
    where not exists (select 1 from agents a where a.company_id = s.company_id and a.status = 'ACTIVE')`);
}

/** Companies whose slot has come by `now` and that run no round now, longest waiting first. */
export async function dueOnSchedule(deps: ScheduleDeps, now: Date, limit: number): Promise<string[]> {
  const rows = rowsOf<{ company_id: string }>(
    await deps.database.db.execute(sql`
      select s.company_id from decision_schedule s
      where s.next_at <= ${now.toISOString()}::timestamptz
        and not exists (select 1 from decision_rounds r where r.company_id = s.company_id and r.status = 'RUNNING')
      order by s.next_at, s.company_id
      limit ${limit}`),
  );
  return rows.map((r) => r.company_id);
}

/** How many companies are on the schedule, and how many of them are due by `now`. */
export async function scheduleLoad(deps: ScheduleDeps, now: Date): Promise<{ scheduled: number; due: number }> {
  const [row] = rowsOf<{ scheduled: number; due: number }>(
    await deps.database.db.execute(sql`
      select count(*)::int as scheduled,
             count(*) filter (where next_at <= ${now.toISOString()}::timestamptz)::int as due
      from decision_schedule`),
  );
  return row ?? { scheduled: 0, due: 0 };
}

/**
 * Claims up to `limit` due companies and starts a SCHEDULED round of each, RUNNING, in one statement: the claimed
 * rows move to their next slot and the rounds are inserted together, each recording the slot it ran for. Rows
 * another replica is claiming are skipped (SKIP LOCKED); a company running a round (a manual one) is not claimed.
 */
export async function claimDueRounds(
  deps: ScheduleDeps,
  options: { now: Date; intervalS: number; limit: number },
): Promise<RoundRow[]> {
  if (options.limit <= 0) return [];
  const now = options.now.toISOString();
  const started = await insertScheduledRounds(
    deps.database.db,
    sql`
      with due as (
        select s.company_id, s.next_at from decision_schedule s
        where s.next_at <= ${now}::timestamptz
          and not exists (select 1 from decision_rounds r where r.company_id = s.company_id and r.status = 'RUNNING')
        order by s.next_at, s.company_id
        limit ${options.limit}
        for update of s skip locked
      ),
      numbered as (select company_id, next_at, row_number() over (order by next_at, company_id) as n from due),
      claimed as (
        update decision_schedule s set next_at = ${nextSlot(options.intervalS, now)}
        from numbered d where s.company_id = d.company_id
        returning s.company_id, d.next_at as slot, d.n
      )`,
    { limit: options.limit, heartbeatAt: new Date(deps.now()), createdAt: options.now },
  );
  if (started.length === 0) return [];
  return deps.database.db.select().from(decisionRounds).where(inArray(decisionRounds.id, started));
}
