// The buy rules that look across companies and rounds (docs/api/agents.md "Buy rules"): every agent of
// the platform together buys at most the platform's liquidity share of a token in a rolling window, and a company's
// agents do not buy a token again for a cool-off after buying it. And the market a buy needs, weighed by money: the
// effective number of outside traders ((sum v)^2 / sum v^2 of their netted USDC, so ten wallets of 1 USDC beside
// one of 2,600 count about 1) and the share of the token's largest trader of all its netted trading (its own
// company's wallets included: a move one wallet made is no market, whoever the wallet is).
import { sql } from 'drizzle-orm';
import { formatUnits } from 'viem';
import { BUY_WINDOW, USDC_DECIMALS } from '../../constants.ts';
import { rowsOf, type Tx } from '../../db/client.ts';
import { isLinkedWallet } from '../companies/linked.ts';

const HOUR_MS = 3_600_000;
const usdc = (v: bigint) => formatUnits(v, USDC_DECIMALS);

/** A token's trading over a window, netted per trader (a round trip counts 0). */
export interface MarketDepth {
  /** Distinct outside traders (not the token's company's linked wallets). */
  traders: number;
  /** Outside traders weighted by money: (sum v)^2 / sum v^2 of their netted USDC; 0 when none traded net. */
  moneyTraders: number;
  /** The largest trader's share of all netted USDC (linked wallets included), in basis points; 0 when none. */
  topShareBps: number;
}

/**
 * The SQL of the depth of the tokens of `companyIds` over `[since, ...)`: one row per company id with traders,
 * money_traders and top_share_bps, from one pass over their token_trades (token_trades_company_time_idx).
 */
function marketDepthSql(since: Date, companyIds: readonly string[]) {
  const only = sql`and company_id in (${sql.join(
    companyIds.map((id) => sql`${id}`),
    sql`, `,
  )})`;
  return sql`
    with per_trader as (
      select company_id, lower(trader) as trader,
        abs(coalesce(sum(usdc_amount) filter (where side = 'buy'), 0)
          - coalesce(sum(usdc_amount) filter (where side = 'sell'), 0))::float8 as v
      from token_trades where block_time >= ${since.toISOString()}::timestamptz ${only}
      group by company_id, lower(trader)
    ),
    marked as (
      select p.*, not ${isLinkedWallet('p.trader', 'p.company_id')} as outside from per_trader p
    )
    select company_id,
      (count(*) filter (where outside))::int as traders,
      coalesce(power(sum(v) filter (where outside), 2) / nullif(sum(v * v) filter (where outside), 0), 0)::float8
        as money_traders,
      coalesce(floor(10000 * max(v) / nullif(sum(v), 0)), 0)::int as top_share_bps
    from marked group by company_id`;
}

/** The depth of the tokens of `companyIds` over `[since, now)`, by company id (absent: no trade). */
export async function marketDepths(db: Tx, companyIds: readonly string[], since: Date) {
  const depths = new Map<string, MarketDepth>();
  if (companyIds.length === 0) return depths;
  const rows = rowsOf<{ company_id: string; traders: number; money_traders: number; top_share_bps: number }>(
    await db.execute(marketDepthSql(since, companyIds)),
  );
  for (const r of rows) {
    depths.set(r.company_id, {
      traders: r.traders,
      moneyTraders: Number(r.money_traders),
      topShareBps: r.top_share_bps,
    });
  }
  return depths;
}

const NO_MARKET: MarketDepth = { traders: 0, moneyTraders: 0, topShareBps: 0 };

/** The depth of one company's token over `[since, now)`. */
export async function marketDepth(db: Tx, companyId: string, since: Date): Promise<MarketDepth> {
  return (await marketDepths(db, [companyId], since)).get(companyId) ?? NO_MARKET;
}

/**
 * The price change one trader cannot make alone, for ranking movers: the change times the share of the token's
 * netted trading its largest trader did not do (a token one wallet moved ranks near 0, whatever its change).
 */
export const broadChangePct = (changePct: number, depth: MarketDepth | undefined) =>
  Math.round(changePct * (10_000 - (depth?.topShareBps ?? 10_000))) / 10_000;

/**
 * The token companies whose tokens `companyId`'s agents bought in the cool-off before `now` (chain clock): a round
 * does not offer them as buyable (the buy would be refused where it is recorded).
 */
export async function coolingOff(db: Tx, companyId: string, now: Date): Promise<Set<string>> {
  const start = new Date(now.getTime() - BUY_WINDOW.companyCoolOffHours * HOUR_MS);
  const rows = rowsOf<{ token_company_id: string }>(
    await db.execute(sql`
      select distinct token_company_id from agent_actions
      where company_id = ${companyId} and day >= ${start.toISOString().slice(0, 10)}::date
        and tool = 'buy_token' and status in ('SENT', 'MINED') and token_company_id is not null
        and coalesce(chain_at, (day::timestamp at time zone 'UTC')) >= ${start.toISOString()}::timestamptz`),
  );
  return new Set(rows.map((r) => r.token_company_id));
}

/** The fewest outside traders by money a buy needs: half the distinct traders the rules ask for, rounded up. */
export const minMoneyTraders = (minDistinctTraders: number) => Math.ceil(minDistinctTraders / 2);

/** Why the market depth breaks the rules, or null. */
export function depthBroken(symbol: string, depth: MarketDepth, minDistinctTraders: number): string | null {
  if (depth.traders < minDistinctTraders) {
    return `${symbol} had ${depth.traders} distinct traders in 24 h besides its own company's wallets; agents buy tokens with at least ${minDistinctTraders}`;
  }
  const needed = minMoneyTraders(minDistinctTraders);
  if (depth.moneyTraders < needed) {
    return `${symbol}'s outside traders weigh ${depth.moneyTraders.toFixed(2)} traders by the money they traded in 24 h; agents buy tokens with at least ${needed} (ten wallets of 1 USDC are not a market)`;
  }
  if (depth.topShareBps > BUY_WINDOW.maxTopTraderShareBps) {
    return `one wallet made ${depth.topShareBps / 100}% of ${symbol}'s trading in 24 h; agents buy no token whose move one trader makes (at most ${BUY_WINDOW.maxTopTraderShareBps / 100}%)`;
  }
  return null;
}

/** What a buy takes of the window: its token and size, the platform's cap and the buying company. */
export interface WindowedBuy {
  key: string;
  companyId: string;
  token: string;
  symbol: string;
  notional: bigint;
  /** The most every agent of the platform may buy of the token in the window: the platform's share of its liquidity. */
  cap: bigint;
  liquidity: bigint;
  /** The chain's clock. */
  now: Date;
}

/**
 * Why the buy breaks the window rules, or null; call inside the transaction that records the buy, which this locks
 * per token so two rounds never both take the last of the room. Counts admitted and mined buys (SENT, MINED) of
 * every company by the chain's clock of their admission (the day's start for rows older than the column).
 */
export async function windowBroken(tx: Tx, buy: WindowedBuy): Promise<string | null> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`agent-buy:${buy.token.toLowerCase()}`}))`);
  const windowStart = new Date(buy.now.getTime() - BUY_WINDOW.hours * HOUR_MS);
  const coolOffStart = new Date(buy.now.getTime() - BUY_WINDOW.companyCoolOffHours * HOUR_MS);
  const earliest = windowStart < coolOffStart ? windowStart : coolOffStart;
  const [row] = rowsOf<{ used: string; own: Date | string | null }>(
    await tx.execute(sql`
      select coalesce(sum(notional_usdc) filter (where at >= ${windowStart.toISOString()}::timestamptz), 0)::text as used,
        max(at) filter (where company_id = ${buy.companyId} and at >= ${coolOffStart.toISOString()}::timestamptz) as own
      from (
        select notional_usdc, company_id, coalesce(chain_at, (day::timestamp at time zone 'UTC')) as at
        from agent_actions
        where tool = 'buy_token' and token_address = ${buy.token} and status in ('SENT', 'MINED') and key <> ${buy.key}
          and (chain_at is null or chain_at >= ${earliest.toISOString()}::timestamptz)
      ) b`),
  );
  if (row?.own) {
    return `an agent of the company bought ${buy.symbol} at ${new Date(row.own).toISOString()}; no buying it again for ${BUY_WINDOW.companyCoolOffHours} h (unless your signed directive names it)`;
  }
  const used = BigInt(row?.used ?? '0');
  if (used + buy.notional > buy.cap) {
    return `the platform's agents bought ${usdc(used)} USDC of ${buy.symbol} in ${BUY_WINDOW.hours} h; together they buy at most ${usdc(buy.cap)} USDC (the liquidity share of the ${usdc(buy.liquidity)} USDC behind it), this buy is ${usdc(buy.notional)}`;
  }
  return null;
}
