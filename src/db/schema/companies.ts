// Companies and their agents. A company is bound for ever to one access card (card_token_id); its creator is
// whoever holds that card, so ownership moves with the card (see domain/companies/access-card-transfers.stream.ts).
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
};

/** A model id (one of the eight known, or any the configured provider serves). */
type ModelId = string;
export interface EngineConfig {
  briefGeneration?: ModelId;
  scrapeSummary?: ModelId;
  roleExecution?: ModelId;
  ceoSynthesis?: ModelId;
  jsonExtraction?: ModelId;
}
/** Hard limits on what a company's agents may trade (docs/api/decisions.md "Limits"); defaults where unset. */
export interface TradingLimits {
  /** Largest share of the wallet's balance one trade or stake may use, in basis points. */
  maxTradeBps?: number;
  /** Largest USDC notional the company's agents may trade in one chain day (decimal string). */
  maxDailyNotionalUsdc?: string;
  /** Largest value of one token the company's agents may hold after a buy (decimal string, USDC). */
  maxPositionUsdc?: string;
  /** Largest slippage a trade accepts from its quote, in basis points. */
  maxSlippageBps?: number;
}
/** The company's buy rules over the platform's (docs/api/agents.md "Buy rules"): each may only be stricter. */
export interface BuyRulesConfig {
  minTokenAgeHours?: number;
  minDistinctTraders?: number;
  maxLiquidityBps?: number;
  stopLossCooldownHours?: number;
}
export interface ToolkitConfig {
  enabledTools?: string[];
  disabledTools?: string[];
  limits?: TradingLimits;
  buyRules?: BuyRulesConfig;
}

export const companies = pgTable(
  'companies',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    description: text('description'),
    category: text('category').notNull(),
    status: text('status').notNull().default('INCORPORATING'),
    autonomyLevel: text('autonomy_level').notNull().default('STRATEGY_AUTONOMOUS'),
    league: text('league').notNull().default('MACHINE'),
    ceoPrompt: text('ceo_prompt'),
    /**
     * Who signed the request that last set ceoPrompt (checksummed); null when it was set unsigned
     * (COMPANY_PATCH_AUTH=ip) or before signers were recorded. Only a directive its company's current creator signed
     * may name a token that fails the buy rules (docs/api/agents.md "Buy rules").
     */
    ceoPromptSigner: text('ceo_prompt_signer'),
    /** Who signed the request that last set masterDirective (PATCH /engine is always signed); null before recorded. */
    masterDirectiveSigner: text('master_directive_signer'),
    /**
     * The money-relevant settings (ceoPrompt, autonomyLevel, engineConfig, toolkitConfig) whose last change was not
     * signed by the creator (COMPANY_PATCH_AUTH=ip). While any is listed, no agent of the company moves money
     * (docs/api/companies.md "Directive and engine").
     */
    unsignedSettings: text('unsigned_settings').array().notNull().default(sql`'{}'::text[]`),
    /**
     * When ceoPrompt or masterDirective was last set, on the chain's clock: a token launched after it is not the one
     * the directive named (docs/api/agents.md "Buy rules").
     */
    directiveSetAt: timestamp('directive_set_at', { withTimezone: true, mode: 'date' }),
    /**
     * The chain's latest block when the directive was last set: a launch mined in a later block came after it. Blocks
     * order what times cannot (a local chain stamps a second's blocks alike).
     */
    directiveSetBlock: bigint('directive_set_block', { mode: 'bigint' }),
    /**
     * The tokens ceoPrompt names, by address, resolved when its text was last set (symbol in upper case -> address):
     * a directive names the token its symbol meant when the creator signed that text, and no later edit of another
     * field re-dates it (docs/api/agents.md "Buy rules"). Null: not resolved (set before this column).
     */
    ceoPromptTokens: jsonb('ceo_prompt_tokens').$type<Record<string, string>>(),
    /** The same for masterDirective (PATCH /engine). */
    masterDirectiveTokens: jsonb('master_directive_tokens').$type<Record<string, string>>(),
    enginePreset: text('engine_preset').notNull().default('BALANCED'),
    engineConfig: jsonb('engine_config').$type<EngineConfig>(),
    /**
     * The model spend a day the creator allows its rounds, micro-USD, at most COMPANY_MODEL_SPEND_CAP_MAX_MICRO_USD;
     * null: that maximum (domain/costs/model-spend.ts).
     */
    dailyModelSpendCap: bigint('daily_model_spend_cap', { mode: 'bigint' }),
    toolkitConfig: jsonb('toolkit_config').$type<ToolkitConfig>(),
    masterDirective: text('master_directive'),
    tokenStatus: text('token_status').notNull().default('PRE_PUBLIC'),
    /**
     * Name, symbol and (CREATE2-predicted) address of the token, recorded when its launch is requested and shown
     * once the launch is mined (token_status BONDING). While PRE_PUBLIC with these set, a launch is in flight.
     */
    tokenName: text('token_name'),
    tokenSymbol: text('token_symbol'),
    /**
     * True for a token launched with a symbol an earlier launch already had (ignoring case), before symbols were
     * unique: the first keeps the symbol, this one is named by its company's slug or its address only.
     */
    tokenSymbolDuplicate: boolean('token_symbol_duplicate').notNull().default(false),
    /**
     * The token's spot price after its latest indexed trade (USDC base units per whole token: the curve's virtual
     * reserves, or the v4 pool's sqrtPrice once graduated) and that trade's place (block, log), so a batch applied
     * again never puts back an older price. Null before the first trade.
     */
    tokenPrice: numeric('token_price', { precision: 78, scale: 0, mode: 'bigint' }),
    /** The market cap at that price, computed as the launcher's priceOf does (USDC base units). */
    tokenMarketCap: numeric('token_market_cap', { precision: 78, scale: 0, mode: 'bigint' }),
    tokenPriceBlock: bigint('token_price_block', { mode: 'bigint' }),
    /**
     * USDC the curve holds for the token after its latest indexed curve trade (the CurveTrade's virtual reserve less
     * the opening one, a third of the threshold: TokenLauncher's realUsdc), base units; null before one.
     */
    tokenCurveUsdc: numeric('token_curve_usdc', { precision: 78, scale: 0, mode: 'bigint' }),
    tokenPriceLog: integer('token_price_log'),
    /**
     * The company's custody (docs/contracts.md "Custody"), set once the setup has handed the module to the Safe: the
     * Safe, its Roles module and its owner contract (which accepts the card holder's signature).
     */
    safeAddress: text('safe_address'),
    rolesModuleAddress: text('roles_module_address'),
    safeOwnerAddress: text('safe_owner_address'),
    tokenAddress: text('token_address'),
    /** Graduation threshold of the token in USDC base units (6 decimals), fixed at launch. */
    tokenGraduationThreshold: bigint('token_graduation_threshold', { mode: 'bigint' }),
    tokenLaunchRequestedAt: timestamp('token_launch_requested_at', { withTimezone: true, mode: 'date' }),
    tokenLaunchTxHash: text('token_launch_tx_hash'),
    /** When the launch was mined: the company went PUBLIC (docs/api/tokens.md `publicAt`). */
    tokenPublicAt: timestamp('token_public_at', { withTimezone: true, mode: 'date' }),
    /** The block the launch was mined in. */
    tokenLaunchBlock: bigint('token_launch_block', { mode: 'bigint' }),
    tokenGraduatedAt: timestamp('token_graduated_at', { withTimezone: true, mode: 'date' }),
    /** The Uniswap v4 pool id (bytes32 hex) inside the PoolManager, set at graduation (docs/api/tokens.md `v4PoolAddress`). */
    tokenPoolId: text('token_pool_id'),
    treasuryAddress: text('treasury_address'),
    /**
     * When the company proved it controls treasuryAddress (the chain's time; company_treasuries holds the spans);
     * null for a treasury set without proof, which earns no treasury score (docs/api/companies.md "Treasury").
     */
    treasuryProvenAt: timestamp('treasury_proven_at', { withTimezone: true, mode: 'date' }),
    creatorAddress: text('creator_address').notNull(),
    /**
     * The block at which creatorAddress was known right: where the card was read at creation, then the block of
     * the last card transfer applied. The indexer applies only later transfers, so one that lags behind a
     * creation can never hand a new company back to an earlier holder.
     */
    ownerBlock: bigint('owner_block', { mode: 'bigint' }).notNull().default(sql`0`),
    logoUrl: text('logo_url'),
    /** The access card this company is bound to, for ever. */
    cardTokenId: integer('card_token_id').notNull(),
    /** When markCompanyDeployed was confirmed on-chain; null while the lock is pending (repaired at start). */
    cardLockedAt: timestamp('card_locked_at', { withTimezone: true, mode: 'date' }),
    referrerCompanyId: text('referrer_company_id').references((): AnyPgColumn => companies.id),
    platformScore: doublePrecision('platform_score').notNull().default(0),
    /** Compute machine of the company, when a compute provider is configured. */
    machineId: text('machine_id'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('companies_slug_unique').on(t.slug),
    uniqueIndex('companies_card_token_id_unique').on(t.cardTokenId),
    index('companies_creator_idx').on(t.creatorAddress),
    index('companies_card_pending_idx').on(t.cardTokenId).where(sql`${t.cardLockedAt} is null`),
    index('companies_referrer_idx').on(t.referrerCompanyId),
    // Whose treasury an address is (a treasury belongs to one company).
    index('companies_treasury_idx').on(t.treasuryAddress),
    // Wallet lookups by address in any case (GET /api/names, the trading score's company wallets).
    index('companies_treasury_lower_idx').on(sql`lower(${t.treasuryAddress})`),
    index('companies_safe_lower_idx').on(sql`lower(${t.safeAddress})`),
    uniqueIndex('companies_token_address_unique').on(t.tokenAddress),
    // A symbol names one token, ignoring case: set when a launch is requested, so two launches cannot both take it.
    uniqueIndex('companies_token_symbol_unique')
      .on(sql`lower(${t.tokenSymbol})`)
      .where(sql`${t.tokenSymbol} is not null and not ${t.tokenSymbolDuplicate}`),
    // GET /api/v1/tokens, newest first, with and without a status filter.
    index('companies_token_list_idx')
      .on(t.tokenPublicAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.tokenStatus} <> 'PRE_PUBLIC'`),
    index('companies_token_status_list_idx')
      .on(t.tokenStatus, t.tokenPublicAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.tokenStatus} <> 'PRE_PUBLIC'`),
    index('companies_token_launch_pending_idx')
      .on(t.tokenLaunchRequestedAt)
      .where(sql`${t.tokenStatus} = 'PRE_PUBLIC' and ${t.tokenLaunchRequestedAt} is not null`),
    // GET /api/v1/fortune: by platform score (ties: oldest first, then id), whole, by category, by league.
    index('companies_fortune_idx').on(t.platformScore.desc(), t.createdAt, t.id),
    index('companies_fortune_category_idx').on(t.category, t.platformScore.desc(), t.createdAt, t.id),
    index('companies_fortune_league_idx').on(t.league, t.platformScore.desc(), t.createdAt, t.id),
  ],
);
