// The environment, parsed once. A wrong value stops start-up with a message naming the variable and what it accepts.
import path from 'node:path';
import { checkConfig } from './config/checks.ts';
import {
  gatewayKind,
  type LlmStreaming,
  llmEndpoint,
  llmEndpoints,
  llmStreaming,
  type ModelEndpoint,
  type ModelPriceConfig,
  modelPrices,
  otlpTracesUrl,
  type ReasoningEffort,
  type RemoteSignerConfig,
  type WalletProviderName,
  walletProvider,
} from './config/endpoints.ts';
import type { Env, LogFormat, TrustProxy } from './config/parse.ts';
import { ROLE_NAMES } from './config/settings/service.ts';
import { read } from './config/settings.ts';
import { type ENGINE_CONFIG_KEYS, type ModelProviderName, USDC_DECIMALS } from './constants.ts';

// The kinds of setting (config/parse.ts), their table (config/settings.ts) and the outside services' endpoints
// (config/endpoints.ts) live beside this file; what other modules import from the configuration is exported here.
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
export { EPOCH_REWARD_POOL_LIMIT } from './config/settings/platform.ts';
export { ROLE_NAMES };

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

const trimSlash = (url: string) => url.replace(/\/+$/, '');
/** A score floor in whole USDC, as base units. */
const usdc = (whole: number) => BigInt(whole) * 10n ** BigInt(USDC_DECIMALS);

/**
 * The configuration of `env`: each setting read by its row of the table (config/settings.ts), the defaults that
 * depend on other settings filled in, then the rules that tie settings together checked (config/checks.ts).
 */
export function loadConfig(env: Env = process.env, options: { stdoutIsTty?: boolean } = {}): Config {
  const nodeEnv = read(env, 'NODE_ENV');
  const port = read(env, 'PORT');
  const baseUrl = trimSlash(read(env, 'BASE_URL') ?? `http://localhost:${port}`);
  const chainRpcUrl = read(env, 'CHAIN_RPC_URL');
  const platformPrivateKey = read(env, 'PLATFORM_PRIVATE_KEY');
  const rateLimitMax = read(env, 'RATE_LIMIT_MAX');
  // LOG_FORMAT, else pretty for a person at a terminal outside production, JSON lines for a collector, file or pipe.
  const tty = options.stdoutIsTty ?? process.stdout.isTTY === true;
  const config: Config = {
    nodeEnv,
    host: read(env, 'HOST'),
    port,
    baseUrl,
    marketplaceUrl: trimSlash(read(env, 'MARKETPLACE_URL') ?? baseUrl),
    logLevel: read(env, 'LOG_LEVEL'),
    logFormat: read(env, 'LOG_FORMAT') ?? (tty && nodeEnv !== 'production' ? 'pretty' : 'json'),
    dataDir: path.resolve(read(env, 'DATA_DIR')),
    databaseUrl: read(env, 'DATABASE_URL'),
    databasePoolSize: read(env, 'DATABASE_POOL_SIZE'),
    redisUrl: read(env, 'REDIS_URL'),
    chainRpcUrl,
    publicRpcUrl: read(env, 'PUBLIC_RPC_URL'),
    chainId: read(env, 'CHAIN_ID'),
    contractsFile: read(env, 'CONTRACTS_FILE'),
    platformPrivateKey,
    oraclePrivateKey: read(env, 'ORACLE_PRIVATE_KEY') ?? platformPrivateKey,
    explorerUrl: read(env, 'EXPLORER_URL')?.replace(/\/+$/, ''),
    rpcTimeoutMs: read(env, 'RPC_TIMEOUT_MS'),
    cronSecret: read(env, 'CRON_SECRET'),
    adminSecret: read(env, 'ADMIN_SECRET'),
    metricsToken: read(env, 'METRICS_TOKEN'),
    metricsPort: read(env, 'METRICS_PORT'),
    companyPatchAuth: read(env, 'COMPANY_PATCH_AUTH'),
    companyCustody: read(env, 'COMPANY_CUSTODY'),
    rateLimitMax,
    apiKeyRateLimitMax: read(env, 'API_KEY_RATE_LIMIT_MAX') ?? rateLimitMax,
    rateLimitWindowMs: read(env, 'RATE_LIMIT_WINDOW_MS'),
    healthRateLimitMax: read(env, 'HEALTH_RATE_LIMIT_MAX'),
    companyGasBudget: read(env, 'COMPANY_GAS_BUDGET'),
    platformModelSpendCap: read(env, 'PLATFORM_MODEL_SPEND_CAP_MICRO_USD'),
    agentGasFloorWei: read(env, 'AGENT_GAS_FLOOR_WEI'),
    manualRoundCooldownS: read(env, 'MANUAL_ROUND_COOLDOWN_S'),
    trustProxy: read(env, 'TRUST_PROXY'),
    roles: new Set(read(env, 'ROLES')),
    apiKeyCacheMs: read(env, 'API_KEY_CACHE_MS'),
    walletMasterSeed: read(env, 'WALLET_MASTER_SEED'),
    ...walletProvider(env, nodeEnv === 'production'),
    chainConfirmations: read(env, 'CHAIN_CONFIRMATIONS') ?? (chainRpcUrl ? 3 : 0),
    // With a chain of its own, the chain's `finalized` tag (undefined) unless a depth is set.
    chainFinalityDepth: read(env, 'CHAIN_FINALITY_DEPTH') ?? (chainRpcUrl ? undefined : 12),
    decisionIntervalS: read(env, 'DECISION_INTERVAL_S'),
    decisionDetailRetentionDays: read(env, 'DECISION_DETAIL_RETENTION_DAYS'),
    engineConcurrency: read(env, 'ENGINE_CONCURRENCY'),
    enginePollMs: read(env, 'ENGINE_POLL_MS'),
    engineShutdownGraceMs: read(env, 'ENGINE_SHUTDOWN_GRACE_MS'),
    roundStaleMs: read(env, 'ROUND_STALE_MS'),
    graduationThresholdUsd: read(env, 'GRADUATION_THRESHOLD_USD'),
    indexerPollMs: read(env, 'INDEXER_POLL_MS') ?? (chainRpcUrl ? 2000 : 500),
    sseMaxConnections: read(env, 'SSE_MAX_CONNECTIONS'),
    readCacheMaxBytes: read(env, 'READ_CACHE_MAX_MB') * 1024 * 1024,
    chainHeadReuseMs: read(env, 'CHAIN_HEAD_REUSE_MS'),
    sseMaxConnectionsPerClient: read(env, 'SSE_MAX_CONNECTIONS_PER_CLIENT'),
    ssePublicMaxConnectionsPerIp: read(env, 'SSE_PUBLIC_MAX_CONNECTIONS_PER_IP'),
    ssePublicMaxConnections: read(env, 'SSE_PUBLIC_MAX_CONNECTIONS'),
    ssePublicBacklogMs: read(env, 'SSE_PUBLIC_BACKLOG_MS'),
    sseHeartbeatMs: read(env, 'SSE_HEARTBEAT_MS'),
    eventRetentionMs: read(env, 'EVENT_RETENTION_MS'),
    eventBackfillRetentionMs: read(env, 'EVENT_BACKFILL_RETENTION_MS'),
    webhookTimeoutMs: read(env, 'WEBHOOK_TIMEOUT_MS'),
    webhookConcurrency: read(env, 'WEBHOOK_CONCURRENCY'),
    webhookPollMs: read(env, 'WEBHOOK_POLL_MS'),
    webhookAllowLoopback: read(env, 'WEBHOOK_ALLOW_LOOPBACK'),
    standaloneAgentsPerIpPerDay: read(env, 'STANDALONE_AGENTS_PER_IP_PER_DAY'),
    standaloneAgentRetentionMs: read(env, 'STANDALONE_AGENT_RETENTION_MS'),
    epochDurationS: read(env, 'EPOCH_DURATION_S'),
    epochRewardPool: read(env, 'EPOCH_REWARD_POOL'),
    scoreFloors: {
      treasury: usdc(read(env, 'SCORE_FLOOR_TREASURY_USDC')),
      trading: usdc(read(env, 'SCORE_FLOOR_TRADING_USDC')),
      volume: usdc(read(env, 'SCORE_FLOOR_VOLUME_USDC')),
      activity: read(env, 'SCORE_FLOOR_ACTIVITY_ROUNDS'),
    },
    tradingMinHoldS: read(env, 'TRADING_MIN_HOLD_S'),
    llmGateway: llmEndpoint(env),
    llmEndpoints: llmEndpoints(env),
    llmTimeoutMs: read(env, 'LLM_TIMEOUT_MS'),
    llmMaxRetries: read(env, 'LLM_MAX_RETRIES'),
    llmMaxInFlight: read(env, 'LLM_MAX_IN_FLIGHT'),
    llmFallbackModels: read(env, 'LLM_FALLBACK_MODELS'),
    llmPrices: modelPrices(env),
    llmAppReferer: read(env, 'LLM_HTTP_REFERER') ?? baseUrl,
    llmAppTitle: read(env, 'LLM_APP_TITLE'),
    llmGatewayKind: gatewayKind(env),
    llmStream: llmStreaming(env),
    llmSpread: read(env, 'LLM_SPREAD') === 'on',
    llmReasoningEffort: read(env, 'LLM_REASONING_EFFORT'),
    otlpTracesUrl: otlpTracesUrl(env),
    otelServiceName: read(env, 'OTEL_SERVICE_NAME'),
  };
  checkConfig(config);
  return config;
}
