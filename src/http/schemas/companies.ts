// Schemas of the company routes: the Company resource, creation, directive, engine, treasury and deploy-suite.
import { Type } from 'typebox';
import {
  AGENT_ROLES,
  AGENT_STATUSES,
  AUTONOMY_LEVELS,
  BUY_RULES_DEFAULT,
  BUY_RULES_STRICTEST,
  CEO_PROMPT_MAX,
  COMPANY_CATEGORIES,
  COMPANY_DESCRIPTION_MAX,
  COMPANY_NAME_MAX,
  COMPANY_NAME_MIN,
  COMPANY_SLUG_MAX,
  COMPANY_SLUG_MIN,
  COMPANY_SLUG_PATTERN,
  COMPANY_STATUSES,
  ENGINE_CONFIG_KEYS,
  ENGINE_MODEL_IDS,
  ENGINE_PRESETS,
  LEAGUES,
  LOGO_URL_MAX,
  MASTER_DIRECTIVE_MAX,
  MODEL_ID_PATTERN,
  TOKEN_STATUSES,
  TOOLS_LIST_MAX,
  TRADE_SLIPPAGE_BPS_MAX,
  TRADING_LIMITS_DEFAULT,
  TREASURY_ACCEPTANCE_MAX_S,
  TREASURY_STATUSES,
  USDC_AMOUNT_PATTERN,
} from '../../constants.ts';
import {
  AddressOut,
  AddressString,
  IsoTimestamp,
  internalOk,
  Nullable,
  OpenEnum,
  StringEnum,
  WeiString,
} from './common.ts';

export const CompanyParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64, description: 'Company id (CUID) or slug' }),
});

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
export const CompanyResponse = internalOk(Company);

export const CreateCompanyBody = Type.Object(
  {
    name: Type.String({ minLength: COMPANY_NAME_MIN, maxLength: COMPANY_NAME_MAX }),
    slug: Type.Optional(
      Type.String({ minLength: COMPANY_SLUG_MIN, maxLength: COMPANY_SLUG_MAX, pattern: COMPANY_SLUG_PATTERN }),
    ),
    category: StringEnum(COMPANY_CATEGORIES),
    description: Type.Optional(Type.String({ maxLength: COMPANY_DESCRIPTION_MAX })),
    logoUrl: Type.Optional(Type.String({ maxLength: LOGO_URL_MAX, format: 'uri', pattern: '^https?://' })),
    treasuryAddress: Type.Optional(AddressString),
    referrerCompanyId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  },
  { additionalProperties: false },
);

export const DirectiveBody = Type.Object(
  {
    ceoPrompt: Type.Optional(Nullable(Type.String({ maxLength: CEO_PROMPT_MAX }))),
    autonomyLevel: Type.Optional(StringEnum(AUTONOMY_LEVELS)),
    engineConfig: Type.Optional(Nullable(EngineConfigSchema)),
    toolkitConfig: Type.Optional(Nullable(ToolkitConfigSchema)),
  },
  { additionalProperties: false },
);
/**
 * The launched token each symbol a directive names resolved to when the creator set its text (symbol -> address):
 * the directive names these tokens until its text is set again (docs/api/agents.md "Buy rules").
 */
const NamedTokens = Type.Record(Type.String(), Type.String());
export const DirectiveResponse = internalOk(
  Type.Object({
    id: Type.String(),
    autonomyLevel: StringEnum(AUTONOMY_LEVELS),
    ceoPrompt: Nullable(Type.String()),
    ceoPromptTokens: NamedTokens,
    league: StringEnum(LEAGUES),
    engineConfig: Nullable(EngineConfigSchema),
    toolkitConfig: Nullable(ToolkitConfigSchema),
    /**
     * The money-relevant settings last set without the creator's signature: while any is listed the company's agents
     * move no money. A signed request that sets a field clears it.
     */
    unsignedSettings: Type.Array(StringEnum(['ceoPrompt', 'autonomyLevel', 'engineConfig', 'toolkitConfig'])),
  }),
);

export const EngineBody = Type.Object(
  {
    enginePreset: Type.Optional(StringEnum(ENGINE_PRESETS)),
    autonomyLevel: Type.Optional(StringEnum(AUTONOMY_LEVELS)),
    masterDirective: Type.Optional(Type.String({ maxLength: MASTER_DIRECTIVE_MAX })),
    dailyModelSpendCap: Type.Optional(
      Nullable(
        Type.String({
          pattern: '^[0-9]{1,12}(\\.[0-9]{1,6})?$',
          maxLength: 19,
          description:
            "USD a day the company's rounds may spend on models (decimal string, at most 6 decimals), at most the platform's maximum per company; null: that maximum",
        }),
      ),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);
const MachineResult = StringEnum(['ok', 'skipped', 'failed'] as const);
export const EngineResponse = internalOk(
  Type.Object({
    autonomyLevel: StringEnum(AUTONOMY_LEVELS),
    masterDirective: Nullable(Type.String()),
    masterDirectiveTokens: NamedTokens,
    /** The company's daily model-spend cap in force, USD decimal string (the platform's maximum when none was set). */
    dailyModelSpendCap: Type.String(),
    machineResults: Type.Object({ resize: MachineResult, envUpdate: MachineResult }),
  }),
);

/** What a treasury signs to accept a company (docs/api/companies.md "Treasury"). */
export const TreasuryAcceptanceSchema = Type.Object(
  {
    deadline: Type.Integer({
      minimum: 1,
      maximum: 2 ** 40,
      description: `The acceptance's last second (Unix time by the chain's clock): after the chain's time and at most ${TREASURY_ACCEPTANCE_MAX_S} s ahead of it`,
    }),
    signature: Type.String({
      pattern: '^0x([0-9a-fA-F]{2}){1,2048}$',
      description:
        "The treasury's EIP-712 signature of TreasuryAcceptance { companyId, treasury, chainId, deadline } (domain ai-economy, version 1, the chain id); a contract wallet's is checked with ERC-1271",
    }),
  },
  { additionalProperties: false },
);

export const TreasuryBody = Type.Object(
  {
    treasuryAddress: AddressString,
    acceptance: Type.Optional(TreasuryAcceptanceSchema),
  },
  {
    additionalProperties: false,
    description:
      "The new treasury, with its acceptance unless it is the signer's own wallet. Never the zero address, a platform contract, a company token, an agent wallet or another company's treasury.",
  },
);

export const DeploySuiteResponse = internalOk(
  Type.Object({
    created: Type.Array(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        role: StringEnum(AGENT_ROLES),
        status: StringEnum(AGENT_STATUSES),
      }),
    ),
    skipped: Type.Array(StringEnum(AGENT_ROLES)),
    dualityResults: Type.Record(
      Type.String(),
      Type.Object({ status: Type.String(), errors: Type.Array(Type.String()) }),
    ),
  }),
);

export const CardParams = Type.Object({
  tokenId: Type.Integer({ minimum: 1, maximum: 10_000, description: 'Access card token id' }),
});
export const CardCompanyResponse = internalOk(
  Type.Object({
    cardTokenId: Type.Integer(),
    company: Nullable(Type.Object({ id: Type.String(), slug: Type.String(), name: Type.String() })),
  }),
);
