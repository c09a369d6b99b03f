// The scores an epoch pays by (docs/api/epochs.md "The flow"): for every company with a treasury address, the
// mean overall score of its daily snapshots whose date falls in the epoch window, as an integer.
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
  /** floor(SCORE_SCALE * mean overall); never 0 (companies scoring 0 are left out). */
  score: bigint;
}

/** The first UTC date whose 00:00 is at or after `seconds`. */
function firstDateFrom(seconds: bigint): string {
  const day = (seconds + DAY_S - 1n) / DAY_S;
  return utcDateOf(Number(day * DAY_S) * 1000);
}

/**
 * The snapshot dates of a window [start, end) in seconds: a snapshot stands for 00:00 UTC of its date, so the
 * dates whose midnight falls in the window, as [from, until) (until exclusive).
 */
export function windowDates(start: bigint, end: bigint): { from: string; until: string } {
  return { from: firstDateFrom(start), until: firstDateFrom(end) };
}

/**
 * The eligible companies of the window and their scores, by company id. The mean is taken exactly: the sum of
 * overall * 100 (whole numbers, the snapshots have 2 decimals) divided by the number of snapshots with integer
 * division, which is floor(100 * mean). A company without a snapshot in the window, or whose score is 0, is not
 * eligible; so is one without a treasury address (now: the address the reward is minted to).
 */
export async function epochScores(db: Tx, start: bigint, end: bigint): Promise<EpochScore[]> {
  const { from, until } = windowDates(start, end);
  const rows = rowsOf<{ companyId: string; treasuryAddress: string; score: string }>(
    await db.execute(sql`
      select c.id as "companyId", c.treasury_address as "treasuryAddress",
        div(sum(s.overall * ${sql.raw(String(SCORE_SCALE))}), count(*))::text as score
      from ${scoreSnapshots} s join ${companies} c on c.id = s.company_id
      where c.treasury_address is not null
        and s.snapshot_date >= ${from}::date and s.snapshot_date < ${until}::date
      group by c.id, c.treasury_address
      having div(sum(s.overall * ${sql.raw(String(SCORE_SCALE))}), count(*)) > 0
      order by c.id`),
  );
  return rows.map((r) => ({ companyId: r.companyId, treasuryAddress: r.treasuryAddress, score: BigInt(r.score) }));
}
