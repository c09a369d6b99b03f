// The buy rules (docs/api/agents.md "Buy rules"): which tokens an agent may buy, whatever model decided it (the
// built-in strategies or an LLM), checked in code next to the hard limits (limits.ts) before anything is signed. They
// keep the platform's agents from being exit liquidity for a token pumped by its own company: the token must be old
// enough, have a market of its own (distinct traders who are not its company), take the buy without the buy being a
// large part of its liquidity, and a stop-loss is not followed by buying the same token again. The platform's
// defaults are minimums (constants.ts BUY_RULES_DEFAULT); a company's toolkitConfig.buyRules may only tighten them.
// A token that the creator's current, signed directive names explicitly is the owner's own call: it skips these rules
// (never the hard limits).
import { and, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import { type Address, formatUnits } from 'viem';
import type { Chain } from '../../chain/client.ts';
import { readLiquidity } from '../../chain/contracts/launcher.ts';
import { BUY_RULES_DEFAULT, USDC_DECIMALS } from '../../constants.ts';
import type { Tx } from '../../db/client.ts';
import { agentActions } from '../../db/schema/agents.ts';
import type { ToolkitConfig } from '../../db/schema/companies.ts';
import { tokenTrades } from '../../db/schema/tokens.ts';
import { depthBroken, marketDepth } from './buy-window.ts';

export interface BuyRules {
  minTokenAgeHours: number;
  minDistinctTraders: number;
  maxLiquidityBps: number;
  stopLossCooldownHours: number;
}

const HOUR_MS = 3_600_000;

/** The platform's rules, each tightened by the company's where stricter (a looser stored value changes nothing). */
export function buyRulesOf(toolkit: ToolkitConfig | null | undefined): BuyRules {
  const own = toolkit?.buyRules ?? {};
  const d = BUY_RULES_DEFAULT;
  return {
    minTokenAgeHours: Math.max(d.minTokenAgeHours, own.minTokenAgeHours ?? 0),
    minDistinctTraders: Math.max(d.minDistinctTraders, own.minDistinctTraders ?? 0),
    maxLiquidityBps: Math.min(d.maxLiquidityBps, own.maxLiquidityBps ?? d.maxLiquidityBps),
    stopLossCooldownHours: Math.max(d.stopLossCooldownHours, own.stopLossCooldownHours ?? 0),
  };
}

/** The token a buy targets. */
export interface BuyTarget {
  address: Address;
  symbol: string;
  /** The token's company. */
  companyId: string;
  /** When its launch was mined (the block's time). */
  publicAt: Date | null;
  graduated: boolean;
}

/** The USDC behind a token's price: what its curve holds, or the USDC side of its pool once graduated. */
export const liquidityOf = (chain: Pick<Chain, 'publicClient' | 'contracts'>, target: BuyTarget) =>
  readLiquidity(chain, target.address, target.graduated);

/** The latest sale at a loss of the token by any of `wallets` since `since` (a stop-loss), or undefined. */
export async function lastStopLoss(db: Tx, token: Address, wallets: readonly Address[], since: Date) {
  if (wallets.length === 0) return undefined;
  const [row] = await db
    .select({ at: tokenTrades.blockTime })
    .from(tokenTrades)
    .where(
      and(
        eq(sql`lower(${tokenTrades.tokenAddress})`, token.toLowerCase()),
        inArray(
          sql`lower(${tokenTrades.trader})`,
          wallets.map((w) => w.toLowerCase()),
        ),
        eq(tokenTrades.side, 'sell'),
        lt(tokenTrades.realizedPnl, 0n),
        gte(tokenTrades.blockTime, since),
      ),
    )
    .orderBy(sql`${tokenTrades.blockTime} desc`)
    .limit(1);
  return row?.at;
}

/**
 * A sale of the token by the company's agents since `since` that the token index has not seen yet (so whether it was
 * a stop-loss is not known): a buy waits for it rather than risk re-entering after a loss.
 */
async function unindexedSale(db: Tx, companyId: string, token: Address, since: Date) {
  const [row] = await db
    .select({ key: agentActions.key })
    .from(agentActions)
    .where(
      and(
        eq(agentActions.companyId, companyId),
        eq(agentActions.tool, 'sell_token'),
        eq(sql`lower(${agentActions.tokenAddress})`, token.toLowerCase()),
        inArray(agentActions.status, ['SENT', 'MINED']),
        gte(agentActions.day, since.toISOString().slice(0, 10)),
        sql`not exists (select 1 from token_trades tt where tt.tx_hash = ${agentActions.txHash})`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

const usdc = (v: bigint) => formatUnits(v, USDC_DECIMALS);

/**
 * The reason a buy of `amountIn` USDC of `target` breaks the rules of the buy itself, or null when it may go ahead
 * (the rules across rounds and companies are checked where the buy is recorded: buy-window.ts). `now` is the chain's
 * clock; `team` the company's agent wallets; `liquidity` the USDC behind the token (liquidityOf).
 */
export async function buyRuleBroken(
  deps: { database: { db: Tx }; chain: Pick<Chain, 'publicClient' | 'contracts'> },
  rules: BuyRules,
  buyer: { companyId: string; team: readonly Address[] },
  target: BuyTarget,
  amountIn: bigint,
  now: Date,
  liquidity: bigint,
): Promise<string | null> {
  const team = buyer.team;
  const db = deps.database.db;
  const ageMs = target.publicAt ? now.getTime() - target.publicAt.getTime() : 0;
  if (ageMs < rules.minTokenAgeHours * HOUR_MS) {
    return `${target.symbol} is ${Math.floor(ageMs / HOUR_MS)} h old; agents buy tokens at least ${rules.minTokenAgeHours} h old (the buy rules; a token your signed directive names is your call)`;
  }
  const depth = await marketDepth(db, target.companyId, new Date(now.getTime() - 24 * HOUR_MS));
  const thin = depthBroken(target.symbol, depth, rules.minDistinctTraders);
  if (thin) return thin;
  const stop = await lastStopLoss(
    db,
    target.address,
    team,
    new Date(now.getTime() - rules.stopLossCooldownHours * HOUR_MS),
  );
  if (stop) {
    return `an agent of the company sold ${target.symbol} at a loss at ${stop.toISOString()}; no buying it again for ${rules.stopLossCooldownHours} h after a stop-loss`;
  }
  const coolOff = new Date(now.getTime() - rules.stopLossCooldownHours * HOUR_MS);
  if (await unindexedSale(db, buyer.companyId, target.address, coolOff)) {
    return `an agent of the company just sold ${target.symbol}, and until that sale is recorded no one can tell whether it was at a loss; after a loss the company waits ${rules.stopLossCooldownHours} h before buying again, so it does not buy ${target.symbol} back until the sale is recorded (usually within a minute)`;
  }
  const cap = (liquidity * BigInt(rules.maxLiquidityBps)) / 10_000n;
  if (amountIn > cap) {
    return `a buy of ${usdc(amountIn)} USDC is over ${rules.maxLiquidityBps / 100}% of the ${usdc(liquidity)} USDC behind ${target.symbol} (at most ${usdc(cap)})`;
  }
  return null;
}

/** The most all agents of the platform together buy of a token in the window (buy-window.ts). */
export const platformCapOf = (liquidity: bigint) => (liquidity * BigInt(BUY_RULES_DEFAULT.maxLiquidityBps)) / 10_000n;
