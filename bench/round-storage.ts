// What the round records cost in PostgreSQL, kept whole and once pruned (the prune-decision-details job,
// domain/engine/retention.ts): `--companies` companies of seven agents each run two rounds through the fake
// OpenAI-compatible provider (test/helpers/fake-llm.ts) answering at the length real models answer (a few sentences of
// rationale per proposal, a directive of a paragraph, three actions), then the first round of each is dated past the
// retention and pruned. Sizes are pg_total_relation_size (heap, TOAST and indexes) of decision_rounds and
// decision_budgets after VACUUM FULL, less those of the empty tables. `npx tsx bench/round-storage.ts [--companies
// 200]`; writes the `roundStorage` section of bench/results.json.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { readFlags, wholeNumberFlag } from '../scripts/flags.ts';
import { loadConfig } from '../src/config.ts';
import { createContainer } from '../src/container.ts';
import { rowsOf } from '../src/db/client.ts';
import { economyNow, runRound, startRound } from '../src/domain/engine/pipeline.ts';
import { pruneDecisionDetails } from '../src/domain/engine/retention.ts';
import { roundResponder, startFakeLlm } from '../test/helpers/fake-llm.ts';
import { seedEngineCompanies } from './engine-companies.ts';
import { freshDatabase } from './engine-soak.ts';
import { runAsScript } from './main.ts';
import { recordResults } from './results.ts';

const TABLES = ['decision_rounds', 'decision_budgets'] as const;
const sentence = (n: number) =>
  'The token trades thinly and the treasury holds enough runway, so the team keeps its spending small and tells the market what it ships this week. '
    .repeat(Math.ceil(n / 150))
    .slice(0, n);

export async function runRoundStorage(options = { companies: 200 }) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'aie-round-storage-'));
  const url = await freshDatabase('bench_round_storage');
  const fake = await startFakeLlm();
  fake.setDefault(
    roundResponder({
      overrides: {
        role: () => ({
          content: JSON.stringify({
            proposals: [
              { tool: 'read_token_price', args: {}, rationale: sentence(160) },
              { tool: 'publish_update', args: { message: sentence(280) }, rationale: sentence(200) },
            ],
          }),
        }),
        extraction: () => ({
          content: JSON.stringify({
            directive: sentence(450),
            actions: ['CMO', 'CTO', 'COO'].map((role) => ({
              role,
              tool: 'publish_update',
              args: { message: sentence(280) },
              rationale: sentence(200),
            })),
          }),
        }),
      },
    }),
  );
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: url,
    LOG_LEVEL: 'warn',
    LLM_BASE_URL: fake.url,
    LLM_API_KEY: 'sk-bench',
    MANUAL_ROUND_COOLDOWN_S: '0',
  });
  const container = await createContainer(config, pino({ level: 'warn' }));
  const db = container.database.db;
  const sizes = async () => {
    await db.execute(sql.raw(`vacuum full analyze ${TABLES.join(', ')}`));
    const [row] = rowsOf<Record<string, string>>(
      await db.execute(
        sql.raw(`select ${TABLES.map((t) => `pg_total_relation_size('${t}')::text as ${t}`).join(', ')}`),
      ),
    );
    return Object.fromEntries(TABLES.map((t) => [t, Number(row![t])])) as Record<(typeof TABLES)[number], number>;
  };
  const sum = (s: Record<string, number>) => Object.values(s).reduce((a, b) => a + b, 0);
  try {
    const n = options.companies;
    await seedEngineCompanies(container, n, 'rs');
    const empty = await sizes();
    const ids = Array.from({ length: n }, (_, i) => `rs${i + 1}`);
    for (let pass = 0; pass < 2; pass++) {
      const queue = [...ids];
      const worker = async () => {
        for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
          const round = await runRound(container, await startRound(container, id, 'MANUAL'));
          if (round.status !== 'COMPLETE') throw new Error(`round ${round.id}: ${round.error}`);
        }
      };
      await Promise.all(Array.from({ length: 16 }, worker));
    }
    const whole = await sizes();
    const rounds = 2 * n;
    const perRound = Object.fromEntries(TABLES.map((t) => [t, Math.round((whole[t] - empty[t]) / rounds)]));
    const perRoundWhole = Math.round((sum(whole) - sum(empty)) / rounds);

    // The first round of each company past the retention; the second (each company's latest) stays whole.
    const now = await economyNow(container);
    await db.execute(sql`update decision_rounds set created_at = created_at - interval '30 days' where cycle = 1`);
    const pruned = await pruneDecisionDetails(db, now, { maxBatches: 1_000 });
    if (pruned.rounds !== n) throw new Error(`pruned ${pruned.rounds} rounds, expected ${n}`);
    const after = await sizes();
    // The latest rounds are as before: what is left of the pruned ones is the total less the whole ones.
    const perRoundPruned = Math.round((sum(after) - sum(empty) - n * perRoundWhole) / n);
    const roundsADay = 86_400 / config.decisionIntervalS;
    const report = {
      companies: n,
      rounds,
      emptyBytes: empty,
      wholeBytes: whole,
      prunedBytes: after,
      bytesPerRound: { whole: perRoundWhole, byTable: perRound, pruned: perRoundPruned },
      budgetRowsDeleted: pruned.budgets,
      perCompanyPerDay: {
        roundsADay,
        whole: Math.round(perRoundWhole * roundsADay),
        pruned: Math.round(perRoundPruned * roundsADay),
      },
    };
    console.log(JSON.stringify(report, null, 2));
    recordResults('roundStorage', report);
    return report;
  } finally {
    await container.close();
    await fake.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

runAsScript(import.meta.url, async () => {
  const options = { companies: 200 };
  readFlags(process.argv.slice(2), {
    '--companies': (value) => {
      options.companies = wholeNumberFlag('--companies', value(), 1);
    },
  });
  await runRoundStorage(options);
});
