// The engine's tools: named, with a JSON schema for their arguments and a cost in micro-USD. Reads (chain and
// market) run while the agents think (phase 4) and in the scrape phase; actions are what a round decides and runs
// in phase 7, among them the trading tools, which act through the agent's own wallet (domain/trading/actions.ts);
// a control (the CRO's veto) is a proposal that changes what phase 7 may run. A company's toolkitConfig enables
// and disables them by name.
import { eq, sql } from 'drizzle-orm';
import { type Address, formatUnits } from 'viem';
import { readMarket } from '../../chain/contracts/launcher.ts';
import { usdcBalanceOf } from '../../chain/contracts/usdc.ts';
import { chainDate } from '../../chain/time.ts';
import {
  STRATEGY_PRESETS,
  TOKEN_AMOUNT_PATTERN,
  TOKEN_SYMBOL_PATTERN,
  USDC_AMOUNT_PATTERN,
  VETO_TOOL,
} from '../../constants.ts';
import { companies } from '../../db/schema/companies.ts';
import { setStrategyPreset } from '../agents/store.ts';
import type { Deps } from '../deps.ts';
import { readStakingStats } from '../staking/reads.ts';
import { tokenMovers, tokenTradeStats } from '../tokens/queries.ts';
import { type AgentAction, runAgentAction, TRADE_TOOLS, type TradeDeps, type TradeTool } from '../trading/actions.ts';
import type { ToolSpec } from './models/types.ts';
import { platformOnlyText } from './published-text.ts';

export type ToolKind = 'chain_read' | 'market_read' | 'action' | 'control';

export type ToolDeps = TradeDeps & Pick<Deps, 'chain' | 'database' | 'config'>;

/** An active agent of the company, as the round read it. */
export type TeamAgent = NonNullable<AgentAction['agent']> & { role: string | null };

export interface ToolCall {
  deps: ToolDeps;
  company: {
    id: string;
    treasuryAddress: string | null;
    tokenAddress: string | null;
    tokenStatus: string;
    toolkitConfig: (typeof companies.$inferSelect)['toolkitConfig'];
  };
  role: string;
  args: Record<string, unknown>;
  /**
   * For an action run in phase 7: the round and the action's place in it, which key its transactions, and the
   * company's active agents as the round read them (the actor and its team need no second read).
   */
  action?: { roundId: string; index: number; team?: { active: TeamAgent[]; walletAddresses: Address[] } };
}

export interface Tool {
  name: string;
  kind: ToolKind;
  description: string;
  parameters: Record<string, unknown>;
  /** micro-USD per call */
  cost: number;
  /** Runs the tool; the string says what it found or did, for the round's record. */
  run(call: ToolCall): Promise<string>;
}

const noArgs = { type: 'object', properties: {}, additionalProperties: false } as const;
const ROLES_ENUM = ['CFO', 'CTO', 'CMO', 'COO', 'CSO', 'CISO', 'CRO'];
const symbolArg = { type: 'string', pattern: TOKEN_SYMBOL_PATTERN, description: 'A launched token of the platform' };
const tokenAmountArg = {
  type: 'string',
  pattern: TOKEN_AMOUNT_PATTERN,
  description: 'Tokens as a decimal string (18 decimals), or "all"',
};

/**
 * A trading tool: runs with the acting role's own wallet, or through its role on the company's Safe when the company
 * has custody, within the company's limits.
 */
function tradeTool(name: TradeTool, description: string, parameters: Record<string, unknown>): Tool {
  return {
    name,
    kind: 'action',
    description: `${description} With the money your role may use (your agent wallet, or the company's Safe through your role), within the company's trading limits; no other address can be named.`,
    parameters,
    cost: 2_000,
    run({ deps, company, role, args, action }) {
      if (!action) throw new Error(`${name} runs only as a decided action`);
      const actor = action.team?.active.find((a) => a.role === role);
      return runAgentAction(deps, {
        company,
        role,
        tool: name,
        args,
        key: `${action.roundId}:${action.index}`,
        roundId: action.roundId,
        ...(action.team && {
          agent: actor ?? null,
          teamAddresses: action.team.walletAddresses,
        }),
      });
    },
  };
}

/** The trading tools (domain/trading/actions.ts). */
export const TRADING_TOOLS: readonly Tool[] = [
  tradeTool(
    'buy_token',
    'Buys a platform company token with USDC (the bonding curve, or its v4 pool once graduated).',
    {
      type: 'object',
      properties: {
        token: symbolArg,
        usdc: { type: 'string', pattern: USDC_AMOUNT_PATTERN, description: 'USDC to spend, a decimal string' },
      },
      required: ['token', 'usdc'],
      additionalProperties: false,
    },
  ),
  tradeTool('sell_token', 'Sells a platform company token for USDC.', {
    type: 'object',
    properties: { token: symbolArg, amount: tokenAmountArg },
    required: ['token', 'amount'],
    additionalProperties: false,
  }),
  tradeTool('stake_primary', 'Stakes the primary token in the staking pool to earn the emission token.', {
    type: 'object',
    properties: { amount: tokenAmountArg },
    required: ['amount'],
    additionalProperties: false,
  }),
  tradeTool('unstake_primary', 'Unstakes the primary token from the staking pool.', {
    type: 'object',
    properties: { amount: tokenAmountArg },
    required: ['amount'],
    additionalProperties: false,
  }),
  tradeTool('harvest_emission', 'Harvests the emission token the stake has earned.', noArgs),
];

export const TOOLS: readonly Tool[] = [
  ...TRADING_TOOLS,
  {
    name: VETO_TOOL,
    kind: 'control',
    description:
      "The CRO's veto: no decided action with this tool (and this token, when named) runs this round, whatever the CEO decides.",
    parameters: {
      type: 'object',
      properties: {
        tool: { type: 'string', enum: [...TRADE_TOOLS] },
        token: symbolArg,
        reason: { type: 'string', minLength: 1, maxLength: 280 },
      },
      required: ['tool', 'reason'],
      additionalProperties: false,
    },
    cost: 0,
    async run({ args }) {
      return `veto of ${String(args.tool)}${args.token ? ` on ${String(args.token)}` : ''}: ${String(args.reason)}`;
    },
  },
  {
    name: 'read_token_price',
    kind: 'chain_read',
    description: "Reads the company token's price and market cap from the launcher (the v4 pool once graduated).",
    parameters: noArgs,
    cost: 100,
    async run({ deps, company }) {
      if (company.tokenStatus === 'PRE_PUBLIC' || !company.tokenAddress || !deps.chain.contracts.tokenLauncher) {
        return 'no token launched yet';
      }
      const { price, marketCap } = await readMarket(deps.chain, company.tokenAddress as Address);
      return `price ${formatUnits(price, 6)} USDC, market cap ${formatUnits(marketCap, 6)} USDC`;
    },
  },
  {
    name: 'read_treasury_balance',
    kind: 'chain_read',
    description: "Reads the USDC balance of the company's treasury address.",
    parameters: noArgs,
    cost: 100,
    async run({ deps, company }) {
      if (!company.treasuryAddress || !deps.chain.contracts.usdc) return 'no treasury address set';
      const balance = await usdcBalanceOf(deps.chain, company.treasuryAddress as Address);
      return `treasury holds ${formatUnits(balance, 6)} USDC`;
    },
  },
  {
    name: 'read_staking_stats',
    kind: 'chain_read',
    description: 'Reads the staking pool: total effective stake, emission rate and base APY.',
    parameters: noArgs,
    cost: 100,
    async run({ deps }) {
      const s = await readStakingStats(deps);
      return `staking: ${formatUnits(BigInt(s.totalStakedPrimary), 18)} effective stake, base APY ${s.currentBaseApy}%`;
    },
  },
  {
    name: 'scan_token_trades',
    kind: 'market_read',
    description: "Summarises the company token's trades over the last `hours` hours.",
    parameters: {
      type: 'object',
      properties: { hours: { type: 'integer', minimum: 1, maximum: 168 } },
      required: ['hours'],
      additionalProperties: false,
    },
    cost: 500,
    async run({ deps, company, args }) {
      // Trades carry their block's time, so the window is counted back from the chain's clock.
      const since = new Date((await chainDate(deps.chain.publicClient)).getTime() - Number(args.hours) * 3_600_000);
      const { trades, buys, volume } = await tokenTradeStats(deps.database.db, company.id, since);
      return `${trades} trades (${buys} buys) in ${args.hours} h, volume ${formatUnits(volume, 6)} USDC`;
    },
  },
  {
    name: 'scan_platform_tokens',
    kind: 'market_read',
    description:
      "Lists the most traded company tokens of the platform over the last 24 hours, by volume without each token's own company's wallets, each trader netted.",
    parameters: {
      type: 'object',
      properties: { limit: { type: 'integer', minimum: 1, maximum: 20 } },
      required: ['limit'],
      additionalProperties: false,
    },
    cost: 500,
    async run({ deps, args }) {
      // The engine's market read: volume as the score counts it, without the issuing company's own wallets.
      const since = new Date((await chainDate(deps.chain.publicClient)).getTime() - 86_400_000);
      const rows = await tokenMovers(deps.database.db, since, Number(args.limit));
      if (rows.length === 0) return 'no token traded in the last 24 h';
      return rows
        .map((r) => `${r.symbol} ${formatUnits(r.volume, 6)} USDC (${r.traders} traders, ${r.trades} trades)`)
        .join('; ');
    },
  },
  {
    name: 'read_fortune_rank',
    kind: 'market_read',
    description: "Reads the company's rank on the Fortune List (by platform score).",
    parameters: noArgs,
    cost: 500,
    async run({ deps, company }) {
      // The company's own score read first, then counted against: a correlated subquery written with drizzle's
      // column drops the outer table's name, and every company then counted only itself (rank 1 for all).
      const [own] = await deps.database.db
        .select({ score: companies.platformScore })
        .from(companies)
        .where(eq(companies.id, company.id));
      if (!own) return 'not ranked';
      const [above] = await deps.database.db
        .select({ n: sql<number>`count(*)::int` })
        .from(companies)
        .where(sql`${companies.platformScore} > ${own.score}`);
      const row = { score: own.score, rank: (above?.n ?? 0) + 1 };
      return `rank ${row.rank}, platform score ${row.score}`;
    },
  },
  {
    name: 'publish_update',
    kind: 'action',
    description: "Publishes a short update to the company's followers.",
    parameters: {
      type: 'object',
      properties: { message: { type: 'string', minLength: 1, maxLength: 280 } },
      required: ['message'],
      additionalProperties: false,
    },
    cost: 1_000,
    async run({ deps, args }) {
      // The platform publishes it under the company's name: no address or link of anyone else's goes out with it.
      return `published: ${await platformOnlyText(deps, String(args.message))}`;
    },
  },
  {
    name: 'set_agent_strategy',
    kind: 'action',
    description: "Sets one C-suite agent's strategy preset (BALANCED, AGGRESSIVE or CONSERVATIVE).",
    parameters: {
      type: 'object',
      properties: {
        role: { type: 'string', enum: ROLES_ENUM },
        preset: { type: 'string', enum: [...STRATEGY_PRESETS] },
      },
      required: ['role', 'preset'],
      additionalProperties: false,
    },
    cost: 1_000,
    async run({ deps, company, args }) {
      const changed = await setStrategyPreset(deps.database.db, company.id, String(args.role), String(args.preset));
      return changed ? `${args.role} strategy set to ${args.preset}` : `no active ${args.role} to update`;
    },
  },
];

const byName = new Map(TOOLS.map((t) => [t.name, t]));

export const toolNamed = (name: string) => byName.get(name);

/** The tools a company may use: all, narrowed to `enabledTools` when given, minus `disabledTools`. */
export function enabledTools(toolkit: { enabledTools?: string[]; disabledTools?: string[] } | null): Tool[] {
  const allow = toolkit?.enabledTools && toolkit.enabledTools.length > 0 ? new Set(toolkit.enabledTools) : undefined;
  const deny = new Set(toolkit?.disabledTools ?? []);
  return TOOLS.filter((t) => (!allow || allow.has(t.name)) && !deny.has(t.name));
}

/** What a model is told about a tool. */
export const toolSpec = (t: Tool): ToolSpec => ({
  name: t.name,
  description: t.description,
  parameters: t.parameters,
  cost: t.cost / 1_000_000,
});
