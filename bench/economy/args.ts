// The command line of `npm run sim` (its flags read as every script's are: scripts/flags.ts).

import { httpUrlFlag, numberFlag, readFlags, wholeNumberFlag } from '../../scripts/flags.ts';

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
  help: boolean;
}

/**
 * The small run of test/e2e/economy-sim.test.ts, the issue's: 30 companies, 10% of them attackers (the open attacks,
 * the first strategies), 8 simulated days with one epoch distributed and claimed, six actors set up at once. On this
 * two-core machine at load 9-10 (other work) it spent 11 minutes creating its companies and 4-5 minutes a simulated
 * day, nearly all of it in the actors' trades (docs/economics.md "The CI run").
 */
export const CI_RUN = { seed: 1, companies: 30, days: 8, attackers: 0.1, parallel: 6 } as const;

export const USAGE = `Usage: npm run sim -- [--seed 1] [--companies 10] [--days 8] [--attackers 0.1] [--parallel 4] [--out FILE] [--url URL]

Simulates the economy on the real service and the local chain: honest companies (builders, trading companies,
quiet ones) and outside traders, and attackers, each running one strategy of bench/economy/adversaries/ at a
setting drawn from its parameter grid. The chain's clock moves day by day (trading slots, scheduled rounds, the
daily score snapshot); an epoch is distributed and claimed. Prints what each strategy cost and earned and the
honest companies' share of the rewards, and writes it as JSON.

  --seed       the PRNG seed (default 1): the same seed gives the same run
  --companies  companies in all (default 10, 3-200)
  --days       simulated days (default 8, 1-30)
  --attackers  share of the companies run by attackers (default 0.1, 0-0.5; at least one when > 0): the
               strategies take turns from the one the seed picks (seed 1: the first, adversaries/index.ts)
  --parallel   actors set up at once (default 4, 1-32): companies are created, staffed and launched concurrently
  --out        the JSON report (default bench/economy/results.json)
  --url        drive a running service (local anvil only) instead of starting one on embedded defaults
  --secret     the service's CRON_SECRET for --url (a started service's is read from its data directory)
`;

export function parseSimArgs(argv: string[], env: Record<string, string | undefined>): SimOptions {
  const options: SimOptions = {
    seed: 1,
    companies: 10,
    days: 8,
    attackers: 0.1,
    parallel: 4,
    url: undefined,
    secret: env.CRON_SECRET?.trim() || undefined,
    out: 'bench/economy/results.json',
    help: false,
  };
  const { help } = readFlags(argv, {
    '--seed': (value) => {
      options.seed = wholeNumberFlag('--seed', value(), 0, 2 ** 32 - 1);
    },
    '--companies': (value) => {
      options.companies = wholeNumberFlag('--companies', value(), 3, 200);
    },
    '--days': (value) => {
      options.days = wholeNumberFlag('--days', value(), 1, 30);
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
  });
  return { ...options, help };
}
