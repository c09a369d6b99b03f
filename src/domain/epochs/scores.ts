// The scores an epoch pays by (docs/api/epochs.md "The flow"): for every company with a treasury address, the sum
// of the overall scores of its counted daily snapshots in the epoch window divided by the window's number of days,
// as an integer. A day without a counted snapshot adds 0, so a company that ran part of the epoch earns its days'
// share: a company that joined on the last day is not paid like one that ran all week.
import { sql } from 'drizzle-orm';
import { rowsOf, type Tx } from '../../db/client.ts';
import { companies } from '../../db/schema/companies.ts';
import { scoreSnapshots } from '../../db/schema/scores.ts';
import { utcDateOf } from '../scores/dates.ts';

const DAY_S = 86_400n;

/** Scores are overall * SCORE_SCALE, rounded down: the snapshots' 2 decimals become whole numbers. */
export const SCORE_SCALE = 100n;

export interface EpochScore {
  companyId: string;
  treasuryAddress: string;
  /** floor(SCORE_SCALE * sum of counted daily overall / days of the window); never 0 (companies scoring 0 are left out). */
  score: bigint;
}

/** The first UTC date whose 00:00 is at or after `seconds`. */
function firstDateFrom(seconds: bigint): string {
  const day = (seconds + DAY_S - 1n) / DAY_S;
  return utcDateOf(Number(day * DAY_S) * 1000);
}

/**
 * The snapshot dates of a window [start, end) in seconds: a snapshot stands for 00:00 UTC of its date, so the
 * dates whose midnight falls in the window, as [from, until) (until exclusive), and how many they are.
 */
export function windowDates(start: bigint, end: bigint): { from: string; until: string; days: bigint } {
  const from = firstDateFrom(start);
  const until = firstDateFrom(end);
  const days = BigInt(Math.max(0, Date.parse(until) - Date.parse(from))) / (DAY_S * 1000n);
  return { from, until, days };
}

/**
 * The eligible companies of the window and their scores, by company id: floor(100 * sum of counted overall / days),
 * exactly (the snapshots have 2 decimals, so overall * 100 is a whole number). A snapshot dated D covers the day
 * [D - 24 h, D) and counts only when the company existed for all of it (created at or before D - 24 h): a
 * company's first, partial day never counts, whatever its activity, profile or money that day. A company without
 * a counted snapshot, or whose score is 0, is not eligible; so is one without a treasury address (the address the
 * reward is minted to).
 */
export async function epochScores(db: Tx, start: bigint, end: bigint): Promise<EpochScore[]> {
  const { from, until, days } = windowDates(start, end);
  if (days === 0n) return [];
  const scale = sql.raw(String(SCORE_SCALE));
  const divisor = sql.raw(String(days));
  const rows = rowsOf<{ companyId: string; treasuryAddress: string; score: string }>(
    await db.execute(sql`
      select c.id as "companyId", c.treasury_address as "treasuryAddress",
        div(sum(s.overall * ${scale}), ${divisor})::text as score
      from ${scoreSnapshots} s join ${companies} c on c.id = s.company_id
      where c.treasury_address is not null
        and s.snapshot_date >= ${from}::date and s.snapshot_date < ${until}::date
        and c.created_at <= ((s.snapshot_date - 1)::timestamp at time zone 'UTC')
      group by c.id, c.treasury_address
      having div(sum(s.overall * ${scale}), ${divisor}) > 0
      order by c.id`),
  );
  return rows.map((r) => ({ companyId: r.companyId, treasuryAddress: r.treasuryAddress, score: BigInt(r.score) }));
}
