// What a round knows of the company's recent past and of what its limits leave today, read in phase 1 with the rest
// of its world: the last rounds' directives and what came of each action (executed, refused and why, so a refused
// buy is not proposed again unchanged), and the headroom of each limit (the day's notional used, what the position
// cap leaves per token held, the gas budget left, the PnL the team's sales realised). Reads only.
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { type Address, formatUnits, parseUnits } from 'viem';
import { USDC_DECIMALS } from '../../constants.ts';
import type { Tx } from '../../db/client.ts';
import { agentActions } from '../../db/schema/agents.ts';
import { decisionRounds } from '../../db/schema/decisions.ts';
import { traderPositions } from '../../db/schema/tokens.ts';
import { dayOf, gasToday } from '../costs/gas-budget.ts';
import type { Deps } from '../deps.ts';
import type { Limits } from '../trading/limits.ts';
import { condense } from './condense.ts';
import type { AgentWalletState, Headroom, PastRound } from './models/types.ts';

/** How many of the company's last finished rounds a round is told of. */
export const HISTORY_ROUNDS = 3;
/** Outcome lines told of each past round at most, each of at most OUTCOME_MAX characters. */
const OUTCOMES_MAX = 6;
const OUTCOME_MAX = 200;
const DIRECTIVE_MAX = 300;

/** The company's last finished rounds, newest first: directive, each action's outcome, the refusals at extraction. */
export async function readHistory(db: Tx, companyId: string): Promise<PastRound[]> {
  const rows = await db
    .select({
      cycle: decisionRounds.cycle,
      status: decisionRounds.status,
      directive: decisionRounds.directive,
      executed: decisionRounds.actionsExecuted,
      phases: decisionRounds.phases,
      error: decisionRounds.error,
    })
    .from(decisionRounds)
    .where(and(eq(decisionRounds.companyId, companyId), inArray(decisionRounds.status, ['COMPLETE', 'FAILED'])))
    .orderBy(desc(decisionRounds.cycle))
    .limit(HISTORY_ROUNDS);
  return rows.map((r) => {
    // The actions the extraction refused never reached execution: their reasons are outcomes too.
    const refusedAtExtraction = (r.phases.find((p) => p.phase === 'extraction')?.notes ?? []).filter((n) =>
      n.startsWith('refused '),
    );
    const outcomes = [...(r.executed ?? []), ...refusedAtExtraction]
      .slice(0, OUTCOMES_MAX)
      .map((line) => condense(line, OUTCOME_MAX));
    return {
      cycle: r.cycle,
      status: r.status as PastRound['status'],
      directive: r.directive === null ? null : condense(r.directive, DIRECTIVE_MAX),
      outcomes,
      ...(r.status === 'FAILED' && r.error && { error: condense(r.error, OUTCOME_MAX) }),
    };
  });
}

const usdcUnits = (text: string) => {
  try {
    return parseUnits(text, USDC_DECIMALS);
  } catch {
    return 0n;
  }
};
const usdc = (units: bigint) => formatUnits(units, USDC_DECIMALS);

/**
 * What each limit leaves today, by the chain's day: the notional the company's agents traded (actions sent or
 * mined), the position cap less what the team holds of each token, the gas budget left, and the PnL realised by the
 * sales of the team's wallets. A read that fails leaves its figure out rather than fail the round.
 */
export async function readHeadroom(
  deps: Pick<Deps, 'config' | 'chain' | 'database'>,
  companyId: string,
  limits: Limits,
  wallets: AgentWalletState[],
  teamAddresses: Address[],
  chainNow: Date,
): Promise<Headroom> {
  const db = deps.database.db;
  const day = dayOf(chainNow.getTime());
  const [[traded], gas, [pnl]] = await Promise.all([
    db
      .select({ sum: sql<string>`coalesce(sum(${agentActions.notionalUsdc}), 0)::text` })
      .from(agentActions)
      .where(
        and(
          eq(agentActions.companyId, companyId),
          eq(agentActions.day, day),
          inArray(agentActions.status, ['SENT', 'MINED']),
        ),
      ),
    gasToday(deps, db, companyId, chainNow.getTime()),
    teamAddresses.length === 0
      ? [{ sum: '0' }]
      : db
          .select({ sum: sql<string>`coalesce(sum(${traderPositions.realizedPnlUsdc}), 0)::text` })
          .from(traderPositions)
          .where(
            inArray(
              traderPositions.trader,
              teamAddresses.map((a) => a.toLowerCase()),
            ),
          )
          .catch(() => [undefined]),
  ]);
  const used = BigInt(traded?.sum ?? '0');
  const held = new Map<string, bigint>();
  // Agents acting through the company's Safe are each shown it: its positions count once.
  const seen = new Set<string>();
  for (const w of wallets) {
    if (seen.has(w.address.toLowerCase())) continue;
    seen.add(w.address.toLowerCase());
    for (const p of w.positions) held.set(p.symbol, (held.get(p.symbol) ?? 0n) + usdcUnits(p.valueUsdc));
  }
  const left = (cap: bigint, spent: bigint) => (spent >= cap ? 0n : cap - spent);
  return {
    day,
    dailyNotionalUsedUsdc: usdc(used),
    dailyNotionalLeftUsdc: usdc(left(limits.maxDailyNotional, used)),
    positions: [...held].map(([symbol, value]) => ({
      symbol,
      valueUsdc: usdc(value),
      leftUsdc: usdc(left(limits.maxPosition, value)),
    })),
    gasUsed: gas.gasUsed.toString(),
    gasLeft: left(gas.budget, gas.gasUsed).toString(),
    realizedPnlUsdc: pnl?.sum === undefined ? null : usdc(BigInt(pnl.sum)),
  };
}
