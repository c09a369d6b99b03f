// The command line of `npm run demo`: options, usage text, and the scheduler secret of a local service.

import { DEFAULT_DAYS, MAX_DAYS } from './days-plan.ts';

export interface DemoOptions {
  url: string;
  secret: string | undefined;
  /** Simulated days of history on the chain's clock, each closed by its score snapshot (days-plan.ts). */
  days: number;
  /** `full`: the eight companies; `small`: the three a market needs (plan.ts SMALL_PLAN), for a quick look or a test. */
  plan: 'full' | 'small';
  help: boolean;
}

export const USAGE = `Usage: npm run demo -- [--url http://localhost:3000] [--plan full] [--days ${DEFAULT_DAYS}] [--secret <secret>]

Fills a RUNNING ai-economy service on its local anvil chain (chain id 31337 only) with demo data: dev accounts 1-9
mint cards, create companies, deploy their suites, launch tokens and stake; market wallets trade the tokens; then
the chain's clock moves day by day, the market trading at set hours, the scheduled decision rounds running and each
day closing with its score snapshot; last an epoch is finalized and claimed. Each step checks the state first, so
running it again does no harm.

  --url      the service (default http://localhost:3000, or DEMO_URL)
  --plan     full (the eight companies, default) or small (three: a momentum trader, the hot token, a HUMAN buyer)
  --days     simulated days of history, each closed by its score snapshot (default ${DEFAULT_DAYS}, at most ${MAX_DAYS}); a
             second run adds only the days missing
  --secret   the scheduler secret (CRON_SECRET or ADMIN_SECRET) for POST /api/cron/score-snapshot and
             /api/cron/epoch-distribute (default: CRON_SECRET, then ADMIN_SECRET, then for a service on this machine
             the development secret that npm start keeps in DATA_DIR/cron-secret, ./data/cron-secret by default)
`;

/**
 * The development CRON_SECRET `npm start` generates on its embedded defaults (src/domain/auth/dev-secret.ts), for a
 * service on a loopback address only: a remote service's secret is never guessed from local files.
 */
export function localCronSecret(
  url: string,
  env: Record<string, string | undefined>,
  read: (file: string) => string | undefined,
): string | undefined {
  const host = new URL(url).hostname;
  if (!['localhost', '127.0.0.1', '[::1]'].includes(host)) return undefined;
  const dataDir = env.DATA_DIR?.trim() || './data';
  return read(`${dataDir.replace(/\/+$/, '')}/cron-secret`)?.trim() || undefined;
}

export function parseDemoArgs(argv: string[], env: Record<string, string | undefined>): DemoOptions {
  const options: DemoOptions = {
    url: env.DEMO_URL?.trim() || 'http://localhost:3000',
    secret: env.CRON_SECRET?.trim() || env.ADMIN_SECRET?.trim() || undefined,
    days: DEFAULT_DAYS,
    plan: 'full',
    help: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') throw new Error(`${flag} needs a value`);
      return v;
    };
    if (flag === '--help' || flag === '-h') options.help = true;
    else if (flag === '--url') options.url = value();
    else if (flag === '--secret') options.secret = value();
    else if (flag === '--plan') {
      const v = value();
      if (v !== 'full' && v !== 'small') throw new Error(`--plan must be full or small, got "${v}"`);
      options.plan = v;
    } else if (flag === '--days') {
      const v = value();
      const n = Number(v);
      if (!/^\d+$/.test(v) || n < 1 || n > MAX_DAYS) {
        throw new Error(`--days must be a whole number 1-${MAX_DAYS}, got "${v}"`);
      }
      options.days = n;
    } else throw new Error(`unknown option ${arg}`);
  }
  let parsed: URL;
  try {
    parsed = new URL(options.url);
  } catch {
    throw new Error(`--url must be an http(s) URL, got "${options.url}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`--url must be an http(s) URL, got "${options.url}"`);
  }
  options.url = options.url.replace(/\/+$/, '');
  return options;
}
