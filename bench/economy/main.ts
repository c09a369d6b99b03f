// `npm run sim`: the economy simulated on the real service and the local chain (bench/economy/). It starts the
// service as `npm start` does on its embedded defaults (service.ts), or drives one given with --url; creates the
// honest companies (honest/) and the outside market, and the attackers (adversaries/: one strategy each, at a
// setting drawn from the strategy's grid); runs the days on the chain's clock and the epoch (days.ts); then books
// what each attacker spent and earned and prints the table (report.ts), and writes it as JSON. Seeded (rng.ts).
import { execSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { connect } from '../../scripts/demo/context.ts';
import type { Progress } from '../../scripts/demo/progress.ts';
import { scriptOptions } from '../../scripts/flags.ts';
import { type Actor, inParallel, type Strategy } from './actor.ts';
import { STRATEGIES } from './adversaries/index.ts';
import { parseSimArgs, type SimOptions, USAGE } from './args.ts';
import { partyTotal, tokenFlows } from './attribution.ts';
import { claimAll, runDays } from './days.ts';
import { docsSection, honestShareSvg, replaceSection } from './docs.ts';
import { emissionAccount } from './emission.ts';
import { attackerCards, cardsHeld, drawAttackers, honestBar } from './field.ts';
import { HONEST_KINDS, pickKind } from './honest/kinds.ts';
import { outsideTraders } from './honest/outside-traders.ts';
import { applyContractParams, formatSweep, ownerParam, paramsEnv, parseParamConfig, type SweepRow } from './params.ts';
import { honestAgentsPnl, walletsValue } from './pnl.ts';
import {
  type AttackerResult,
  attackerResult,
  bestPerStrategy,
  breakEvenBar,
  type EpochResult,
  formatTable,
  gini,
  honestBreakEven,
  invariants,
  type SimReport,
  wholeTokens,
} from './report.ts';
import { Rng } from './rng.ts';
import { bestRow, formatSearch, runSearch, searchSettings } from './search.ts';
import { startSimService } from './service.ts';
import { type Party, World } from './world.ts';

const started = Date.now();
const log = (line: string) =>
  process.stderr.write(`  ${String(Math.round((Date.now() - started) / 1000)).padStart(5)} s  ${line}\n`);

/** The demo's steps report progress; here a step is silent and a note is a log line. */
const quiet = { step() {}, advance() {}, finish() {}, note: log } as unknown as Progress;

/** A field given instead of drawn: a search's one attacker at its setting, beside `honest` honest companies. */
export interface GivenField {
  honest?: number;
  attackers?: { strategy: Strategy<any>; params: Record<string, number> }[];
}

export async function runSimulation(options: SimOptions, field?: GivenField): Promise<SimReport> {
  const started = Date.now();
  const owner = options.params ?? {};
  if (options.url && Object.keys(paramsEnv(owner)).length > 0) {
    throw new Error(
      `a service's settings are its own: ${Object.keys(paramsEnv(owner)).join(', ')} cannot be set at --url`,
    );
  }
  const service = options.url ? undefined : await startSimService(log, paramsEnv(owner));
  const serviceMs = Date.now() - started;
  try {
    const url = options.url ?? service!.url;
    const secret = options.secret ?? service?.secret;
    if (!secret) throw new Error('the scheduler secret of the service at --url is unknown: pass --secret');
    const ctx = await connect({ url, secret, days: options.days, plan: 'small', help: false }, quiet);
    await applyContractParams(ctx, owner, log);
    const rng = new Rng(options.seed);
    const world = new World(ctx, rng, log);

    // The asked share of the field, counted in cards (field.ts): the honest companies are the rest. A search
    // (search.ts) gives its one attacker at its setting instead, beside a fixed honest field.
    const forced = field?.attackers;
    const cards = forced ? cardsHeld(forced) : attackerCards(options.companies, options.attackers);
    const honestCount = field?.honest ?? Math.max(1, options.companies - cards);
    const actors: Actor[] = [];
    const market = outsideTraders(world.party('outside traders', true), rng.fork('market'));
    actors.push(market);
    for (let n = 0; n < honestCount; n++) {
      // One of each kind first, then by weight.
      const kind = n < HONEST_KINDS.length ? HONEST_KINDS[n]! : pickKind(rng.next());
      const party = world.party(`honest ${kind.kind} ${n}`, true);
      actors.push(kind.make(n, party, rng.fork(`honest ${n}`), options.days));
    }
    const attackers: { party: Party; strategy: string; params: Record<string, number> }[] = [];
    const drawn =
      forced?.map((a, n) => ({ ...a, rng: rng.fork(`attacker ${n}`) })) ??
      drawAttackers(STRATEGIES, rng, { seed: options.seed, days: options.days, cards });
    for (const [n, a] of drawn.entries()) {
      const party = world.party(`${a.strategy.name} ${n}`, false);
      attackers.push({ party, strategy: a.strategy.name, params: a.params });
      actors.push(a.strategy.create(a.params, party, a.rng, options.days));
    }
    const attackerCount = attackers.length;

    log(
      `setting up: ${honestCount} honest companies, ${attackerCount} attackers, the outside market (${options.parallel} at once)`,
    );
    const setupStart = Date.now();
    await inParallel(actors, options.parallel, async (a) => a.setup?.(world));
    const setupMs = Date.now() - setupStart;
    log('set up');
    const distributed = await runDays(world, actors, options.days, secret);
    const daysMs = Date.now() - setupStart - setupMs;
    {
      for (const a of actors) await a.finish?.(world);
      const paid = await claimAll(world);
      /** What a company was paid over every epoch, in wei. */
      const paidTo = (slug: string) => [...(paid.get(slug)?.values() ?? [])].reduce((sum, v) => sum + v, 0n);
      const marketValue = await walletsValue(world, market.party.wallets);
      const flows = await tokenFlows(world);
      const honestAgents = await honestAgentsPnl(world, flows);
      const emission = await emissionAccount(world, distributed);

      const results: AttackerResult[] = [];
      for (const a of attackers) {
        let recovered = 0n;
        for (const index of a.party.wallets) recovered += await world.usdcOf(world.address(index));
        // With custody a company's treasury is its Safe, whose USDC the card's holder can take out at any time.
        for (const slug of a.party.companies) {
          const safe = world.safeOf(slug);
          if (safe) recovered += await world.usdcOf(safe);
        }
        // Epoch rewards its companies were paid, and the emission a staking attack's card bought.
        let earned = a.party.earnedEmission;
        for (const slug of a.party.companies) earned += paidTo(slug);
        const traded = flows.filter((f) => f.pnlUsdc[a.party.name] !== undefined);
        const fees = partyTotal(traded, a.party.name, 'feesUsdc');
        const paidBy: Record<string, number> = {};
        for (const f of traded) {
          for (const [party, usdc] of Object.entries(f.pnlUsdc)) {
            if (party !== a.party.name) paidBy[party] = Math.round(((paidBy[party] ?? 0) + usdc) * 100) / 100;
          }
        }
        results.push(
          attackerResult(
            a.strategy,
            a.params,
            a.party.companies,
            a.party.funded - recovered + a.party.financing,
            earned,
            { feesUsdc: fees, takenUsdc: partyTotal(traded, a.party.name, 'pnlUsdc') + fees, paidBy },
            world.gasOf(a.party),
          ),
        );
        if (a.party.breaches.length) results.at(-1)!.breaches = [...a.party.breaches];
      }
      const epochs: EpochResult[] = distributed.map((d) => {
        let total = 0n;
        let honest = 0n;
        for (const c of world.companies) {
          const v = paid.get(c.plan.slug)?.get(d.epoch) ?? 0n;
          total += v;
          if (c.party.honest) honest += v;
        }
        return {
          epoch: d.epoch,
          rewardPoolTokens: wholeTokens(d.rewardPool),
          paidTokens: wholeTokens(total),
          honestTokens: wholeTokens(honest),
          honestShare: total > 0n ? Number((honest * 1_000_000n) / total) / 1e6 : null,
          honestGini: gini(
            world.companies
              .filter((c) => c.party.honest)
              .map((c) => wholeTokens(paid.get(c.plan.slug)?.get(d.epoch) ?? 0n)),
          ),
          participants: d.participants,
        };
      });
      // What each honest company paid a reward token: the attacks' break-even bar at a field that pays that cheaply.
      const honestPaid = world.companies
        .filter((c) => c.party.honest)
        .map((c) =>
          honestBreakEven(world.cardPrice ?? 0n, c.plan.treasuryUsdc, options.days, wholeTokens(paidTo(c.plan.slug))),
        );
      const paidSorted = honestPaid.filter((b): b is number => b !== null).sort((a, b) => a - b);
      const bar = breakEvenBar(honestPaid);
      return {
        seed: options.seed,
        commit: commit(),
        options: {
          companies: options.companies,
          days: options.days,
          attackers: options.attackers,
          ...(Object.keys(owner).length ? { ownerParams: owner } : {}),
        },
        seconds: Math.round((Date.now() - started) / 1000),
        timings: {
          'wall: service start': serviceMs,
          'wall: setup': setupMs,
          'wall: days and epoch': daysMs,
          'wall: finish, claims and accounting': Date.now() - setupStart - setupMs - daysMs,
          ...world.timings,
        },
        honestCompanies: world.companies.filter((c) => c.party.honest).length,
        attackerCompanies: world.companies.filter((c) => !c.party.honest).length,
        marketTrades: market.trades(),
        market: {
          fundedUsdc: Number(market.party.funded) / 1e6,
          valueUsdc: Math.round(Number(marketValue) / 1e4) / 100,
          pnlUsdc: Math.round(Number(marketValue - market.party.funded) / 1e4) / 100,
        },
        honestAgents,
        companies: world.companies.map((c) => ({
          slug: c.plan.slug,
          party: c.party.name,
          honest: c.party.honest,
          rewardTokens: Object.fromEntries(
            [...(paid.get(c.plan.slug) ?? new Map<number, bigint>())].map(([e, v]) => [e, wholeTokens(v)]),
          ),
        })),
        tokenFlows: flows,
        attackers: results,
        best: bestPerStrategy(results),
        epochs,
        emission,
        honestBreakEven: {
          cheapest: paidSorted[0] ?? null,
          median: paidSorted.length ? paidSorted[Math.floor((paidSorted.length - 1) / 2)]! : null,
          bar,
        },
        // The honest share's bar is 90% or, in a field too small for its share to be 10% (4 companies: one card is
        // 25%), the honest companies' head count: they must not get less than their number's share.
        invariants: invariants(results, epochs, emission, bar, honestBar(honestCount, cardsHeld(drawn))),
      };
    }
  } finally {
    await service?.stop();
  }
}

function commit(): string {
  try {
    return execSync('git rev-parse --short HEAD', { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return 'unknown';
  }
}

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const DOCS = path.join(ROOT, 'docs', 'economics.md');
const CHART = path.join(ROOT, 'docs', 'images', 'sim-honest-share.svg');

/** The table into docs/economics.md between its markers, and the chart beside it. */
function writeDocs(result: SimReport) {
  mkdirSync(path.dirname(CHART), { recursive: true });
  writeFileSync(CHART, honestShareSvg(result));
  const section = docsSection(result, `images/${path.basename(CHART)}`);
  writeFileSync(DOCS, replaceSection(readFileSync(DOCS, 'utf8'), section));
  process.stdout.write(
    `written: ${path.relative(ROOT, DOCS)} (its generated section), ${path.relative(ROOT, CHART)}\n`,
  );
}

async function main() {
  const parsed = scriptOptions(parseSimArgs, USAGE);
  if (!parsed) return;
  // A --config file's owner parameters, under those of --param.
  const options: SimOptions = {
    ...parsed,
    params: { ...(parsed.config ? parseParamConfig(readFileSync(parsed.config, 'utf8')) : {}), ...parsed.params },
  };
  if (options.from) {
    writeDocs(JSON.parse(readFileSync(options.from, 'utf8')) as SimReport);
    return;
  }
  if (options.search) return search(options, options.search);
  if (options.sweep) return sweep(options, options.sweep);
  const result = await runSimulation(options);
  process.stdout.write(formatTable(result));
  mkdirSync(path.dirname(options.out), { recursive: true });
  writeFileSync(options.out, `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(`written: ${options.out}\n`);
  if (options.docs) writeDocs(result);
  if (result.invariants.some((i) => !i.ok)) process.exitCode = 1;
}

const sideOut = (out: string, what: string) =>
  out === 'bench/economy/results.json' ? `bench/economy/${what}.json` : out;

/** `--search NAME`: the strategy over its grid, a run a setting (search.ts); prints its most profitable setting. */
async function search(options: SimOptions, name: string) {
  const strategy = STRATEGIES.find((s) => s.name === name)!;
  const settings = searchSettings(strategy, { days: options.days, budget: options.budget ?? 6, seed: options.seed });
  if (settings.length === 0) throw new Error(`${name}: no setting of its grid fits a ${options.days}-day run`);
  const honest = Math.max(1, options.companies - 1);
  log(`search ${name}: ${settings.length} settings, ${honest} honest companies and the attacker, ${options.days} days`);
  const rows = await runSearch(strategy, settings, honest, (field) => runSimulation(options, field), log);
  const head = `search ${name}: seed ${options.seed}, commit ${commit()}, ${honest} honest companies, ${options.days} days, ${settings.length} settings`;
  process.stdout.write(formatSearch(name, rows, head));
  const out = sideOut(options.out, `search-${name}`);
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(
    out,
    `${JSON.stringify({ strategy: name, seed: options.seed, commit: commit(), rows, best: bestRow(rows)?.params }, null, 2)}\n`,
  );
  process.stdout.write(`written: ${out}\n`);
}

/** `--sweep NAME`: the run at each value of one owner parameter; which invariants break at each. */
async function sweep(options: SimOptions, name: string) {
  const p = ownerParam(name);
  const values = options.values ?? [...p.sweep];
  const rows: SweepRow[] = [];
  for (const value of values) {
    log(`sweep ${name}: ${value}`);
    const t = Date.now();
    try {
      const r = await runSimulation({ ...options, params: { ...options.params, [name]: value } });
      const best = r.best.filter((a) => a.breakEven !== null).sort((a, b) => a.breakEven! - b.breakEven!)[0];
      rows.push({
        value,
        failed: r.invariants.filter((i) => !i.ok).map((i) => `${i.name} (${i.detail})`),
        honestShare: r.epochs.find((e) => e.honestShare !== null)?.honestShare ?? null,
        bestBreakEven: best ? { strategy: best.strategy, breakEven: best.breakEven! } : null,
        breakEvens: r.best.map((a) => ({ strategy: a.strategy, breakEven: a.breakEven })),
        seconds: Math.round((Date.now() - t) / 1000),
      });
    } catch (err) {
      rows.push({
        value,
        failed: [],
        honestShare: null,
        bestBreakEven: null,
        seconds: Math.round((Date.now() - t) / 1000),
        error: (err as Error).message.split('\n')[0]!.slice(0, 300),
      });
    }
  }
  const head = `sweep ${name}: seed ${options.seed}, commit ${commit()}, ${options.companies} companies, ${options.attackers * 100}% attackers, ${options.days} days`;
  process.stdout.write(formatSweep(name, rows, head));
  const out = sideOut(options.out, `sweep-${name}`);
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify({ parameter: name, seed: options.seed, commit: commit(), rows }, null, 2)}\n`);
  process.stdout.write(`written: ${out}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main().catch((err) => {
    process.stderr.write(`\nsimulation failed: ${(err as Error).stack ?? err}\n`);
    process.exitCode = 1;
  });
}
