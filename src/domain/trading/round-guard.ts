// An action of a decision round is signed only while its round is RUNNING. The check runs in the transaction that
// records the transaction before signing it (the outbox's beforeSign) and takes a share lock on the round's row, so
// it is ordered with whatever ends the round: a round a stopping engine fails, or the stale job fails, signs nothing
// afterwards, and what it had signed before is settled by settle-outbox.
import { sql } from 'drizzle-orm';
import { rowsOf, type Tx } from '../../db/client.ts';

/** The outbox's beforeSign for the actions of round `roundId`: throws once the round is no longer RUNNING. */
export const whileRoundRuns = (roundId: string) => async (tx: Tx) => {
  const live = await tx.execute(
    sql`select 1 from decision_rounds where id = ${roundId} and status = 'RUNNING' for share`,
  );
  if (rowsOf(live).length === 0)
    throw new Error(`round ${roundId} is no longer RUNNING: nothing more is signed for it`);
};
