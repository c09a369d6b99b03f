// What settle-outbox does for decision rounds: once the outbox settled an agent's transaction after its
// round stopped recording (a lost RPC answer made the action "failed", a killed process left it "interrupted"), the
// action (agent_actions) and the round's line follow the chain, in one transaction: executed with its hash, reverted,
// or failed with what was and was not signed. The action's position is read from the chain, and its notional counts
// toward the day while it is SENT or MINED, so both follow it too.
import { inArray, sql } from 'drizzle-orm';
import { rowsOf } from '../../db/client.ts';
import { decisionRounds } from '../../db/schema/decisions.ts';
import type { Deps } from '../deps.ts';
import { type SettledAction, settleActions } from '../trading/action-records.ts';
import { setActionLines, settleActionLine } from './rounds.ts';

/** The round line of a settled action. */
export function settledLine(a: SettledAction): string {
  const head = `${a.role ?? 'agent'} ${a.tool}`;
  if (a.reorged !== null) {
    // Its first transaction's block left the chain: the line names what the chain holds now.
    if (a.status === 'MINED') return `${head}: executed (${a.reorged}), tx ${a.txHash}`;
    if (a.status === 'REVERTED')
      return `${head}: reverted on-chain (nothing changed but the gas) after ${a.reorged}, tx ${a.txHash}`;
    return `${head}: failed: ${a.reorged}; nothing was traded`;
  }
  if (a.status === 'MINED')
    return `${head}: executed (its transaction was mined after the round recorded it), tx ${a.txHash}`;
  if (a.status === 'REVERTED') return `${head}: reverted on-chain (nothing changed but the gas), tx ${a.txHash}`;
  const before = a.signed.length > 0 ? `its ${a.signed.join(' and ')} only` : 'nothing';
  return a.dropped
    ? `${head}: failed: its transaction was dropped (another transaction took its nonce); nothing was traded`
    : `${head}: failed: its transaction was never signed (the process signed ${before}); nothing was traded`;
}

/**
 * Settles the actions of finished rounds (of round `roundId` only, when given) whose transactions the outbox settled,
 * or that never signed their transaction; returns how many changed.
 */
export async function settleRoundActions(deps: Pick<Deps, 'database'>, roundId?: string): Promise<number> {
  return deps.database.db.transaction(async (tx) => {
    const settled = await settleActions(tx, roundId);
    for (const a of settled) await settleActionLine(tx, a.roundId, a.index, settledLine(a), a.txHash);
    return settled.length;
  });
}

/**
 * Lines for the actions the agents' log holds for these rounds (no longer RUNNING) past the lines each round
 * recorded: the action in flight when the round ended, interrupted because `why` ("the process stopped").
 */
export async function recordInterruptedActions(
  deps: Pick<Deps, 'database'>,
  roundIds: string[],
  why: string,
): Promise<void> {
  const db = deps.database.db;
  const logged = rowsOf<{
    round_id: string;
    key: string;
    tool: string;
    role: string | null;
    status: string;
    tx_hash: string | null;
  }>(
    await db.execute(sql`
      select x.round_id, x.key, x.tool, a.role, x.status, x.tx_hash
      from agent_actions x left join agents a on a.id = x.agent_id
      where x.round_id in (${sql.join(
        roundIds.map((id) => sql`${id}`),
        sql`, `,
      )})`),
  );
  if (logged.length === 0) return;
  const rounds = await db
    .select({ id: decisionRounds.id, executed: decisionRounds.actionsExecuted })
    .from(decisionRounds)
    .where(inArray(decisionRounds.id, roundIds));
  for (const round of rounds) {
    const lines = [...(round.executed ?? [])];
    const mine = logged
      .filter((x) => x.round_id === round.id)
      .map((x) => ({ ...x, index: Number(x.key.split(':').at(-1)) }))
      .filter((x) => Number.isSafeInteger(x.index) && x.index >= lines.length)
      .sort((a, b) => a.index - b.index);
    if (mine.length === 0) continue;
    for (const x of mine) {
      lines[x.index] =
        `${x.role ?? 'agent'} ${x.tool}: interrupted: ${why} during this action (${x.status}${x.tx_hash ? `, tx ${x.tx_hash}` : ''}); what it signed is broadcast once by settle-outbox`;
    }
    // Actions between the recorded lines and the logged one never started: said so, so the lines keep their order.
    for (let i = 0; i < lines.length; i++) lines[i] ??= `not run: ${why} before this action`;
    await setActionLines(db, round.id, lines);
  }
}
