// The Company resource as the company routes answer it (with its engine models, toolkit, hard limits and buy rules),
// and the tokens a directive names.
import { Type } from 'typebox';
import {
  AGENT_ROLES,
  AGENT_STATUSES,
  AUTONOMY_LEVELS,
  BUY_RULES_DEFAULT,
  BUY_RULES_STRICTEST,
  COMPANY_CATEGORIES,
  COMPANY_STATUSES,
  ENGINE_CONFIG_KEYS,
  ENGINE_MODEL_IDS,
  ENGINE_PRESETS,
  LEAGUES,
  MODEL_ID_PATTERN,
  TOKEN_STATUSES,
  TOOLS_LIST_MAX,
  TRADE_SLIPPAGE_BPS_MAX,
  TRADING_LIMITS_DEFAULT,
  TREASURY_STATUSES,
  USDC_AMOUNT_PATTERN,
} from '../../../constants.ts';
import {
  AddressOut,
  AddressString,
  IsoTimestamp,
  Nullable,
  OpenEnum,
  StringEnum,
  WeiString,
} from '../../schemas/common.ts';

const ModelIdSchema = Type.String({
  pattern: MODEL_ID_PATTERN,
  maxLength: 128,
  description: `A model id: one of ${ENGINE_MODEL_IDS.join(', ')}, or any other the configured provider serves (checked against its /models list when it has one)`,
});
export const EngineConfigSchema = Type.Object(
  Object.fromEntries(ENGINE_CONFIG_KEYS.map((k) => [k, Type.Optional(ModelIdSchema)])) as Record<
    (typeof ENGINE_CONFIG_KEYS)[number],
    ReturnType<typeof Type.Optional<typeof ModelIdSchema>>
  >,
  {
    additionalProperties: false,
    description: 'Per-phase model: any model the configured provider serves (400 VALIDATION_ERROR otherwise)',
  },
);

const ToolName = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.:-]+$' });
const UsdcLimit = (description: string) => Type.String({ pattern: USDC_AMOUNT_PATTERN, description });
export const TradingLimitsSchema = Type.Object(
  {
    maxTradeBps: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 10_000,
        description: `Largest share of the wallet's balance one buy or stake may use, in basis points (default ${TRADING_LIMITS_DEFAULT.maxTradeBps})`,
      }),
    ),
    maxDailyNotionalUsdc: Type.Optional(
      UsdcLimit(
        `Largest USDC the company's agents trade in one chain day (default ${TRADING_LIMITS_DEFAULT.maxDailyNotionalUsdc}; 0 stops trading)`,
      ),
    ),
    maxPositionUsdc: Type.Optional(
      UsdcLimit(
        `Largest value of one token the company's agents may hold after a buy, in USDC (default ${TRADING_LIMITS_DEFAULT.maxPositionUsdc})`,
      ),
    ),
    maxSlippageBps: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: TRADE_SLIPPAGE_BPS_MAX,
        description: `Largest slippage a trade accepts from its quote, in basis points (default ${TRADING_LIMITS_DEFAULT.maxSlippageBps})`,
      }),
    ),
  },
  {
    additionalProperties: false,
    description: "Hard limits on the agents' trading tools, checked before anything is signed (docs/api/decisions.md)",
  },
);
const d = BUY_RULES_DEFAULT;
const s = BUY_RULES_STRICTEST;
export const BuyRulesSchema = Type.Object(
  {
    minTokenAgeHours: Type.Optional(
      Type.Integer({
        minimum: d.minTokenAgeHours,
        maximum: s.minTokenAgeHours,
        description: `Youngest token (hours since launch, the chain's clock) an agent may buy (platform minimum ${d.minTokenAgeHours})`,
      }),
    ),
    minDistinctTraders: Type.Optional(
      Type.Integer({
        minimum: d.minDistinctTraders,
        maximum: s.minDistinctTraders,
        description: `Fewest distinct traders over 24 h, not counting the token's company's own wallets (platform minimum ${d.minDistinctTraders})`,
      }),
    ),
    maxLiquidityBps: Type.Optional(
      Type.Integer({
        minimum: s.maxLiquidityBps,
        maximum: d.maxLiquidityBps,
        description: `Largest buy as a share of the USDC in the token's curve or pool, in basis points (platform maximum ${d.maxLiquidityBps})`,
      }),
    ),
    stopLossCooldownHours: Type.Optional(
      Type.Integer({
        minimum: d.stopLossCooldownHours,
        maximum: s.stopLossCooldownHours,
        description: `Hours without buying a token again after an agent sold it at a loss (platform minimum ${d.stopLossCooldownHours})`,
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'Which tokens the agents may buy: platform minimums a company may tighten but not loosen (docs/api/agents.md "Buy rules")',
  },
);
export const ToolkitConfigSchema = Type.Object(
  {
    enabledTools: Type.Optional(Type.Array(ToolName, { maxItems: TOOLS_LIST_MAX })),
    disabledTools: Type.Optional(Type.Array(ToolName, { maxItems: TOOLS_LIST_MAX })),
    limits: Type.Optional(TradingLimitsSchema),
    buyRules: Type.Optional(BuyRulesSchema),
  },
  { additionalProperties: false },
);

export const AgentSummary = Type.Object({
  id: Type.String(),
  name: Type.String(),
  role: Nullable(StringEnum(AGENT_ROLES)),
  status: StringEnum(AGENT_STATUSES),
});

export const Company = Type.Object({
  id: Type.String(),
  name: Type.String(),
  slug: Type.String(),
  description: Nullable(Type.String()),
  status: StringEnum(COMPANY_STATUSES),
  category: OpenEnum(COMPANY_CATEGORIES, "The company's category"),
  league: StringEnum(LEAGUES),
  platformScore: Type.Number(),
  autonomyLevel: StringEnum(AUTONOMY_LEVELS),
  ceoPrompt: Nullable(Type.String()),
  enginePreset: StringEnum(ENGINE_PRESETS),
  engineConfig: Nullable(EngineConfigSchema),
  toolkitConfig: Nullable(ToolkitConfigSchema),
  masterDirective: Nullable(Type.String()),
  tokenStatus: StringEnum(TOKEN_STATUSES),
  tokenSymbol: Nullable(Type.String()),
  tokenAddress: Nullable(AddressOut()),
  creatorAddress: AddressOut(),
  custody: Nullable(
    Type.Object(
      {
        safe: AddressString,
        rolesModule: AddressString,
        owner: AddressOut("The Safe's only owner: accepts what the card's holder signs"),
      },
      {
        description:
          'The company\'s Safe and Roles module when it has custody (docs/contracts.md "Custody"): its agents trade from the Safe through the module; fund the company with a USDC transfer to `safe`. Null without custody',
      },
    ),
  ),
  treasuryAddress: Nullable(Type.String()),
  treasuryStatus: StringEnum(TREASURY_STATUSES, {
    description:
      "PROVEN: the company proved it controls its treasury (the treasury signed its acceptance, or is the creator's wallet), which then counts toward the treasury score from treasuryProvenAt; UNPROVEN: set without proof (before proofs were asked for, or at creation), it scores 0 until the creator sets it again with PUT /api/companies/{id}/treasury; NONE: no treasury",
  }),
  treasuryProvenAt: Nullable(IsoTimestamp),
  logoUrl: Nullable(Type.String()),
  cardTokenId: Type.Integer({ description: 'The access card bound to this company for ever' }),
  cardLocked: Type.Boolean({ description: 'Whether the card is locked on-chain (markCompanyDeployed confirmed)' }),
  referrerCompanyId: Nullable(Type.String()),
  agents: Type.Array(AgentSummary, { description: 'Agents not terminated, in C-suite order' }),
  platformGas: Type.Object(
    {
      day: Type.String({ format: 'date', description: 'The UTC day counted' }),
      usedToday: WeiString,
      costTodayWei: WeiString,
      budget: WeiString,
      resetsAt: IsoTimestamp,
    },
    {
      description:
        "Gas the platform paid today for this company's transactions (deploy-suite, token launch, decision anchoring, claims), in gas units (costTodayWei: the native currency paid), and the daily budget; a request that would go past it answers 429 GAS_BUDGET_EXCEEDED until resetsAt",
    },
  ),
  createdAt: IsoTimestamp,
  updatedAt: IsoTimestamp,
});

/**
 * The launched token each symbol a directive names resolved to when the creator set its text (symbol -> address):
 * the directive names these tokens until its text is set again (docs/api/agents.md "Buy rules").
 */
export const NamedTokens = Type.Record(Type.String(), Type.String());
