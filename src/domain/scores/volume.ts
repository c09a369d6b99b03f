// Counted volume of the score snapshot (DESIGN.md "Scores", docs/api/fortune.md "Volume"): the trading of a
// company's token that trading with oneself does not raise. Two rules, both set-based over one day of token_trades:
//
// 1. Netting: each trader's trades of the token over the day count as the net change of their position, valued at
//    their own average price on the side that grew it: bought > sold counts (bought - sold) * paid / bought, sold >
//    bought counts (sold - bought) * received / sold. A round trip (buy, then sell the same tokens) counts 0 however
//    often it is repeated; a trader never counts more USDC than they moved on that side.
// 2. A cap per trader: no trader counts for more than VOLUME_TRADER_SHARE_MAX_BPS of the company's counted total S.
//    S is the largest total with sum(min(v_i, c * S)) = S (c the share), which for traders sorted by their netted
//    volume v_1 >= v_2 >= ... is min over k = 0 .. ceil(1/c) - 1 of R_k / (1 - k c), R_k the sum of all but the
//    k largest. (Each such line bounds the concave sum from above, and the one for the traders actually capped
//    meets it.) So S needs only each company's total and its few largest traders.
import { type SQL, sql } from 'drizzle-orm';
import { VOLUME_TRADER_SHARE_MAX_BPS } from './formula.ts';

const BPS = 10_000;

/** The k of the formula above: 0 up to the last number of capped traders that leaves a share for the rest. */
const cappedCounts = Array.from({ length: Math.ceil(BPS / VOLUME_TRADER_SHARE_MAX_BPS) }, (_, k) => k);

/**
 * The body of a `positions (company_id, trader, bought, paid, sold, received)` CTE: each trader's buys and sells of
 * each company token in `[from, to)`, tokens and USDC in base units, the trader's address in lower case. One range
 * of `token_trades_time_idx`; the snapshot's counted volume reads it.
 */
export function dayPositions(fromIso: string, toIso: string): SQL {
  return sql`
    select company_id, lower(trader) as trader,
      coalesce(sum(token_amount) filter (where side = 'buy'), 0) as bought,
      coalesce(sum(usdc_amount) filter (where side = 'buy'), 0) as paid,
      coalesce(sum(token_amount) filter (where side = 'sell'), 0) as sold,
      coalesce(sum(usdc_amount) filter (where side = 'sell'), 0) as received
    from token_trades
    where block_time >= ${fromIso}::timestamptz and block_time < ${toIso}::timestamptz
    group by company_id, lower(trader)`;
}

/**
 * The body of a `volume (company_id, amount)` CTE over the `positions` CTE: every company whose token has counted
 * volume, in USDC base units (rounded down).
 */
export function countedVolume(): SQL {
  const total = 'sum(counted)';
  const bounds = cappedCounts.map((k) =>
    k === 0
      ? total
      : `div((${total} - coalesce(sum(counted) filter (where place <= ${k}), 0)) * ${BPS}, ${BPS - k * VOLUME_TRADER_SHARE_MAX_BPS})`,
  );
  return sql`
    select company_id, least(${sql.raw(bounds.join(',\n        '))}) as amount
    from (
      select company_id, counted, row_number() over (partition by company_id order by counted desc) as place
      from (
        select company_id,
          case
            when bought > sold then div((bought - sold) * paid, bought)
            when sold > bought then div((sold - bought) * received, sold)
            else 0
          end as counted
        from positions
      ) netted
      where counted > 0
    ) ranked
    group by company_id`;
}
