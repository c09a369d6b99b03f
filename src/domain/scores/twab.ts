// The treasury's raw value (docs/api/fortune.md "Treasury"): the time-weighted average USDC balance, over the day a
// snapshot covers, of the treasuries the company proved it controls, each for the part of the day it was the
// company's, divided by the whole day: money held for an hour counts for an hour, and a treasury set during the day
// counts from that moment. Exact, from the balance observations the treasury stream records (domain/treasuries/):
// the integral of a balance over [a, b) is cumulative(b) - cumulative(a), where cumulative(t) is the last
// observation at or before t carried forward to t, as PoolTogether v5's TwabLib.getTwabBetween computes it. Two
// index lookups per treasury span, whatever the number of transfers.
import { sql } from 'drizzle-orm';

const DAY_S = 86_400;

/**
 * cumulative(t) of the span's address, t an SQL expression, from the observations of blocks at or below
 * `finalBlock` (null: all); null before its first observation (nothing held).
 */
const cumulativeAt = (t: string, finalBlock: bigint | null) =>
  sql.raw(`(
    select o.cumulative + o.balance * (extract(epoch from ${t}) - extract(epoch from o.observed_at))
    from treasury_observations o
    where o.address = s.address and o.observed_at <= ${t}${
      finalBlock === null ? '' : ` and o.block_number <= ${BigInt(finalBlock).toString()}`
    }
    order by o.observed_at desc, o.block_number desc, o.log_index desc
    limit 1)`);

/**
 * The body of a `treasury (company_id, balance)` CTE: each company's time-weighted average treasury balance over
 * [fromIso, toIso) (one day), in USDC base units rounded down, from the balance observations of blocks at or below
 * `finalBlock` (the treasury stream's finalized block; null: unbounded); companies without a proven treasury in the
 * day are absent.
 */
export function treasuryTwab(fromIso: string, toIso: string, finalBlock: bigint | null) {
  return sql`
    select s.company_id,
      div(sum(coalesce(${cumulativeAt('s.b', finalBlock)}, 0) - coalesce(${cumulativeAt('s.a', finalBlock)}, 0)), ${sql.raw(String(DAY_S))})
        as balance
    from (
      select company_id, address,
        greatest(from_time, ${fromIso}::timestamptz) as a,
        least(coalesce(until_time, ${toIso}::timestamptz), ${toIso}::timestamptz) as b
      from company_treasuries
      where from_time < ${toIso}::timestamptz and (until_time is null or until_time > ${fromIso}::timestamptz)
    ) s
    where s.b > s.a
    group by s.company_id`;
}
