// The engine at real model latency: 1,667 companies on DECISION_INTERVAL_S=600 (the rate of 10,000 companies an
// hour), their slots spread over the interval as the schedule spreads them, answered by the fake OpenAI-compatible
// provider (test/helpers/fake-llm.ts) at 2-5 s a call, run by one engine process and then by two (`npm start` with
// ROLES=engine, as a fleet runs it) on PostgreSQL and anvil. Each configuration runs a ramp, then a measured window
// at steady state; reported per configuration: rounds an hour, p50/p95 round time, the lag of each round behind its
// company's slot (and whether every company was within 5 minutes), companies whose slot passed without a round, the
// engine processes' memory, and the machine's load. Goal: 10,000 companies an hour, every one within 5 minutes.
// `npx tsx bench/engine-schedule.ts [--companies 1667] [--interval 600] [--minutes 15] [--ramp-seconds 60]
// [--processes 1,2] [--latency 2000,5000]`; writes bench/engine-schedule-results.json and the `engineSchedule`
// section of bench/results.json.
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { toHex } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { readFlags, wholeNumberFlag } from '../scripts/flags.ts';
import { ANVIL_MNEMONIC } from '../src/chain/anvil.ts';
import { loadConfig } from '../src/config.ts';
import { createContainer } from '../src/container.ts';
import { rowsOf } from '../src/db/client.ts';
import { roundResponder, startFakeLlm } from '../test/helpers/fake-llm.ts';
import { seedEngineCompanies } from './engine-companies.ts';
import { freshDatabase } from './engine-soak.ts';
import { runAsScript } from './main.ts';
import { recordResults } from './results.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const LAG_GOAL_S = 300;

function parseArgs(argv: string[]) {
  const options = {
    companies: 1_667,
    intervalS: 600,
    minutes: 15,
    rampSeconds: 60,
    processes: [1, 2],
    latencyMs: [2_000, 5_000] as [number, number],
  };
  const list = (flag: string, v: string) => v.split(',').map((n) => wholeNumberFlag(flag, n, 1));
  readFlags(argv, {
    '--companies': (value) => {
      options.companies = wholeNumberFlag('--companies', value(), 1);
    },
    '--interval': (value) => {
      options.intervalS = wholeNumberFlag('--interval', value(), 1);
    },
    '--minutes': (value) => {
      options.minutes = wholeNumberFlag('--minutes', value(), 1);
    },
    '--ramp-seconds': (value) => {
      options.rampSeconds = wholeNumberFlag('--ramp-seconds', value(), 0);
    },
    '--processes': (value) => {
      options.processes = list('--processes', value());
    },
    '--latency': (value) => {
      const [min, max] = list('--latency', value());
      if (min === undefined || max === undefined || max < min) throw new Error('--latency takes min,max in ms');
      options.latencyMs = [min, max];
    },
  });
  return options;
}

type Options = ReturnType<typeof parseArgs>;

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** Resident memory of a process in MiB (Linux), or null once it is gone. */
function rssMiB(pid: number): number | null {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? +(Number(kb) / 1024).toFixed(1) : null;
  } catch {
    return null;
  }
}

export async function runEngineSchedule(options: Options = parseArgs([])) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'aie-engine-schedule-'));
  const url = await freshDatabase('bench_engine_schedule');
  const seed = toHex(crypto.getRandomValues(new Uint8Array(32)));
  const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: url, LOG_LEVEL: 'warn', WALLET_MASTER_SEED: seed });
  // This process holds the database's schema, the local chain and the fake provider; the engines are children.
  const container = await createContainer(config, pino({ level: 'warn' }));
  const fake = await startFakeLlm({ record: false });
  fake.setDefault(roundResponder({ latencyMs: options.latencyMs }));
  const children: ChildProcess[] = [];
  try {
    const db = container.database.db;
    await seedEngineCompanies(container, options.companies, 'sched');
    const platformKey = toHex(mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 0 }).getHdKey().privateKey!);
    const env = {
      ...process.env,
      ROLES: 'engine',
      DATA_DIR: dataDir,
      DATABASE_URL: url,
      CHAIN_RPC_URL: container.chain.rpcUrl,
      CHAIN_ID: String(container.chain.chainId),
      CONTRACTS_FILE: path.join(dataDir, 'contracts.json'),
      PLATFORM_PRIVATE_KEY: platformKey,
      WALLET_MASTER_SEED: seed,
      LLM_BASE_URL: fake.url,
      LLM_API_KEY: 'sk-bench',
      DECISION_INTERVAL_S: String(options.intervalS),
      CHAIN_CONFIRMATIONS: '0',
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
    };
    const runs = [];
    for (const processes of options.processes) {
      const started = await spreadSlots(container, options.intervalS);
      const engines = Array.from({ length: processes }, (_, i) => {
        const log = openSync(path.join(dataDir, `engine-${processes}-${i}.log`), 'w');
        const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
          cwd: root,
          env,
          stdio: ['ignore', log, log],
        });
        closeSync(log);
        children.push(child);
        return child;
      });
      console.log(
        `${processes} engine process(es): ramp ${options.rampSeconds} s, then ${options.minutes} min measured`,
      );
      await sleep(options.rampSeconds * 1000);
      const from = await chainNow(container);
      const memory: number[][] = engines.map(() => []);
      const load: number[] = [];
      const windowMs = options.minutes * 60_000;
      const end = Date.now() + windowMs;
      while (Date.now() < end) {
        await sleep(Math.min(30_000, end - Date.now()));
        engines.forEach((e, i) => {
          const mib = e.pid ? rssMiB(e.pid) : null;
          if (mib !== null) memory[i]!.push(mib);
        });
        load.push(os.loadavg()[0]!);
        const [n] = rowsOf<{ n: number }>(
          await db.execute(
            sql`select count(*)::int as n from decision_rounds where created_at >= ${from.toISOString()}::timestamptz`,
          ),
        );
        console.log(
          `  ${Math.round((windowMs - (end - Date.now())) / 1000)} s: ${n!.n} rounds started, load ${os.loadavg()[0]!.toFixed(1)}`,
        );
      }
      const to = await chainNow(container);
      const figures = await measure(container, from, to);
      await Promise.all(engines.map(stopChild));
      const run = {
        processes,
        ...figures,
        memoryMiB: memory.map((m) => ({
          first: m[0] ?? null,
          max: m.length ? Math.max(...m) : null,
          last: m.at(-1) ?? null,
        })),
        loadAverage: {
          mean: +(load.reduce((a, b) => a + b, 0) / Math.max(1, load.length)).toFixed(2),
          max: Math.max(...load),
        },
        rampSeconds: options.rampSeconds,
        seededAt: started.toISOString(),
      };
      console.log(JSON.stringify(run));
      runs.push(run);
    }
    const report = {
      companies: options.companies,
      intervalS: options.intervalS,
      latencyMs: options.latencyMs,
      windowMinutes: options.minutes,
      goal: { roundsPerHour: Math.round((options.companies * 3600) / options.intervalS), lagS: LAG_GOAL_S },
      runs,
    };
    writeFileSync(path.join(here, 'engine-schedule-results.json'), `${JSON.stringify(report, null, 2)}\n`);
    recordResults('engineSchedule', report);
    return report;
  } finally {
    await Promise.all(children.map(stopChild));
    await fake.close();
    await container.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const chainNow = async (container: Awaited<ReturnType<typeof createContainer>>) =>
  new Date(Number((await container.chain.publicClient.getBlock({ blockTag: 'pending' })).timestamp) * 1000);

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/**
 * Every company on the schedule at its own next slot from now (as a schedule that has run for a while has them):
 * the load is steady from the first minute, and no company is due at once.
 */
async function spreadSlots(container: Awaited<ReturnType<typeof createContainer>>, intervalS: number) {
  const now = await chainNow(container);
  const db = container.database.db;
  await db.execute(sql`delete from decision_schedule`);
  await db.execute(sql`
    insert into decision_schedule (company_id, next_at)
    select c.id, to_timestamp(o + ceil((extract(epoch from ${now.toISOString()}::timestamptz) - o) / ${intervalS}::float8) * ${intervalS}::float8)
    from companies c, lateral (select mod(hashtext(c.id)::bigint + 2147483648, ${intervalS}::bigint) as o) s
    where exists (select 1 from agents a where a.company_id = c.id and a.status = 'ACTIVE')`);
  return now;
}

/** The window's rounds: rate, round time, lag behind the slot, and the slots that passed without a round. */
async function measure(container: Awaited<ReturnType<typeof createContainer>>, from: Date, to: Date) {
  const db = container.database.db;
  const rounds = rowsOf<{ status: string; duration_ms: number | null; lag_s: number; company_id: string }>(
    await db.execute(sql`
      select status, total_duration_ms as duration_ms, company_id,
        extract(epoch from created_at - scheduled_for)::float8 as lag_s
      from decision_rounds
      where trigger = 'SCHEDULED' and created_at >= ${from.toISOString()}::timestamptz and created_at < ${to.toISOString()}::timestamptz`),
  );
  const hours = (to.getTime() - from.getTime()) / 3_600_000;
  const durations = rounds
    .filter((r) => r.status === 'COMPLETE' && r.duration_ms !== null)
    .map((r) => r.duration_ms! / 1000)
    .sort((a, b) => a - b);
  const lags = rounds.map((r) => r.lag_s).sort((a, b) => a - b);
  // Slots that came due in the window, early enough to have been run within the goal, with no round since.
  const [missed] = rowsOf<{ n: number }>(
    await db.execute(sql`
      select count(*)::int as n from decision_schedule s
      where s.next_at < ${new Date(to.getTime() - LAG_GOAL_S * 1000).toISOString()}::timestamptz`),
  );
  const statuses: Record<string, number> = {};
  for (const r of rounds) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  return {
    windowSeconds: Math.round((to.getTime() - from.getTime()) / 1000),
    rounds: rounds.length,
    statuses,
    roundsPerHour: Math.round(rounds.length / hours),
    roundSeconds: { p50: percentile(durations, 50), p95: percentile(durations, 95), max: durations.at(-1) ?? null },
    lagSeconds: { p50: percentile(lags, 50), p95: percentile(lags, 95), max: lags.at(-1) ?? null },
    withinGoal: lags.filter((l) => l <= LAG_GOAL_S).length,
    slotsOverdueAtEnd: missed!.n,
  };
}

runAsScript(import.meta.url, async () => {
  await runEngineSchedule(parseArgs(process.argv.slice(2)));
});
