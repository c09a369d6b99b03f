// The demo's plan: which dev account creates which company, in what category and league, with what token,
// treasury, stake and agent funding. Data only: the steps (companies.ts, market.ts, agents.ts) read it.

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
  /**
   * Whole USDC the creator moves into the company's treasury: its Safe with custody, else address index 100 + account
   * of the mnemonic.
   */
  treasuryUsdc: number;
  slug: string;
  name: string;
  category: Category;
  description: string;
  /** A CEO directive: the company plays in the HUMAN league (HUMAN_DIRECTED). */
  ceoPrompt?: string;
  /** A master directive with STRATEGY_AUTONOMOUS (MACHINE league). */
  masterDirective?: string;
  /**
   * The company's hard trading limits (toolkitConfig.limits), set with its directive. With custody its agents act
   * with the whole treasury, so a company trading thin markets sizes its buys here, as a real one would.
   */
  limits?: { maxTradeBps?: number; maxDailyNotionalUsdc?: string; maxPositionUsdc?: string };
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
 * What the demo funds so its decision rounds trade: with custody the company's Safe (its treasury, which holds the
 * USDC already) gets the primary tokens; without, the CFO of each company gets the company creator's USDC or primary
 * tokens, topped up to these whole amounts. Spot Sprinters (SPOT_TRADING) buys the token that rose
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
    // Small size: 1% of the treasury a trade, 300 USDC a day. With the defaults the momentum CFO, acting with the
    // Safe's 40,000 USDC, sizes every buy at a quarter of the default day (250 USDC), which the buy rules refuse on
    // the demo's young curves (at most 2% of the few thousand USDC behind the token): it never holds, never sells.
    limits: { maxTradeBps: 100, maxDailyNotionalUsdc: '300' },
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
 * The small plan (--plan small): a momentum trader (Spot Sprinters, SPRNT), the market's hot token (Neural Capital,
 * NEURAL) and a HUMAN-league company whose directive buys SPRNT (Pre-Market Scouts, SCOUT): every score component and
 * chart still has something to show, in about a third of the time.
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

/**
 * The demo's steps in order (main.ts runs them). The leagues step sets the CEO directives, and comes after the token
 * launches: a directive counts only tokens launched before it was set (docs/api/agents.md "Buy rules"), so Pre-Market
 * Scouts' directive, which names SPRNT, is set once SPRNT exists and its agents may buy it.
 */
export const DEMO_STEPS = [
  'cards and companies',
  'C-suites',
  'treasuries',
  'tokens',
  'leagues',
  'market traders',
  'trading',
  'staking',
  'agent wallets',
  'decision rounds',
  'simulated days',
  'agent portfolios',
] as const;
