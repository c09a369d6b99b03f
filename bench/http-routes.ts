// The read routes bench/http.ts measures: each route's path (with `{i}` cycling through ids, or through every
// seeded company), whether it needs an API key, its goal against the bare route, and for varied traffic the paths
// drawn with a fixed seed, so that every run asks the same sequence.
import { COMPANY_CATEGORIES, LEAGUES } from '../src/constants.ts';
import { seededRandom } from '../test/helpers/random.ts';

export interface RouteCase {
  name: string;
  path: string;
  /** `{i}` in the path cycles through 1..spread; `companies`: through every seeded company. */
  spread: number | 'companies';
  apiKey: boolean;
  goal: { minRatio: number; p99MaxMs?: number };
  /** Varied traffic: a path per request, in this order (the first is also the sample the bare route copies). */
  variants?: string[];
}

const LIST_GOAL = { minRatio: 0.5, p99MaxMs: 50 };
const NFT_GOAL = { minRatio: 0.7 };
/** With a different request every time, coalescing cannot help: the goal of varied traffic. */
const VARIED_GOAL = { minRatio: 0.3, p99MaxMs: 50 };
const VARIANTS = 5_000;

/** Draws from a list with a fixed seed, so every run asks the same sequence of paths. */
function drawer(seed: number) {
  const next = seededRandom(seed);
  return <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
}
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
/** `count` paths built from `build(draw)`, drawn with a fixed seed. */
function variants(seed: number, build: (draw: ReturnType<typeof drawer>) => string, count = VARIANTS): string[] {
  const draw = drawer(seed);
  return Array.from({ length: count }, () => build(draw));
}
const PAGES = range(1, 100);
const LIMITS = [10, 20, 50];
/** The seeded companies' creators: 2,000 addresses (bench/seed.ts). */
const CREATORS = range(1, 2000).map((n) => `0x${n.toString(16).padStart(40, '0')}`);
const maybe = <T>(draw: ReturnType<typeof drawer>, xs: readonly T[]) => draw([undefined, ...xs]);
const query = (params: Record<string, string | number | undefined>) =>
  Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${v}`)
    .join('&');

export const ROUTES: RouteCase[] = [
  { name: 'v1-fortune', path: '/api/v1/fortune', spread: 1, apiKey: true, goal: LIST_GOAL },
  { name: 'fortune-list', path: '/api/fortune-list', spread: 1, apiKey: false, goal: LIST_GOAL },
  { name: 'company', path: '/api/companies/bench-company-{i}', spread: 'companies', apiKey: false, goal: LIST_GOAL },
  { name: 'agents', path: '/api/agents', spread: 1, apiKey: false, goal: LIST_GOAL },
  { name: 'v1-tokens', path: '/api/v1/tokens', spread: 1, apiKey: true, goal: LIST_GOAL },
  { name: 'nft-metadata', path: '/api/nft/metadata/{i}', spread: 10_000, apiKey: false, goal: NFT_GOAL },
  { name: 'nft-image', path: '/api/nft/image/{i}', spread: 10_000, apiKey: false, goal: NFT_GOAL },
  // Varied traffic: pages 1-100, every category and league, status filters, agents by creator.
  {
    name: 'v1-fortune-varied',
    path: '/api/v1/fortune',
    spread: 1,
    apiKey: true,
    goal: VARIED_GOAL,
    variants: variants(
      1,
      (draw) =>
        `/api/v1/fortune?${query({ page: draw(PAGES), limit: draw(LIMITS), category: maybe(draw, COMPANY_CATEGORIES), league: maybe(draw, LEAGUES) })}`,
    ),
  },
  {
    name: 'fortune-list-varied',
    path: '/api/fortune-list',
    spread: 1,
    apiKey: false,
    goal: VARIED_GOAL,
    variants: variants(
      2,
      (draw) => `/api/fortune-list?${query({ limit: draw(range(1, 100)), category: maybe(draw, COMPANY_CATEGORIES) })}`,
    ),
  },
  {
    name: 'agents-varied',
    path: '/api/agents',
    spread: 1,
    apiKey: false,
    goal: VARIED_GOAL,
    variants: variants(3, (draw) =>
      draw([0, 1])
        ? `/api/agents?${query({ creator: draw(CREATORS), status: maybe(draw, ['ACTIVE', 'TERMINATED']) })}`
        : `/api/agents?${query({ page: draw(PAGES), limit: draw(LIMITS), status: maybe(draw, ['ACTIVE', 'TERMINATED']) })}`,
    ),
  },
  // The web app's routes: a company's candles, trades and score history (launched companies: card ids ending in
  // 0-3 have trades, bench/seed.ts), across the 10,000 first companies.
  {
    name: 'candles-varied',
    path: '/api/companies/{slug}/token/candles',
    spread: 1,
    apiKey: false,
    goal: VARIED_GOAL,
    variants: variants(
      5,
      (draw) =>
        `/api/companies/bench-company-${draw(range(1, 999)) * 10 + draw([0, 1, 2, 3])}/token/candles?${query({ interval: draw(['1m', '1h', '1d']), limit: draw([50, 100, 300]) })}`,
    ),
  },
  {
    name: 'trades-varied',
    path: '/api/companies/{slug}/token/trades',
    spread: 1,
    apiKey: false,
    goal: VARIED_GOAL,
    variants: variants(
      6,
      (draw) =>
        `/api/companies/bench-company-${draw(range(1, 999)) * 10 + draw([0, 1, 2, 3])}/token/trades?${query({ page: draw([1, 2]), limit: draw(LIMITS) })}`,
    ),
  },
  {
    name: 'scores-varied',
    path: '/api/companies/{slug}/scores',
    spread: 1,
    apiKey: false,
    goal: VARIED_GOAL,
    variants: variants(
      7,
      (draw) => `/api/companies/bench-company-${draw(range(1, 10_000))}/scores?${query({ limit: draw([7, 30, 90]) })}`,
    ),
  },
  {
    name: 'v1-tokens-varied',
    path: '/api/v1/tokens',
    spread: 1,
    apiKey: true,
    goal: VARIED_GOAL,
    variants: variants(
      4,
      (draw) =>
        `/api/v1/tokens?${query({ page: draw(range(1, 20)), limit: draw(LIMITS), status: maybe(draw, ['BONDING', 'GRADUATED']) })}`,
    ),
  },
  // The v1 market and event reads a bot pages: a company's trades by block and order, the platform-wide trade
  // feed, and the events' backfill (JSON pages after an id; the seed's ids run 1..1,000,000 within the last hour).
  { name: 'v1-trade-feed', path: '/api/v1/trades', spread: 1, apiKey: true, goal: LIST_GOAL },
  {
    name: 'v1-trades-varied',
    path: '/api/v1/companies/{slug}/token/trades',
    spread: 1,
    apiKey: true,
    goal: VARIED_GOAL,
    variants: variants(
      8,
      (draw) =>
        `/api/v1/companies/bench-company-${draw(range(1, 999)) * 10 + draw([0, 1, 2, 3])}/token/trades?${query({ limit: draw(LIMITS), order: maybe(draw, ['asc', 'desc']), fromBlock: maybe(draw, [2_000_000, 2_100_000]) })}`,
    ),
  },
  {
    name: 'v1-trade-feed-varied',
    path: '/api/v1/trades',
    spread: 1,
    apiKey: true,
    goal: VARIED_GOAL,
    variants: variants(
      9,
      (draw) =>
        `/api/v1/trades?${query({ limit: draw(LIMITS), order: maybe(draw, ['asc', 'desc']), fromBlock: 2_000_000 + draw(range(0, 199)) * 1000 })}`,
    ),
  },
  { name: 'v1-events', path: '/api/v1/events?after=500000', spread: 1, apiKey: true, goal: LIST_GOAL },
  {
    name: 'v1-events-varied',
    path: '/api/v1/events',
    spread: 1,
    apiKey: true,
    goal: VARIED_GOAL,
    variants: variants(
      10,
      (draw) =>
        `/api/v1/events?${query({ after: draw(range(1, 1000)) * 997, limit: draw([20, 50, 100]), types: maybe(draw, ['trade', 'decision', 'score']) })}`,
    ),
  },
];
