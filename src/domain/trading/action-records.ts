// The record of each action an agent takes (agent_actions), its one writer: recorded SENT before anything is signed,
// marked as its transaction ends, and settled after its round to what the outbox settled its transaction to.
import { eq, sql } from 'drizzle-orm';
import type { Address } from 'viem';
import { RETRY_SUFFIX } from '../../chain/outbox.ts';
import { type Db, rowsOf, type Tx } from '../../db/client.ts';
import { agentActions, agents } from '../../db/schema/agents.ts';
import { chainTxs } from '../../db/schema/chain.ts';

/** Records an action SENT before its transaction is signed; the same key recorded again (a retry) is kept as it was. */
export async function recordAction(
  tx: Tx,
  action: {
    key: string;
    companyId: string;
    agentId: string;
    roundId: string | null;
    tool: string;
    token: { address: Address; companyId: string } | null;
    notional: bigint;
    day: string;
    now: Date;
  },
): Promise<void> {
  await tx
    .insert(agentActions)
    .values({
      key: action.key,
      companyId: action.companyId,
      agentId: action.agentId,
      roundId: action.roundId,
      tool: action.tool,
      tokenAddress: action.token?.address ?? null,
      tokenCompanyId: action.token?.companyId ?? null,
      notionalUsdc: action.notional,
      day: action.day,
      chainAt: action.now,
      createdAt: action.now,
      status: 'SENT',
    })
    .onConflictDoNothing();
}

/** Marks an action as its transaction ended (MINED or REVERTED with its hash), or FAILED when nothing was signed. */
export async function markAction(
  db: Db,
  key: string,
  to: { status: 'MINED' | 'REVERTED'; txHash: string } | { status: 'FAILED' },
): Promise<void> {
  await db.update(agentActions).set(to).where(eq(agentActions.key, key));
}

/** An action of a finished round settled to its transaction; index is its place in the round. */
export interface SettledAction {
  key: string;
  roundId: string;
  index: number;
  role: string | null;
  tool: string;
  status: 'MINED' | 'REVERTED' | 'FAILED';
  txHash: string | null;
  /** FAILED because its transaction was DROPPED (another took its nonce), not because none was signed. */
  dropped: boolean;
  /**
   * Its transaction was mined in a block a reorg orphaned and the outbox sent it again (chain_txs.note says so): the
   * hash it has now (signed anew when its nonce was taken), or FAILED with that note when sent again it would revert.
   */
  reorged: string | null;
  /** What was signed for it besides its own transaction: 'gas top-up', 'approval'. */
  signed: string[];
}

/**
 * Makes the actions of rounds no longer RUNNING follow their transactions as the outbox settled them: MINED or
 * REVERTED with the hash that ran (its out-of-gas retry's when there is one), FAILED when DROPPED or never signed
 * (no longer counting toward the day's notional). Rows are locked, so two settling replicas change each once.
 * `roundId`: that round's actions only.
 */
export async function settleActions(tx: Tx, roundId?: string): Promise<SettledAction[]> {
  type Row = { key: string; round_id: string; tool: string; role: string | null; status: string };
  type Signed = {
    tx_hash: string | null;
    signed_status: string | null;
    signed_hash: string | null;
    signed_note: string | null;
  };
  const rows = rowsOf<Row & Signed & { approved: boolean; topped: boolean }>(
    await tx.execute(sql`
      select x.key, x.round_id, x.tool, a.role, x.status, x.tx_hash, t.status as signed_status, t.hash as signed_hash,
        t.note as signed_note,
        exists (select 1 from ${chainTxs} c where c.key = x.key || ':approve') as approved,
        exists (select 1 from ${chainTxs} c where c.key = 'agent-gas:' || x.key) as topped
      from ${agentActions} x
      join decision_rounds r on r.id = x.round_id and r.status <> 'RUNNING'
      left join ${agents} a on a.id = x.agent_id
      left join lateral (
        select c.status, c.hash, c.note from ${chainTxs} c
        where c.key in (x.key || ':tx', x.key || ${`:tx${RETRY_SUFFIX}`})
        order by length(c.key) desc limit 1) t on true
      where (x.status in ('SENT', 'REVERTED')
        -- Seen mined, then orphaned by a reorg and sent again by the outbox (its note says so): the action follows
        -- the hash mined now, or fails with the note. Found through the outbox's few noted rows.
        or (x.status = 'MINED' and x.key in (
          select regexp_replace(c.key, ${`:tx(${RETRY_SUFFIX})?$`}, '') from ${chainTxs} c
          where c.note is not null and c.key like 'agent:%')))
        and x.round_id ${roundId === undefined ? sql`is not null` : sql`= ${roundId}`}
      for update of x skip locked`),
  );
  const settled: SettledAction[] = [];
  for (const r of rows) {
    const signedOk = r.signed_status === 'MINED' || r.signed_status === 'REVERTED';
    const failed =
      r.signed_status === 'DROPPED' ||
      r.signed_status === 'FAILED' ||
      (r.signed_status === null && r.status === 'SENT');
    // Its transaction still SENT: settled on a later pass.
    const status = signedOk ? (r.signed_status as 'MINED' | 'REVERTED') : failed ? 'FAILED' : undefined;
    const txHash = status === 'FAILED' ? null : r.signed_hash;
    if (status === undefined || (status === r.status && txHash === r.tx_hash)) continue;
    const signed = [...(r.topped ? ['gas top-up'] : []), ...(r.approved ? ['approval'] : [])];
    const index = Number(r.key.split(':').at(-1));
    const dropped = r.signed_status === 'DROPPED';
    settled.push({
      key: r.key,
      roundId: r.round_id,
      index,
      role: r.role,
      tool: r.tool,
      status,
      txHash,
      dropped,
      reorged: r.signed_note,
      signed,
    });
  }
  if (settled.length > 0) {
    await tx.execute(sql`
      update ${agentActions} x set status = s.status, tx_hash = s.hash
      from unnest(${`{${settled.map((s) => s.key).join(',')}}`}::text[],
        ${`{${settled.map((s) => s.status).join(',')}}`}::text[],
        ${`{${settled.map((s) => s.txHash ?? 'NULL').join(',')}}`}::text[]) as s(key, status, hash)
      where x.key = s.key`);
  }
  return settled;
}
