// The exactly-once checker of the fault tests: after a fault and the repair jobs, every outbox row, agent
// action and round line must agree with the chain. Returns the disagreements, one sentence each (empty when all agree).
import { sql } from 'drizzle-orm';
import { type Hex, type PublicClient, type TransactionReceipt, TransactionReceiptNotFoundError } from 'viem';
import { RETRY_SUFFIX } from '../../src/chain/outbox.ts';
import { rowsOf, type Tx } from '../../src/db/client.ts';

async function receiptOf(client: PublicClient, hash: string): Promise<TransactionReceipt | undefined> {
  try {
    return await client.getTransactionReceipt({ hash: hash as Hex });
  } catch (err) {
    if (err instanceof TransactionReceiptNotFoundError) return undefined;
    throw err;
  }
}

/**
 * Checks, against the chain: every chain_txs row (MINED/REVERTED as its receipt says, DROPPED with no receipt, none
 * left SENT); every agent action (MINED/REVERTED with the hash of its transaction row, FAILED with none mined, none
 * left SENT) and, for a round no longer RUNNING, its line (naming the hash of a mined action and not calling it
 * failed or interrupted, naming no hash for a failed one); every hash a round line names (mined, as the line says);
 * and, from block `fromBlock` on, every transaction of a signer the outbox knows has its row.
 */
export async function disagreementsWithChain(db: Tx, client: PublicClient, fromBlock = 0n): Promise<string[]> {
  const problems: string[] = [];
  const txs = rowsOf<{ key: string; hash: string; status: string; block_number: string | null; from_address: string }>(
    await db.execute(sql`select key, hash, status, block_number::text, from_address from chain_txs`),
  );
  const byKey = new Map(txs.map((t) => [t.key, t]));
  for (const t of txs) {
    const receipt = await receiptOf(client, t.hash);
    if (t.status === 'SENT' || t.status === 'REORGED') problems.push(`outbox ${t.key} is still ${t.status}`);
    else if (t.status === 'FAILED' && receipt) problems.push(`outbox ${t.key} is FAILED but ${t.hash} was mined`);
    else if (t.status === 'DROPPED' && receipt) problems.push(`outbox ${t.key} is DROPPED but ${t.hash} was mined`);
    else if (t.status === 'MINED' || t.status === 'REVERTED') {
      const want = t.status === 'MINED' ? 'success' : 'reverted';
      if (!receipt || receipt.status !== want || String(receipt.blockNumber) !== t.block_number) {
        problems.push(
          `outbox ${t.key} is ${t.status} at ${t.block_number}, the chain says ${receipt?.status ?? 'none'}`,
        );
      }
    }
  }
  const actions = rowsOf<{ key: string; status: string; tx_hash: string | null; round_id: string | null }>(
    await db.execute(sql`select key, status, tx_hash, round_id from agent_actions`),
  );
  const rounds = rowsOf<{ id: string; status: string; lines: string[] | null }>(
    await db.execute(sql`select id, status, actions_executed as lines from decision_rounds`),
  );
  const roundOf = new Map(rounds.map((r) => [r.id, r]));
  for (const a of actions) {
    const own = byKey.get(`${a.key}:tx${RETRY_SUFFIX}`) ?? byKey.get(`${a.key}:tx`);
    if (a.status === 'SENT')
      problems.push(`action ${a.key} is still SENT (its transaction ${own?.status ?? 'unsigned'})`);
    if ((a.status === 'MINED' || a.status === 'REVERTED') && (own?.hash !== a.tx_hash || own?.status !== a.status)) {
      problems.push(`action ${a.key} is ${a.status} ${a.tx_hash}, its transaction ${own?.status} ${own?.hash}`);
    }
    if (a.status === 'FAILED' && own && own.status !== 'DROPPED') {
      problems.push(`action ${a.key} is FAILED, its transaction ${own.status} ${own.hash}`);
    }
    const round = a.round_id ? roundOf.get(a.round_id) : undefined;
    if (!round || round.status === 'RUNNING') continue;
    const line = round.lines?.[Number(a.key.split(':').at(-1))];
    if (line === undefined) problems.push(`round ${round.id} has no line for action ${a.key}`);
    else if (a.status === 'MINED' && (!line.includes(a.tx_hash!) || /: (failed|interrupted|refused)/.test(line))) {
      problems.push(`round ${round.id} says "${line}" of action ${a.key}, mined as ${a.tx_hash}`);
    } else if (a.status === 'FAILED' && /tx 0x/.test(line)) {
      problems.push(`round ${round.id} says "${line}" of action ${a.key}, which failed`);
    }
  }
  for (const round of rounds) {
    for (const line of round.lines ?? []) {
      for (const [hash] of line.matchAll(/0x[0-9a-f]{64}/g)) {
        const receipt = await receiptOf(client, hash);
        const reverted = line.includes('reverted');
        if (!receipt || (receipt.status === 'success') === reverted) {
          problems.push(`round ${round.id} says "${line}", the chain says ${receipt?.status ?? 'not mined'}`);
        }
      }
    }
  }
  const signers = new Set(txs.map((t) => t.from_address.toLowerCase()));
  const hashes = new Set(txs.map((t) => t.hash.toLowerCase()));
  const latest = await client.getBlockNumber();
  for (let n = fromBlock; n <= latest; n++) {
    const block = await client.getBlock({ blockNumber: n, includeTransactions: true });
    for (const t of block.transactions) {
      if (signers.has(t.from.toLowerCase()) && !hashes.has(t.hash.toLowerCase())) {
        problems.push(`transaction ${t.hash} of ${t.from} in block ${n} has no outbox row`);
      }
    }
  }
  return problems;
}
