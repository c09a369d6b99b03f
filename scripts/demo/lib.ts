// Pure parts of `npm run demo` (scripts/demo.ts): the plan of the demo companies, the progress bar, the command
// line and the decisions that make each step idempotent. Nothing here talks to the service or the chain.

import { DEFAULT_DAYS, MAX_DAYS } from './days-plan.ts';

export const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk';
export const LOCAL_CHAIN_ID = 31337;

export type Category =
  | 'DEFI_YIELD'
  | 'SPOT_TRADING'
  | 'DERIVATIVES'
  | 'PRE_MARKET'
  | 'AI_TOKENS'
  | 'RWA'
  | 'MULTICHAIN';

export interface DemoCompany {
  /** Dev account (1-8) that mints the card, creates the company and is its creator. */
  account: number;
  /** Whole USDC the creator moves into the company's treasury (address index 100 + account of the mnemonic). */
  treasuryUsdc: number;
  slug: string;
  name: string;
  category: Category;
  description: string;
  /** A CEO directive: the company plays in the HUMAN league (HUMAN_DIRECTED). */
  ceoPrompt?: string;
  /** A master directive with STRATEGY_AUTONOMOUS (MACHINE league). */
  masterDirective?: string;
  token?: {
    name: string;
    symbol: string;
    /** Buy past the graduation threshold, into the Uniswap v4 pool. */
    graduate: boolean;
    /** Market cap to trade the curve up to, as a share of the graduation threshold (bonding tokens). */
    targetShare: number;
  };
}

/**
 * Agent wallets the demo funds, so its decision rounds trade: the CFO of each company gets the company creator's
 * USDC or primary tokens, topped up to these whole amounts. Spot Sprinters (SPOT_TRADING) buys the token that rose
 * most, Yield Harvesters (DEFI_YIELD) stakes, Pre-Market Scouts (HUMAN_DIRECTED) buys SPRNT as its prompt says.
 */
export const AGENT_FUNDING: { slug: string; usdc?: number; primary?: number }[] = [
  { slug: 'demo-spot-sprinters', usdc: 500 },
  { slug: 'demo-yield-harvesters', primary: 200 },
  { slug: 'demo-premarket-scouts', usdc: 200 },
];

/** Eight companies over the seven categories, both leagues, six tokens of which two graduate. */
export const DEMO_COMPANIES: DemoCompany[] = [
  {
    account: 1,
    slug: 'demo-yield-harvesters',
    treasuryUsdc: 250_000,
    name: 'Yield Harvesters',
    category: 'DEFI_YIELD',
    description: 'Rotates stablecoins between lending markets for the best risk-adjusted yield.',
    token: { name: 'Yield Harvesters', symbol: 'HRVST', graduate: true, targetShare: 1 },
  },
  {
    account: 2,
    slug: 'demo-spot-sprinters',
    treasuryUsdc: 40_000,
    name: 'Spot Sprinters',
    category: 'SPOT_TRADING',
    description: 'Momentum trading on liquid spot pairs, small size, tight stops.',
    masterDirective: 'Trade only the ten most liquid pairs; never risk more than 1% of the treasury per trade.',
    token: { name: 'Spot Sprinters', symbol: 'SPRNT', graduate: false, targetShare: 0.6 },
  },
  {
    account: 3,
    slug: 'demo-perp-pilots',
    treasuryUsdc: 120_000,
    name: 'Perp Pilots',
    category: 'DERIVATIVES',
    description: 'Delta-neutral funding-rate capture on perpetual futures.',
    token: { name: 'Perp Pilots', symbol: 'PERP', graduate: true, targetShare: 1 },
  },
  {
    account: 4,
    slug: 'demo-premarket-scouts',
    treasuryUsdc: 15_000,
    name: 'Pre-Market Scouts',
    category: 'PRE_MARKET',
    description: 'Researches launches before they list and sizes positions by conviction.',
    ceoPrompt:
      'Buy 20 USDC of SPRNT every round, publish a weekly update on the three launches we follow and keep the treasury untouched.',
    token: { name: 'Pre-Market Scouts', symbol: 'SCOUT', graduate: false, targetShare: 0.45 },
  },
  {
    account: 5,
    slug: 'demo-neural-capital',
    treasuryUsdc: 80_000,
    name: 'Neural Capital',
    category: 'AI_TOKENS',
    description: 'Tracks the tokens of AI-run companies and rebalances weekly.',
    token: { name: 'Neural Capital', symbol: 'NEURAL', graduate: false, targetShare: 0.75 },
  },
  {
    account: 6,
    slug: 'demo-real-asset-works',
    treasuryUsdc: 60_000,
    name: 'Real Asset Works',
    category: 'RWA',
    description: 'Tokenised treasury bills and invoices, held to maturity.',
    ceoPrompt: 'Hold tokenised T-bills only; report the portfolio yield after every round.',
    token: { name: 'Real Asset Works', symbol: 'RWAX', graduate: false, targetShare: 0.35 },
  },
  {
    account: 7,
    slug: 'demo-bridge-runners',
    treasuryUsdc: 5_000,
    name: 'Bridge Runners',
    category: 'MULTICHAIN',
    description: 'Arbitrages the same assets across chains and bridges.',
    ceoPrompt: 'Watch bridge fees and publish where the cheapest route is; do not trade yet.',
  },
  {
    account: 8,
    slug: 'demo-agent-index',
    treasuryUsdc: 25_000,
    name: 'Agent Index',
    category: 'AI_TOKENS',
    description: 'An index of the platform tokens, weighted by 24 h volume.',
    masterDirective: 'Keep the index weights within 5% of 24 h volume weights.',
  },
];

/**
 * The small plan: a momentum trader (Spot Sprinters, SPRNT), the market's hot token (Neural Capital, NEURAL) and a
 * HUMAN-league company whose directive buys SPRNT (Pre-Market Scouts, SCOUT): every score component and chart still
 * has something to show, in about a third of the time.
 */
export const SMALL_PLAN = ['demo-spot-sprinters', 'demo-premarket-scouts', 'demo-neural-capital'];

/** The companies of a plan, in the order of DEMO_COMPANIES. */
export const planCompanies = (plan: 'full' | 'small'): DemoCompany[] =>
  plan === 'full' ? DEMO_COMPANIES : DEMO_COMPANIES.filter((c) => SMALL_PLAN.includes(c.slug));

/** The treasury of the company created by dev account `account`: a fresh address of the same public mnemonic. */
export const treasuryIndex = (account: number) => 100 + account;

/** Dev accounts that stake primary tokens, and how many whole tokens each holds staked. */
export const STAKE_TARGETS: { account: number; tokens: bigint }[] = [
  { account: 1, tokens: 250_000n },
  { account: 3, tokens: 100_000n },
  { account: 5, tokens: 50_000n },
  { account: 9, tokens: 150_000n },
];

export interface DemoOptions {
  url: string;
  secret: string | undefined;
  /** Simulated days of history on the chain's clock, each closed by its score snapshot (days-plan.ts). */
  days: number;
  /** `full`: the eight companies; `small`: the three a market needs (SMALL_PLAN), for a quick look or a test. */
  plan: 'full' | 'small';
  help: boolean;
}

export const USAGE = `Usage: npm run demo -- [--url http://localhost:3000] [--plan full] [--days 3] [--secret <CRON_SECRET or ADMIN_SECRET>]

Fills a RUNNING ai-economy service on its local anvil chain (chain id 31337 only) with demo data: dev accounts 1-9
mint cards, create companies, deploy their suites, launch tokens and stake; market wallets trade the tokens; then
the chain's clock moves day by day, the market trading at set hours, the scheduled decision rounds running and each
day closing with its score snapshot; last an epoch is finalized and claimed. Each step checks the state first, so
running it again does no harm.

  --url      the service (default http://localhost:3000, or DEMO_URL)
  --plan     full (the eight companies, default) or small (three: a momentum trader, the hot token, a HUMAN buyer)
  --days     simulated days of history, each closed by its score snapshot (default ${DEFAULT_DAYS}, at most ${MAX_DAYS}); a
             second run adds only the days missing
  --secret   the scheduler secret for POST /api/cron/score-snapshot and /api/cron/epoch-distribute (default:
             CRON_SECRET, then ADMIN_SECRET, then for a service on this machine the development secret that
             npm start keeps in DATA_DIR/cron-secret, ./data/cron-secret by default)
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
      if (!/^\d+$/.test(v) || n < 1 || n > MAX_DAYS)
        throw new Error(`--days must be a whole number 1-${MAX_DAYS}, got "${v}"`);
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

/** `[#####-----] 5/10 step name`: a bar of `width` cells for `done` of `total`. */
export function renderBar(done: number, total: number, label: string, width = 20): string {
  const safeTotal = Math.max(total, 1);
  const clamped = Math.min(Math.max(done, 0), safeTotal);
  const filled = Math.round((clamped / safeTotal) * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${clamped}/${safeTotal} ${label}`;
}

/** Whole tokens (18 decimals) or USDC (6 decimals) to base units. */
export const units = (whole: bigint | number, decimals: number) =>
  BigInt(Math.round(Number(whole) * 100)) * 10n ** BigInt(decimals - 2);

/** Base units to a short decimal string: thousands separated, at most `places` decimals, trailing zeros cut. */
export function formatUnitsShort(value: bigint, decimals: number, places = 2): string {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const base = 10n ** BigInt(decimals);
  const whole = abs / base;
  const scale = 10n ** BigInt(Math.min(places, decimals));
  const fraction = (((abs % base) * scale) / base)
    .toString()
    .padStart(String(scale).length - 1, '0')
    .replace(/0+$/, '');
  const text = `${whole.toLocaleString('en-US')}${fraction ? `.${fraction}` : ''}`;
  return negative ? `-${text}` : text;
}

/** What is still missing to reach a target (never a withdrawal): a stake, a treasury balance. */
export const shortfall = (staked: bigint, target: bigint) => (staked >= target ? 0n : target - staked);

/** Minimum output of a trade: `slippageBps` below the quote. */
export const withSlippage = (quote: bigint, slippageBps = 100n) => (quote * (10_000n - slippageBps)) / 10_000n;

export interface EpochView {
  epochNumber: number;
  startTime: number;
  endTime: number;
  nextEpochIn: number;
}

export type EpochPlan =
  | { kind: 'claim' }
  | { kind: 'advance'; seconds: number }
  | { kind: 'distribute-previous' }
  | { kind: 'wait-snapshot' };

/**
 * What the epoch step does. `hasFinalizedReward`: a demo company already has a reward in a finalized epoch (claim
 * it). `snapshotAt`: the start (epoch seconds) of the latest score snapshot holding demo companies, if any.
 *
 * The chain's clock is only moved when the running epoch holds a snapshot of the demo companies: an epoch that ends
 * without one is finalized with no participants, and its pool is lost for the demo.
 */
export function planEpoch(epoch: EpochView, hasFinalizedReward: boolean, snapshotAt: number | undefined): EpochPlan {
  if (hasFinalizedReward) return { kind: 'claim' };
  if (snapshotAt !== undefined && snapshotAt >= epoch.startTime && snapshotAt < epoch.endTime) {
    // A few seconds past the end, so the next block is certainly in the next epoch.
    return { kind: 'advance', seconds: Math.max(epoch.nextEpochIn, 0) + 5 };
  }
  if (snapshotAt !== undefined && snapshotAt < epoch.startTime && epoch.epochNumber > 0) {
    // The snapshot's epoch has ended (an earlier run moved the clock): it only needs distributing.
    return { kind: 'distribute-previous' };
  }
  return { kind: 'wait-snapshot' };
}

/** The snapshot date (`2026-03-10T00:00:00.000Z`) as epoch seconds. */
export const snapshotSeconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);
