// Reorg detection (docs/indexer.md#reorgs): the blocks each stream applied that are not finalized yet, by number and
// hash, in `chain_blocks` (this module is its one writer). A batch whose first block's parent hash is not the
// recorded hash of the stream's cursor is on another branch; the highest recorded block whose hash the chain still
// has is the common ancestor the stream rolls back to. Rows below the finalized block are pruned.
import { and, desc, eq, gt, lte, sql } from 'drizzle-orm';
import { BlockNotFoundError, type Hex, type PublicClient, type Transport, type Chain as ViemChain } from 'viem';
import type { Db, Tx } from '../db/client.ts';
import { chainBlocks } from '../db/schema/chain.ts';

export interface BlockRef {
  number: bigint;
  hash: Hex;
}

type Client = Pick<PublicClient<Transport, ViemChain | undefined>, 'getBlock' | 'getBlockNumber'>;

/** How a follower learns the chain's finalized block: a depth under the head, or the chain's `finalized` tag. */
export type Finality = { depth: number } | 'tag';

/** The chain's finalized block for `head`: `head - depth`, or the `finalized` tag (never above `head`). */
export async function finalizedBlock(client: Client, finality: Finality, head: bigint): Promise<bigint> {
  if (finality === 'tag') {
    const block = await client.getBlock({ blockTag: 'finalized' });
    return block.number === null ? 0n : block.number < head ? block.number : head;
  }
  const depth = BigInt(finality.depth);
  return head > depth ? head - depth : 0n;
}

/** For `.catch` of getBlock: a block the chain no longer has (it shortened) is undefined; any other failure throws. */
export function missingBlock(err: unknown): undefined {
  if (err instanceof BlockNotFoundError) return undefined;
  throw err;
}

/** Records (or overwrites) the hashes of blocks a stream applied. */
export async function recordBlocks(tx: Tx, stream: string, blocks: readonly BlockRef[]): Promise<void> {
  const unique = new Map<bigint, Hex>();
  for (const b of blocks) unique.set(b.number, b.hash);
  if (unique.size === 0) return;
  await tx
    .insert(chainBlocks)
    .values([...unique].map(([number, hash]) => ({ stream, number, hash: hash.toLowerCase() })))
    .onConflictDoUpdate({ target: [chainBlocks.stream, chainBlocks.number], set: { hash: sql`excluded.hash` } });
}

/** The hash a stream recorded for block `number`, if it recorded one. */
export async function recordedHash(db: Db | Tx, stream: string, number: bigint): Promise<Hex | undefined> {
  const [row] = await db
    .select({ hash: chainBlocks.hash })
    .from(chainBlocks)
    .where(and(eq(chainBlocks.stream, stream), eq(chainBlocks.number, number)));
  return row?.hash as Hex | undefined;
}

/** Forgets the blocks above `number` (they were orphaned, or are about to be read again). */
export async function forgetBlocksAbove(tx: Tx, stream: string, number: bigint): Promise<void> {
  await tx.delete(chainBlocks).where(and(eq(chainBlocks.stream, stream), gt(chainBlocks.number, number)));
}

/**
 * Drops the records below the highest recorded block at or below `finalized`: that one stays, the anchor a reorg
 * above it is rolled back to.
 */
export async function pruneFinalized(tx: Tx, stream: string, finalized: bigint): Promise<void> {
  await tx.execute(sql`
    delete from ${chainBlocks} where ${chainBlocks.stream} = ${stream} and ${chainBlocks.number} < (
      select max(${chainBlocks.number}) from ${chainBlocks}
      where ${chainBlocks.stream} = ${stream} and ${chainBlocks.number} <= ${finalized}
    )`);
}

/**
 * The common ancestor of the stream's recorded branch and the chain: the highest recorded block at or below `cursor`
 * whose hash the chain still has at that height. Undefined when none is (a reorg below every record: deeper than
 * finality). Reads the chain's blocks 20 at a time, newest first.
 */
export async function commonAncestor(
  db: Db,
  client: Client,
  stream: string,
  cursor: bigint,
): Promise<bigint | undefined> {
  const recorded = await db
    .select({ number: chainBlocks.number, hash: chainBlocks.hash })
    .from(chainBlocks)
    .where(and(eq(chainBlocks.stream, stream), lte(chainBlocks.number, cursor)))
    .orderBy(desc(chainBlocks.number));
  for (let i = 0; i < recorded.length; i += 20) {
    const slice = recorded.slice(i, i + 20);
    const onChain = await Promise.all(slice.map((r) => client.getBlock({ blockNumber: r.number }).catch(missingBlock)));
    for (let j = 0; j < slice.length; j++) {
      if (onChain[j]?.hash?.toLowerCase() === slice[j]!.hash) return slice[j]!.number;
    }
  }
  return undefined;
}
