// The command line of `npm run demo`: options, usage text, and the scheduler secret of a local service.

import { httpUrlFlag, readFlags, wholeNumberFlag } from '../flags.ts';
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

  --url      the service (default http://localhost:$PORT, 3000 without PORT, or DEMO_URL)
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
    // The service npm start runs in this shell: its PORT, as README's two commands leave it.
    url: env.DEMO_URL?.trim() || `http://localhost:${env.PORT?.trim() || '3000'}`,
    secret: env.CRON_SECRET?.trim() || env.ADMIN_SECRET?.trim() || undefined,
    days: DEFAULT_DAYS,
    plan: 'full',
    help: false,
  };
  const { help } = readFlags(argv, {
    '--url': (value) => {
      options.url = value();
    },
    '--secret': (value) => {
      options.secret = value();
    },
    '--plan': (value) => {
      const v = value();
      if (v !== 'full' && v !== 'small') throw new Error(`--plan must be full or small, got "${v}"`);
      options.plan = v;
    },
    '--days': (value) => {
      options.days = wholeNumberFlag('--days', value(), 1, MAX_DAYS);
    },
  });
  // DEMO_URL is checked as --url is.
  return { ...options, url: httpUrlFlag('--url', options.url), help };
}
