// Whether a day can be scored: the chain's clock has passed its end and the indexer streams whose logs the snapshot
// scores (company-token trades, treasury transfers) have applied every block stamped before it. A snapshot taken
// earlier would miss the day's last trades and transfers for good (a date is taken once), so it waits for them.
import { inArray } from 'drizzle-orm';
import type { Chain } from '../../chain/client.ts';
import { onChain } from '../../chain/errors.ts';
import type { Tx } from '../../db/client.ts';
import { chainCursors } from '../../db/schema/chain.ts';
import { CHAIN_STREAMS } from '../streams/registry.ts';

/** The streams the snapshot scores (`scored` in the registry), each when its contracts are configured (as main.ts starts them). */
export function scoredStreams(chain: Pick<Chain, 'contracts' | 'deployBlocks'>): string[] {
  return CHAIN_STREAMS.filter((s) => s.scored && s.address(chain) !== undefined).map((s) => s.name);
}

/**
 * The streams that have not yet applied every block stamped before `atMs` (empty: the day is indexed). A stream is
 * through when its cursor is the chain's latest block (a later block is stamped at the chain's time or after), or
 * when the first block after its cursor is stamped at or after `atMs`.
 */
export async function streamsBehind(
  deps: { chain: Pick<Chain, 'publicClient' | 'contracts' | 'deployBlocks'> },
  db: Tx,
  atMs: number,
): Promise<string[]> {
  const names = scoredStreams(deps.chain);
  if (names.length === 0) return [];
  const client = deps.chain.publicClient;
  const rows = await db
    .select({ name: chainCursors.name, block: chainCursors.block })
    .from(chainCursors)
    .where(inArray(chainCursors.name, names));
  const cursors = new Map(rows.map((r) => [r.name, r.block]));
  const latest = await onChain(() => client.getBlockNumber({ cacheTime: 0 }));
  const behind: string[] = [];
  for (const name of names) {
    const cursor = cursors.get(name);
    if (cursor === undefined) {
      behind.push(name);
      continue;
    }
    if (cursor >= latest) continue;
    const next = await onChain(() => client.getBlock({ blockNumber: cursor + 1n }));
    if (Number(next.timestamp) * 1000 < atMs) behind.push(name);
  }
  return behind;
}
