// The economy's invariants on every change: the simulation's small run (bench/economy/, docs/economics.md "The
// simulation") against a real service on embedded defaults (its own anvil; PGlite, or a fresh database on the server
// of TEST_DATABASE_URL): honest companies, the outside market and attackers over simulated days and one epoch,
// distributed and claimed. It fails when an attack's break-even price is below the documented threshold, when the
// honest companies take less than 90% of an epoch's rewards, when the rewards paid exceed the pool, when the staking
// emission paid and owed exceeds what the contract accrued, or when an attacker took honest agents' USDC. Part of
// the normal suite: about two minutes on a quiet two-core machine (docs/economics.md "The CI run" has the
// measurements); its timeouts are generous for a loaded one, and it bounds no wall-clock time.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CI_RUN } from '../../bench/economy/args.ts';
import { runSimulation } from '../../bench/economy/main.ts';
import { formatTable, type SimReport } from '../../bench/economy/report.ts';
import {
  killServices,
  type ServiceDatabase,
  type ServiceProcess,
  serviceDatabase,
  startService,
} from '../helpers/process.ts';

let dataDir = '';
let server: ServiceProcess;
let database: ServiceDatabase;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'aie-sim-'));
  database = await serviceDatabase(dataDir);
  server = await startService(
    // The engine claims rounds within half a second of their slot; one client address sends everything.
    { DATA_DIR: dataDir, ENGINE_POLL_MS: '500', RATE_LIMIT_MAX: '10000000', ...database.env },
    { timeoutMs: 600_000 },
  );
}, 620_000);

afterAll(async () => {
  await server?.stop().catch(() => undefined);
  killServices();
  await database?.drop().catch(() => undefined);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('the economy simulation, small run', () => {
  let report: SimReport;

  it(`runs ${CI_RUN.companies} companies, ${CI_RUN.attackers * 100}% attackers, ${CI_RUN.days} days and an epoch`, async () => {
    report = await runSimulation({
      ...CI_RUN,
      url: server.base,
      secret: readFileSync(path.join(dataDir, 'cron-secret'), 'utf8').trim(),
      out: '',
      docs: false,
      from: undefined,
      help: false,
    });
    // The table in the test's output: what each attack cost and earned, the honest share, who paid.
    process.stdout.write(formatTable(report));
    expect(report.honestCompanies + report.attackerCompanies).toBeGreaterThanOrEqual(CI_RUN.companies);
    expect(
      report.epochs.some((e) => e.participants > 0),
      JSON.stringify(report.epochs),
    ).toBe(true);
    expect(report.marketTrades).toBeGreaterThan(0);
  }, 7_200_000);

  it('holds every invariant', () => {
    const failed = report.invariants.filter((i) => !i.ok);
    expect(failed, JSON.stringify({ failed, best: report.best, epochs: report.epochs }, null, 1)).toEqual([]);
    // The invariants the run must have checked: the pool, the honest share, each attacker's break-even.
    const names = report.invariants.map((i) => i.name).join('\n');
    expect(names).toMatch(/rewards within the pool/);
    expect(names).toMatch(/honest share >= 90%/);
    expect(names).toMatch(/honest agents lose nothing/);
    expect(names).toMatch(/emission paid within emission accrued/);
    expect(report.emission?.accruedTokens, 'an honest staker staked').toBeGreaterThan(0);
    // Each attacker's cost counts the gas its wallets used.
    for (const a of report.attackers) expect(a.gasUnits, a.strategy).toBeGreaterThan(0);
    for (const a of report.best) expect(names).toContain(`${a.strategy}: break-even`);
  });
});
