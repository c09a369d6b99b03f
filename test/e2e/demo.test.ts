// `npm run demo -- --plan small` against a real service on embedded defaults (its own anvil, PGlite): the demo
// leaves a living market, several simulated days on the chain's clock, with candles over more than one day, a score
// history of a point a day for every company, non-zero volume for the traded tokens and trading for the momentum
// CFO, and a default Fortune List of a market day (the epoch's last); every company has its Safe and roles (the
// default custody), its Safe is the treasury the list counts and its agents trade from it; a second run adds nothing
// and fails nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planCompanies } from '../../scripts/demo/plan.ts';
import { killServices, runScript, type ServiceProcess, startService } from '../helpers/process.ts';

const DAYS = 3;
// The small plan (three companies, three tokens): the same days and rules as the full one, in a third of the time.
const PLAN = planCompanies('small');
const dataDir = mkdtempSync(path.join(tmpdir(), 'aie-demo-'));
let server: ServiceProcess;

/** `npm run demo` against the service; the development cron secret is read from its data directory. */
const runDemo = (base: string) =>
  runScript('scripts/demo/main.ts', ['--url', base, '--plan', 'small', '--days', String(DAYS)], { DATA_DIR: dataDir });

const get = async (path: string) => {
  const res = await fetch(`${server.base}${path}`);
  expect(res.status, path).toBe(200);
  return ((await res.json()) as any).data;
};

beforeAll(async () => {
  // Rounds are claimed within half a second of their slot, so the demo's days do not wait on the engine's poll.
  // The default gas budget: it counts the chain's day (docs/decisions.md "Costs the platform pays"), so each
  // simulated day gives every company a new one and its agents' trades on the last day are not refused.
  server = await startService({ DATA_DIR: dataDir, ENGINE_POLL_MS: '500' }, { timeoutMs: 170_000 });
}, 180_000);

afterAll(async () => {
  await server?.stop().catch(() => undefined);
  killServices();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm run demo', () => {
  const traded = PLAN.filter((c) => c.token).map((c) => c.slug);
  const histories = new Map<string, any[]>();
  let lastRun: Awaited<ReturnType<typeof runDemo>> | undefined;

  it(`builds ${DAYS} days of history on the chain's clock`, async () => {
    const run = await runDemo(server.base);
    lastRun = run;
    expect(run.code, `${run.stderr.slice(-3000)}\n${run.stdout}`).toBe(0);
    expect(run.stdout).toContain(`simulated days: ${DAYS} added`);
    // No agent action of the last day's rounds was refused by the daily gas budget (days.ts gasRefusals).
    expect(run.stdout).not.toMatch(/refused by the daily gas budget/);
    // The progress bar is still drawn (stderr is no TTY here: one line per step) and ends done.
    expect(run.stderr).toMatch(/\[#{20}\] \d+\/\d+ done/);

    for (const c of PLAN) {
      const { snapshots } = await get(`/api/companies/${c.slug}/scores?limit=100`);
      histories.set(c.slug, snapshots);
      // A point a day for every company (all of them existed before the first day closed), and perhaps one the
      // service's own job took of the day before the launch or after the epoch's end.
      expect(snapshots.length, c.slug).toBeGreaterThanOrEqual(DAYS);
      expect(new Set(snapshots.map((d: any) => d.date)).size, c.slug).toBe(snapshots.length);
    }
  }, 600_000);

  it("shows a market day on the Fortune List a user opens by default: the epoch's last, past its end", async () => {
    const run = lastRun!;
    const closing =
      /the epoch's last day \((\d{4}-\d{2}-\d{2})\): (\d+) trading slots, (\d+) market trades; its score snapshot (\d{4}-\d{2}-\d{2})/.exec(
        run.stdout,
      );
    expect(closing, run.stdout).not.toBeNull();
    expect(Number(closing![2]), run.stdout).toBeGreaterThan(0);
    const list = await get('/api/fortune-list?limit=100');
    // The default list is the snapshot the demo took past the epoch's end, of a day the market traded.
    expect(String(list.epoch).slice(0, 10)).toBe(closing![4]);
    const ours = (list.companies as any[]).filter((e) => PLAN.some((c) => c.slug === e.company.slug));
    expect(ours.map((e) => e.company.slug).sort()).toEqual(PLAN.map((c) => c.slug).sort());
    for (const e of ours) {
      if (traded.includes(e.company.slug)) expect(Number(e.score.volumeRaw), JSON.stringify(e)).toBeGreaterThan(0);
      expect(e.score.activityRaw, JSON.stringify(e)).toBeGreaterThan(0);
    }
    // Companies with a market rank above every company without a token.
    const untraded = (list.companies as any[]).filter((e) => !ours.includes(e) || !traded.includes(e.company.slug));
    const lowest = Math.max(...ours.filter((e) => traded.includes(e.company.slug)).map((e) => e.rank));
    for (const e of untraded) expect(e.rank, JSON.stringify(e)).toBeGreaterThan(lowest);
  });

  it('gives every company its Safe and roles, the treasury the Fortune List counts, and trades from the Safe', async () => {
    const list = await get('/api/fortune-list?limit=100');
    for (const c of PLAN) {
      const company = await get(`/api/companies/${c.slug}`);
      // The service's default custody: a Safe and a Roles module from the company's deploy-suite, and the Safe its
      // proven treasury, so the money its agents act with is the money the Fortune List counts.
      expect(company.custody?.safe, c.slug).toMatch(/^0x[0-9a-fA-F]{40}$/);
      expect(company.custody?.rolesModule, c.slug).toMatch(/^0x[0-9a-fA-F]{40}$/);
      expect(company.treasuryAddress?.toLowerCase(), c.slug).toBe(company.custody.safe.toLowerCase());
      expect(company.treasuryStatus, c.slug).toBe('PROVEN');
      const entry = (list.companies as any[]).find((e) => e.company.slug === c.slug);
      expect(Number(entry?.score.treasuryRaw), JSON.stringify(entry)).toBeGreaterThan(0);
      // The agents act through the Safe: their own wallets hold none of the company's money.
      const portfolio = await get(`/api/companies/${c.slug}/portfolio`);
      expect(portfolio.safe?.address.toLowerCase(), c.slug).toBe(company.custody.safe.toLowerCase());
      for (const agent of portfolio.agents as any[]) {
        expect(agent.balances?.usdc ?? '0', `${c.slug} ${agent.role}`).toBe('0');
        expect(agent.positions, `${c.slug} ${agent.role}`).toEqual([]);
      }
    }
    // The momentum CFO's trades were the Safe's: its realised PnL is there.
    const sprinters = await get('/api/companies/demo-spot-sprinters/portfolio');
    expect(sprinters.safe.totals.realizedPnlUsdc, JSON.stringify(sprinters.safe)).not.toBe('0');
  });

  it('leaves candles over more than one day for every traded token', async () => {
    for (const slug of traded) {
      const hourly = (await get(`/api/companies/${slug}/token/candles?interval=1h&limit=1000`)).candles as any[];
      const times = hourly.map((c) => c.time as number);
      expect(Math.max(...times) - Math.min(...times), slug).toBeGreaterThan(86_400);
      // Trades at several hours of a day, not one giant candle.
      expect(hourly.length, slug).toBeGreaterThanOrEqual(DAYS * 2);
      const daily = (await get(`/api/companies/${slug}/token/candles?interval=1d`)).candles as any[];
      expect(daily.length, slug).toBeGreaterThan(1);
    }
  });

  it('scores volume for every traded token and trading for the momentum CFO', async () => {
    for (const slug of traded) {
      const days = histories.get(slug)!;
      // Each simulated day's snapshot counts that day's market.
      expect(
        days.filter((d) => Number(d.volumeScore) > 0).length,
        `${slug}: ${JSON.stringify(days)}`,
      ).toBeGreaterThanOrEqual(DAYS);
    }
    const sprinters = histories.get('demo-spot-sprinters')!;
    expect(
      sprinters.some((d) => Number(d.tradingScore) > 0),
      JSON.stringify(sprinters),
    ).toBe(true);
    // Scheduled rounds ran on the simulated days: the activity component has something to count.
    for (const c of PLAN) {
      expect(
        histories.get(c.slug)!.some((d) => Number(d.activityScore) > 0),
        c.slug,
      ).toBe(true);
    }
  });

  it('runs a second time without adding a day, a company or a snapshot, and without failing', async () => {
    const run = await runDemo(server.base);
    expect(run.code, `${run.stderr.slice(-3000)}\n${run.stdout}`).toBe(0);
    expect(run.stdout).toContain(`simulated days: ${DAYS} already`);
    expect(run.stdout).toContain('companies created: 0');
    for (const c of PLAN) {
      const { snapshots } = await get(`/api/companies/${c.slug}/scores?limit=100`);
      const before = histories.get(c.slug)!.map((d) => d.date);
      const after = snapshots.map((d: any) => d.date);
      expect(new Set(after).size, c.slug).toBe(after.length);
      expect(after, c.slug).toEqual(expect.arrayContaining(before));
      // At most the snapshot of the chain's current day, which the service's own job takes every minute.
      expect(after.length - before.length, c.slug).toBeLessThanOrEqual(1);
    }
  }, 300_000);
});
