// Exactly-once platform transactions. Each effect has a key (`card-lock:42`); the transaction is signed and
// recorded under that key before it is broadcast, so after a crash the same signed bytes are broadcast again
// (at most one can ever be mined, since they share a nonce) instead of a second transaction being made.
// Nonces are assigned under a per-signer advisory lock, so replicas sharing a key never collide. Each transaction
// names the companies it is charged to; when it settles, its gas and cost from the receipt are added to their daily
// totals (company_gas_days) exactly once, on the UTC day of the block that mined it (the chain's day, by which the
// budget is checked: docs/decisions.md "Costs the platform pays").
import { eq, sql } from 'drizzle-orm';
import {
  type Address,
  type Hex,
  keccak256,
  parseTransaction,
  type TransactionReceipt,
  WaitForTransactionReceiptTimeoutError,
} from 'viem';
import type { Db, Tx } from '../db/client.ts';
import { createGate } from '../db/gate.ts';
import { chainTxs, companyGasDays } from '../db/schema/chain.ts';
import type { ChainClients, Wallet } from './client.ts';
import { onChain } from './errors.ts';
import {
  gasLimit,
  isRevert,
  nonceUsedBy,
  outOfGas,
  RETRY_SUFFIX,
  receiptOf,
  splitEqually,
  type TxRequest,
} from './outbox-reads.ts';
import { describeChainError } from './revert.ts';

export interface SendOptions {
  /**
   * The companies whose requests cause the transaction, one entry per equal share of its gas and cost (repeat a
   * company for several shares); none for the platform's own work.
   */
  chargedTo?: readonly string[];
  /**
   * Runs in the transaction that records the transaction, before it is signed; throwing signs nothing. A caller
   * whose right to send can end (a decision round failed meanwhile) checks it here, under a lock that orders it
   * with whatever ends it.
   */
  beforeSign?: (tx: Tx) => Promise<void>;
}

export interface Outbox {
  /** Sends the transaction for `key` once; later calls with the same key return the same transaction's receipt. */
  send(key: string, build: () => TxRequest | Promise<TxRequest>, options?: SendOptions): Promise<TransactionReceipt>;
  /** Re-broadcasts and settles every transaction recorded but not yet known mined (run at start). */
  settlePending(): Promise<number>;
  /**
   * After a reorg: every transaction recorded mined (or reverted) in a block above `finalized` whose receipt the
   * chain no longer has is sent again, exactly once: its own signed bytes while its nonce is free, else (another
   * transaction took the nonce, so it can never be mined) the same call signed anew, or, when that call would now
   * revert, recorded FAILED with the reason. A receipt that moved to another block moves the row's block. Returns
   * the rows it found orphaned, as they ended.
   */
  recheckMined(finalized: bigint): Promise<Reorged[]>;
}

/** A transaction whose block a reorg orphaned, as recheckMined left it. */
export interface Reorged {
  key: string;
  /** MINED or REVERTED again (sent again), FAILED (would revert: see `note`), REORGED (to be sent on the next run). */
  status: string;
  /** The transaction's hash now: the same as before unless it was signed anew. */
  hash: Hex;
  note: string | null;
}

export interface OutboxOptions {
  db: Db;
  chain: Pick<ChainClients, 'publicClient' | 'viemChain'>;
  wallet: Wallet;
  receiptTimeoutMs?: number;
  /** Test hook: runs after the transaction is recorded and before it is broadcast. */
  beforeBroadcast?: (key: string) => Promise<void> | void;
}

type Row = typeof chainTxs.$inferSelect;

export { RETRY_SUFFIX, splitEqually, type TxRequest };

const lockKey = (address: Address) => sql`hashtext(${`outbox:${address.toLowerCase()}`})`;

export function createOutbox(options: OutboxOptions): Outbox {
  const { db, chain, wallet } = options;
  const client = chain.publicClient;
  const from = wallet.account.address;
  const receiptTimeoutMs = options.receiptTimeoutMs ?? 60_000;
  const signing = createGate(1);

  async function record(
    key: string,
    request: TxRequest,
    replace: boolean,
    chargedTo: string[],
    beforeSign?: SendOptions['beforeSign'],
    /** REORGED for a transaction signed anew after a reorg: its gas was charged once already. */
    status: 'SENT' | 'REORGED' = 'SENT',
  ): Promise<Row> {
    // One record at a time in this process before the lock is asked for: the others wait here, not each on a pooled
    // connection of its own in the database's lock queue (six deploy-suites at once took the pool of ten that way).
    return signing(() =>
      db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${lockKey(from)})`);
        const [existing] = await tx.select().from(chainTxs).where(eq(chainTxs.key, key));
        if (existing && !replace) return existing;
        await beforeSign?.(tx);
        const nonce = await nextNonce(tx);
        const gas = request.gas ?? (await gasLimit(client, from, request));
        const prepared = await wallet.prepareTransactionRequest({
          account: wallet.account,
          chain: chain.viemChain,
          to: request.to,
          data: request.data,
          value: request.value ?? 0n,
          nonce,
          gas,
        });
        const rawTx = await wallet.account.signTransaction!(prepared as never);
        const row = {
          key,
          fromAddress: from,
          nonce,
          rawTx,
          hash: keccak256(rawTx),
          status,
          blockNumber: null,
          chargedTo,
          gasUsed: null,
          gasPrice: null,
        };
        if (existing) {
          await tx
            .update(chainTxs)
            .set({ ...row, updatedAt: new Date() })
            .where(eq(chainTxs.key, key));
        } else {
          await tx.insert(chainTxs).values(row);
        }
        return { ...row, createdAt: new Date(), updatedAt: new Date() } as Row;
      }),
    );
  }

  /** The next nonce: past both what the node has seen and what this signer recorded but may not have sent. */
  async function nextNonce(tx: Tx): Promise<number> {
    const [onChain, recorded] = await Promise.all([
      client.getTransactionCount({ address: from, blockTag: 'pending' }),
      tx
        .select({ max: sql<number | null>`max(${chainTxs.nonce})` })
        .from(chainTxs)
        .where(sql`${chainTxs.fromAddress} = ${from} and ${chainTxs.status} in ('SENT', 'REORGED')`),
    ]);
    const maxRecorded = recorded[0]?.max;
    return Math.max(onChain, maxRecorded === null || maxRecorded === undefined ? 0 : Number(maxRecorded) + 1);
  }

  /**
   * Records the receipt, and adds its gas and cost to the charged companies' day, once: only the update that moves
   * the row out of SENT charges, so settling twice (a retry, two replicas) counts nothing twice. The day is the UTC
   * day of the receipt's block timestamp, read before anything is written (a node that does not answer leaves the
   * row SENT, settled later).
   */
  async function markSettled(row: Row, receipt: TransactionReceipt) {
    const gasUsed = receipt.gasUsed;
    const gasPrice = receipt.effectiveGasPrice;
    const minedAt =
      row.chargedTo.length === 0
        ? undefined
        : await onChain(() => client.getBlock({ blockNumber: receipt.blockNumber })).then((b) => b.timestamp);
    await db.transaction(async (tx) => {
      const [before] = await tx
        .select({ status: chainTxs.status })
        .from(chainTxs)
        .where(eq(chainTxs.key, row.key))
        .for('update');
      const [settled] = await tx
        .update(chainTxs)
        .set({
          status: receipt.status === 'success' ? 'MINED' : 'REVERTED',
          blockNumber: receipt.blockNumber,
          gasUsed,
          gasPrice,
          updatedAt: new Date(),
        })
        // DROPPED too: a row marked so by an older version, which took a lagging receipt for a dropped transaction, while it was mined is settled, not re-signed.
        // REORGED: sent again after a reorg orphaned its block; its gas was charged when it was first mined.
        .where(sql`${chainTxs.key} = ${row.key} and ${chainTxs.status} in ('SENT', 'DROPPED', 'REORGED')`)
        .returning({ chargedTo: chainTxs.chargedTo });
      if (!settled || before?.status === 'REORGED' || settled.chargedTo.length === 0 || minedAt === undefined) return;
      // An OP-stack chain (Base) also charges the L1 data fee, which its receipts report.
      const l1Fee = (receipt as { l1Fee?: bigint | null }).l1Fee ?? 0n;
      const shares = splitEqually(settled.chargedTo, gasUsed, gasUsed * gasPrice + l1Fee);
      const day = new Date(Number(minedAt) * 1000).toISOString().slice(0, 10);
      for (const [companyId, share] of shares) {
        await tx
          .insert(companyGasDays)
          .values({ companyId, day, gasUsed: share.gas, costWei: share.cost, transactions: 1 })
          .onConflictDoUpdate({
            target: [companyGasDays.companyId, companyGasDays.day],
            set: {
              gasUsed: sql`${companyGasDays.gasUsed} + excluded.gas_used`,
              costWei: sql`${companyGasDays.costWei} + excluded.cost_wei`,
              transactions: sql`${companyGasDays.transactions} + 1`,
            },
          });
      }
    });
  }

  /**
   * Returns the receipt, or undefined when the transaction can never be mined: only on proof that another
   * transaction of the signer took its nonce (nonceUsedBy), never on "nonce too low" alone, which a mined
   * transaction whose receipt lags behind also gets. Throws, leaving the row SENT, while unproven.
   */
  async function settle(row: Row): Promise<TransactionReceipt | undefined> {
    const known = await receiptOf(client, row.hash as Hex);
    if (known) {
      if (row.status !== 'MINED' && row.status !== 'REVERTED') await markSettled(row, known);
      return known;
    }
    try {
      await client.sendRawTransaction({ serializedTransaction: row.rawTx as Hex });
    } catch (err) {
      const message = String((err as Error).message).toLowerCase();
      if (message.includes('nonce too low') || message.includes('nonce is too low')) {
        // Mined meanwhile, or its nonce was taken by another transaction: a receipt, or the block, tells which.
        const after = await receiptOf(client, row.hash as Hex);
        if (after) {
          await markSettled(row, after);
          return after;
        }
        const user = await nonceUsedBy(client, from, row);
        if (user === 'other') return undefined;
        if (user === 'unknown') {
          throw new Error(
            `transaction ${row.key} (${row.hash}): its nonce ${row.nonce} is used, and the node cannot yet say by which transaction; it stays recorded and is settled later`,
          );
        }
        // Its own: mined with its receipt still to come, or pending. Wait for the receipt below.
      } else if (!message.includes('already known') && !message.includes('already imported')) throw err;
    }
    try {
      const receipt = await client.waitForTransactionReceipt({ hash: row.hash as Hex, timeout: receiptTimeoutMs });
      await markSettled(row, receipt);
      return receipt;
    } catch (err) {
      if (err instanceof WaitForTransactionReceiptTimeoutError) {
        throw new Error(
          `transaction ${row.key} (${row.hash}) not mined within ${receiptTimeoutMs} ms; it stays recorded and is re-sent later`,
        );
      }
      throw err;
    }
  }

  async function sendOnce(key: string, build: () => TxRequest | Promise<TxRequest>, sendOptions: SendOptions) {
    const chargedTo = [...(sendOptions.chargedTo ?? [])];
    const [existing] = await db.select().from(chainTxs).where(eq(chainTxs.key, key));
    // A DROPPED row is made anew only when its own transaction has no receipt: a row marked so by an older version
    // while its transaction was mined is settled instead, never signed a second time.
    // FAILED: orphaned by a reorg, and its nonce taken; asked again, it is made anew as a DROPPED one is.
    const fresh =
      !existing ||
      ((existing.status === 'DROPPED' || existing.status === 'FAILED') &&
        !(await receiptOf(client, existing.hash as Hex)));
    // A row a reorg orphaned was charged when first mined: what replaces it is not charged again.
    const status = existing?.status === 'REORGED' ? 'REORGED' : 'SENT';
    let row = fresh
      ? await record(key, await build(), existing !== undefined, chargedTo, sendOptions.beforeSign)
      : existing;
    if (fresh) await options.beforeBroadcast?.(key);
    let receipt = await settle(row);
    if (!receipt) {
      // The recorded transaction can never be mined: make it again under the same key.
      row = await record(key, await build(), true, chargedTo, sendOptions.beforeSign, status);
      receipt = await settle(row);
      if (!receipt) throw new Error(`transaction ${key} could not be sent: its nonce was taken twice`);
    }
    const limit = outOfGas(row, receipt);
    if (limit === undefined) return receipt;
    // It ran out of gas: once more, under a key of its own (so a crash here retries once, not twice), with at least
    // twice the limit (never past the block's) and never less than a fresh estimate gives.
    const block = await client.getBlock({ blockTag: 'latest' });
    const raised = limit * 2n < block.gasLimit ? limit * 2n : block.gasLimit;
    const retry = async (): Promise<TxRequest> => {
      const { gas: _spent, ...request } = await build();
      const floor = request.gasFloor !== undefined && request.gasFloor > raised ? request.gasFloor : raised;
      return { ...request, gasFloor: floor };
    };
    return sendOnce(`${key}${RETRY_SUFFIX}`, retry, sendOptions);
  }

  return {
    send(key, build, sendOptions = {}) {
      // A node that does not answer is CHAIN_UNAVAILABLE here, once, for every caller.
      return onChain(() => sendOnce(key, build, sendOptions));
    },

    async settlePending() {
      const pending = await db
        .select()
        .from(chainTxs)
        .where(sql`${chainTxs.status} = 'SENT' and ${chainTxs.fromAddress} = ${from}`)
        .orderBy(chainTxs.nonce);
      for (const row of pending) {
        if (!(await settle(row))) {
          // Its nonce went to another transaction: the next send under this key makes it anew.
          await db.update(chainTxs).set({ status: 'DROPPED', updatedAt: new Date() }).where(eq(chainTxs.key, row.key));
        }
      }
      return pending.length;
    },

    async recheckMined(finalized) {
      const rows = await db
        .select()
        .from(chainTxs)
        .where(
          sql`${chainTxs.fromAddress} = ${from} and (${chainTxs.status} = 'REORGED' or (${chainTxs.status} in ('MINED', 'REVERTED') and ${chainTxs.blockNumber} > ${finalized}))`,
        )
        .orderBy(chainTxs.nonce);
      const found: Reorged[] = [];
      for (let row of rows) {
        if (row.status !== 'REORGED') {
          const receipt = await receiptOf(client, row.hash as Hex);
          if (receipt) {
            // Still on the chain; a reorg that mined it again elsewhere moves its block.
            if (receipt.blockNumber !== row.blockNumber) {
              await db
                .update(chainTxs)
                .set({ blockNumber: receipt.blockNumber, updatedAt: new Date() })
                .where(eq(chainTxs.key, row.key));
            }
            continue;
          }
          const note = `its block ${row.blockNumber} left the chain (a reorg): sent again`;
          const [marked] = await db
            .update(chainTxs)
            .set({ status: 'REORGED', note, updatedAt: new Date() })
            .where(sql`${chainTxs.key} = ${row.key} and ${chainTxs.status} = ${row.status}`)
            .returning();
          if (!marked) continue;
          row = marked;
        }
        found.push(await sendAgain(row));
      }
      return found;
    },
  };

  /** Sends an orphaned transaction again, once: its own bytes, else the same call signed anew, else FAILED. */
  async function sendAgain(row: Row): Promise<Reorged> {
    const ended = (r: Row, receipt: TransactionReceipt | undefined): Reorged => ({
      key: r.key,
      status: receipt ? (receipt.status === 'success' ? 'MINED' : 'REVERTED') : r.status,
      hash: r.hash as Hex,
      note: r.note,
    });
    const receipt = await settle(row);
    if (receipt) return ended(row, receipt);
    // Another transaction took its nonce: these bytes can never be mined. The same call, signed anew, unless it
    // would now revert.
    const parsed = parseTransaction(row.rawTx as Hex);
    const request: TxRequest = {
      to: parsed.to!,
      data: parsed.data ?? '0x',
      ...(parsed.value !== undefined && { value: parsed.value }),
      ...(parsed.gas !== undefined && { gas: parsed.gas }),
    };
    try {
      await client.call({ account: from, to: request.to, data: request.data, value: request.value ?? 0n });
    } catch (err) {
      if (!isRevert(err)) throw err;
      const note = `its block ${row.blockNumber ?? '?'} left the chain (a reorg), and sent again it would revert: ${describeChainError(err)}`;
      await db
        .update(chainTxs)
        .set({ status: 'FAILED', note, updatedAt: new Date() })
        .where(sql`${chainTxs.key} = ${row.key} and ${chainTxs.status} = 'REORGED'`);
      return { key: row.key, status: 'FAILED', hash: row.hash as Hex, note };
    }
    const anew = { ...(await record(row.key, request, true, row.chargedTo, undefined, 'REORGED')), note: row.note };
    return ended(anew, await settle(anew));
  }
}
