// `npm run cli -- reconcile [--from N] [--to M] [--fix]` (docs/operations.md#reconcile): compares every table the
// chain streams derive with a fresh index of the chain (src/chain/reconcile.ts) and prints each difference in words;
// with --fix it repairs them in one transaction. It reads the chain of CHAIN_RPC_URL and CONTRACTS_FILE and the
// server's database.
import { openChain } from '../chain/index.ts';
import { describeDifference, type ReconcileOptions, ReconcileRefused, reconcile } from '../chain/reconcile.ts';
import type { AnyChainStream, StreamDeps } from '../chain/streams.ts';
import type { Config } from '../config.ts';
import { CHAIN_STREAMS } from '../domain/streams/registry.ts';
import { CliFailure, withDatabase } from './api-key-stores.ts';

/**
 * Runs a reconciliation and prints it: one line per stream, one per difference, and a summary. Throws a CliFailure
 * (exit code 1) when differences remain (found without --fix).
 */
export async function printReconciliation(
  deps: StreamDeps,
  streams: readonly AnyChainStream[],
  options: ReconcileOptions,
  out: (line: string) => void,
): Promise<void> {
  let report: Awaited<ReturnType<typeof reconcile>>;
  try {
    report = await reconcile(deps, streams, options);
  } catch (err) {
    if (err instanceof ReconcileRefused) throw new CliFailure(`reconcile: ${err.message}`);
    throw err;
  }
  for (const s of report.streams) {
    if (s.skipped !== undefined) {
      out(`${s.stream}: skipped (${s.skipped}).`);
      continue;
    }
    const from = options.from === undefined ? '' : ` (rows of single logs from block ${options.from})`;
    out(`${s.stream}: compared at block ${s.at}${from}: ${plural(s.differences.length, 'difference')}.`);
    for (const d of s.differences) out(`  ${describeDifference(d)}`);
  }
  const n = report.differences.length;
  if (n === 0) {
    out('The database equals a fresh index of the chain.');
    return;
  }
  if (report.fixed) {
    out(`Repaired ${plural(n, 'difference')} in one transaction: the database now equals a fresh index of the chain.`);
    return;
  }
  throw new CliFailure(
    `reconcile: ${plural(n, 'difference')} between the database and the chain (run again with --fix to repair them)`,
  );
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export async function runReconcile(config: Config, options: ReconcileOptions, out: (line: string) => void) {
  if (!config.chainRpcUrl) {
    throw new CliFailure(
      'reconcile reads the chain of CHAIN_RPC_URL and CONTRACTS_FILE: set them (the service must be stopped when its database is the embedded one)',
    );
  }
  const { chain, stop } = await openChain(config, () => {});
  try {
    await withDatabase(config, async (database) => {
      out(`Database: ${database.kind === 'pglite' ? 'the embedded PGlite' : 'PostgreSQL'}; chain ${chain.chainId}.`);
      const deps: StreamDeps = {
        database,
        chain,
        config: { chainConfirmations: config.chainConfirmations, chainFinalityDepth: config.chainFinalityDepth },
      };
      await printReconciliation(deps, CHAIN_STREAMS, options, out);
    });
  } finally {
    await stop();
  }
}
