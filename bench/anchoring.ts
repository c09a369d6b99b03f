// The anchoring gas per decision round at 1, 10 and 100 rounds a batch. The engine anchors its rounds as one Merkle
// root a batch (`anchorRoot`, anchorDecisionRoot in src/chain/contracts/anchor.ts, driven by
// src/domain/engine/anchoring.ts), so this sends such batches through the real outbox and anchor contract on a fresh
// anvil and reads each receipt's gas; the contract's per-hash entry point (`anchorBatch`, one storage slot a hash,
// which the service no longer sends) is measured beside it, at the same sizes, for comparison. Target: under 5,000 gas a round at 100 rounds a batch.
// Writes bench/anchoring-results.json.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DecisionAnchorAbi } from '@ai-economy/shared/abis';
import { encodeFunctionData, type Hex, keccak256, toHex } from 'viem';
import { startAnvil } from '../src/chain/anvil.ts';
import { createChainClients } from '../src/chain/client.ts';
import { type AnchorEntry, anchorDecisionRoot } from '../src/chain/contracts/anchor.ts';
import { deployLocalContracts } from '../src/chain/deploy.ts';
import { deployBlocksOf } from '../src/chain/index.ts';
import { createOutbox } from '../src/chain/outbox.ts';
import { openDatabase } from '../src/db/client.ts';
import { runAsScript } from './main.ts';
import { recordResults } from './results.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
export const ANCHORING_RESULTS = path.join(here, 'anchoring-results.json');
const ROUNDS_PER_BATCH = [1, 10, 100];
const SAMPLES = 3;
/** Gas a round at 100 rounds a batch that the Merkle-root path must stay under. */
export const ROOT_TARGET_GAS_PER_ROUND = 5_000;

export interface AnchoringRow {
  /** `anchorRoot`: one Merkle root a batch (what the engine sends); `anchorBatch`: one storage slot a hash. */
  method: 'anchorRoot' | 'anchorBatch';
  roundsPerBatch: number;
  gasPerBatch: number;
  gasPerRound: number;
}

export async function runAnchoringBench(): Promise<AnchoringRow[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'aie-anchoring-'));
  const node = await startAnvil();
  const database = await openDatabase({ dataDir: path.join(dir, 'pg') });
  try {
    const clients = createChainClients({ chainId: 31337, rpcUrl: node.rpcUrl, local: true, timeoutMs: 10_000 });
    const file = await deployLocalContracts(clients, undefined, { baseUrl: 'http://localhost' });
    const chain = { ...clients, contracts: file.contracts, deployBlocks: deployBlocksOf(file), explorerUrl: null };
    const outbox = createOutbox({ db: database.db, chain, wallet: chain.platform });
    /** The per-hash entry point, sent through the outbox as the service once did: its transaction's hash. */
    const anchorBatch = async (key: string, entries: readonly AnchorEntry[]) => {
      const data = encodeFunctionData({
        abi: DecisionAnchorAbi,
        functionName: 'anchorBatch',
        args: [entries.map((e) => e.companyKey), entries.map((e) => e.decisionHash)],
      });
      return (await outbox.send(key, () => ({ to: file.contracts.decisionAnchor!, data }))).transactionHash;
    };
    let n = 0;
    const fresh = (): Hex => keccak256(toHex(`bench round ${n++}`));
    // Steady state: the companies anchored before (each company key is stored once, at its first anchoring).
    const companies = Array.from({ length: 100 }, (_, i) => keccak256(toHex(`bench company ${i}`)));
    for (let i = 0; i < companies.length; i += 50) {
      const keys = companies.slice(i, i + 50);
      await anchorBatch(
        `bench-warmup:${i}`,
        keys.map((companyKey) => ({ companyKey, decisionHash: fresh() })),
      );
    }
    const rows: AnchoringRow[] = [];
    for (const method of ['anchorRoot', 'anchorBatch'] as const) {
      for (const size of ROUNDS_PER_BATCH) {
        let gas = 0n;
        for (let s = 0; s < SAMPLES; s++) {
          const entries = Array.from({ length: size }, (_, k) => ({
            companyKey: companies[k]!,
            decisionHash: fresh(),
          }));
          const key = `bench-${method}:${size}:${s}`;
          const txHash =
            method === 'anchorRoot'
              ? (await anchorDecisionRoot({ outbox, chain }, key, entries)).txHash
              : await anchorBatch(key, entries);
          gas += (await chain.publicClient.getTransactionReceipt({ hash: txHash })).gasUsed;
        }
        const perBatch = Number(gas / BigInt(SAMPLES));
        rows.push({ method, roundsPerBatch: size, gasPerBatch: perBatch, gasPerRound: Math.round(perBatch / size) });
      }
    }
    const atHundred = rows.find((r) => r.method === 'anchorRoot' && r.roundsPerBatch === 100)!;
    if (atHundred.gasPerRound >= ROOT_TARGET_GAS_PER_ROUND) {
      throw new Error(
        `anchorRoot costs ${atHundred.gasPerRound} gas a round at 100 a batch, not under ${ROOT_TARGET_GAS_PER_ROUND}`,
      );
    }
    writeFileSync(ANCHORING_RESULTS, `${JSON.stringify({ measuredAt: new Date().toISOString(), rows }, null, 2)}\n`);
    recordResults('anchoring', { rows });
    console.log('anchoring gas per round by rounds a batch (anvil; companies that anchored before):');
    console.table(rows);
    return rows;
  } finally {
    await database.close();
    await node.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

runAsScript(import.meta.url, async () => {
  await runAnchoringBench();
});
