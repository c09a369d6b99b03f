// `npm run cli -- reconcile [--from N] [--to M] [--fix]` (docs/operations.md#reconcile): compares every table the
// chain streams derive with a fresh index of the chain (src/chain/reconcile.ts) and prints each difference in words;
// with --fix it repairs them in one transaction. It reads the server's database and its chain: that of CHAIN_RPC_URL
// and CONTRACTS_FILE, else (the defaults of `npm start`) the local chain under DATA_DIR: the running service's node
// when one runs, else that chain started from its saved state for the run, and stopped after.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { runningLocalChain } from '../chain/anvil.ts';
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

/**
 * The chain reconcile reads, and how it says so: CHAIN_RPC_URL's; else the local chain of DATA_DIR (the node a
 * running service keeps, found by its pid file, else that chain started from its saved state for this run).
 */
export function reconcileChain(config: Config): { config: Config; describe: string } {
  if (config.chainRpcUrl) return { config, describe: `the chain of CHAIN_RPC_URL` };
  const contractsFile = path.join(config.dataDir, 'contracts.json');
  const stateFile = path.join(config.dataDir, 'chain-state.json');
  // A running node may not have saved its state yet (it does every few seconds): its contracts file is enough.
  const running = existsSync(contractsFile) ? runningLocalChain(stateFile) : undefined;
  if (running) {
    return {
      config: { ...config, chainRpcUrl: running, contractsFile },
      describe: `the local chain of the running service at ${running}`,
    };
  }
  if (!existsSync(contractsFile) || !existsSync(stateFile)) {
    throw new CliFailure(
      `reconcile reads the chain of CHAIN_RPC_URL and CONTRACTS_FILE, else the local chain under DATA_DIR=${config.dataDir}, which has none (no contracts.json and chain-state.json): start the service once (npm start creates it), or set DATA_DIR to the service's data directory`,
    );
  }
  return { config, describe: `the local chain saved in ${stateFile}, started for this run` };
}

export async function runReconcile(config: Config, options: ReconcileOptions, out: (line: string) => void) {
  const source = reconcileChain(config);
  // The database before the chain: an embedded one a running service holds refuses here, before any node starts.
  await withDatabase(config, async (database) => {
    const { chain, stop } = await openChain(source.config, () => {});
    try {
      out(
        `Database: ${database.kind === 'pglite' ? 'the embedded PGlite' : 'PostgreSQL'}; chain ${chain.chainId} (${source.describe}).`,
      );
      const deps: StreamDeps = {
        database,
        chain,
        config: { chainConfirmations: config.chainConfirmations, chainFinalityDepth: config.chainFinalityDepth },
      };
      await printReconciliation(deps, CHAIN_STREAMS, options, out);
    } finally {
      await stop();
    }
  });
}
