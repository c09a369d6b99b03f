// The engine over many due companies: 10,000 companies of seven agents each (wallets included, so each round's
// context reads what every agent holds), all due at once, and one engine process running its passes
// (runDueRounds, as the engine role does: ENGINE_CONCURRENCY rounds at once, then one anchoring batch per pass) with
// the built-in model on PostgreSQL and the embedded anvil, until `--rounds` rounds have run. Reports rounds a second
// at each concurrency, the share of a 1-hour schedule of 10,000 companies that is, and the anchoring gas per round
// from the receipts. `npx tsx bench/engine-scale.ts [--companies 10000] [--rounds 600] [--concurrency 4,16]`;
// writes bench/engine-scale-results.json and the `engineScale` section of bench/results.json.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import type { Hex } from 'viem';
import { readFlags, wholeNumberFlag } from '../scripts/flags.ts';
import { loadConfig } from '../src/config.ts';
import { createContainer } from '../src/container.ts';
import { rowsOf } from '../src/db/client.ts';
import { runDueRounds } from '../src/domain/engine/runner.ts';
import { seedEngineCompanies } from './engine-companies.ts';
import { freshDatabase } from './engine-soak.ts';
import { runAsScript } from './main.ts';
import { recordResults } from './results.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const SCHEDULE_S = 3600;

function parseArgs(argv: string[]) {
  const options = { companies: 10_000, rounds: 600, concurrency: [4, 16] };
  readFlags(argv, {
    '--companies': (value) => {
      options.companies = wholeNumberFlag('--companies', value(), 1);
    },
    '--rounds': (value) => {
      options.rounds = wholeNumberFlag('--rounds', value(), 1);
    },
    '--concurrency': (value) => {
      options.concurrency = value()
        .split(',')
        .map((v) => wholeNumberFlag('--concurrency', v, 1));
    },
  });
  return options;
}

export async function runEngineScale(options = parseArgs([])) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'aie-engine-scale-'));
  const url = await freshDatabase('bench_engine_scale');
  const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: url, LOG_LEVEL: 'warn' });
  const container = await createContainer(config, pino({ level: 'warn' }));
  try {
    const db = container.database.db;
    const n = options.companies;
    await seedEngineCompanies(container, n, 'eng');

    const runs = [];
    for (const concurrency of options.concurrency) {
      const before = await db.execute(sql`select count(*)::int as n from decision_rounds`);
      const startCount = rowsOf<{ n: number }>(before)[0]!.n;
      const started = performance.now();
      let ran = 0;
      let passes = 0;
      while (ran < options.rounds) {
        ran += await runDueRounds(container, { intervalS: SCHEDULE_S, concurrency });
        passes++;
      }
      const seconds = (performance.now() - started) / 1000;
      const rows = rowsOf<{ status: string; n: number }>(
        await db.execute(sql`
          select status, count(*)::int as n from decision_rounds
          where id in (select id from decision_rounds order by created_at desc limit ${ran}) group by status`),
      );
      const anchors = rowsOf<{ tx: string; rounds: number }>(
        await db.execute(sql`
          select anchor_tx_hash as tx, count(*)::int as rounds from decision_rounds
          where anchor_tx_hash is not null and id in (select id from decision_rounds order by created_at desc limit ${ran})
          group by anchor_tx_hash`),
      );
      let gas = 0n;
      for (const a of anchors) {
        gas += (await container.chain.publicClient.getTransactionReceipt({ hash: a.tx as Hex })).gasUsed;
      }
      const anchored = anchors.reduce((s, a) => s + a.rounds, 0);
      const roundsPerSecond = +(ran / seconds).toFixed(2);
      const run = {
        concurrency,
        rounds: ran,
        passes,
        seconds: +seconds.toFixed(1),
        roundsPerSecond,
        statuses: Object.fromEntries(rows.map((r) => [r.status, r.n])),
        anchoringBatches: anchors.length,
        roundsAnchored: anchored,
        anchoringGasPerRound: anchored ? Math.round(Number(gas) / anchored) : null,
        /** Companies one process keeps on a 1-hour schedule at this rate. */
        companiesPerHour: Math.floor(roundsPerSecond * SCHEDULE_S),
        roundsBefore: startCount,
      };
      console.log(
        `concurrency ${concurrency}: ${ran} rounds in ${run.seconds} s = ${roundsPerSecond} rounds/s (${run.companiesPerHour} companies an hour; 10,000 need 2.78 rounds/s), ${anchors.length} anchoring batches, ${run.anchoringGasPerRound} gas a round`,
      );
      runs.push(run);
    }
    const report = { companies: n, agents: n * 7, model: 'built-in', runs };
    writeFileSync(path.join(here, 'engine-scale-results.json'), `${JSON.stringify(report, null, 2)}\n`);
    recordResults('engineScale', report);
    return report;
  } finally {
    await container.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

runAsScript(import.meta.url, async () => {
  await runEngineScale(parseArgs(process.argv.slice(2)));
});
