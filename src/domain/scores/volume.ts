// Counted volume of the score snapshot (docs/api/fortune.md "Volume"): the trading of a company's token that trading
// with oneself does not raise. Three rules, all set-based over one day of token_trades:
//
// 0. The company's own linked wallets (linked.ts: its creator, treasuries and agents) do not count: a company does
//    not make volume by buying its own token.
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

/** `and block_number <= final` for a trades alias, or nothing when no finalized block bounds them (readiness.ts). */
export function finalTrades(alias: string, finalBlock: bigint | null): SQL {
  return finalBlock === null ? sql`` : sql`and ${sql.raw(alias)}.block_number <= ${finalBlock.toString()}::bigint`;
}

/**
 * The body of a `positions (company_id, trader, bought, paid, sold, received)` CTE: each trader's buys and sells of
 * each company token in `[from, to)` in blocks at or below `finalBlock` (the token stream's finalized block; null:
 * unbounded), tokens and USDC in base units, the trader's address in lower case. One range of
 * `token_trades_time_idx`; the snapshot's counted volume reads it.
 */
export function dayPositions(fromIso: string, toIso: string, finalBlock: bigint | null): SQL {
  return sql`
    select company_id, lower(trader) as trader,
      coalesce(sum(token_amount) filter (where side = 'buy'), 0) as bought,
      coalesce(sum(usdc_amount) filter (where side = 'buy'), 0) as paid,
      coalesce(sum(token_amount) filter (where side = 'sell'), 0) as sold,
      coalesce(sum(usdc_amount) filter (where side = 'sell'), 0) as received
    from token_trades t
    where t.block_time >= ${fromIso}::timestamptz and t.block_time < ${toIso}::timestamptz
      ${finalTrades('t', finalBlock)}
    group by company_id, lower(trader)`;
}

/**
 * The body of a `volume (company_id, amount)` CTE over the `positions` and `linked` (linked.ts) CTEs: every company
 * whose token has counted volume, in USDC base units (rounded down).
 *
 * Only the K = ceil(1/c) - 1 largest traders of a company enter the formula, and only those above c * S are
 * capped. S >= T - K * v_max (each bound is at least R_k >= T - k * v_max, T the total, v_max the largest), so
 * only traders above c * (T - K * v_max) are ranked: at 100,000 companies that leaves a few hundred of the day's
 * 1.7 M positions to sort instead of all of them (docs/benchmarks.md). Ranking fewer traders changes no bound that
 * could be the least: a bound over k traders is the same when those k are above c * S, and larger otherwise.
 */
export function countedVolume(): SQL {
  const most = cappedCounts.length - 1;
  const bounds = cappedCounts.map((k) =>
    k === 0
      ? 't.total'
      : `div((t.total - coalesce(sum(r.counted) filter (where r.place <= ${k}), 0)) * ${BPS}, ${BPS - k * VOLUME_TRADER_SHARE_MAX_BPS})`,
  );
  return sql`
    with netted as (
      select company_id,
        case
          when bought > sold then div((bought - sold) * paid, bought)
          when sold > bought then div((sold - bought) * received, sold)
          else 0
        end as counted
      from positions p
      where not exists (select 1 from linked l where l.company_id = p.company_id and l.wallet = p.trader)
    ),
    totals as (
      select company_id, sum(counted) as total, max(counted) as biggest from netted
      where counted > 0
      group by company_id
    ),
    ranked as (
      select n.company_id, n.counted,
        row_number() over (partition by n.company_id order by n.counted desc) as place
      from netted n join totals t on t.company_id = n.company_id
      where n.counted * ${sql.raw(String(BPS))}
        > ${sql.raw(String(VOLUME_TRADER_SHARE_MAX_BPS))} * greatest(0, t.total - ${sql.raw(String(most))} * t.biggest)
    )
    select t.company_id, least(${sql.raw(bounds.join(',\n        '))}) as amount
    from totals t left join ranked r on r.company_id = t.company_id
    group by t.company_id, t.total`;
}
