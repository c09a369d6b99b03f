// The cost table: how the platform's costs grow with its size. For each size (`--sizes 10000,100000`: companies,
// the rest in proportion, bench/seed.ts) it seeds the database, reads its size, measures the read routes (bench/
// http.ts on that database), then takes the daily score snapshot of the next day over every company (the treasury
// balances read from the chain, then the set-based SQL) and finalizes a reward epoch over it (the scores, the
// Merkle tree of every eligible company, its claims, and one finalize transaction whose gas is read from its
// receipt), each timed. The routes' varied paths name the first 10,000 companies: sizes start there. Writes bench/scale-results.json and the `scale` section of bench/results.json.
//   npx tsx bench/scale.ts [--sizes 10000,100000] [--routes company,v1-fortune-varied] [--seconds 4]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import pino from 'pino';
import { loadConfig } from '../src/config.ts';
import { createContainer } from '../src/container.ts';
import { distributeEpoch } from '../src/domain/epochs/distribute.ts';
import { utcDateOf } from '../src/domain/scores/dates.ts';
import { takeScoreSnapshot } from '../src/domain/scores/snapshot.ts';
import type { runHttpBench } from './http.ts';
import { runAsScript } from './main.ts';
import { recordResults } from './results.ts';
import { resetBenchDatabase, seedBenchDatabase, seedCounts } from './seed.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const DAY_MS = 86_400_000;

interface ScaleOptions {
  sizes: number[];
  /** bench/http.ts flags for the read routes at each size. */
  http: string[];
}

function parseArgs(argv: string[]): ScaleOptions {
  const options: ScaleOptions = { sizes: [10_000, 100_000], http: [] };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i]!.split('=', 2);
    if (flag === '--sizes') {
      options.sizes = (inline ?? argv[++i] ?? '').split(',').map(Number);
      if (options.sizes.some((n) => !Number.isInteger(n) || n < 10_000))
        throw new Error('--sizes takes whole numbers >= 10000 (the varied paths name the first 10,000 companies)');
    } else {
      options.http.push(argv[i]!);
      if (inline === undefined && argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('--')) {
        options.http.push(argv[++i]!);
      }
    }
  }
  return options;
}

const seconds = (from: number) => +((performance.now() - from) / 1000).toFixed(2);

async function databaseSize(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const total = await client.query<{ bytes: string }>('select pg_database_size(current_database())::text as bytes');
    const tables = await client.query<{ table: string; bytes: string }>(
      `select relname as table, pg_total_relation_size(c.oid)::text as bytes from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
       where c.relkind = 'r' and n.nspname = current_schema() order by pg_total_relation_size(c.oid) desc limit 6`,
    );
    const mib = (bytes: string) => Math.round(Number(bytes) / 2 ** 20);
    return {
      totalMiB: mib(total.rows[0]!.bytes),
      largestTablesMiB: Object.fromEntries(tables.rows.map((r) => [r.table, mib(r.bytes)])),
    };
  } finally {
    await client.end();
  }
}

/** The snapshot of the day after the seeded ones, and an epoch finalized over it, on a container like npm start's. */
async function snapshotAndEpoch(url: string) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'aie-scale-'));
  const config = loadConfig({ ...process.env, DATABASE_URL: url, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ROLES: 'api' });
  const container = await createContainer(config, pino({ level: 'warn' }));
  try {
    const db = container.database.db;
    // The seed holds snapshots up to today: the next is tomorrow's, covering today (its treasuries' balance
    // histories and trades are seeded in the database, as the indexer writes them).
    const tomorrow = utcDateOf(Date.now() + DAY_MS);
    let started = performance.now();
    const snapshot = await takeScoreSnapshot(container, db, tomorrow);
    const snapshotSeconds = seconds(started);
    console.log(
      `  snapshot of ${tomorrow}: ${snapshot.status}, ${snapshot.companies} companies, ${snapshot.changed} scores changed in ${snapshotSeconds} s`,
    );

    // The chain's clock past the end of epoch 0, which started when the contracts were deployed (now): tomorrow's
    // snapshot is inside its window.
    const client = container.chain.publicClient;
    await client.request({ method: 'evm_increaseTime' as never, params: [8 * 86_400] as never });
    await client.request({ method: 'evm_mine' as never, params: [] as never });
    started = performance.now();
    const epoch = await distributeEpoch(container);
    const epochSeconds = seconds(started);
    if (epoch.status !== 'finalized') throw new Error(`epoch not finalized: ${JSON.stringify(epoch)}`);
    const receipt = await client.getTransactionReceipt({ hash: epoch.txHash });
    console.log(
      `  epoch ${epoch.epoch}: ${epoch.participantCount} participants finalized in ${epochSeconds} s, finalize gas ${receipt.gasUsed}`,
    );
    return {
      snapshot: {
        date: tomorrow,
        companies: snapshot.companies,
        scoresChanged: snapshot.changed,
        seconds: snapshotSeconds,
      },
      epoch: {
        participants: epoch.participantCount,
        seconds: epochSeconds,
        finalizeGas: Number(receipt.gasUsed),
      },
    };
  } finally {
    await container.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Runs a part in a process of its own and answers the last line it prints: each part starts the service's
 * container, and two of them in one process would share viem's nonce tracking of the same dev account (chain id
 * 31337 both times) across two different chains.
 */
function inChild(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      process.stdout.write(chunk);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${args.join(' ')} exited with ${code}`));
      resolve(out.trimEnd().split('\n').at(-1) ?? '');
    });
  });
}

export async function runScaleBench(options: ScaleOptions) {
  const sizes = [];
  for (const companies of options.sizes) {
    console.log(`== ${companies} companies ==`);
    const url = await resetBenchDatabase();
    const seed = await seedBenchDatabase(url, seedCounts(companies));
    console.log(`  seeded in ${seed.totalSeconds} s: ${JSON.stringify(seed.counts)}`);
    const size = await databaseSize(url);
    console.log(`  database ${size.totalMiB} MiB`);
    // The snapshot and the epoch first, on a chain of their own; then the read routes (with one more day).
    const costs = JSON.parse(await inChild([path.join(here, 'scale.ts'), '--costs-of', url]));
    const httpOut = path.join(os.tmpdir(), `aie-scale-http-${companies}.json`);
    await inChild([
      path.join(here, 'http.ts'),
      ...['--no-seed', '--no-record', '--companies', String(companies), '--http-out', httpOut, ...options.http],
    ]);
    const http = JSON.parse(readFileSync(httpOut, 'utf8')) as Awaited<ReturnType<typeof runHttpBench>>;
    sizes.push({
      companies,
      counts: seed.counts,
      seedSeconds: seed.totalSeconds,
      database: size,
      routes: http.routes.map((r) => ({
        name: r.name,
        rps: Math.round(r.route.rps),
        p99Ms: r.route.p99,
        bareRps: Math.round(r.bare.rps),
        ratio: r.ratio,
        coldRps: r.cold?.rps,
        met: r.met,
      })),
      ...costs,
    });
  }
  const report = { sizes };
  writeFileSync(path.join(here, 'scale-results.json'), `${JSON.stringify(report, null, 2)}\n`);
  recordResults('scale', report);
  return report;
}

runAsScript(import.meta.url, async () => {
  const costsOf = process.argv.indexOf('--costs-of');
  if (costsOf === -1) await runScaleBench(parseArgs(process.argv.slice(2)));
  else console.log(JSON.stringify(await snapshotAndEpoch(process.argv[costsOf + 1]!)));
});
