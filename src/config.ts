// The environment, parsed once. A wrong value stops start-up with a message naming the variable and what it accepts.
import path from 'node:path';
import { checkConfig } from './config/checks.ts';
import {
  fallbackModels,
  gatewayKind,
  headerText,
  type LlmStreaming,
  llmEndpoint,
  llmEnvPrefix,
  llmSpread,
  llmStreaming,
  type ModelEndpoint,
  type ModelPriceConfig,
  modelPrices,
  otlpTracesUrl,
  type ReasoningEffort,
  type RemoteSignerConfig,
  reasoningEfforts,
  type WalletProviderName,
  walletProvider,
} from './config/endpoints.ts';
import {
  ConfigError,
  type Env,
  int,
  type LogFormat,
  logFormat,
  privateKey,
  str,
  type TrustProxy,
  trustProxy,
  url,
  usdcFloor,
  wei,
} from './config/parse.ts';
import {
  AGENT_GAS_FLOOR_WEI_DEFAULT,
  COMPANY_GAS_BUDGET_DEFAULT,
  type ENGINE_CONFIG_KEYS,
  EVENT_BACKFILL_RETENTION_MS_DEFAULT,
  GRADUATION_THRESHOLD_USD,
  GRADUATION_THRESHOLD_USD_MAX,
  GRADUATION_THRESHOLD_USD_MIN,
  LLM_MAX_IN_FLIGHT_DEFAULT,
  MODEL_PROVIDERS,
  type ModelProviderName,
  READ_CACHE_MAX_MB_DEFAULT,
  SCORE_FLOORS_DEFAULT,
  SSE_HEARTBEAT_MS_DEFAULT,
  SSE_HEARTBEAT_MS_MIN,
  SSE_MAX_CONNECTIONS_DEFAULT,
  SSE_MAX_CONNECTIONS_PER_CLIENT_DEFAULT,
  SSE_PUBLIC_BACKLOG_MS_DEFAULT,
  SSE_PUBLIC_MAX_CONNECTIONS_DEFAULT,
  SSE_PUBLIC_MAX_CONNECTIONS_PER_IP_DEFAULT,
  SSE_RETENTION_MS,
  STANDALONE_AGENT_RETENTION_MS_DEFAULT,
  STANDALONE_AGENTS_PER_IP_PER_DAY_DEFAULT,
  TRADING_MIN_HOLD_S_DEFAULT,
} from './constants.ts';

// The parsers (config/parse.ts) and the outside services' endpoints (config/endpoints.ts) live beside this file; what
// other modules import from the configuration is exported here.
export {
  type LlmStreaming,
  llmEnvPrefix,
  type ModelEndpoint,
  REASONING_EFFORTS,
  type ReasoningEffort,
  type RemoteSignerConfig,
  WALLET_PROVIDERS,
  type WalletProviderName,
} from './config/endpoints.ts';
export { ConfigError, LOG_FORMATS, type LogFormat, TRUST_PROXY_HOPS_MAX, type TrustProxy } from './config/parse.ts';

export const ROLE_NAMES = ['api', 'indexer', 'scheduler', 'engine', 'webhooks'] as const;
export type Role = (typeof ROLE_NAMES)[number];

export interface Config {
  nodeEnv: string;
  host: string;
  port: number;
  baseUrl: string;
  marketplaceUrl: string;
  logLevel: string;
  /** `pretty` lines for a person at a terminal, `json` lines for collectors, files and pipes (LOG_FORMAT). */
  logFormat: LogFormat;
  dataDir: string;
  databaseUrl: string | undefined;
  databasePoolSize: number;
  redisUrl: string | undefined;
  chainRpcUrl: string | undefined;
  /**
   * The RPC URL GET /api/chain names for browsers and scripts (PUBLIC_RPC_URL): CHAIN_RPC_URL may carry a provider
   * key, so it is never shown; unset, /api/chain names one only on the local chain.
   */
  publicRpcUrl: string | undefined;
  chainId: number | undefined;
  contractsFile: string | undefined;
  platformPrivateKey: `0x${string}` | undefined;
  oraclePrivateKey: `0x${string}` | undefined;
  /** Block explorer of a remote chain; the known one for its chain id when unset (src/chain/explorer.ts). */
  explorerUrl: string | undefined;
  rpcTimeoutMs: number;
  cronSecret: string | undefined;
  adminSecret: string | undefined;
  /** Bearer token GET /metrics asks for; open when unset. */
  metricsToken: string | undefined;
  /** A process without the api role serves GET /metrics on this port when set. */
  metricsPort: number | undefined;
  companyPatchAuth: 'signature' | 'ip';
  /**
   * COMPANY_CUSTODY: `safe` (the default) gives each company whose suite is deployed its own Safe and Roles module,
   * and its agents act through them (docs/contracts.md "Custody"); `none` leaves the company's money in its agents'
   * own wallets: for a chain without the custody contracts, or to save the per-company setup's gas.
   */
  companyCustody: 'none' | 'safe';
  rateLimitMax: number;
  /** Requests per window of one API key on the v1 routes (a bucket per key, apart from any IP's). */
  apiKeyRateLimitMax: number;
  rateLimitWindowMs: number;
  /** Gas a day the platform pays for one company's transactions (deploy-suite, launches, rounds, claims). */
  companyGasBudget: bigint;
  /** Model spend a day for the whole platform, micro-USD (PLATFORM_MODEL_SPEND_CAP_MICRO_USD); 0: no platform cap. */
  platformModelSpendCap: bigint;
  /** Native currency (wei) the platform keeps in each trading agent wallet for its gas (topped up below half). */
  agentGasFloorWei: bigint;
  /** Seconds a company waits between two manual decision rounds. */
  manualRoundCooldownS: number;
  /** GET /api/health's own budget per client and window (monitors poll it). */
  healthRateLimitMax: number;
  /**
   * Which hops may set X-Forwarded-For: false (none: the socket's address is the client), a number of proxies in
   * front, or the proxies' addresses and CIDR ranges. Never "any", which lets every client forge its address.
   */
  trustProxy: TrustProxy;
  roles: Set<Role>;
  apiKeyCacheMs: number;
  /** 0x-hex seed of agent wallets; generated into DATA_DIR in development when unset. */
  walletMasterSeed: string | undefined;
  /** Who holds agent keys: `seed` (derived from walletMasterSeed in the process) or `remote` (walletSigner). */
  walletProvider: WalletProviderName;
  /** The remote signer, with WALLET_PROVIDER=remote. */
  walletSigner: RemoteSignerConfig | undefined;
  /** Blocks a log must be buried under before the indexer applies it (guards against reorgs). */
  chainConfirmations: number;
  /**
   * Blocks under the head at which a block counts as finalized (its logs can no longer be reorganised away); undefined:
   * the chain's own `finalized` block tag (Base), the default with CHAIN_RPC_URL.
   */
  chainFinalityDepth: number | undefined;
  /** Graduation threshold (whole USD, i.e. USDC) given to each token launched; fixed per token at its launch. */
  graduationThresholdUsd: number;
  /** Seconds between two scheduled decision rounds of a company. */
  decisionIntervalS: number;
  /** Days a finished round keeps its details (phase notes, agents' budget rows) before the prune-decision-details job. */
  decisionDetailRetentionDays: number;
  /**
   * Decision rounds one engine process runs at once at most; the pool runs what the schedule needs, shared with the
   * other engine replicas, up to this (src/domain/engine/pool.ts).
   */
  engineConcurrency: number;
  /** How often an engine process looks for due rounds. */
  enginePollMs: number;
  /** How long a stopping engine process waits for its rounds before it ends them as interrupted. */
  engineShutdownGraceMs: number;
  /**
   * A RUNNING round with no heartbeat for this long is failed (its process stopped). Must be more than twice the
   * longest a model call can take (LLM_TIMEOUT_MS x (LLM_MAX_RETRIES + 2)), or a live round could be failed.
   */
  roundStaleMs: number;
  indexerPollMs: number;
  /** Keyed event streams (GET /api/v1/events) this process holds at most; one more answers 429. */
  sseMaxConnections: number;
  /** Bytes of read-route bodies this process keeps in memory at most (src/http/read-cache.ts); 0 keeps none. */
  readCacheMaxBytes: number;
  /**
   * How long a process may answer a conditional read of the chain (If-None-Match) as of the latest block it read,
   * without asking the node again (src/http/block-reads.ts); 0 asks every time.
   */
  chainHeadReuseMs: number;
  /** Event streams one API key (or, without a key, one client address) holds at most in this process. */
  sseMaxConnectionsPerClient: number;
  /** Streams of the public GET /api/events one client address holds at most in this process. */
  ssePublicMaxConnectionsPerIp: number;
  /** Streams of the keyless GET /api/events this process holds at most, apart from sseMaxConnections. */
  ssePublicMaxConnections: number;
  /** How far back a stream of GET /api/events resumes, within eventRetentionMs (the keyed stream's window). */
  ssePublicBacklogMs: number;
  /** Silence after which a stream gets a `: ping` comment; 0 sends none. */
  sseHeartbeatMs: number;
  /**
   * How far back the event streams serve and resume: a keyed resume from an id with later events older than this
   * answers 410 EVENTS_EXPIRED pointing to the backfill; the keyless stream resumes at most this far back too.
   */
  eventRetentionMs: number;
  /** Platform events older than this are deleted; the backfill (GET /api/v1/events?after=) reads back this far. */
  eventBackfillRetentionMs: number;
  /**
   * Webhook deliveries (docs/api/webhooks.md): one attempt's timeout, the attempts one process runs at once, how often
   * a dispatcher looks for due deliveries, and whether loopback targets are allowed (tests; refused in production).
   */
  webhookTimeoutMs: number;
  webhookConcurrency: number;
  webhookPollMs: number;
  webhookAllowLoopback: boolean;
  /** Stand-alone agents one client address may create in any 24 hours (POST /api/agents), whatever the signers. */
  standaloneAgentsPerIpPerDay: number;
  /** A stand-alone agent that never did anything (no wallet, identity or activity) is deleted once this old. */
  standaloneAgentRetentionMs: number;
  /** Length of a reward epoch in seconds; fixed in the distributor contract when it is deployed. */
  epochDurationS: number;
  /** Primary tokens (wei) an epoch's reward pool holds. */
  epochRewardPool: bigint;
  /**
   * The floor of each score component (docs/api/fortune.md "Scaling"): the treasury, trading and volume floors in
   * USDC base units, activity in rounds. A component scores 100 only at or above the larger of the best company
   * and its floor.
   */
  scoreFloors: { treasury: bigint; trading: bigint; volume: bigint; activity: number };
  /** Seconds a position must be held (since its latest buy) before a sale's PnL counts for the trading score. */
  tradingMinHoldS: number;
  /** Default LLM gateway (OpenRouter-style, sent the full model id): LLM_BASE_URL, LLM_API_KEY. */
  llmGateway: ModelEndpoint | undefined;
  /** Per-provider LLM endpoints (sent the model name after the `/`): LLM_<PROVIDER>_BASE_URL, LLM_<PROVIDER>_API_KEY. */
  llmEndpoints: Partial<Record<ModelProviderName, ModelEndpoint>>;
  /** Per attempt of a model call. */
  llmTimeoutMs: number;
  /** Retries of a model call after timeouts, network errors, 429 and 5xx. */
  llmMaxRetries: number;
  /** Model calls in flight per provider at most (halved on a 429, then regained). */
  llmMaxInFlight: number;
  /**
   * Models tried in order after a phase's own when its call fails on timeouts, network errors, 429 or 5xx
   * (LLM_FALLBACK_MODELS, at most 3): through OpenRouter as its `models` list, across endpoints by the engine.
   */
  llmFallbackModels: string[];
  /** The operator's model prices (LLM_PRICES or LLM_PRICES_FILE), by model id, over the built-in list prices. */
  llmPrices: Record<string, ModelPriceConfig>;
  /** Sent to model endpoints as `HTTP-Referer` (LLM_HTTP_REFERER; the platform's BASE_URL when unset). */
  llmAppReferer: string;
  /** Sent to model endpoints as `X-Title` (LLM_APP_TITLE). */
  llmAppTitle: string;
  /** `openrouter`: the gateway gets OpenRouter's `models` and `provider` fields (LLM_GATEWAY_KIND; by host when unset). */
  llmGatewayKind: 'openrouter' | 'generic';
  /** Streamed answers and their bounds (LLM_STREAM, LLM_FIRST_TOKEN_MS, LLM_STREAM_PROGRESS_MS, LLM_STREAM_MAX_MS). */
  llmStream: LlmStreaming;
  /** LLM_SPREAD: calls spread over the fallback models' lanes when their own is full. */
  llmSpread: boolean;
  /** The reasoning effort each phase asks of models that reason (LLM_REASONING_EFFORT); none when unset. */
  llmReasoningEffort: Partial<Record<(typeof ENGINE_CONFIG_KEYS)[number], ReasoningEffort>>;
  /** Where spans are sent over OTLP/HTTP (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, or OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces); none when unset. */
  otlpTracesUrl: string | undefined;
  /** `service.name` of the spans (OTEL_SERVICE_NAME). */
  otelServiceName: string;
}

/**
 * EPOCH_REWARD_POOL's bound: the deployment caps the distributor's pools at 10 times it (MAX_REWARD_POOL_FACTOR), and
 * the distributor keeps a pool in 96 bits (docs/contracts.md "Epoch distributor").
 */
export const EPOCH_REWARD_POOL_LIMIT = (2n ** 96n - 1n) / 10n + 1n;

/** WEBHOOK_ALLOW_LOOPBACK: `true` lets webhooks call loopback addresses (a receiver in a test); never in production. */
function webhookAllowLoopback(env: Env): boolean {
  const raw = str(env, 'WEBHOOK_ALLOW_LOOPBACK') ?? 'false';
  if (raw !== 'true' && raw !== 'false') {
    throw new ConfigError(`WEBHOOK_ALLOW_LOOPBACK must be "true" or "false", got "${raw}"`);
  }
  if (raw === 'true' && str(env, 'NODE_ENV') === 'production') {
    throw new ConfigError('WEBHOOK_ALLOW_LOOPBACK=true is refused in production: webhooks never call loopback there');
  }
  return raw === 'true';
}

export function loadConfig(env: Env = process.env, options: { stdoutIsTty?: boolean } = {}): Config {
  const port = int(env, 'PORT', 3000, 0, 65535);
  const host = str(env, 'HOST') ?? '127.0.0.1';
  const baseUrl = (url(env, 'BASE_URL', ['http:', 'https:']) ?? `http://localhost:${port}`).replace(/\/+$/, '');
  const chainRpcUrl = url(env, 'CHAIN_RPC_URL', ['http:', 'https:']);
  const platformPrivateKey = privateKey(env, 'PLATFORM_PRIVATE_KEY');
  const companyCustody = str(env, 'COMPANY_CUSTODY') ?? 'safe';
  if (companyCustody !== 'none' && companyCustody !== 'safe') {
    throw new ConfigError(`COMPANY_CUSTODY must be "none" or "safe", got "${companyCustody}"`);
  }
  const companyPatchAuth = str(env, 'COMPANY_PATCH_AUTH') ?? 'signature';
  if (companyPatchAuth !== 'signature' && companyPatchAuth !== 'ip') {
    throw new ConfigError(`COMPANY_PATCH_AUTH must be "signature" or "ip", got "${companyPatchAuth}"`);
  }
  const rolesRaw = str(env, 'ROLES') ?? ROLE_NAMES.join(',');
  const roles = new Set<Role>();
  for (const r of rolesRaw.split(',').map((s) => s.trim())) {
    if (!(ROLE_NAMES as readonly string[]).includes(r)) {
      throw new ConfigError(`ROLES must be a comma-separated subset of ${ROLE_NAMES.join(',')}, got "${r}"`);
    }
    roles.add(r as Role);
  }
  const chainIdRaw = str(env, 'CHAIN_ID');
  const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const sseHeartbeatMs = int(env, 'SSE_HEARTBEAT_MS', SSE_HEARTBEAT_MS_DEFAULT, 0, 3_600_000);
  if (sseHeartbeatMs > 0 && sseHeartbeatMs < SSE_HEARTBEAT_MS_MIN) {
    throw new ConfigError(
      `SSE_HEARTBEAT_MS must be 0 (no heartbeat) or at least ${SSE_HEARTBEAT_MS_MIN}, got ${sseHeartbeatMs}`,
    );
  }
  const config: Config = {
    nodeEnv: str(env, 'NODE_ENV') ?? 'development',
    host,
    port,
    baseUrl,
    marketplaceUrl: (url(env, 'MARKETPLACE_URL', ['http:', 'https:']) ?? baseUrl).replace(/\/+$/, ''),
    logLevel: str(env, 'LOG_LEVEL') ?? 'info',
    logFormat: logFormat(env, options.stdoutIsTty ?? process.stdout.isTTY === true),
    dataDir: path.resolve(str(env, 'DATA_DIR') ?? './data'),
    databaseUrl,
    databasePoolSize: int(env, 'DATABASE_POOL_SIZE', 10, 1, 1000),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    chainRpcUrl,
    publicRpcUrl: url(env, 'PUBLIC_RPC_URL', ['http:', 'https:']),
    chainId: chainIdRaw === undefined ? undefined : int(env, 'CHAIN_ID', 0, 1, 2 ** 40),
    contractsFile: str(env, 'CONTRACTS_FILE'),
    platformPrivateKey,
    oraclePrivateKey: privateKey(env, 'ORACLE_PRIVATE_KEY') ?? platformPrivateKey,
    explorerUrl: url(env, 'EXPLORER_URL', ['http:', 'https:'])?.replace(/\/+$/, ''),
    rpcTimeoutMs: int(env, 'RPC_TIMEOUT_MS', 5000, 100, 120_000),
    cronSecret: str(env, 'CRON_SECRET'),
    adminSecret: str(env, 'ADMIN_SECRET'),
    metricsToken: str(env, 'METRICS_TOKEN'),
    metricsPort: str(env, 'METRICS_PORT') === undefined ? undefined : int(env, 'METRICS_PORT', 0, 0, 65535),
    companyPatchAuth,
    companyCustody,
    rateLimitMax: int(env, 'RATE_LIMIT_MAX', 600, 1, 10_000_000),
    apiKeyRateLimitMax: int(
      env,
      'API_KEY_RATE_LIMIT_MAX',
      int(env, 'RATE_LIMIT_MAX', 600, 1, 10_000_000),
      1,
      10_000_000,
    ),
    rateLimitWindowMs: int(env, 'RATE_LIMIT_WINDOW_MS', 60_000, 1000, 86_400_000),
    healthRateLimitMax: int(env, 'HEALTH_RATE_LIMIT_MAX', 120, 1, 10_000_000),
    companyGasBudget: wei(env, 'COMPANY_GAS_BUDGET', COMPANY_GAS_BUDGET_DEFAULT, 'gas'),
    platformModelSpendCap: wei(env, 'PLATFORM_MODEL_SPEND_CAP_MICRO_USD', 0n, 'micro-USD', 2n ** 62n, '2^62'),
    agentGasFloorWei: wei(env, 'AGENT_GAS_FLOOR_WEI', AGENT_GAS_FLOOR_WEI_DEFAULT),
    manualRoundCooldownS: int(env, 'MANUAL_ROUND_COOLDOWN_S', 300, 0, 86_400),
    trustProxy: trustProxy(env),
    roles,
    apiKeyCacheMs: int(env, 'API_KEY_CACHE_MS', 10_000, 0, 3_600_000),
    walletMasterSeed: str(env, 'WALLET_MASTER_SEED'),
    ...walletProvider(env, str(env, 'NODE_ENV') === 'production'),
    chainConfirmations: int(env, 'CHAIN_CONFIRMATIONS', chainRpcUrl ? 3 : 0, 0, 1000),
    chainFinalityDepth:
      chainRpcUrl && str(env, 'CHAIN_FINALITY_DEPTH') === undefined
        ? undefined
        : int(env, 'CHAIN_FINALITY_DEPTH', 12, 1, 100_000),
    decisionIntervalS: int(env, 'DECISION_INTERVAL_S', 3600, 10, 30 * 86_400),
    decisionDetailRetentionDays: int(env, 'DECISION_DETAIL_RETENTION_DAYS', 7, 1, 3650),
    engineConcurrency: int(env, 'ENGINE_CONCURRENCY', 1024, 1, 4096),
    enginePollMs: int(env, 'ENGINE_POLL_MS', 5_000, 100, 3_600_000),
    engineShutdownGraceMs: int(env, 'ENGINE_SHUTDOWN_GRACE_MS', 60_000, 0, 3_600_000),
    roundStaleMs: int(env, 'ROUND_STALE_MS', 600_000, 10_000, 86_400_000),
    graduationThresholdUsd: int(
      env,
      'GRADUATION_THRESHOLD_USD',
      GRADUATION_THRESHOLD_USD,
      GRADUATION_THRESHOLD_USD_MIN,
      GRADUATION_THRESHOLD_USD_MAX,
    ),
    indexerPollMs: int(env, 'INDEXER_POLL_MS', chainRpcUrl ? 2000 : 500, 50, 600_000),
    sseMaxConnections: int(env, 'SSE_MAX_CONNECTIONS', SSE_MAX_CONNECTIONS_DEFAULT, 1, 1_000_000),
    readCacheMaxBytes: int(env, 'READ_CACHE_MAX_MB', READ_CACHE_MAX_MB_DEFAULT, 0, 65_536) * 1024 * 1024,
    chainHeadReuseMs: int(env, 'CHAIN_HEAD_REUSE_MS', 1000, 0, 60_000),
    sseMaxConnectionsPerClient: int(
      env,
      'SSE_MAX_CONNECTIONS_PER_CLIENT',
      SSE_MAX_CONNECTIONS_PER_CLIENT_DEFAULT,
      1,
      1_000_000,
    ),
    ssePublicMaxConnectionsPerIp: int(
      env,
      'SSE_PUBLIC_MAX_CONNECTIONS_PER_IP',
      SSE_PUBLIC_MAX_CONNECTIONS_PER_IP_DEFAULT,
      1,
      1_000_000,
    ),
    ssePublicMaxConnections: int(env, 'SSE_PUBLIC_MAX_CONNECTIONS', SSE_PUBLIC_MAX_CONNECTIONS_DEFAULT, 1, 1_000_000),
    ssePublicBacklogMs: int(env, 'SSE_PUBLIC_BACKLOG_MS', SSE_PUBLIC_BACKLOG_MS_DEFAULT, 0, 30 * 86_400_000),
    sseHeartbeatMs,
    eventRetentionMs: int(env, 'EVENT_RETENTION_MS', SSE_RETENTION_MS, 60_000, 30 * 86_400_000),
    eventBackfillRetentionMs: int(
      env,
      'EVENT_BACKFILL_RETENTION_MS',
      EVENT_BACKFILL_RETENTION_MS_DEFAULT,
      60_000,
      30 * 86_400_000,
    ),
    webhookTimeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 5_000, 100, 30_000),
    webhookConcurrency: int(env, 'WEBHOOK_CONCURRENCY', 32, 1, 1024),
    webhookPollMs: int(env, 'WEBHOOK_POLL_MS', 1_000, 50, 60_000),
    webhookAllowLoopback: webhookAllowLoopback(env),
    standaloneAgentsPerIpPerDay: int(
      env,
      'STANDALONE_AGENTS_PER_IP_PER_DAY',
      STANDALONE_AGENTS_PER_IP_PER_DAY_DEFAULT,
      1,
      1_000_000,
    ),
    // At least a day: an agent deleted sooner would leave the creation allowances' 24 hours early.
    standaloneAgentRetentionMs: int(
      env,
      'STANDALONE_AGENT_RETENTION_MS',
      STANDALONE_AGENT_RETENTION_MS_DEFAULT,
      86_400_000,
      3_650 * 86_400_000,
    ),
    // Defaults as DEFAULT_EPOCH_DURATION_S and DEFAULT_EPOCH_REWARD_POOL (src/chain/merkle.ts): a week, 100,000 tokens.
    epochDurationS: int(env, 'EPOCH_DURATION_S', 604_800, 60, 366 * 86_400),
    epochRewardPool: wei(
      env,
      'EPOCH_REWARD_POOL',
      100_000n * 10n ** 18n,
      'wei',
      EPOCH_REWARD_POOL_LIMIT,
      `${EPOCH_REWARD_POOL_LIMIT} (a tenth of 2^96)`,
    ),
    scoreFloors: {
      treasury: usdcFloor(env, 'SCORE_FLOOR_TREASURY_USDC', SCORE_FLOORS_DEFAULT.treasuryUsdc),
      trading: usdcFloor(env, 'SCORE_FLOOR_TRADING_USDC', SCORE_FLOORS_DEFAULT.tradingUsdc),
      volume: usdcFloor(env, 'SCORE_FLOOR_VOLUME_USDC', SCORE_FLOORS_DEFAULT.volumeUsdc),
      activity: int(env, 'SCORE_FLOOR_ACTIVITY_ROUNDS', SCORE_FLOORS_DEFAULT.activityRounds, 1, 1_000_000),
    },
    tradingMinHoldS: int(env, 'TRADING_MIN_HOLD_S', TRADING_MIN_HOLD_S_DEFAULT, 0, 30 * 86_400),
    llmGateway: llmEndpoint(env, llmEnvPrefix()),
    llmEndpoints: Object.fromEntries(
      MODEL_PROVIDERS.flatMap((p) => {
        const endpoint = llmEndpoint(env, llmEnvPrefix(p));
        return endpoint ? [[p, endpoint]] : [];
      }),
    ),
    llmTimeoutMs: int(env, 'LLM_TIMEOUT_MS', 30_000, 100, 600_000),
    llmMaxRetries: int(env, 'LLM_MAX_RETRIES', 2, 0, 10),
    llmMaxInFlight: int(env, 'LLM_MAX_IN_FLIGHT', LLM_MAX_IN_FLIGHT_DEFAULT, 1, 100_000),
    llmFallbackModels: fallbackModels(env),
    llmPrices: modelPrices(env),
    llmAppReferer: url(env, 'LLM_HTTP_REFERER', ['http:', 'https:']) ?? baseUrl,
    llmAppTitle: headerText(env, 'LLM_APP_TITLE') ?? 'ai-economy',
    llmGatewayKind: gatewayKind(env),
    llmStream: llmStreaming(env),
    llmSpread: llmSpread(env),
    llmReasoningEffort: reasoningEfforts(env),
    otlpTracesUrl: otlpTracesUrl(env),
    otelServiceName: str(env, 'OTEL_SERVICE_NAME') ?? 'ai-economy',
  };
  checkConfig(config);
  return config;
}
