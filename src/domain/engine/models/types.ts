// What the decision engine asks of a language model, and what it gets back. Every provider (the OpenAI-compatible
// HTTP client, the built-in deterministic one) implements ModelProvider. A request carries, besides its chat
// messages, the structured task it serves: remote models read the messages, the built-in provider reads the task.
import type { Span } from '@opentelemetry/api';
import type { AGENT_ROLES, ENGINE_MODEL_IDS } from '../../../constants.ts';

/** The eight models the engine knows: list-priced, and the presets' choices. */
export type KnownModelId = (typeof ENGINE_MODEL_IDS)[number];
/**
 * A model id as `<provider>/<model>` (or any id a gateway serves): one of the known eight, or any other the
 * configured provider serves (checked against its `/models` list when it has one).
 */
export type EngineModelId = string;
export type Role = (typeof AGENT_ROLES)[number];

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** A tool an agent may propose, as the model sees it. */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON schema of the tool's arguments. */
  parameters: Record<string, unknown>;
  /** USD per call. */
  cost: number;
}

/** The company state a round starts from (phase 1), as plain JSON. */
export interface RoundContext {
  company: {
    id: string;
    name: string;
    slug: string;
    category: string;
    status: string;
    autonomyLevel: 'HUMAN_DIRECTED' | 'STRATEGY_AUTONOMOUS' | 'FULLY_AUTONOMOUS';
    ceoPrompt: string | null;
    masterDirective: string | null;
    platformScore: number;
  };
  /** USDC balance of the treasury as a decimal string, null without a treasury or chain. */
  treasuryUsdc: string | null;
  token: {
    status: 'PRE_PUBLIC' | 'BONDING' | 'GRADUATED';
    symbol: string | null;
    /** USDC decimal strings; null while PRE_PUBLIC or when the chain did not answer. */
    price: string | null;
    marketCap: string | null;
    graduationProgress: number;
    volume24hUsdc: string;
    trades24h: number;
  };
  agents: { id: string; role: Role; name: string; strategy: string }[];
  /** The platform's most traded tokens over 24 h, from the indexed trades: what the trading tools can buy. */
  market: MarketToken[];
  /** Each active agent's wallet, when a trading tool is enabled: what the trading tools can spend. */
  wallets: AgentWalletState[];
  /** The company's trading limits (docs/api/decisions.md "Limits"). */
  limits: { maxTradeBps: number; maxDailyNotionalUsdc: string; maxPositionUsdc: string; maxSlippageBps: number };
  /** The previous round's directive, if any. */
  lastDirective: string | null;
  cycle: number;
  /** The chain's time the round read its world at (ISO 8601, UTC); absent in contexts built without a chain. */
  date?: string;
  /** What the company's last rounds decided and what came of each action (executed, refused and why). */
  history?: PastRound[];
  /** What is left of each limit today (absent in contexts built without the database). */
  headroom?: Headroom;
}

/** One of the company's last rounds, as the next rounds are told of it. Its texts come from models: quoted data. */
export interface PastRound {
  cycle: number;
  status: 'COMPLETE' | 'FAILED';
  directive: string | null;
  /** One line per decided action (`ROLE tool: executed ... | refused: why | failed: why`), and each action refused at extraction. */
  outcomes: string[];
  /** Why a failed round failed. */
  error?: string;
}

/** USDC decimal strings; gas in gas units. */
export interface Headroom {
  /** The day (UTC, by the chain's clock) the figures count. */
  day: string;
  dailyNotionalUsedUsdc: string;
  dailyNotionalLeftUsdc: string;
  /** Per token the team holds: its value and what the position cap leaves to buy. */
  positions: { symbol: string; valueUsdc: string; leftUsdc: string }[];
  gasUsed: string;
  gasLeft: string;
  /** The PnL the team's sales realised (from the indexed trades); null when it could not be read. */
  realizedPnlUsdc: string | null;
}

export interface MarketToken {
  symbol: string;
  status: string;
  /** USDC decimal strings. */
  priceUsdc: string;
  /** Price change over the window from its first trade to its last, in percent (0 with one trade). */
  change24hPct: number;
  /**
   * The change one trader cannot make alone, what movers rank by: change24hPct times the share of the token's netted
   * trading its largest trader did not do (docs/api/agents.md "Buy rules").
   */
  broadChange24hPct: number;
  /** Counted volume: the token's own company's wallets left out, each other trader netted (a round trip is 0). */
  volume24hUsdc: string;
  trades24h: number;
  /** Distinct traders over 24 h besides the token's own company's wallets. */
  traders24h: number;
  /** Hours since the token launched, on the chain's clock. */
  ageHours: number;
  /**
   * Whether the token passes the buy rules' age and market checks for this company (docs/api/agents.md "Buy
   * rules"), or the creator's signed directive names it; a buy must still pass the liquidity and stop-loss checks.
   */
  buyable: boolean;
}

export interface AgentWalletState {
  role: Role;
  address: string;
  /** Decimal strings. */
  usdc: string;
  primary: string;
  staked: string;
  pendingEmission: string;
  positions: { symbol: string; tokens: string; costUsdc: string; valueUsdc: string }[];
}

/** The structured task of a request (what the built-in provider answers from). */
export type ModelTask =
  | { phase: 'brief'; context: RoundContext }
  | { phase: 'scrape'; context: RoundContext; sources: { name: string; data: unknown }[] }
  | { phase: 'role'; context: RoundContext; role: Role; brief: string; market: string; tools: ToolSpec[] }
  | {
      phase: 'synthesis';
      context: RoundContext;
      brief: string;
      proposals: { role: Role; tool: string; args: Record<string, unknown>; rationale: string }[];
    }
  | { phase: 'extraction'; context: RoundContext; synthesis: string; tools: ToolSpec[]; repairOf?: string };

/** A JSON schema the answer must follow, for endpoints with structured output (`response_format: json_schema`). */
export interface AnswerSchema {
  name: string;
  /** The schema as the engine validates it; sent in the provider's strict form (models/request.ts). */
  schema: Record<string, unknown>;
}

export interface ChatRequest {
  model: EngineModelId;
  messages: ChatMessage[];
  task: ModelTask;
  /**
   * Tools offered as function calls (the roles phase): an endpoint that answers with tool calls has them turned
   * into the `{"proposals": [...]}` answer the phase expects, and they pass the same checks as any proposal.
   */
  tools?: ToolSpec[];
  /** Ask for a JSON object answer (response_format json_object, or json_schema with `schema`). */
  json?: boolean;
  /** The answer's schema, sent as strict structured output where the model's provider has it. */
  schema?: AnswerSchema;
  /** The most tokens the answer may take (max_tokens, or max_completion_tokens where the model wants it). */
  maxTokens?: number;
  temperature?: number;
  signal?: AbortSignal;
  /**
   * Runs before every attempt (retries included); a throw stops the call with that error. The round's heartbeat:
   * a round that is no longer RUNNING makes no further call.
   */
  onAttempt?: () => Promise<void>;
  /**
   * Runs every `waitBeatMs` while the call waits for a slot of its provider or sleeps before a retry (a
   * Retry-After): the round's heartbeat, so a live round that waits is not judged stale. Its errors are ignored (a
   * round found stopped aborts `signal`, which ends the wait).
   */
  onWait?: () => Promise<void>;
  /**
   * Models tried in order when `model`'s call fails on timeouts, network errors, 429, 5xx or malformed answers:
   * through an OpenRouter gateway as its `models` list, across endpoints by the engine. The answer names the model
   * that answered.
   */
  fallbacks?: EngineModelId[];
  /**
   * The reasoning effort asked of a model that reasons (LLM_REASONING_EFFORT for the phase): OpenRouter's
   * `reasoning.effort`, elsewhere `reasoning_effort`; not sent to models that do not reason.
   */
  reasoning?: 'minimal' | 'low' | 'medium' | 'high';
  /** The conversation the call belongs to, for its span (`gen_ai.conversation.id`: the round's id). */
  conversationId?: string;
  /** The agent the call is for (the roles phase), for its span. */
  agentRole?: Role;
  /** The end user the call is for, sent as `user` (the company id: gateways attribute usage and abuse by it). */
  user?: string;
  waitBeatMs?: number;
  /** The span the call's span is a child of (the round's phase). */
  parentSpan?: Span;
}

export interface ChatResult {
  content: string;
  /**
   * The model that answered: the model the endpoint names in its answer (which may differ from the one asked
   * for), the request's model id when it names none, BUILTIN_MODEL for the built-in model.
   */
  model: string;
  /** Who answered: the provider name of the model id (`openai`, ...) or `builtin`. */
  provider: string;
  /** Tokens billed, failed attempts of the call included. */
  promptTokens: number;
  completionTokens: number;
  /**
   * USD billed for the call, failed attempts included: the endpoint's own figure when it reports one (OpenRouter's
   * `usage.cost`), else the per-model price table times the tokens (0 for the built-in provider).
   */
  cost: number;
  latencyMs: number;
  /**
   * True when a token count was estimated (text length / 4) rather than taken from the answer: an endpoint that
   * answered without `usage`, or with figures no call could have used. The built-in model reports 0 tokens.
   */
  usageEstimated?: boolean;
  /** Why the model stopped (`stop`, `tool_calls`, `length` when a free-text answer was cut off and kept). */
  finishReason?: string;
  /**
   * Some of the call's cost is unknown: its endpoint did not say what it billed and no price table (LLM_PRICES, the
   * built-in list prices) knows the model. `cost` then holds only what is known.
   */
  costUnknown?: boolean;
  /** The answer's id as the endpoint named it (`chatcmpl-...`). */
  responseId?: string;
  /** Prompt tokens the provider read from its cache (included in promptTokens), when it reports them. */
  cachedTokens?: number;
  /** Milliseconds from sending the answering attempt to its first token, when the answer streamed. */
  firstTokenMs?: number;
}

/** Tokens and USD a call consumed, counted even when it failed (a malformed answer is still billed). */
export interface ModelUsage {
  promptTokens: number;
  completionTokens: number;
  cost: number;
  /** Some of the figures were estimated (an answer without usable usage, an answer not read). */
  estimated?: boolean;
  /** Some of the cost is unknown (an unpriced model that did not say what it billed). */
  costUnknown?: boolean;
}

/**
 * Why a model call failed: `timeout`, `network`, `http` (a status, or a redirect, which is never followed),
 * `malformed` (no usable answer), `empty` (no choice or no content), `refused` (the model declined; its text is
 * kept), `cut_off` (a JSON answer stopped at its token limit), `oversize` (an answer past the byte cap, not read),
 * `unconfigured` (no endpoint for the model).
 */
export type ModelErrorKind =
  | 'timeout'
  | 'http'
  | 'network'
  | 'malformed'
  | 'empty'
  | 'refused'
  | 'cut_off'
  | 'oversize'
  | 'unconfigured';

/** A failed model call after its retries: kind says why, for the round's error record. */
export class ModelError extends Error {
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    readonly status?: number,
    /** What the failed attempts were billed (answers with usage, estimated for those without). */
    readonly spent?: ModelUsage,
    /** The model the endpoint named in its last answer, when it named one. */
    readonly answeredBy?: string,
  ) {
    super(message);
    this.name = 'ModelError';
  }
}

/** What the providers log: retries and fallbacks, never a key or a prompt. */
export interface ModelLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** Whether a provider serves a model: `listed` when its endpoint's `/models` list was read to say so. */
export interface ModelServed {
  served: boolean;
  listed: boolean;
  /** Why not, when not served. */
  reason?: string;
}

export interface ModelProvider {
  readonly kind: string;
  complete(request: ChatRequest): Promise<ChatResult>;
  /** Whether the provider serves `model` (a company may choose any model its provider serves). */
  serves?(model: string): Promise<ModelServed>;
  /** Calls at once over its lanes (limits, in flight, waiting): what the engine pool sizes itself to. */
  load?(): { limit: number; inFlight: number; waiting: number; lanes: number };
}

/**
 * The answers the engine expects per phase. brief, scrape and synthesis: free text. role: a JSON object
 * `RoleAnswer`. extraction: a JSON object `ExtractedDecision` (validated against its schema; repaired once).
 */
export interface RoleAnswer {
  proposals: { tool: string; args: Record<string, unknown>; rationale: string }[];
  /** Tool calls that could not become proposals (arguments that are not JSON), with the reason. */
  refused?: { tool: string; reason: string }[];
}

export interface ExtractedDecision {
  directive: string;
  actions: { role: Role; tool: string; args: Record<string, unknown>; rationale: string }[];
}
