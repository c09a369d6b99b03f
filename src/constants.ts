// Every bound and fixed value of the API (docs/api/README.md "Limits" and each area's page), in one place: schemas, domain code and tests import them from here.

// Access card (docs/api/nft.md)
export const CARD_TOKEN_ID_MIN = 1;
export const CARD_TOKEN_ID_MAX = 10_000;
export const CARD_MINT_PRICE_USDC = 100_000_000n; // 100 USDC, 6 decimals
export const USDC_DECIMALS = 6;

// Cache-Control of the NFT routes (docs/api/README.md "Limits")
export const NFT_METADATA_CACHE_CONTROL = 'public, max-age=3600, s-maxage=86400';
export const NFT_IMAGE_CACHE_CONTROL = 'public, max-age=86400, s-maxage=604800';

// Pagination
export const V1_PAGE_SIZE_DEFAULT = 50;
export const V1_PAGE_SIZE_MAX = 100;
export const AGENTS_PAGE_SIZE_DEFAULT = 20;
export const AGENTS_PAGE_SIZE_MAX = 100;
export const FORTUNE_LIST_LIMIT_DEFAULT = 50;
export const FORTUNE_LIST_LIMIT_MIN = 1;
export const FORTUNE_LIST_LIMIT_MAX = 100;
/** Pages beyond this answer 400 (docs/decisions.md "Requests and errors"), so no request can ask for an unbounded OFFSET. */
export const PAGE_MAX = 100_000;

// Text bounds
export const AGENT_NAME_MIN = 1;
export const AGENT_NAME_MAX = 100;
export const AGENT_DESCRIPTION_MAX = 500;
export const AGENT_SKILLS_MIN = 1;
export const AGENT_SKILLS_MAX = 20;
export const CEO_PROMPT_MAX = 2000;
export const MASTER_DIRECTIVE_MAX = 1000;
export const TOOLS_LIST_MAX = 50;

// Enums
export {
  CARD_TIERS,
  type CardTier,
  COMPANY_CATEGORIES,
  cardTierOf,
  DECISION_ROUNDS_SHOWN,
  LEAGUES,
  NO_CARD_MULTIPLIER,
  type TierName,
} from '@ai-economy/shared/constants';
export const AUTONOMY_LEVELS = ['HUMAN_DIRECTED', 'STRATEGY_AUTONOMOUS', 'FULLY_AUTONOMOUS'] as const;
export const TOKEN_STATUSES = ['PRE_PUBLIC', 'BONDING', 'GRADUATED'] as const;
export const AGENT_ROLES = ['CFO', 'CTO', 'CMO', 'COO', 'CSO', 'CISO', 'CRO'] as const;
export const AGENT_STATUSES = ['PENDING', 'DEPLOYING', 'ACTIVE', 'PAUSED', 'TERMINATED', 'FAILED'] as const;
export const EVENT_TYPES = ['decision', 'trade', 'score', 'season'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

// Auth (docs/api/README.md "Authentication")
export const WALLET_SIGNATURE_WINDOW_S = 300;
export const WALLET_SIGNATURE_REPLAY_TTL_S = 600;
export const WALLET_SIGNATURE_PREAMBLE = 'ai-economy request';
// ERC-1271 checks run code the signer chose (docs/api/README.md "Wallet signature"): each gets this much gas and
// time, the answer to "has this address code?" is kept a while, and a client that made its share of contract-wallet
// checks (valid or not) is refused (429) for the rest of the minute instead of making the node run more of them.
/** Gas one isValidSignature call may use: a Safe's check of a few owners' signatures takes well under 100,000. */
export const ERC1271_GAS = 200_000n;
/** How long the server waits for one isValidSignature call; a slower answer is a no. */
export const ERC1271_TIMEOUT_MS = 2_000;
/** How long "address has code" (or has none) is kept, and for how many addresses at most. */
export const WALLET_CODE_CACHE_MS = 60_000;
export const WALLET_CODE_CACHE_MAX = 10_000;
/** ERC-1271 checks (valid or not) one client (IP) may cause per window before its further ones are refused with 429. */
export const WALLET_ERC1271_CHECKS_MAX = 20;
export const WALLET_ERC1271_CHECKS_WINDOW_MS = 60_000;
/** Clients whose checks are counted at once; the oldest window is dropped beyond this. */
export const WALLET_ERC1271_CLIENTS_MAX = 10_000;
// Idempotent signed writes (docs/api/README.md "Idempotent writes"): an Idempotency-Key header, scoped to the signer.
/** A key is 1 to this many printable ASCII characters (0x20-0x7E), as Stripe's. */
export const IDEMPOTENCY_KEY_MAX = 255;
/** How long the first answer under a key is kept and replayed, by the server's clock. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A reservation left unfinished this long (a crash mid-request) may be taken over by a retry. */
export const IDEMPOTENCY_IN_PROGRESS_STALE_MS = 60_000;
/** Seconds the message of 409 IDEMPOTENCY_KEY_IN_USE asks a client to wait (no Retry-After header: that belongs to 429 and 503): the first request is usually done by then. */
export const IDEMPOTENCY_IN_USE_RETRY_AFTER_S = 1;
export const API_KEY_PREFIX = 'aie_';
export const API_KEY_RANDOM_BYTES = 32; // 43 base64url characters

// Treasury acceptance (docs/api/companies.md "Treasury"): the EIP-712 signature by which a treasury accepts a
// company. Its deadline lies after the chain's time and at most this far ahead of it, so an acceptance cannot be
// kept for months and replayed after the treasury's owner has moved on.
export const TREASURY_ACCEPTANCE_MAX_S = 86_400;
export const TREASURY_ACCEPTANCE_DOMAIN = { name: 'ai-economy', version: '1' } as const;
export const TREASURY_STATUSES = ['NONE', 'UNPROVEN', 'PROVEN'] as const;

// Scores (docs/api/fortune.md): each component is scaled against the larger of the best company and its floor,
// so a few dollars in a thin market cannot earn full points; the defaults of SCORE_FLOOR_* (whole USDC, rounds).
export const SCORE_FLOORS_DEFAULT = {
  treasuryUsdc: 10_000,
  tradingUsdc: 1_000,
  volumeUsdc: 10_000,
  activityRounds: 24,
} as const;
/** Default of TRADING_MIN_HOLD_S: a sale's PnL counts for the trading score after this long a hold. */
export const TRADING_MIN_HOLD_S_DEFAULT = 3_600;

// Company tokens. The threshold (USD = USDC) is the default of GRADUATION_THRESHOLD_USD; the launcher refuses
// thresholds below 100 USDC (TokenLauncher.MIN_GRADUATION_THRESHOLD).
export const GRADUATION_THRESHOLD_USD = 10_000;
export const GRADUATION_THRESHOLD_USD_MIN = 100;
export const GRADUATION_THRESHOLD_USD_MAX = 1_000_000_000;
/** Token name: 1-64 characters and at most 64 UTF-8 bytes (the launcher's limit). */
export const TOKEN_NAME_MAX = 64;
/** Token symbol: 2-10 characters, A-Z and 0-9. */
export const TOKEN_SYMBOL_PATTERN = '^[A-Z0-9]{2,10}$';
export const COMPANY_TOKEN_DECIMALS = 18;

// Events (docs/api/events.md)
export const SSE_POLL_INTERVAL_MS = 5_000;
/** How far back the event stream serves and resumes (EVENT_RETENTION_MS): the contract's one hour. */
export const SSE_RETENTION_MS = 60 * 60 * 1000;
/**
 * How long platform events are kept for the backfill, GET /api/v1/events?after= (EVENT_BACKFILL_RETENTION_MS): two
 * days, so a bot down for a day still has a day to catch up. About 1 GiB of PostgreSQL at 10,000 companies
 * (docs/benchmarks.md "Event retention"). At least the stream's window (a config check).
 */
export const EVENT_BACKFILL_RETENTION_MS_DEFAULT = 2 * 86_400_000;
/** Events one backfill page (GET /api/v1/events?after=) holds by default and at most. */
export const EVENTS_PAGE_DEFAULT = 100;
export const EVENTS_PAGE_MAX = 1_000;
// The stream's defaults and bounds (docs/api/events.md "Limits" and "Settings")
export const SSE_MAX_CONNECTIONS_DEFAULT = 10_000;
/** Megabytes of read-route bodies one process keeps in memory by default (READ_CACHE_MAX_MB). */
export const READ_CACHE_MAX_MB_DEFAULT = 256;
export const SSE_MAX_CONNECTIONS_PER_CLIENT_DEFAULT = 100;
/** Streams of the public GET /api/events per client address: a person's tabs, not a fleet of bots. */
export const SSE_PUBLIC_MAX_CONNECTIONS_PER_IP_DEFAULT = 10;
/** Streams of the keyless GET /api/events one process holds at most, apart from the keyed streams' cap. */
export const SSE_PUBLIC_MAX_CONNECTIONS_DEFAULT = 1_000;
/** How far back a keyless stream resumes: an older Last-Event-ID resumes from the oldest event of this window. */
export const SSE_PUBLIC_BACKLOG_MS_DEFAULT = 5 * 60 * 1000;
/** The most events GET /api/events/recent answers (the web app's activity feed opens on them). */
export const RECENT_EVENTS_MAX = 100;
/** The most addresses one GET /api/names names. */
export const ADDRESS_NAMES_MAX = 100;
/** A `: ping` comment line after this much silence keeps proxies from closing an idle stream; 0 disables. */
export const SSE_HEARTBEAT_MS_DEFAULT = 30_000;
export const SSE_HEARTBEAT_MS_MIN = 1_000;
/** How often the heartbeat looks for silent streams, at most: a ping comes 30 s to 30 s + this after the last write. */
export const SSE_HEARTBEAT_TICK_MAX_MS = 1_000;
/** The `retry:` field of every stream: how long an EventSource waits before it reconnects. */
export const SSE_RETRY_MS = 3_000;
/** Retry-After of a 429 for too many streams: when a slot frees is unknown, so a guess a client can live with. */
export const SSE_CAP_RETRY_AFTER_S = 10;
/** Entries of the `companies` filter. */
export const SSE_FILTER_COMPANIES_MAX = 100;
export const SSE_FILTER_RAW_MAX = 8_192;
/** Events read from the table per query, by the reader and by a resuming stream. */
export const SSE_READ_BATCH = 500;
/** Bytes a stream may have written but not yet sent; a client further behind is dropped. */
export const SSE_CLIENT_BUFFER_MAX_BYTES = 256 * 1024;
/** How long a resuming stream waits for a client to take its backlog before it is dropped. */
export const SSE_DRAIN_TIMEOUT_MS = 10_000;
/**
 * Ids are handed out when a transaction inserts, not when it commits. An id missing between delivered ones is
 * waited for this long (the transaction holding it may be about to commit) before later events go out without it.
 */
export const SSE_GAP_GRACE_MS = 1_000;
/** A missing id skipped after the grace is still delivered, out of order, if it commits within this window. */
export const SSE_LATE_EVENT_WINDOW_MS = 60_000;
export const SSE_LATE_EVENT_IDS_MAX = 1_000;

/**
 * Gas a day the platform pays for a company by default: a whole C-suite (7 identities, about 1.6 M), a token launch
 * (about 0.7 M) and a day of hourly rounds' anchoring, with room to spare; a terminate-and-redeploy loop runs out.
 */
export const COMPANY_GAS_BUDGET_DEFAULT = 4_000_000n;
/**
 * 0.002 ETH: hundreds of agent transactions on Base; on a chain at 1 gwei, half of it still pays for a buy that
 * graduates a token (about 800,000 gas).
 */
export const AGENT_GAS_FLOOR_WEI_DEFAULT = 2_000_000_000_000_000n;

// Companies (docs/api/companies.md: POST /api/companies)
export const COMPANY_NAME_MIN = 1;
export const COMPANY_NAME_MAX = 100;
export const COMPANY_SLUG_MIN = 3;
export const COMPANY_SLUG_MAX = 48;
export const COMPANY_SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$';
/**
 * The shape of a record id (CUID2: 24 lowercase letters and digits, the first a letter). Routes take a company's id
 * or its slug in one place, so a slug of this shape could stand for another company's id: none is allowed.
 */
export const RECORD_ID_PATTERN = /^[a-z][a-z0-9]{23}$/;
export const COMPANY_DESCRIPTION_MAX = 500;
export const LOGO_URL_MAX = 2048;
export const COMPANY_STATUSES = ['INCORPORATING', 'HIRING', 'PRIVATE', 'PUBLIC'] as const;
export const ENGINE_PRESETS = ['BUDGET', 'EFFICIENT', 'BALANCED', 'PREMIUM'] as const;
export const ENGINE_CONFIG_KEYS = [
  'briefGeneration',
  'scrapeSummary',
  'roleExecution',
  'ceoSynthesis',
  'jsonExtraction',
] as const;
/**
 * What a model id may look like: `<provider>/<model>`, or any id a gateway serves (`local/qwen3-32b`,
 * `openrouter/auto`), at most 128 characters. Whether a provider serves it is checked when a company chooses it.
 */
export const MODEL_ID_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._:@/+-]{0,127}$';

/** The 8 models the engine knows (list-priced, the presets' choices), as `<provider>/<model_name>`. */
export const ENGINE_MODEL_IDS = [
  'openai/gpt-5',
  'openai/gpt-5-mini',
  'anthropic/claude-sonnet-4.5',
  'anthropic/claude-haiku-4.5',
  'google/gemini-2.5-pro',
  'google/gemini-2.5-flash',
  'deepseek/deepseek-chat',
  'meta-llama/llama-4-maverick',
] as const;
/** The providers of the model ids: the part before the `/` (each may have an endpoint, LLM_<PROVIDER>_BASE_URL). */
export const MODEL_PROVIDERS = ['openai', 'anthropic', 'google', 'deepseek', 'meta-llama'] as const;
export type ModelProviderName = (typeof MODEL_PROVIDERS)[number];
export const STRATEGY_PRESETS = ['BALANCED', 'AGGRESSIVE', 'CONSERVATIVE'] as const;
/** What each agent may spend in one decision round (model calls and tools), in micro-USD, by engine preset. */
export const AGENT_ROUND_BUDGET_MICRO_USD = {
  BUDGET: 20_000,
  EFFICIENT: 50_000,
  BALANCED: 100_000,
  PREMIUM: 250_000,
} as const;
/**
 * The most a company's creator may set as its daily model spend (micro-USD, PATCH /api/companies/{id}/engine
 * `dailyModelSpendCap`), and the cap of a company that set none: 100 USD a day (docs/api/decisions.md "Spending caps").
 */
export const COMPANY_MODEL_SPEND_CAP_MAX_MICRO_USD = 100_000_000n;
/** GET /api/wallets/{wallet}/trades answers at most this many trades. */
export const WALLET_TRADES_MAX = 200;
/** GET /api/agents/{id}/actions answers the agent's last this many actions. */
export const AGENT_ACTIONS_SHOWN = 50;
/**
 * Model calls in flight per provider endpoint and process (LLM_MAX_IN_FLIGHT): 10,000 companies an hour keep about
 * 70 role calls of one provider in flight at 2-5 s a call.
 */
export const LLM_MAX_IN_FLIGHT_DEFAULT = 256;
/** Most actions one round may decide. */
export const DECISION_ACTIONS_MAX = 10;
/** A round's extracted directive and each action's rationale, in characters: longer model text is condensed. */
export const DECISION_DIRECTIVE_MAX = 1000;
export const DECISION_RATIONALE_MAX = 1000;
/** Statuses PUT /api/agents/{id} may set. */
export const AGENT_SETTABLE_STATUSES = ['ACTIVE', 'PAUSED'] as const;
export const SKILL_MAX_LENGTH = 100;
export const PERSONA_TEXT_MAX = 500;
/** persona.role and strategy.type: 1-100 characters (the API contract gives no bound; docs/api/agents.md). */
export const PERSONA_ROLE_MAX = 100;
export const STRATEGY_TYPE_MAX = 100;
/** Cache-Control of GET /api/agents/{id}/registration.json: registries and indexers poll it. */
export const AGENT_REGISTRATION_CACHE_CONTROL = 'public, max-age=60';

/**
 * What a company's agents may trade when its toolkitConfig.limits says nothing (docs/api/decisions.md "Limits"):
 * a buy or a stake uses at most 25% of the wallet's balance, the company trades at most 1,000 USDC a chain day,
 * holds at most 2,500 USDC of any one token after a buy, and accepts at most 3% slippage from the quote.
 */
export const TRADING_LIMITS_DEFAULT = {
  maxTradeBps: 2_500,
  maxDailyNotionalUsdc: '1000',
  maxPositionUsdc: '2500',
  maxSlippageBps: 300,
} as const;
/** The bounds a company may set its limits within. */
export const TRADE_SLIPPAGE_BPS_MAX = 5_000;
/**
 * The buy rules (docs/api/agents.md "Buy rules"): which tokens any agent of the platform may buy, whatever model
 * decided it, checked next to the hard limits. Platform minimums: a company's toolkitConfig.buyRules may tighten each
 * one (up to BUY_RULES_STRICTEST) but never loosen it. A token must be at least 24 h old on the chain's clock, have
 * had at least 10 distinct traders over the last 24 h (not counting wallets linked to its company), a buy may take at
 * most 2% of the USDC in its curve or pool, and after a stop-loss (an agent's sale at a loss) the company's agents do
 * not buy that token again for 24 h. A token the creator's current signed directive names is the owner's own call.
 */
export const BUY_RULES_DEFAULT = {
  minTokenAgeHours: 24,
  minDistinctTraders: 10,
  maxLiquidityBps: 200,
  stopLossCooldownHours: 24,
} as const;
/**
 * The buy rules across companies and rounds (docs/api/agents.md "Buy rules"): every agent of the platform
 * together buys at most BUY_RULES_DEFAULT.maxLiquidityBps of a token's liquidity over a rolling `hours` window; a
 * company's agents do not buy a token again for `companyCoolOffHours` after buying it (unless the creator's signed
 * directive names it); and a token whose largest trader made more than `maxTopTraderShareBps` of its netted trading
 * in 24 h is no mover for agents.
 */
export const BUY_WINDOW = {
  hours: 24,
  companyCoolOffHours: 24,
  maxTopTraderShareBps: 5_000,
} as const;
/** The strictest buy rules a company may set (a year, 10,000 traders, 0.01% of the liquidity, a year). */
export const BUY_RULES_STRICTEST = {
  minTokenAgeHours: 8_760,
  minDistinctTraders: 10_000,
  maxLiquidityBps: 1,
  stopLossCooldownHours: 8_760,
} as const;
/** A USDC amount as a decimal string: up to 12 whole digits, 6 decimals. */
export const USDC_AMOUNT_PATTERN = '^\\d{1,12}(\\.\\d{1,6})?$';
/** A token amount as a decimal string (up to 18 decimals), or `all` of what the wallet holds. */
export const TOKEN_AMOUNT_PATTERN = '^(all|\\d{1,15}(\\.\\d{1,18})?)$';
/** Seconds a trade's deadline lies past the chain's latest block. */
export const TRADE_DEADLINE_S = 600n;
/** The engine's trading tools, which act through an agent's own wallet (domain/trading/actions.ts). */
export const TRADE_TOOLS = ['buy_token', 'sell_token', 'stake_primary', 'unstake_primary', 'harvest_emission'] as const;
/** The CRO's veto of trading tools (a control, not an action). */
export const VETO_TOOL = 'veto_action';

/**
 * Stand-alone agents one signer may create in any 24 hours (POST /api/agents; 429 RATE_LIMITED past it): they cost
 * nothing, so without a cap a fresh key could fill the public agent list (test/attacks/agent-list-spam.test.ts).
 */
export const STANDALONE_AGENTS_PER_SIGNER_PER_DAY = 10;
/**
 * Stand-alone agents one client address may create in any 24 hours, whatever the keys (STANDALONE_AGENTS_PER_IP_PER_DAY):
 * keys are free, so the per-signer allowance alone does not bound one client.
 */
export const STANDALONE_AGENTS_PER_IP_PER_DAY_DEFAULT = 20;
/** How long a stand-alone agent that never did anything is kept (STANDALONE_AGENT_RETENTION_MS): 7 days. */
export const STANDALONE_AGENT_RETENTION_MS_DEFAULT = 7 * 86_400_000;

// Webhooks (docs/api/webhooks.md).
/** Endpoints one API key may hold, active or disabled. */
export const WEBHOOK_ENDPOINTS_PER_KEY_MAX = 20;
export const WEBHOOK_URL_MAX = 2048;
export const WEBHOOK_DESCRIPTION_MAX = 200;
/** Pauses before each retry of a failed delivery: 3 days, 3 hours and some minutes in all, then FAILED. */
export const WEBHOOK_RETRY_DELAYS_MS = [
  5_000,
  60_000,
  5 * 60_000,
  30 * 60_000,
  60 * 60_000,
  2 * 3_600_000,
  4 * 3_600_000,
  8 * 3_600_000,
  12 * 3_600_000,
  12 * 3_600_000,
  12 * 3_600_000,
  12 * 3_600_000,
  12 * 3_600_000,
] as const;
/** An endpoint every attempt to which failed for this long (since its last success) is disabled: 5 days. */
export const WEBHOOK_DISABLE_AFTER_MS = 5 * 86_400_000;
/** How long the secret before a rotation keeps signing deliveries beside the new one. */
export const WEBHOOK_PREVIOUS_SECRET_MS = 86_400_000;
/** The first bytes of a receiver's answer kept with the attempt. */
export const WEBHOOK_RESPONSE_PREFIX_BYTES = 1024;
/** Finished deliveries (and their attempts) are kept this long, then purged. */
export const WEBHOOK_DELIVERY_RETENTION_MS = 7 * 86_400_000;
/** Events read by one fan-out pass at most (later ones wait for the next pass, which follows at once). */
export const WEBHOOK_FANOUT_BATCH = 2_000;
/** Events read again by each fan-out pass for this long after their publishing transaction began (late commits). */
export const WEBHOOK_LATE_EVENT_WINDOW_MS = 60_000;
/** Deliveries one dispatcher pass claims at most (also bounded by WEBHOOK_CONCURRENCY). */
export const WEBHOOK_CLAIM_BATCH = 200;
/** Deliveries and attempts a page lists. */
export const WEBHOOK_PAGE_DEFAULT = 50;
export const WEBHOOK_PAGE_MAX = 200;
