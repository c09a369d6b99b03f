// The HTTP model provider: any endpoint that speaks OpenAI's chat-completions protocol (OpenAI itself, OpenRouter
// and other gateways, LiteLLM, vLLM, the compatibility endpoints of Anthropic, Google and DeepSeek). Every call is
// bounded: a timeout per attempt, a byte cap on the answer, max_tokens on the output, no redirect followed (the
// prompt and the key go to the configured endpoint only), a limit of calls in flight per provider that backs off on
// 429, and the caller's AbortSignal. Failures are retried with backoff when another attempt may help. What is
// recorded is what was billed: every attempt's usage, believed only within what the request could have used, and
// the endpoint's own cost when it reports one; the model recorded is the one that answered. This file holds the
// provider's options and the chain of models a call goes through; route.ts, retries.ts, call-span.ts and
// model-list.ts hold the routing, the retried call, its span and the model lists.
import { type Tracer, trace } from '@opentelemetry/api';
import type { ModelEndpoint } from '../../../config.ts';
import { LLM_MAX_IN_FLIGHT_DEFAULT, MODEL_PROVIDERS, type ModelProviderName } from '../../../constants.ts';
import { MODEL_RESPONSE_MAX_BYTES } from './answer.ts';
import { recordAnswer, recordFailure, startCallSpan } from './call-span.ts';
import { type PriceTable, providerOf } from './catalog.ts';
import { fallsBack, withCarried } from './fallbacks.ts';
import { createProviderLimiter, type ProviderLimiter } from './limiter.ts';
import { createServes } from './model-list.ts';
import { callWithRetries } from './retries.ts';
import { laneOf, routeOf, spreadOrder } from './route.ts';
import {
  type ChatRequest,
  type ChatResult,
  type EngineModelId,
  ModelError,
  type ModelLogger,
  type ModelProvider,
} from './types.ts';

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
  const settings = {
    timeoutMs,
    maxRetries,
    backoffBaseMs,
    backoffMaxMs,
    retryAfterMaxMs,
    maxResponseBytes,
    limiter,
    random,
    log,
    appHeaders,
    streaming,
    prices: options.prices,
    gatewayKind: options.gatewayKind,
    /** Keys never leave in a message, whatever an endpoint echoes back. */
    scrub: (text: string) => keys.reduce((t, key) => t.split(key).join('[redacted]'), text),
  };
  for (const model of options.spread?.models ?? []) {
    const lane = laneOf(model, options);
    if (lane) limiter.open(lane);
  }
  /** The models in the order they are tried: spread over free lanes when spreading is on (route.ts). */
  const ordered = (candidates: EngineModelId[]) =>
    options.spread ? spreadOrder(candidates, options, limiter) : candidates;

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
      const result = await callWithRetries(settings, route, request, span, gatewayModels);
      recordAnswer(span, result);
      return result;
    } catch (err) {
      recordFailure(span, err);
      throw err;
    } finally {
      span.end();
    }
  }

  return {
    kind: 'openai-compatible',
    complete,
    serves: createServes({
      gateway: options.gateway,
      endpoints: options.endpoints,
      fallback: options.fallback,
      timeoutMs,
      maxResponseBytes,
      appHeaders,
    }),
    load: () => ({ spread: options.spread !== undefined, lanes: limiter.lanes() }),
  };
}
