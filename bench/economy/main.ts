// `npm run sim`: the economy simulated on the real service and the local chain (bench/economy/). It starts the
// service as `npm start` does on its embedded defaults (service.ts), or drives one given with --url; creates the
// honest companies (honest/) and the outside market, and the attackers (adversaries/: one strategy each, at a
// setting drawn from the strategy's grid); runs the days on the chain's clock and the epoch (days.ts); then books
// what each attacker spent and earned and prints the table (report.ts), and writes it as JSON. Seeded (rng.ts).
import { execSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { connect } from '../../scripts/demo/context.ts';
import type { Progress } from '../../scripts/demo/progress.ts';
import { scriptOptions } from '../../scripts/flags.ts';
import { type Actor, drawSetting, inParallel } from './actor.ts';
import { STRATEGIES } from './adversaries/index.ts';
import { parseSimArgs, type SimOptions, USAGE } from './args.ts';
import { partyTotal, tokenFlows } from './attribution.ts';
import { claimAll, runDays } from './days.ts';
import { emissionAccount } from './emission.ts';
import { builder } from './honest/builder.ts';
import { outsideTraders } from './honest/outside-traders.ts';
import { quietCompany } from './honest/quiet.ts';
import { staker } from './honest/staker.ts';
import { tradingCompany } from './honest/trading-company.ts';
import { honestAgentsPnl, walletsValue } from './pnl.ts';
import {
  type AttackerResult,
  attackerResult,
  bestPerStrategy,
  type EpochResult,
  formatTable,
  gini,
  invariants,
  type SimReport,
} from './report.ts';
import { Rng } from './rng.ts';
import { startSimService } from './service.ts';
import { type Party, World } from './world.ts';

const started = Date.now();
const log = (line: string) =>
  process.stderr.write(`  ${String(Math.round((Date.now() - started) / 1000)).padStart(5)} s  ${line}\n`);

/** The demo's steps report progress; here a step is silent and a note is a log line. */
const quiet = { step() {}, advance() {}, finish() {}, note: log } as unknown as Progress;

const HONEST_KINDS = [
  { kind: 'builder', weight: 0.35, make: builder },
  { kind: 'trading', weight: 0.25, make: tradingCompany },
  { kind: 'quiet', weight: 0.25, make: quietCompany },
  { kind: 'staker', weight: 0.15, make: staker },
] as const;

function pickKind(r: number) {
  let left = r;
  for (const k of HONEST_KINDS) {
    left -= k.weight;
    if (left < 0) return k;
  }
  return HONEST_KINDS[0];
}

export async function runSimulation(options: SimOptions): Promise<SimReport> {
  const started = Date.now();
  const service = options.url ? undefined : await startSimService(log);
  try {
    const url = options.url ?? service!.url;
    const secret = options.secret ?? service?.secret;
    if (!secret) throw new Error('the scheduler secret of the service at --url is unknown: pass --secret');
    const ctx = await connect({ url, secret, days: options.days, plan: 'small', help: false }, quiet);
    const rng = new Rng(options.seed);
    const world = new World(ctx, rng, log);

    // The asked share of the field, no more: a run with fewer attackers than strategies runs the strategies in turn
    // from one the seed picks (forcing one per strategy made 2 of 10 companies attackers at a 10% share).
    const attackerCount = options.attackers > 0 ? Math.max(1, Math.round(options.companies * options.attackers)) : 0;
    const firstStrategy = (options.seed + STRATEGIES.length - 1) % STRATEGIES.length;
    const honestCount = Math.max(1, options.companies - attackerCount);
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
    // The strategies in turn from the one the seed picks, less those none of whose settings fits the run (herding
    // needs a pump day and its hold before the last day: a two-day run has none; it drew for ever before).
    const turns = [...STRATEGIES.slice(firstStrategy), ...STRATEGIES.slice(0, firstStrategy)].filter(
      (s) => drawSetting(s, new Rng(0), options.days) !== undefined,
    );
    for (let n = 0; n < attackerCount && turns.length > 0; n++) {
      const strategy = turns[n % turns.length]!;
      const srng = rng.fork(`attacker ${n}`);
      const params = drawSetting(strategy, srng, options.days)!;
      const party = world.party(`${strategy.name} ${n}`, false);
      attackers.push({ party, strategy: strategy.name, params });
      actors.push(strategy.create(params, party, srng, options.days));
    }

    log(
      `setting up: ${honestCount} honest companies, ${attackerCount} attackers, the outside market (${options.parallel} at once)`,
    );
    await inParallel(actors, options.parallel, async (a) => a.setup?.(world));
    log('set up');
    const distributed = await runDays(world, actors, options.days, secret);
    {
      for (const a of actors) await a.finish?.(world);
      const paid = await claimAll(world);
      const marketValue = await walletsValue(world, market.party.wallets);
      const honestAgents = await honestAgentsPnl(world);
      const flows = await tokenFlows(world);
      const emission = await emissionAccount(world);

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
        for (const slug of a.party.companies) for (const v of paid.get(slug)?.values() ?? []) earned += v;
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
          ),
        );
      }
      const epochs: EpochResult[] = distributed.map((d) => {
        let total = 0n;
        let honest = 0n;
        for (const c of world.companies) {
          const v = paid.get(c.plan.slug)?.get(d.epoch) ?? 0n;
          total += v;
          if (c.party.honest) honest += v;
        }
        const tokens = (wei: bigint) => Number(wei / 10n ** 12n) / 1e6;
        return {
          epoch: d.epoch,
          rewardPoolTokens: tokens(d.rewardPool),
          paidTokens: tokens(total),
          honestTokens: tokens(honest),
          honestShare: total > 0n ? Number((honest * 1_000_000n) / total) / 1e6 : null,
          honestGini: gini(
            world.companies.filter((c) => c.party.honest).map((c) => tokens(paid.get(c.plan.slug)?.get(d.epoch) ?? 0n)),
          ),
          participants: d.participants,
        };
      });
      return {
        seed: options.seed,
        commit: commit(),
        options: { companies: options.companies, days: options.days, attackers: options.attackers },
        seconds: Math.round((Date.now() - started) / 1000),
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
            [...(paid.get(c.plan.slug) ?? new Map<number, bigint>())].map(([e, v]) => [
              e,
              Number(v / 10n ** 12n) / 1e6,
            ]),
          ),
        })),
        tokenFlows: flows,
        attackers: results,
        best: bestPerStrategy(results),
        epochs,
        emission,
        invariants: invariants(results, epochs, emission),
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

async function main() {
  const options = scriptOptions(parseSimArgs, USAGE);
  if (!options) return;
  const result = await runSimulation(options);
  process.stdout.write(formatTable(result));
  mkdirSync(path.dirname(options.out), { recursive: true });
  writeFileSync(options.out, `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(`written: ${options.out}\n`);
  if (result.invariants.some((i) => !i.ok)) process.exitCode = 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main().catch((err) => {
    process.stderr.write(`\nsimulation failed: ${(err as Error).stack ?? err}\n`);
    process.exitCode = 1;
  });
}
