// Round contexts and tool lists for the model-layer tests: the engine's own tools as the model sees them, plus
// tools with harder argument schemas (patterns, bounds, nested objects, arrays, formats).
import { TRADING_LIMITS_DEFAULT } from '../../../src/constants.ts';
import type { RoundContext, ToolSpec } from '../../../src/domain/engine/models/types.ts';
import { TOOLS, toolSpec } from '../../../src/domain/engine/tools.ts';

type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };

const BASE: RoundContext = {
  company: {
    id: 'cmp_acme01',
    name: 'Acme Yield',
    slug: 'acme-yield',
    category: 'DEFI_YIELD',
    status: 'PUBLIC',
    autonomyLevel: 'FULLY_AUTONOMOUS',
    ceoPrompt: null,
    masterDirective: null,
    platformScore: 42.5,
  },
  treasuryUsdc: '2500.000000',
  token: {
    status: 'BONDING',
    symbol: 'ACME',
    price: '0.004200',
    marketCap: '4200.000000',
    graduationProgress: 42,
    volume24hUsdc: '850.000000',
    trades24h: 23,
  },
  agents: (['CFO', 'CTO', 'CMO', 'COO', 'CSO', 'CISO', 'CRO'] as const).map((role) => ({
    id: `agt_${role.toLowerCase()}`,
    role,
    name: `Acme ${role}`,
    strategy: 'BALANCED',
  })),
  market: [],
  wallets: [],
  limits: { ...TRADING_LIMITS_DEFAULT },
  lastDirective: null,
  cycle: 7,
};

export function context(overrides: DeepPartial<RoundContext> = {}): RoundContext {
  return {
    ...BASE,
    ...overrides,
    company: { ...BASE.company, ...overrides.company },
    token: { ...BASE.token, ...overrides.token },
    agents: (overrides.agents as RoundContext['agents'] | undefined) ?? BASE.agents,
  } as RoundContext;
}

/** The situations the built-in model should tell apart. */
export const CONTEXTS = {
  bonding: context(),
  noToken: context({
    company: { status: 'PRIVATE' },
    token: {
      status: 'PRE_PUBLIC',
      symbol: null,
      price: null,
      marketCap: null,
      graduationProgress: 0,
      volume24hUsdc: '0',
      trades24h: 0,
    },
  }),
  nearGraduation: context({
    token: {
      price: '0.009100',
      marketCap: '9100.000000',
      graduationProgress: 91,
      volume24hUsdc: '6400',
      trades24h: 140,
    },
  }),
  graduated: context({
    token: {
      status: 'GRADUATED',
      price: '0.0150',
      marketCap: '15000',
      graduationProgress: 100,
      volume24hUsdc: '22000',
    },
  }),
  lowTreasury: context({ treasuryUsdc: '120.500000' }),
  quiet: context({ token: { volume24hUsdc: '12', trades24h: 1 } }),
  noTreasury: context({
    company: { status: 'PRIVATE' },
    treasuryUsdc: null,
    token: { status: 'PRE_PUBLIC', symbol: null, price: null, marketCap: null, graduationProgress: 0 },
  }),
} satisfies Record<string, RoundContext>;

/** The engine's own tools (src/domain/engine/tools.ts) as a model sees them: cost in USD. */
export const ENGINE_TOOLS: ToolSpec[] = TOOLS.map(toolSpec);

/** Tools whose argument schemas use most of JSON Schema. */
export const EXOTIC_TOOLS: ToolSpec[] = [
  {
    name: 'read_erc20_balance',
    description: 'Reads an ERC-20 balance on chain.',
    parameters: {
      type: 'object',
      properties: {
        token: { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$' },
        holder: { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$' },
        block: { type: ['integer', 'null'], minimum: 0 },
      },
      required: ['token', 'holder'],
      additionalProperties: false,
    },
    cost: 0.0001,
  },
  {
    name: 'launch_campaign',
    description: 'Publishes a marketing campaign on social channels.',
    parameters: {
      type: 'object',
      properties: {
        title: { type: 'string', minLength: 5, maxLength: 40 },
        channels: { type: 'array', items: { enum: ['x', 'farcaster', 'telegram'] }, minItems: 2, uniqueItems: true },
        budgetUsdc: { type: 'number', exclusiveMinimum: 0, maximum: 100, multipleOf: 0.5 },
        schedule: {
          type: 'object',
          properties: { startsAt: { type: 'string', format: 'date-time' }, days: { type: 'integer', minimum: 1 } },
          required: ['startsAt', 'days'],
        },
        link: { type: 'string', format: 'uri' },
      },
      required: ['title', 'channels', 'budgetUsdc', 'schedule', 'link'],
      additionalProperties: false,
    },
    cost: 0.01,
  },
  {
    name: 'search_market_news',
    description: 'Searches recent market news.',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 3, maxLength: 20 },
        window: { type: 'string', enum: ['1h', '24h', '7d'] },
        sources: { type: 'array', items: { type: 'string', pattern: '^[a-z]+$' }, maxItems: 3 },
        ratio: { type: 'number', minimum: 0, maximum: 1 },
      },
      required: ['query', 'window', 'sources', 'ratio'],
    },
    cost: 0.002,
  },
  {
    name: 'tag_symbol',
    description: 'Tags a ticker for monitoring.',
    parameters: {
      type: 'object',
      properties: { symbol: { type: 'string', pattern: '^[A-Z0-9]{2,10}$' }, level: { const: 'watch' } },
      required: ['symbol', 'level'],
    },
    cost: 0.0001,
  },
];
