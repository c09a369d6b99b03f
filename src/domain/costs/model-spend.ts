// Daily caps on model spend (docs/api/decisions.md "Spending caps"): each company's, set by its creator within
// COMPANY_MODEL_SPEND_CAP_MAX_MICRO_USD (that maximum when it set none), and the platform's
// (PLATFORM_MODEL_SPEND_CAP_MICRO_USD, none when 0). A day is the chain's UTC day (the one clock of the economy); a
// round counts toward the day it started in, by what its model calls were billed (decision_rounds.llm_cost,
// micro-USD, failed and timed-out attempts included). A round starts only when the most it may spend (its
// reservation: each phase's budget and each agent's) still fits under both caps; otherwise it does not start and
// says why. Rounds still running count at the asking round's reservation (their bills are not in yet), so rounds
// running at once do not pass a cap together unnoticed; so does a finished round some of whose cost is unknown (an
// unpriced model that did not say what it billed: a phase with `costUnknown`), at least, since what it cost is not
// known to be less.
import { and, eq, gte, ne, sql } from 'drizzle-orm';
import { COMPANY_MODEL_SPEND_CAP_MAX_MICRO_USD } from '../../constants.ts';
import { rowsOf, type Tx } from '../../db/client.ts';
import { companies } from '../../db/schema/companies.ts';
import { decisionRounds } from '../../db/schema/decisions.ts';
import { AppError } from '../../errors.ts';
import type { Deps } from '../deps.ts';
import { dayOf } from './gas-budget.ts';

const DAY_MS = 86_400_000;

/** The phases budgeted apart from the agents' (each the size of an agent's budget): brief, scrape, synthesis, extraction. */
export const BUDGETED_PHASES = 4;

/** The most a round of a company with `agents` active agents, each allowed `allocation` micro-USD, may spend. */
export const roundReservation = (allocation: number, agents: number) =>
  BigInt(allocation) * BigInt(BUDGETED_PHASES + agents);

/** micro-USD as a decimal USD string ("12.5", "0.000001"). */
export function usdText(microUsd: bigint): string {
  const whole = microUsd / 1_000_000n;
  const frac = (microUsd % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : `${whole}`;
}

/** A decimal USD string (at most 6 decimals) as micro-USD; undefined when it is not one. */
export function parseUsd(text: string): bigint | undefined {
  const m = /^(\d{1,12})(?:\.(\d{1,6}))?$/.exec(text);
  if (!m) return undefined;
  return BigInt(m[1]!) * 1_000_000n + BigInt((m[2] ?? '').padEnd(6, '0'));
}

/** The company's daily cap in micro-USD: what its creator set, else the platform's maximum. */
export const companyCap = (c: { dailyModelSpendCap: bigint | null }) =>
  c.dailyModelSpendCap ?? COMPANY_MODEL_SPEND_CAP_MAX_MICRO_USD;

export interface SpendToday {
  /** The chain's UTC day, YYYY-MM-DD. */
  day: string;
  /**
   * micro-USD billed today by finished rounds (one whose cost is partly unknown at no less than the reservation),
   * plus the reservation of each round still running.
   */
  spent: bigint;
  resetsAt: string;
}

/**
 * What rounds spent today (the chain's day of `nowMs`): the company's, or the platform's when `companyId` is
 * undefined. `exceptRound` leaves out a round (the one asking, counted by its own reservation); running rounds count
 * at `reservation` each.
 */
export async function spendToday(
  db: Tx,
  nowMs: number,
  o: { companyId?: string; exceptRound?: string; runningAt: bigint },
): Promise<SpendToday> {
  const day = dayOf(nowMs);
  const start = new Date(Date.parse(`${day}T00:00:00Z`));
  const where = and(
    gte(decisionRounds.createdAt, start),
    o.companyId === undefined ? undefined : eq(decisionRounds.companyId, o.companyId),
    o.exceptRound === undefined ? undefined : ne(decisionRounds.id, o.exceptRound),
  );
  const [row] = rowsOf<{ billed: string | null; running: string | null }>(
    await db.execute(sql`
      select sum(case when ${decisionRounds.phases} @> '[{"costUnknown": true}]'::jsonb
          then greatest(${decisionRounds.llmCost}, ${o.runningAt.toString()}::bigint)
          else ${decisionRounds.llmCost} end) filter (where ${decisionRounds.status} <> 'RUNNING') as billed,
        count(*) filter (where ${decisionRounds.status} = 'RUNNING') as running
      from ${decisionRounds} where ${where}`),
  );
  const spent = BigInt(row?.billed ?? 0) + BigInt(row?.running ?? 0) * o.runningAt;
  return { day, spent, resetsAt: new Date(start.getTime() + DAY_MS).toISOString() };
}

/**
 * 429 MODEL_SPEND_CAP_REACHED (Retry-After: until the chain's next UTC day) when a round reserving `reservation`
 * micro-USD would take the company or the platform past its daily cap. `roundId`: the round asking, when its row
 * exists already (a scheduled round), left out of the sums.
 */
export async function requireModelSpendHeadroom(
  deps: Pick<Deps, 'config' | 'database'>,
  companyId: string,
  o: { nowMs: number; reservation: bigint; roundId?: string },
): Promise<void> {
  const db = deps.database.db;
  const [company] = await db
    .select({ dailyModelSpendCap: companies.dailyModelSpendCap })
    .from(companies)
    .where(eq(companies.id, companyId));
  const base = { nowMs: o.nowMs, runningAt: o.reservation, ...(o.roundId && { exceptRound: o.roundId }) };
  const cap = companyCap(company ?? { dailyModelSpendCap: null });
  const own = await spendToday(db, o.nowMs, { ...base, companyId });
  if (own.spent + o.reservation > cap) {
    throw capReached(
      `the company's daily model-spend cap of ${usdText(cap)} USD: ${usdText(own.spent)} USD spent or reserved today (${own.day}, the chain's day) and a round may spend up to ${usdText(o.reservation)} USD`,
      own,
      o.nowMs,
    );
  }
  const platformCap = deps.config.platformModelSpendCap;
  if (platformCap === 0n) return;
  const all = await spendToday(db, o.nowMs, base);
  if (all.spent + o.reservation > platformCap) {
    throw capReached(
      `the platform's daily model-spend cap of ${usdText(platformCap)} USD: ${usdText(all.spent)} USD spent or reserved today (${all.day}, the chain's day) and a round may spend up to ${usdText(o.reservation)} USD`,
      all,
      o.nowMs,
    );
  }
}

function capReached(what: string, today: SpendToday, nowMs: number) {
  const retryAfterS = Math.max(1, Math.ceil((Date.parse(today.resetsAt) - nowMs) / 1000));
  return new AppError(
    'MODEL_SPEND_CAP_REACHED',
    `Not started: the round would pass ${what}. Rounds start again after ${today.resetsAt}`,
    { headers: { 'retry-after': String(retryAfterS) } },
  );
}
