// The trading raw value (docs/api/fortune.md "Trading"): the realised PnL of the company's agents' sales in the day
// (from their own wallets, or from the company's Safe when it has custody: the Safe is the trader the chain sees),
// counting a sale only when its position was held at least the minimum time since its latest buy, and only when no
// other wallet linked to the company (its creator, treasuries or other agents) traded the token while the position
// was held (from its opening buy to the sale). A company cannot make its agents' profit by moving the price itself.
import { sql } from 'drizzle-orm';
import { isLinkedWallet } from '../companies/linked.ts';
import { finalTrades } from './volume.ts';

/**
 * The body of a `pnl (company_id, amount)` CTE: counted realised PnL per company over [fromIso, toIso), from the
 * trades in blocks at or below `finalBlock` (the token stream's finalized block; null: unbounded). A sale's position
 * (its PnL, when it was held from) comes from trades before it, so from final blocks too.
 */
export function countedPnl(fromIso: string, toIso: string, minHoldS: number, finalBlock: bigint | null) {
  return sql`
    select a.company_id, sum(s.realized_pnl) as amount
    from token_trades s
      join (
        select company_id, lower(on_chain_address) as address from agents
        where company_id is not null and on_chain_address is not null
        union all
        select id, lower(safe_address) from companies where safe_address is not null
      ) a on a.address = lower(s.trader)
    where s.block_time >= ${fromIso}::timestamptz and s.block_time < ${toIso}::timestamptz
      ${finalTrades('s', finalBlock)}
      and s.realized_pnl is not null
      and s.held_since is not null
      and s.last_buy_at <= s.block_time - make_interval(secs => ${minHoldS}::double precision)
      and not exists (
        select 1 from token_trades o
        where o.company_id = s.company_id
          and o.block_time >= s.held_since and o.block_time <= s.block_time
          ${finalTrades('o', finalBlock)}
          and lower(o.trader) <> lower(s.trader)
          and ${isLinkedWallet('lower(o.trader)', 'a.company_id')}
      )
    group by a.company_id`;
}
