// The command line of `npm run sim`.

export interface SimOptions {
  seed: number;
  /** Companies in all, honest and attacking. */
  companies: number;
  /** Simulated days on the chain's clock, each closed by its score snapshot. */
  days: number;
  /** Share of the companies run by attackers (0-0.5): each attacker is one strategy at one sampled setting. */
  attackers: number;
  /** A running service to drive instead of starting one (its chain must be the local anvil). */
  url: string | undefined;
  secret: string | undefined;
  /** Where the JSON report goes. */
  out: string;
  help: boolean;
}

export const USAGE = `Usage: npm run sim -- [--seed 1] [--companies 10] [--days 8] [--attackers 0.2] [--out FILE] [--url URL]

Simulates the economy on the real service and the local chain: honest companies (builders, trading companies,
quiet ones) and outside traders, and attackers, each running one strategy of bench/economy/adversaries/ at a
setting drawn from its parameter grid. The chain's clock moves day by day (trading slots, scheduled rounds, the
daily score snapshot); an epoch is distributed and claimed. Prints what each strategy cost and earned and the
honest companies' share of the rewards, and writes it as JSON.

  --seed       the PRNG seed (default 1): the same seed gives the same run
  --companies  companies in all (default 10, 3-200)
  --days       simulated days (default 8, 1-30)
  --attackers  share of the companies run by attackers (default 0.2, 0-0.5; at least one per strategy when > 0)
  --out        the JSON report (default bench/economy/results.json)
  --url        drive a running service (local anvil only) instead of starting one on embedded defaults
  --secret     the service's CRON_SECRET for --url (a started service's is read from its data directory)
`;

export function parseSimArgs(argv: string[], env: Record<string, string | undefined>): SimOptions {
  const options: SimOptions = {
    seed: 1,
    companies: 10,
    days: 8,
    attackers: 0.2,
    url: undefined,
    secret: env.CRON_SECRET?.trim() || undefined,
    out: 'bench/economy/results.json',
    help: false,
  };
  const num = (flag: string, v: string, min: number, max: number, whole: boolean) => {
    const n = Number(v);
    if (v.trim() === '' || !Number.isFinite(n) || n < min || n > max || (whole && !Number.isInteger(n))) {
      throw new Error(`${flag} must be ${whole ? 'a whole number' : 'a number'} ${min}-${max}, got "${v}"`);
    }
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf('=');
    const [flag, inline] = eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') throw new Error(`${flag} needs a value`);
      return v;
    };
    if (flag === '--help' || flag === '-h') options.help = true;
    else if (flag === '--seed') options.seed = num(flag, value(), 0, 2 ** 32 - 1, true);
    else if (flag === '--companies') options.companies = num(flag, value(), 3, 200, true);
    else if (flag === '--days') options.days = num(flag, value(), 1, 30, true);
    else if (flag === '--attackers') options.attackers = num(flag, value(), 0, 0.5, false);
    else if (flag === '--out') options.out = value();
    else if (flag === '--url') options.url = value().replace(/\/+$/, '');
    else if (flag === '--secret') options.secret = value();
    else throw new Error(`unknown option ${arg}`);
  }
  return options;
}
