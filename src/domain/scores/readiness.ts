// Whether a day can be scored: the chain's clock has passed its end, and the indexer streams whose logs the snapshot
// scores (company-token trades, treasury transfers) have applied every block stamped before it, and those blocks are
// finalized. A snapshot taken earlier would miss the day's last trades and transfers for good (a date is taken
// once), or count ones a reorg can still take back (money is decided on finalized blocks only), so it waits.
//
// A stream's rows are final up to least(cursor, finalized) of its chain_cursors row: `finalized` is the chain's
// finalized block when the stream applied its last batch, checked against the branch it applied (src/chain/indexer.ts),
// and a reorg below it stops the indexer instead of undoing anything. The snapshot reads no row above that block.
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

/** A scored stream's cursor: the last block it applied, and the last block of those that is finalized (-1: none). */
export interface StreamProgress {
  applied: bigint;
  final: bigint;
}

/**
 * Each scored stream's progress, by name; a stream that has never applied a batch in this database is absent. A
 * cursor without a recorded finalized block (written before the indexer recorded it) has nothing final yet.
 */
export async function scoredProgress(
  chain: Pick<Chain, 'contracts' | 'deployBlocks'>,
  db: Tx,
): Promise<Map<string, StreamProgress>> {
  const names = scoredStreams(chain);
  if (names.length === 0) return new Map();
  const rows = await db
    .select({ name: chainCursors.name, block: chainCursors.block, finalized: chainCursors.finalized })
    .from(chainCursors)
    .where(inArray(chainCursors.name, names));
  return new Map(
    rows.map((r) => {
      const finalized = r.finalized ?? -1n;
      return [r.name, { applied: r.block, final: finalized < r.block ? finalized : r.block }];
    }),
  );
}

/** Why the day cannot be scored yet: the streams it waits for, and the reason of each in words. */
export interface DayReadiness {
  /** The scored streams that have not applied, or not finalized, every block stamped before the day's end. */
  waitingFor: string[];
  /** One sentence per stream waiting, e.g. "company-tokens: applied the day, but its last block is not finalized yet". */
  reasons: string[];
  /** What the check read of each scored stream (the snapshot then checks, under the streams' locks, that none moved back). */
  progress: Map<string, StreamProgress>;
}

/**
 * The streams that have not yet applied every block stamped before `atMs`, or whose blocks up to there are not all
 * finalized (empty: the day is indexed and final). A block B is past the day when B is the chain's latest block (a
 * later block is stamped at the chain's time or after), or when block B + 1 is stamped at or after `atMs`.
 */
export async function dayReadiness(
  deps: { chain: Pick<Chain, 'publicClient' | 'contracts' | 'deployBlocks'> },
  db: Tx,
  atMs: number,
): Promise<DayReadiness> {
  const names = scoredStreams(deps.chain);
  if (names.length === 0) return { waitingFor: [], reasons: [], progress: new Map() };
  const client = deps.chain.publicClient;
  const progress = await scoredProgress(deps.chain, db);
  const ready: DayReadiness = { waitingFor: [], reasons: [], progress };
  const latest = await onChain(() => client.getBlockNumber({ cacheTime: 0 }));
  const pastDay = async (block: bigint) => {
    if (block >= latest) return true;
    const next = await onChain(() => client.getBlock({ blockNumber: block + 1n }));
    return Number(next.timestamp) * 1000 >= atMs;
  };
  for (const name of names) {
    const p = progress.get(name);
    let reason: string | undefined;
    if (p === undefined) reason = `${name}: has not applied any block yet`;
    else if (!(await pastDay(p.applied)))
      reason = `${name}: has not applied the day's last blocks yet (at block ${p.applied})`;
    else if (!(await pastDay(p.final))) {
      reason = `${name}: applied the day, but its last block is not finalized yet (finalized up to block ${p.final < 0n ? 'none' : p.final})`;
    }
    if (reason !== undefined) {
      ready.waitingFor.push(name);
      ready.reasons.push(reason);
    }
  }
  return ready;
}
