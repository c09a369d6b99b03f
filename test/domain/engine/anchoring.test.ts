// Anchoring batches of decision rounds as one Merkle root that form by size or by time, whichever comes
// first: anchoringDue answers when a batch is due, and anchorPendingRounds anchors every waiting round
// in one anchorRoot transaction, recording on each round the root and its proof, which the contract accepts.

import { DecisionAnchorAbi } from '@ai-economy/shared/abis';
import { createId } from '@paralleldrive/cuid2';
import { eq, inArray, sql } from 'drizzle-orm';
import { type Hex, keccak256, stringToHex } from 'viem';
import { describe, expect, it } from 'vitest';
import { companyKey } from '../../../src/chain/contracts/launcher.ts';
import { decisionRounds } from '../../../src/db/schema/decisions.ts';
import { anchoringDue, anchorPendingRounds } from '../../../src/domain/engine/anchoring.ts';
import { useTestApp } from '../../helpers/app.ts';
import { insertCompany } from '../../helpers/events.ts';

const t = useTestApp();

/** `n` complete, hashed, unanchored rounds of a fresh company, finished `agoMs` ago by the database's clock. */
async function completeRounds(n: number, agoMs: number) {
  const company = await insertCompany(t.database.db, `anchoring-${createId()}`);
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = createId();
    ids.push(id);
    await t.database.db.insert(decisionRounds).values({
      id,
      companyId: company.id,
      cycle: i + 1,
      status: 'COMPLETE',
      trigger: 'SCHEDULED',
      decisionHash: keccak256(stringToHex(`round-${id}`)),
      finishedAt: sql`now() - ${`${agoMs} milliseconds`}::interval` as unknown as Date,
    });
  }
  return { companyId: company.id, ids };
}

describe('anchoring batches', () => {
  it('a batch is due by size or by time, whichever comes first', async () => {
    expect(await anchoringDue(t.container, { target: 3, waitMs: 60_000 })).toBe(false);
    await completeRounds(2, 1_000);
    // two rounds, a second old: neither the size (3) nor the wait (60 s) is reached
    expect(await anchoringDue(t.container, { target: 3, waitMs: 60_000 })).toBe(false);
    // the size is
    expect(await anchoringDue(t.container, { target: 2, waitMs: 60_000 })).toBe(true);
    // the wait is
    expect(await anchoringDue(t.container, { target: 3, waitMs: 500 })).toBe(true);
    await completeRounds(1, 0);
    expect(await anchoringDue(t.container, { target: 3, waitMs: 60_000 })).toBe(true);
    expect(await anchorPendingRounds(t.container)).toBe(3);
    expect(await anchoringDue(t.container, { target: 1, waitMs: 0 })).toBe(false);
  });

  it('anchors every waiting round as one Merkle root, each with a proof the contract accepts', async () => {
    const a = await completeRounds(3, 0);
    const b = await completeRounds(2, 0);
    expect(await anchorPendingRounds(t.container)).toBe(5);
    const rows = await t.database.db
      .select()
      .from(decisionRounds)
      .where(inArray(decisionRounds.id, [...a.ids, ...b.ids]));
    expect(new Set(rows.map((r) => r.anchorTxHash)).size).toBe(1);
    expect(new Set(rows.map((r) => r.anchorRoot)).size).toBe(1);
    const receipt = await t.chain.chain.publicClient.getTransactionReceipt({ hash: rows[0]!.anchorTxHash as Hex });
    const block = await t.chain.chain.publicClient.getBlock({ blockNumber: receipt.blockNumber });
    for (const row of rows) {
      expect(row.anchoredAt!.getTime()).toBe(Number(block.timestamp) * 1000);
      const at = await t.chain.chain.publicClient.readContract({
        address: t.chain.chain.contracts.decisionAnchor!,
        abi: DecisionAnchorAbi,
        functionName: 'anchoredAt',
        args: [companyKey(row.companyId), row.decisionHash as Hex, row.anchorProof as Hex[]],
      });
      expect(at).toBe(block.timestamp);
    }
    // Nothing is anchored twice: a second flush finds nothing.
    expect(await anchorPendingRounds(t.container)).toBe(0);
    const [again] = await t.database.db.select().from(decisionRounds).where(eq(decisionRounds.id, a.ids[0]!));
    expect(again!.anchorTxHash).toBe(rows.find((r) => r.id === a.ids[0])!.anchorTxHash);
  });
});
