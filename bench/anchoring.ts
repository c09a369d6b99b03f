// The anchoring gas per decision round at 1, 10 and 100 rounds a minute. The engine anchors each pass's rounds in one
// anchorBatch (src/domain/engine/anchoring.ts), and a pass runs every ENGINE_POLL_MS (15 s by default), so at r rounds
// a minute a batch holds about r / 4 of them. This sends such batches through the real outbox and anchor contract on
// a fresh anvil and reads each receipt's gas. Writes bench/anchoring-results.json.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Hex, keccak256, toHex } from 'viem';
import { startAnvil } from '../src/chain/anvil.ts';
import { createChainClients } from '../src/chain/client.ts';
import { anchorDecisions } from '../src/chain/contracts/anchor.ts';
import { deployLocalContracts } from '../src/chain/deploy.ts';
import { deployBlocksOf } from '../src/chain/index.ts';
import { createOutbox } from '../src/chain/outbox.ts';
import { openDatabase } from '../src/db/client.ts';
import { runAsScript } from './main.ts';
import { recordResults } from './results.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
export const ANCHORING_RESULTS = path.join(here, 'anchoring-results.json');
const RATES_PER_MINUTE = [1, 10, 100];
const PASS_MS = 15_000;
const SAMPLES = 3;

export interface AnchoringRow {
  roundsPerMinute: number;
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
    let n = 0;
    const fresh = (): Hex => keccak256(toHex(`bench round ${n++}`));
    // Steady state: the companies anchored before (each company key is stored once, at its first anchoring).
    const companies = Array.from({ length: 100 }, (_, i) => keccak256(toHex(`bench company ${i}`)));
    for (let i = 0; i < companies.length; i += 50) {
      const keys = companies.slice(i, i + 50);
      await anchorDecisions(
        { outbox, chain },
        `bench-warmup:${i}`,
        keys.map((companyKey) => ({ companyKey, decisionHash: fresh() })),
      );
    }
    const rows: AnchoringRow[] = [];
    for (const rate of RATES_PER_MINUTE) {
      const size = Math.max(1, Math.round((rate * PASS_MS) / 60_000));
      let gas = 0n;
      for (let s = 0; s < SAMPLES; s++) {
        const entries = Array.from({ length: size }, (_, k) => ({ companyKey: companies[k]!, decisionHash: fresh() }));
        const anchorings = await anchorDecisions({ outbox, chain }, `bench-batch:${rate}:${s}`, entries);
        const receipt = await chain.publicClient.getTransactionReceipt({
          hash: anchorings.get(entries[0]!.decisionHash)!.txHash,
        });
        gas += receipt.gasUsed;
      }
      const perBatch = Number(gas / BigInt(SAMPLES));
      rows.push({
        roundsPerMinute: rate,
        roundsPerBatch: size,
        gasPerBatch: perBatch,
        gasPerRound: Math.round(perBatch / size),
      });
    }
    writeFileSync(
      ANCHORING_RESULTS,
      `${JSON.stringify({ measuredAt: new Date().toISOString(), passMs: PASS_MS, rows }, null, 2)}\n`,
    );
    recordResults('anchoring', { passMs: PASS_MS, rows });
    console.log(`anchoring gas per round (one batch per ${PASS_MS / 1000} s engine pass, anvil):`);
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
