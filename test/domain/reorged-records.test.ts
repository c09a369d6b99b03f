// After a reorg the outbox sends an orphaned transaction again under its key: signed anew (a new hash) when its nonce
// was taken, or FAILED with the reason when sent again it would revert (test/chain/outbox-reorg.test.ts). The records
// that stored the first hash follow it, once: the agent action and its round's line (and so the decision view's
// outcome), the round's anchoring, the epoch's finalization. Before, they kept naming the orphaned hash.
import { createId } from '@paralleldrive/cuid2';
import { eq } from 'drizzle-orm';
import { type Hex, keccak256, stringToHex } from 'viem';
import { describe, expect, it } from 'vitest';
import { agentActions } from '../../src/db/schema/agents.ts';
import { chainTxs } from '../../src/db/schema/chain.ts';
import { decisionRounds } from '../../src/db/schema/decisions.ts';
import { rewardEpochs } from '../../src/db/schema/epochs.ts';
import { roundView } from '../../src/domain/engine/views.ts';
import { followReorgedTransactions } from '../../src/domain/reorged-records.ts';
import { useTestApp } from '../helpers/app.ts';
import { insertCompany } from '../helpers/events.ts';

const t = useTestApp();
const hash = (s: string): Hex => keccak256(stringToHex(s));
const NOTE = 'its block 42 left the chain (a reorg): sent again';
const FAILED_NOTE = 'its block 42 left the chain (a reorg), and sent again it would revert: Deadline passed';

async function outboxRow(key: string, status: string, h: Hex, note: string | null) {
  await t.database.db.insert(chainTxs).values({
    key,
    fromAddress: '0x0000000000000000000000000000000000000001',
    nonce: 1,
    rawTx: '0x',
    hash: h,
    status,
    note,
    blockNumber: status === 'MINED' ? 50n : null,
  });
}

describe('records of a reorged outbox transaction', () => {
  it('an action re-signed or failed after a reorg, its round line, anchoring and epoch name what the chain holds, once', async () => {
    const company = await insertCompany(t.database.db, `reorged-${createId()}`);
    const roundId = createId();
    const [oldBuy, newBuy, oldSell, oldAnchor, newAnchor] = ['b1', 'b2', 's1', 'a1', 'a2'].map((s) =>
      hash(s + roundId),
    ) as [Hex, Hex, Hex, Hex, Hex];
    await t.database.db.insert(decisionRounds).values({
      id: roundId,
      companyId: company.id,
      cycle: 1,
      status: 'COMPLETE',
      trigger: 'SCHEDULED',
      decisionHash: hash(`d${roundId}`),
      actions: [
        { role: 'agent', tool: 'buy_token', args: { token: 'X', usdc: 1 }, rationale: '' },
        { role: 'agent', tool: 'sell_token', args: { token: 'X', amount: 1 }, rationale: '' },
      ] as never,
      actionsExecuted: [
        `agent buy_token: bought about 1 X for 1 USDC, tx ${oldBuy}`,
        `agent sell_token: sold 1 X, tx ${oldSell}`,
      ],
      anchorBatchKey: `decision-anchor-batch:${roundId}`,
      anchorTxHash: oldAnchor,
      anchoredAt: new Date(),
    });
    const action = (i: number, txHash: Hex) => ({
      key: `agent:${roundId}:${i}`,
      companyId: company.id,
      // No agents row: the line's head is `agent <tool>`, as the decision's actions name it here.
      agentId: 'cfo',
      roundId,
      tool: i === 0 ? 'buy_token' : 'sell_token',
      notionalUsdc: 1_000_000n,
      day: '2026-01-01',
      txHash,
      status: 'MINED',
    });
    await t.database.db.insert(agentActions).values([action(0, oldBuy), action(1, oldSell)]);
    await outboxRow(`agent:${roundId}:0:tx`, 'MINED', newBuy, NOTE);
    await outboxRow(`agent:${roundId}:1:tx`, 'FAILED', oldSell, FAILED_NOTE);
    await outboxRow(`decision-anchor-batch:${roundId}`, 'MINED', newAnchor, NOTE);
    const epoch = 900_000 + Math.floor(Math.random() * 1000);
    await t.database.db.insert(rewardEpochs).values({
      epoch,
      windowStart: new Date(0),
      windowEnd: new Date(1000),
      merkleRoot: hash('root'),
      totalScore: 1n,
      rewardPool: 1n,
      companyCount: 1,
      status: 'FINALIZED',
      finalizeTxHash: hash('f1'),
      finalizedAt: new Date(),
    });
    await outboxRow(`epoch-finalize:${epoch}`, 'FAILED', hash('f1'), FAILED_NOTE);

    expect(await followReorgedTransactions(t.container)).toBe(4);

    const actions = await t.database.db
      .select({ key: agentActions.key, status: agentActions.status, txHash: agentActions.txHash })
      .from(agentActions)
      .where(eq(agentActions.roundId, roundId))
      .orderBy(agentActions.key);
    expect(actions).toEqual([
      { key: `agent:${roundId}:0`, status: 'MINED', txHash: newBuy },
      { key: `agent:${roundId}:1`, status: 'FAILED', txHash: null },
    ]);
    const [round] = await t.database.db.select().from(decisionRounds).where(eq(decisionRounds.id, roundId));
    expect(round!.actionsExecuted).toEqual([
      `agent buy_token: executed (${NOTE}), tx ${newBuy}`,
      `agent sell_token: failed: ${FAILED_NOTE}; nothing was traded`,
    ]);
    expect(round!.anchorTxHash).toBe(newAnchor);
    // What the decision view shows follows.
    const view = roundView(round!);
    expect(view.actions.map((a) => [a.outcome.status, a.outcome.txHash])).toEqual([
      ['done', newBuy],
      ['failed', null],
    ]);
    expect(view.anchoredTxHash).toBe(newAnchor);
    // Sent again it would revert: the epoch waits for its finalization again (distribute-epoch reads the chain).
    const [e] = await t.database.db.select().from(rewardEpochs).where(eq(rewardEpochs.epoch, epoch));
    expect(e).toMatchObject({ status: 'PREPARED', finalizeTxHash: null, finalizedAt: null });

    // Exactly once: a second pass changes nothing, and the lines are not rewritten.
    expect(await followReorgedTransactions(t.container)).toBe(0);
    const [again] = await t.database.db.select().from(decisionRounds).where(eq(decisionRounds.id, roundId));
    expect(again!.actionsExecuted).toEqual(round!.actionsExecuted);
  });
});
