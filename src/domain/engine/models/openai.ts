// The HTTP model provider: any endpoint that speaks OpenAI's chat-completions protocol (OpenAI itself, OpenRouter
// and other gateways, LiteLLM, vLLM, the compatibility endpoints of Anthropic, Google and DeepSeek). Every call is
// bounded: a timeout per attempt, a byte cap on the answer, max_tokens on the output, no redirect followed (the
// prompt and the key go to the configured endpoint only), a limit of calls in flight per provider that backs off on
// 429, and the caller's AbortSignal. Failures are retried with backoff when another attempt may help. What is
// recorded is what was billed: every attempt's usage, believed only within what the request could have used, and
// the endpoint's own cost when it reports one; the model recorded is the one that answered.
import { ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api';
import type { ModelEndpoint } from '../../../config.ts';
import { LLM_MAX_IN_FLIGHT_DEFAULT, MODEL_PROVIDERS, type ModelProviderName } from '../../../constants.ts';
import { estimatePromptTokens, MODEL_RESPONSE_MAX_BYTES, MODEL_TEXT_KEPT_MAX, usageBounds } from './answer.ts';
import { type Attempt, attempt, type Billed, MAX_TOKENS_DEFAULT, type ModelRoute } from './attempt.ts';
import { costOf, isKnownModelId, modelNameOf, type PriceTable, providerOf } from './catalog.ts';
import { fallsBack, openRouterFields, withCarried } from './fallbacks.ts';
import { createProviderLimiter, type ProviderLimiter } from './limiter.ts';
import { cacheFields, reasoningFields, requestBody } from './request.ts';
import { USER_AGENT } from './transport.ts';
import {
  type ChatRequest,
  type ChatResult,
  type EngineModelId,
  ModelError,
  type ModelLogger,
  type ModelProvider,
  type ModelServed,
  type ModelUsage,
} from './types.ts';

export { estimatePromptTokens, estimateTokens, jsonObjectText, toolCallsAsProposals } from './answer.ts';
export type { ModelRoute } from './attempt.ts';
export { parseRetryAfter } from './attempt.ts';

export const LLM_TIMEOUT_MS_DEFAULT = 30_000;
export const LLM_MAX_RETRIES_DEFAULT = 2;

export interface OpenAiCompatibleOptions {
  /** Default gateway (OpenRouter-style): serves every model without its own endpoint, given the full model id. */
  gateway?: ModelEndpoint | undefined;
  /** Per-provider endpoints: serve that provider's models, given the model name after the `/`. */
  endpoints?: Partial<Record<ModelProviderName, ModelEndpoint>> | undefined;
  /** Per attempt, from sending the request to reading the whole answer. */
  timeoutMs?: number;
  /** Retries after the first attempt on timeouts, network errors, 408, 429 and 5xx. */
  maxRetries?: number;
  /** First backoff; doubled per retry, up to backoffMaxMs, half of it random jitter. */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** Longest wait a 429's Retry-After may impose. */
  retryAfterMaxMs?: number;
  /** Calls in flight per provider at most (halved on a 429, then regained). */
  maxInFlight?: number;
  /** Bytes of an answer read at most. */
  maxResponseBytes?: number;
  /** Answers models that have neither their provider's endpoint nor a gateway; without one they fail 'unconfigured'. */
  fallback?: ModelProvider | undefined;
  log?: ModelLogger | undefined;
  /** Spans of the calls (a no-op tracer when absent). */
  tracer?: Tracer | undefined;
  /** Jitter source, for tests. */
  random?: () => number;
  /** `openrouter`: the gateway gets the `models` fallback list and `provider` preferences in the body. */
  gatewayKind?: 'openrouter' | 'generic';
  /** Sent as `HTTP-Referer` and `X-Title` (how OpenRouter and other gateways name the app calling). */
  appReferer?: string | undefined;
  appTitle?: string | undefined;
  /**
   * The operator's prices by model id (LLM_PRICES), over the built-in list prices: what prices a call whose
   * endpoint does not say what it billed. A model neither prices has its cost recorded as unknown.
   */
  prices?: PriceTable | undefined;
  /**
   * Streamed answers (LLM_STREAM): each request asks for Server-Sent Events (`stream: true`, usage included), and an
   * attempt lasts up to `maxMs` as long as its first token comes within `firstTokenMs` and no gap between two tokens
   * passes `progressMs`. Without `enabled`, an endpoint that streams anyway is read the same way within `timeoutMs`.
   */
  stream?: { enabled: boolean; firstTokenMs: number; progressMs: number; maxMs: number } | undefined;
  /**
   * Spreading (LLM_SPREAD): a call whose model's lane (its endpoint, or the gateway for its provider) has no free
   * slot goes first to the next model of its fallback list whose lane has one, instead of waiting; `models` (the
   * platform's LLM_FALLBACK_MODELS) have their lanes open from the start, so the engine pool counts them.
   */
  spread?: { models: readonly EngineModelId[] } | undefined;
}

/** The bounds of a streamed answer when none are configured. */
export const LLM_STREAM_DEFAULTS = { firstTokenMs: 30_000, progressMs: 15_000, maxMs: 60_000 } as const;

const isProviderName = (name: string): name is ModelProviderName =>
  (MODEL_PROVIDERS as readonly string[]).includes(name);

/** Where a model's calls go, or undefined when nothing is configured for it. */
export function routeOf(
  modelId: EngineModelId,
  options: Pick<OpenAiCompatibleOptions, 'gateway' | 'endpoints'>,
): ModelRoute | undefined {
  const provider = providerOf(modelId);
  const own = isProviderName(provider) ? options.endpoints?.[provider] : undefined;
  if (own && isProviderName(provider)) return { endpoint: own, via: provider, model: modelNameOf(modelId) };
  if (options.gateway) return { endpoint: options.gateway, via: 'gateway', model: modelId };
  return undefined;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** `work`, with the request's `onWait` run every `waitBeatMs` until it settles. */
async function waiting<T>(request: ChatRequest, work: Promise<T>): Promise<T> {
  const onWait = request.onWait;
  if (!onWait) return work;
  const timer = setInterval(() => onWait().catch(() => {}), request.waitBeatMs ?? WAIT_BEAT_MS_DEFAULT);
  try {
    return await work;
  } finally {
    clearInterval(timer);
  }
}

/** How often a waiting call moves its round's heartbeat when the round sets no interval. */
const WAIT_BEAT_MS_DEFAULT = 10_000;

export function createOpenAiCompatibleProvider(options: OpenAiCompatibleOptions): ModelProvider {
  const timeoutMs = options.timeoutMs ?? LLM_TIMEOUT_MS_DEFAULT;
  const maxRetries = options.maxRetries ?? LLM_MAX_RETRIES_DEFAULT;
  const backoffBaseMs = options.backoffBaseMs ?? 500;
  const backoffMaxMs = options.backoffMaxMs ?? 8_000;
  const retryAfterMaxMs = options.retryAfterMaxMs ?? 30_000;
  const maxResponseBytes = options.maxResponseBytes ?? MODEL_RESPONSE_MAX_BYTES;
  const limiter: ProviderLimiter = createProviderLimiter(options.maxInFlight ?? LLM_MAX_IN_FLIGHT_DEFAULT);
  const random = options.random ?? Math.random;
  const log = options.log;
  const tracer = options.tracer ?? trace.getTracer('ai-economy.engine');
  const keys = [options.gateway?.apiKey, ...MODEL_PROVIDERS.map((p) => options.endpoints?.[p]?.apiKey)].filter(
    (k): k is string => typeof k === 'string' && k.length > 0,
  );
  const fellBack = new Set<string>();
  const streaming = {
    asked: options.stream?.enabled === true,
    firstTokenMs: options.stream?.firstTokenMs ?? LLM_STREAM_DEFAULTS.firstTokenMs,
    progressMs: options.stream?.progressMs ?? LLM_STREAM_DEFAULTS.progressMs,
    maxMs: options.stream?.maxMs ?? LLM_STREAM_DEFAULTS.maxMs,
  };
  const appHeaders: Record<string, string> = {
    ...(options.appReferer && { 'http-referer': options.appReferer }),
    ...(options.appTitle && { 'x-title': options.appTitle }),
  };

  /** The lane of a model's calls: its endpoint, or the gateway for its provider; none when nothing serves it. */
  const laneOf = (model: EngineModelId) => {
    const route = routeOf(model, options);
    return route ? `${route.via}:${providerOf(model)}` : undefined;
  };
  for (const model of options.spread?.models ?? []) {
    const lane = laneOf(model);
    if (lane) limiter.open(lane);
  }
  /** A lane that takes a call now: a slot free, nobody waiting, no 429 pause. */
  const free = (lane: string) => {
    const s = limiter.state(lane);
    return s.inFlight < s.limit && s.waiting === 0 && s.pausedForMs === 0;
  };
  /**
   * The models in the order they are tried: the request's own first, unless spreading is on, its lane is full and a
   * model of its fallback list has a free lane: that one first, then the rest in their order.
   */
  const ordered = (candidates: EngineModelId[]): EngineModelId[] => {
    if (!options.spread || candidates.length < 2) return candidates;
    const own = laneOf(candidates[0]!);
    if (own === undefined || free(own)) return candidates;
    const i = candidates.findIndex((m, j) => {
      const lane = j > 0 ? laneOf(m) : undefined;
      return lane !== undefined && lane !== own && free(lane);
    });
    return i > 0 ? [candidates[i]!, ...candidates.filter((_, j) => j !== i)] : candidates;
  };

  /** Keys never leave in a message, whatever an endpoint echoes back. */
  const scrub = (text: string) => keys.reduce((t, key) => t.split(key).join('[redacted]'), text);

  /**
   * The call on the request's model, then on each of its fallbacks in order while the failure is one another
   * model may not have (timeouts, network errors, 408/429/5xx, malformed answers). Through an OpenRouter gateway the
   * gateway's own `models` list covers the fallbacks it serves; the engine goes on to those of other endpoints.
   * Every failed model's bill is added to the answer's; the answer names the model that answered.
   */
  async function complete(request: ChatRequest): Promise<ChatResult> {
    const candidates = ordered(
      [request.model, ...(request.fallbacks ?? []).filter((m) => m !== request.model)].slice(0, 4),
    );
    const carried = { prompt: 0, completion: 0, cost: 0, estimated: false, costUnknown: false };
    let gatewayTried = false;
    let last: ModelError | undefined;
    // What the models before the last failed one were billed (the last one's own bill is in its error).
    let beforeLast = { ...carried };
    for (const [i, model] of candidates.entries()) {
      const route = routeOf(model, options);
      if (i > 0 && (!route || (route.via === 'gateway' && gatewayTried))) continue;
      const listed =
        route?.via === 'gateway' && options.gatewayKind === 'openrouter'
          ? candidates.slice(i).filter((m) => routeOf(m, options)?.via === 'gateway')
          : undefined;
      if (route?.via === 'gateway') gatewayTried = true;
      try {
        const result = await completeOne({ ...request, model }, listed && listed.length > 1 ? listed : undefined);
        if (i === 0 && carried.cost === 0 && carried.prompt === 0 && !carried.costUnknown) return result;
        return {
          ...result,
          promptTokens: result.promptTokens + carried.prompt,
          completionTokens: result.completionTokens + carried.completion,
          cost: result.cost + carried.cost,
          ...((carried.estimated || result.usageEstimated) && { usageEstimated: true }),
          ...((carried.costUnknown || result.costUnknown) && { costUnknown: true }),
        };
      } catch (err) {
        if (!(err instanceof ModelError) || request.signal?.aborted || !fallsBack(err)) throw withCarried(err, carried);
        beforeLast = { ...carried };
        if (err.spent) {
          carried.prompt += err.spent.promptTokens;
          carried.completion += err.spent.completionTokens;
          carried.cost += err.spent.cost;
          carried.estimated ||= err.spent.estimated === true;
          carried.costUnknown ||= err.spent.costUnknown === true;
        }
        last = err;
        if (i < candidates.length - 1) {
          log?.warn({ model, kind: err.kind }, `model call failed, trying the next model of the phase: ${err.message}`);
        }
      }
    }
    throw withCarried(last!, beforeLast);
  }

  async function completeOne(request: ChatRequest, gatewayModels: EngineModelId[] | undefined): Promise<ChatResult> {
    const route = routeOf(request.model, options);
    if (!route) {
      const provider = providerOf(request.model);
      if (!options.fallback) {
        throw new ModelError(
          'unconfigured',
          `${request.model}: no endpoint for provider ${provider} and no default gateway (set LLM_BASE_URL or LLM_${provider.toUpperCase().replace(/-/g, '_')}_BASE_URL)`,
        );
      }
      if (!fellBack.has(provider)) {
        fellBack.add(provider);
        log?.warn(
          { provider, fallback: options.fallback.kind },
          `no LLM endpoint for ${provider} models and no default gateway: the ${options.fallback.kind} provider answers them`,
        );
      }
      return options.fallback.complete(request);
    }
    const span = startCallSpan(tracer, route, request, options.gatewayKind);
    try {
      const result = await callWithRetries(route, request, span, gatewayModels);
      span.setAttributes({
        'gen_ai.response.model': result.model,
        'gen_ai.usage.input_tokens': result.promptTokens,
        'gen_ai.usage.output_tokens': result.completionTokens,
        'ai_economy.cost_usd': result.cost,
        'gen_ai.response.finish_reasons': [result.finishReason ?? 'stop'],
        'ai_economy.usage_estimated': result.usageEstimated === true,
        ...(result.responseId !== undefined && { 'gen_ai.response.id': result.responseId }),
        ...(result.cachedTokens !== undefined && { 'gen_ai.usage.cache_read.input_tokens': result.cachedTokens }),
        ...(result.firstTokenMs !== undefined && { 'ai_economy.time_to_first_token_ms': result.firstTokenMs }),
      });
      return result;
    } catch (err) {
      // The HTTP status when there was one (the conventions' error.type), else why the call failed.
      const kind = err instanceof ModelError ? (err.status !== undefined ? String(err.status) : err.kind) : 'aborted';
      span.setAttribute('error.type', kind);
      if (err instanceof ModelError && err.spent) {
        span.setAttributes({
          'gen_ai.usage.input_tokens': err.spent.promptTokens,
          'gen_ai.usage.output_tokens': err.spent.completionTokens,
          'ai_economy.cost_usd': err.spent.cost,
        });
      }
      span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
      throw err;
    } finally {
      span.end();
    }
  }

  async function callWithRetries(
    route: ModelRoute,
    request: ChatRequest,
    span: Span,
    gatewayModels: EngineModelId[] | undefined,
  ): Promise<ChatResult> {
    const started = performance.now();
    const provider = providerOf(request.model);
    const lane = `${route.via}:${provider}`;
    const label = `${request.model} via ${route.via === 'gateway' ? 'the gateway' : `the ${route.via} endpoint`}`;
    const maxTokens = request.maxTokens ?? MAX_TOKENS_DEFAULT;
    const sent = { ...request, maxTokens };
    const body = JSON.stringify({
      ...requestBody(route, sent),
      ...cacheFields(route, sent),
      ...reasoningFields(route, sent, options.gatewayKind),
      ...(request.user !== undefined && { user: request.user }),
      ...(options.gatewayKind === 'openrouter' && route.via === 'gateway' && openRouterFields(sent, gatewayModels)),
      ...(streaming.asked && { stream: true, stream_options: { include_usage: true } }),
    });
    const bounds = usageBounds(Buffer.byteLength(body), request.messages.length, maxTokens);
    const promptEstimate = estimatePromptTokens(request.messages);
    // Every attempt's bill, failed ones included, so the round's cost is what was paid.
    const spent = {
      prompt: 0,
      completion: 0,
      listPrompt: 0,
      listCompletion: 0,
      billedUsd: 0,
      estimated: false,
      unpriced: false,
      cached: 0,
    };
    const add = (b: Billed | undefined) => {
      if (!b) return;
      spent.prompt += b.prompt;
      spent.completion += b.completion;
      if (b.billedUsd !== undefined) spent.billedUsd += b.billedUsd;
      else if (b.unpriced) spent.unpriced = true;
      else {
        spent.listPrompt += b.prompt;
        spent.listCompletion += b.completion;
      }
      spent.estimated ||= b.estimated;
      spent.cached += b.cached ?? 0;
    };
    // What is known of the cost: the bills reported and the tokens a table prices; an unpriced part is flagged.
    const cost = () =>
      spent.billedUsd +
      (spent.listPrompt + spent.listCompletion > 0
        ? costOf(request.model, spent.listPrompt, spent.listCompletion, options.prices)
        : 0);
    const named = (model: string | undefined) =>
      model === undefined
        ? request.model
        : route.via === 'gateway' || model.includes('/')
          ? model
          : `${provider}/${model}`;
    let answeredBy: string | undefined;
    let transientRetries = 0;
    let malformedRetries = 0;
    for (let attemptNo = 1; ; attemptNo++) {
      if (request.signal?.aborted) throw request.signal.reason;
      await request.onAttempt?.();
      const release = await waiting(request, limiter.acquire(lane, request.signal));
      let outcome: Attempt;
      try {
        outcome = await attempt(route, sent, {
          label,
          body,
          bounds,
          promptEstimate,
          timeoutMs,
          maxResponseBytes,
          headers: appHeaders,
          prices: options.prices,
          stream: streaming,
        });
      } finally {
        release();
      }
      span.setAttribute('ai_economy.attempts', attemptNo);
      if (outcome.ok) {
        limiter.succeeded(lane);
        add(outcome.billed);
        return {
          content: outcome.content,
          model: named(outcome.model),
          provider,
          promptTokens: spent.prompt,
          completionTokens: spent.completion,
          cost: cost(),
          latencyMs: Math.round(performance.now() - started),
          ...(spent.estimated && { usageEstimated: true }),
          ...(spent.unpriced && { costUnknown: true }),
          ...(outcome.finishReason !== undefined && { finishReason: outcome.finishReason }),
          ...(outcome.responseId !== undefined && { responseId: outcome.responseId }),
          ...(spent.cached > 0 && { cachedTokens: spent.cached }),
          ...(outcome.firstTokenMs !== undefined && { firstTokenMs: outcome.firstTokenMs }),
        };
      }
      add(outcome.billed);
      if (outcome.model !== undefined) answeredBy = named(outcome.model);
      let delayMs: number;
      if (outcome.retry === 'transient' && transientRetries < maxRetries) {
        transientRetries++;
        const exp = Math.min(backoffMaxMs, backoffBaseMs * 2 ** (transientRetries - 1));
        const backoff = exp / 2 + random() * (exp / 2);
        delayMs =
          outcome.retryAfterMs !== undefined ? Math.min(retryAfterMaxMs, Math.max(outcome.retryAfterMs, 0)) : backoff;
      } else if (outcome.retry === 'malformed' && malformedRetries < 1) {
        malformedRetries++;
        delayMs = 0;
      } else {
        const usage: ModelUsage | undefined =
          spent.prompt + spent.completion > 0 || spent.billedUsd > 0
            ? {
                promptTokens: spent.prompt,
                completionTokens: spent.completion,
                cost: cost(),
                ...(spent.estimated && { estimated: true }),
                ...(spent.unpriced && { costUnknown: true }),
              }
            : undefined;
        const { kind, message, status } = outcome.error;
        const tries = attemptNo > 1 ? ` (after ${attemptNo} attempts)` : '';
        throw new ModelError(
          kind,
          scrub(`${message}${tries}`).slice(0, MODEL_TEXT_KEPT_MAX * 2),
          status,
          usage,
          answeredBy,
        );
      }
      // Every call of this provider waits out a 429, not only this one.
      if (outcome.rateLimited) limiter.rateLimited(lane, delayMs);
      log?.warn(
        {
          model: request.model,
          via: route.via,
          attempt: attemptNo,
          kind: outcome.error.kind,
          delayMs: Math.round(delayMs),
        },
        `model call failed, retrying: ${scrub(outcome.error.message)}`,
      );
      await waiting(request, sleep(delayMs, request.signal));
    }
  }

  // Each endpoint's model list, read at most every MODEL_LIST_TTL_MS (a list that could not be read is not kept).
  const lists = new Map<string, { at: number; ids: Set<string> }>();
  async function modelList(endpoint: ModelEndpoint): Promise<Set<string> | undefined> {
    const kept = lists.get(endpoint.baseUrl);
    if (kept && performance.now() - kept.at < MODEL_LIST_TTL_MS) return kept.ids;
    try {
      const res = await fetch(`${endpoint.baseUrl.replace(/\/+$/, '')}/models`, {
        headers: {
          accept: 'application/json',
          'user-agent': USER_AGENT,
          ...appHeaders,
          ...(endpoint.apiKey && { authorization: `Bearer ${endpoint.apiKey}` }),
        },
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!res.ok) {
        await res.body?.cancel();
        return undefined;
      }
      const text = await res.text();
      if (text.length > maxResponseBytes) return undefined;
      const data = (JSON.parse(text) as { data?: unknown })?.data;
      if (!Array.isArray(data)) return undefined;
      const ids = new Set(
        data.flatMap((m) => (typeof (m as { id?: unknown })?.id === 'string' ? [(m as { id: string }).id] : [])),
      );
      lists.set(endpoint.baseUrl, { at: performance.now(), ids });
      return ids;
    } catch {
      return undefined;
    }
  }

  /**
   * Whether a model is served: by the endpoint its provider's id routes to, checked against that endpoint's
   * `/models` list when it has one (an endpoint without a readable list is taken at its word); a model no endpoint
   * serves only when it is one of the eight known, which the built-in model then answers.
   */
  async function serves(model: string): Promise<ModelServed> {
    const route = routeOf(model, options);
    if (!route) {
      return isKnownModelId(model) && options.fallback
        ? { served: true, listed: false }
        : {
            served: false,
            listed: false,
            reason: `no endpoint serves ${providerOf(model)} models and there is no default gateway`,
          };
    }
    const ids = await modelList(route.endpoint);
    if (!ids) return { served: true, listed: false };
    if (ids.has(route.model) || ids.has(model)) return { served: true, listed: true };
    const where = route.via === 'gateway' ? 'the gateway' : `the ${route.via} endpoint`;
    return { served: false, listed: true, reason: `${where} does not list ${route.model} among its models` };
  }

  return { kind: 'openai-compatible', complete, serves, load: () => limiter.total() };
}

/** How long an endpoint's model list is kept before it is read again. */
const MODEL_LIST_TTL_MS = 300_000;

/**
 * `gen_ai.provider.name` as the GenAI conventions register it (`gcp.gemini` for Google's Gemini API), and the gateway
 * when it is the server the call goes to (`openrouter`); a provider the conventions do not list keeps its own name.
 */
export function providerNameOf(model: EngineModelId, via: ModelRoute['via'], gatewayKind?: 'openrouter' | 'generic') {
  if (via === 'gateway' && gatewayKind === 'openrouter') return 'openrouter';
  const provider = providerOf(model);
  return REGISTERED_PROVIDER_NAMES[provider] ?? provider;
}

const REGISTERED_PROVIDER_NAMES: Readonly<Record<string, string>> = {
  openai: 'openai',
  anthropic: 'anthropic',
  google: 'gcp.gemini',
  deepseek: 'deepseek',
  'meta-llama': 'meta',
  mistralai: 'mistral_ai',
  'x-ai': 'x_ai',
  cohere: 'cohere',
  perplexity: 'perplexity',
};

/** The span of one model call, retries included (GenAI semantic conventions: `chat {model}`, kind CLIENT). */
function startCallSpan(
  tracer: Tracer,
  route: ModelRoute,
  request: ChatRequest,
  gatewayKind: 'openrouter' | 'generic' | undefined,
): Span {
  let server: URL | undefined;
  try {
    server = new URL(route.endpoint.baseUrl);
  } catch {
    server = undefined;
  }
  const parent = request.parentSpan ? trace.setSpan(ROOT_CONTEXT, request.parentSpan) : undefined;
  return tracer.startSpan(
    `chat ${request.model}`,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': providerNameOf(request.model, route.via, gatewayKind),
        'gen_ai.request.model': request.model,
        'gen_ai.request.max_tokens': request.maxTokens ?? MAX_TOKENS_DEFAULT,
        'ai_economy.route': route.via,
        ...(request.conversationId !== undefined && { 'gen_ai.conversation.id': request.conversationId }),
        ...(request.user !== undefined && { 'ai_economy.company.id': request.user }),
        ...(request.agentRole !== undefined && {
          'gen_ai.agent.name': request.agentRole,
          'ai_economy.agent.role': request.agentRole,
        }),
        ...(request.reasoning !== undefined && { 'ai_economy.request.reasoning_effort': request.reasoning }),
        ...(server && { 'server.address': server.hostname }),
        ...(server?.port && { 'server.port': Number(server.port) }),
      },
    },
    parent,
  );
}
