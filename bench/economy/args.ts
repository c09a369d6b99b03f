// The command line of `npm run sim` (its flags read as every script's are: scripts/flags.ts).

import { httpUrlFlag, numberFlag, readFlags, wholeNumberFlag } from '../../scripts/flags.ts';
import { STRATEGIES } from './adversaries/index.ts';
import { ownerParam, paramValue, parseParamFlag } from './params.ts';

export interface SimOptions {
  seed: number;
  /** Companies in all, honest and attacking. */
  companies: number;
  /** Simulated days on the chain's clock, each closed by its score snapshot. */
  days: number;
  /** Share of the companies run by attackers (0-0.5): each attacker is one strategy at one sampled setting. */
  attackers: number;
  /** Actors set up at once (cards minted, companies created and staffed, tokens launched). */
  parallel: number;
  /** A running service to drive instead of starting one (its chain must be the local anvil). */
  url: string | undefined;
  secret: string | undefined;
  /** Where the JSON report goes. */
  out: string;
  /** Write the table into docs/economics.md and its chart into docs/images/ (default; --no-docs: not). */
  docs: boolean;
  /** Render the docs from this saved JSON report instead of running. */
  from: string | undefined;
  help: boolean;
  /** `--search NAME`: that strategy over its grid, a small run a setting (search.ts). */
  search?: string | undefined;
  /** The most settings a search runs (the whole grid when it has no more; else a seeded sample). */
  budget?: number;
  /** Owner parameters (params.ts) from `--param NAME=VALUE`; a `--config` file's are read under them. */
  params?: Record<string, number>;
  /** A JSON file of owner parameters. */
  config?: string | undefined;
  /** `--sweep NAME`: the run at each of a few values of one owner parameter (`--values`, else its own). */
  sweep?: string | undefined;
  values?: number[] | undefined;
}

/** A search's or a sweep's runs, when --companies and --days are not given: small ones, a minute or two each. */
export const SMALL_RUN = { companies: 4, days: 2 } as const;

/**
 * The small run of test/e2e/economy-sim.test.ts, in the normal suite: 20 companies, 10% of them attackers (seed 2:
 * fresh-wallet volume and herding, the open attacks that trade, so the honest agents' PnL is at stake), 3 simulated
 * days (herding's shortest hold fits: pump on day 1, sell on day 2) and the epoch distributed and claimed, six actors
 * set up at once. Where its time goes (docs/economics.md "The CI run"): the C-suites' deploy-suite, about twenty
 * platform transactions a company sent one after the other by the service; then the days' rounds and trades.
 */
export const CI_RUN = { seed: 2, companies: 20, days: 3, attackers: 0.1, parallel: 6 } as const;

export const USAGE = `Usage: npm run sim -- [--seed 1] [--companies 10] [--days 30] [--attackers 0.1] [--parallel 4] [--out FILE] [--url URL]

Simulates the economy on the real service and the local chain: honest companies (builders, trading companies,
quiet ones) and outside traders, and attackers, each running one strategy of bench/economy/adversaries/ at a
setting drawn from its parameter grid. The chain's clock moves day by day (trading slots, scheduled rounds, the
daily score snapshot); an epoch is distributed and claimed. Prints what each strategy cost and earned and the
honest companies' share of the rewards, and writes it as JSON.

  --seed       the PRNG seed (default 1): the same seed gives the same run
  --companies  companies in all (default 10, 3-200)
  --days       simulated days (default 30, 1-30: a month, four weekly epochs distributed and claimed)
  --attackers  share of the companies run by attackers (default 0.1, 0-0.5; at least one when > 0): the
               strategies take turns from the one the seed picks (seed 1: the first, adversaries/index.ts)
  --parallel   actors set up at once (default 4, 1-32): companies are created, staffed and launched concurrently
  --out        the JSON report (default bench/economy/results.json)
  --url        drive a running service (local anvil only) instead of starting one on embedded defaults
  --secret     the service's CRON_SECRET for --url (a started service's is read from its data directory)
  --no-docs    do not write the table into docs/economics.md (between its markers) nor the chart
               docs/images/sim-honest-share.svg, which a run writes by default
  --from       render the docs' table and chart from a saved JSON report (--out of an earlier run); no run
  --search     STRATEGY: run that strategy alone over its grid, a run a setting beside the same honest field
               (--companies less one honest companies; default 4 companies and 2 days), and print its most
               profitable setting (the lowest break-even); writes no docs
  --budget     the most settings a search runs (default 6): the whole grid when it has no more, else that many
               drawn with the seed
  --param      NAME=VALUE: an owner parameter of bench/economy/params.ts (repeatable; e.g. pool=1000000)
  --config     a JSON file of owner parameters ({"pool": 1000000, "curveFeeBps": 200}); --param wins over it
  --sweep      NAME: the run at a few values of that owner parameter (default 4 companies and 2 days) and
               which invariants break at each; writes no docs
  --values     the sweep's values, comma-separated (default: the parameter's own three, its default among them)
`;

export function parseSimArgs(argv: string[], env: Record<string, string | undefined>): SimOptions {
  let rawValues: string[] | undefined;
  const options: SimOptions & { params: Record<string, number> } = {
    seed: 1,
    companies: 10,
    days: 30,
    attackers: 0.1,
    parallel: 4,
    url: undefined,
    secret: env.CRON_SECRET?.trim() || undefined,
    out: 'bench/economy/results.json',
    docs: true,
    from: undefined,
    help: false,
    search: undefined,
    budget: 6,
    params: {},
    config: undefined,
    sweep: undefined,
    values: undefined,
  };
  const given = new Set<string>();
  const { help } = readFlags(argv, {
    '--seed': (value) => {
      options.seed = wholeNumberFlag('--seed', value(), 0, 2 ** 32 - 1);
    },
    '--companies': (value) => {
      options.companies = wholeNumberFlag('--companies', value(), 3, 200);
      given.add('companies');
    },
    '--days': (value) => {
      options.days = wholeNumberFlag('--days', value(), 1, 30);
      given.add('days');
    },
    '--attackers': (value) => {
      options.attackers = numberFlag('--attackers', value(), 0, 0.5);
    },
    '--out': (value) => {
      options.out = value();
    },
    '--parallel': (value) => {
      options.parallel = wholeNumberFlag('--parallel', value(), 1, 32);
    },
    '--url': (value) => {
      options.url = httpUrlFlag('--url', value());
    },
    '--secret': (value) => {
      options.secret = value();
    },
    '--no-docs': () => {
      options.docs = false;
    },
    '--from': (value) => {
      options.from = value();
    },
    '--search': (value) => {
      const name = value();
      if (!STRATEGIES.some((s) => s.name === name)) {
        throw new Error(
          `--search: no strategy "${name}" (the strategies: ${STRATEGIES.map((s) => s.name).join(', ')})`,
        );
      }
      options.search = name;
    },
    '--budget': (value) => {
      options.budget = wholeNumberFlag('--budget', value(), 1, 100);
    },
    '--param': (value) => {
      const [name, v] = parseParamFlag(value());
      options.params[name] = v;
    },
    '--config': (value) => {
      options.config = value();
    },
    '--sweep': (value) => {
      options.sweep = ownerParam(value()).name;
    },
    '--values': (value) => {
      rawValues = value()
        .split(',')
        .map((v) => v.trim());
    },
  });
  if (options.search && options.sweep) throw new Error('--search and --sweep: one at a time');
  if (rawValues) {
    if (!options.sweep) throw new Error('--values goes with --sweep');
    const p = ownerParam(options.sweep);
    options.values = rawValues.map((v) => paramValue(p, v));
  }
  if (options.search || options.sweep) {
    if (!given.has('companies')) options.companies = SMALL_RUN.companies;
    if (!given.has('days')) options.days = SMALL_RUN.days;
  }
  return { ...options, help };
}
