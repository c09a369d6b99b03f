// Which tables of the read model changed, as every process hears it: a statement-level trigger on each table the
// cached reads use (migration 0016) NOTIFYs its name on CHANGES_CHANNEL, delivered when the writing transaction
// commits, to every replica at once. The read cache (src/http/read-cache.ts) keeps a body as long as none of its
// tables changed since it was read.
import type { Database } from './client.ts';

/** The NOTIFY channel of the triggers; the payload is the table's name. */
export const CHANGES_CHANNEL = 'read_model_changes';

/** The tables with a change trigger: what a cached read may depend on (a read of any other table is not cached). */
export const WATCHED_TABLES = [
  'companies',
  'agents',
  'company_gas_days',
  'score_snapshots',
  'token_trades',
  'chain_cursors',
  'token_holder_counts',
  'token_balances',
  'position_carries',
] as const;
export type WatchedTable = (typeof WATCHED_TABLES)[number];

export interface ChangeFeed {
  /**
   * Resolves true once every change committed before the call is known here, false when that cannot be known
   * (not listening yet, or the connection is lost): then nothing read earlier may be trusted.
   */
  caughtUp(): Promise<boolean>;
  /** The feed's position now: take it before reading. */
  position(): number;
  /** Whether one of `tables` changed after `position` (or changes may have been missed since). */
  changedSince(tables: readonly WatchedTable[], position: number): boolean;
  stop(): Promise<void>;
}

/** How long after a failed LISTEN the next read tries again. */
const RETRY_MS = 1000;

export function createChangeFeed(database: Pick<Database, 'listen' | 'caughtUp'>): ChangeFeed {
  let seq = 0;
  /** The position of each table's last change, and of the last time everything had to be forgotten. */
  const changedAt = new Map<string, number>();
  let resetAt = 0;
  let listening: Promise<() => Promise<void>> | undefined;
  let failedAt = Number.NEGATIVE_INFINITY;
  let stopped = false;

  const onNotify = (table: string) => {
    seq += 1;
    // An empty payload: the connection was lost and is back, and what was notified meanwhile is unknown.
    if (table === '') resetAt = seq;
    else changedAt.set(table, seq);
  };

  const listen = () => {
    if (listening === undefined && !stopped && performance.now() - failedAt >= RETRY_MS) {
      // Whatever was read before listening began is not to be trusted.
      resetAt = ++seq;
      listening = database.listen(CHANGES_CHANNEL, onNotify);
      listening.catch(() => {
        listening = undefined;
        failedAt = performance.now();
      });
    }
    return listening;
  };

  return {
    async caughtUp() {
      const started = listen();
      if (started === undefined) return false;
      try {
        await started;
        await database.caughtUp();
        return !stopped;
      } catch {
        return false;
      }
    },
    position: () => seq,
    changedSince(tables, position) {
      if (resetAt > position) return true;
      for (const table of tables) if ((changedAt.get(table) ?? 0) > position) return true;
      return false;
    },
    async stop() {
      stopped = true;
      const unlisten = await listening?.catch(() => undefined);
      listening = undefined;
      await unlisten?.();
    },
  };
}
