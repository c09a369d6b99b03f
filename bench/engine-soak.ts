// The engine soak: 2,000 decision rounds in one process with the built-in model, on PostgreSQL and a local chain
// as `npm start` opens them, reading the heap after a full garbage collection every 200 rounds. The engine's memory
// must not grow with the rounds it has run (it did: a schema compiled into a module-level Ajv per round, about
// 47 MB per 5,000 rounds); passing means under 5 MiB of growth from the first reading to the last.
// `npm run bench -- --only engine`; writes bench/engine-soak-results.json.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import pino from 'pino';
import { devAccount } from '../src/chain/client.ts';
import { loadConfig } from '../src/config.ts';
import { AGENT_ROLES } from '../src/constants.ts';
import { createContainer } from '../src/container.ts';
import { agents } from '../src/db/schema/agents.ts';
import { companies } from '../src/db/schema/companies.ts';
import { runRound, startRound } from '../src/domain/engine/pipeline.ts';
import { recordResults } from './results.ts';
import { DEFAULT_SERVER_URL } from './seed.ts';
import { gc } from './service.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
export const ENGINE_SOAK_RESULTS = path.join(here, 'engine-soak-results.json');
const ROUNDS = 2_000;
const EVERY = 200;
const GROWTH_MAX_MIB = 5;
const MiB = 1024 * 1024;

export interface EngineSoakResult {
  rounds: number;
  failedRounds: number;
  readings: { rounds: number; heapMiB: number }[];
  growthMiB: number;
  /** Rounds completed per second, one after another (one company, the built-in model, anchoring not included). */
  roundsPerSecond: number;
  passed: boolean;
}

/** What 10,000 companies on a 1-hour schedule need of one engine process: rounds per second. */
export const SCHEDULE_NEED_ROUNDS_PER_SECOND = 10_000 / 3_600;

/** The database `name` on the local server (BENCH_SERVER_URL), dropped and created again. */
export async function freshDatabase(name = 'bench_engine'): Promise<string> {
  const server = process.env.BENCH_SERVER_URL ?? DEFAULT_SERVER_URL;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function runEngineSoak(rounds = ROUNDS): Promise<EngineSoakResult> {
  if (!gc) throw new Error('the engine soak needs a full garbage collection before each reading (--expose-gc)');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'aie-engine-soak-'));
  const url = await freshDatabase();
  const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: url, LOG_LEVEL: 'warn' });
  const container = await createContainer(config, pino({ level: 'warn' }));
  try {
    const db = container.database.db;
    const creator = devAccount(1).address;
    await db.insert(companies).values({
      id: 'soakco',
      slug: 'soak-co',
      name: 'Soak Co',
      category: 'AI_TOKENS',
      creatorAddress: creator,
      cardTokenId: 1,
      treasuryAddress: creator,
    });
    // Each agent has its wallet, as deploy-suite gives it: the context phase reads what each holds (the trading tools).
    const wallets = await Promise.all(AGENT_ROLES.map((_, i) => container.wallets.addressOf(i)));
    await db.insert(agents).values(
      AGENT_ROLES.map((role, i) => ({
        id: `soak-${role.toLowerCase()}`,
        walletIndex: i,
        onChainAddress: wallets[i]!,
        companyId: 'soakco',
        name: `Soak ${role}`,
        role,
        status: 'ACTIVE',
        creatorAddress: creator,
        persona: { role, description: 'soak agent' },
        skills: ['soak'],
        strategy: { type: 'soak', preset: 'BALANCED' },
      })),
    );
    const readings: EngineSoakResult['readings'] = [];
    let failedRounds = 0;
    const read = (done: number) => {
      gc!();
      const heapMiB = +(process.memoryUsage().heapUsed / MiB).toFixed(2);
      readings.push({ rounds: done, heapMiB });
      console.log(`  ${String(done).padStart(5)} rounds: heap ${heapMiB} MiB`);
    };
    // The first reading after a warm-up, so what the first rounds load once (modules, prepared statements, the
    // validators compiled once per process) is not counted as growth.
    const started = performance.now();
    for (let done = 0; done < rounds; done++) {
      const round = await runRound(container, await startRound(container, 'soakco', 'SCHEDULED'));
      if (round.status !== 'COMPLETE') failedRounds++;
      if ((done + 1) % EVERY === 0) read(done + 1);
    }
    // The heap readings (a full GC each) are inside the timing: 10 of them over 2,000 rounds, a few ms each.
    const roundsPerSecond = +(rounds / ((performance.now() - started) / 1000)).toFixed(1);
    const growthMiB = +(readings.at(-1)!.heapMiB - readings[0]!.heapMiB).toFixed(2);
    const result: EngineSoakResult = {
      rounds,
      failedRounds,
      readings,
      growthMiB,
      roundsPerSecond,
      passed: failedRounds === 0 && growthMiB < GROWTH_MAX_MIB,
    };
    console.log(
      `engine soak: ${rounds} rounds (${failedRounds} failed), heap growth ${growthMiB} MiB from round ${EVERY} to ${rounds} (goal: under ${GROWTH_MAX_MIB} MiB): ${result.passed ? 'passed' : 'FAILED'}`,
    );
    console.log(
      `engine throughput: ${roundsPerSecond} rounds/s one after another (10,000 companies on a 1-hour schedule need ${SCHEDULE_NEED_ROUNDS_PER_SECOND.toFixed(2)} rounds/s)`,
    );
    writeFileSync(ENGINE_SOAK_RESULTS, `${JSON.stringify(result, null, 2)}\n`);
    recordResults('engineSoak', result);
    return result;
  } finally {
    await container.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
