// What settle-outbox does for decision rounds: once the outbox settled an agent's transaction after its
// round stopped recording (a lost RPC answer made the action "failed", a killed process left it "interrupted"), the
// action (agent_actions) and the round's line follow the chain, in one transaction: executed with its hash, reverted,
// or failed with what was and was not signed. The action's position is read from the chain, and its notional counts
// toward the day while it is SENT or MINED, so both follow it too.
import type { Deps } from '../deps.ts';
import { type SettledAction, settleActions } from '../trading/actions.ts';
import { settleActionLine } from './rounds.ts';

/** The round line of a settled action. */
export function settledLine(a: SettledAction): string {
  const head = `${a.role ?? 'agent'} ${a.tool}`;
  if (a.status === 'MINED')
    return `${head}: executed (its transaction was mined after the round recorded it), tx ${a.txHash}`;
  if (a.status === 'REVERTED') return `${head}: reverted on-chain (nothing changed but the gas), tx ${a.txHash}`;
  const before = a.signed.length > 0 ? `its ${a.signed.join(' and ')} only` : 'nothing';
  return a.dropped
    ? `${head}: failed: its transaction was dropped (another transaction took its nonce); nothing was traded`
    : `${head}: failed: its transaction was never signed (the process signed ${before}); nothing was traded`;
}

/** Settles the actions of finished rounds whose transactions the outbox settled; returns how many changed. */
export async function settleRoundActions(deps: Pick<Deps, 'database'>): Promise<number> {
  return deps.database.db.transaction(async (tx) => {
    const settled = await settleActions(tx);
    for (const a of settled) await settleActionLine(tx, a.roundId, a.index, settledLine(a), a.txHash);
    return settled.length;
  });
}
