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
import {
  answeredModel,
  believedCost,
  believedTokens,
  completionOf,
  estimatePromptTokens,
  estimateTokens,
  jsonObjectText,
  MODEL_RESPONSE_MAX_BYTES,
  MODEL_TEXT_KEPT_MAX,
  readCapped,
  reportedUsage,
  toolCallsAsProposals,
  type UsageBounds,
  usageBounds,
} from './answer.ts';
import { costOf, modelNameOf, providerOf } from './catalog.ts';
import { createProviderLimiter, type ProviderLimiter } from './limiter.ts';
import { requestBody } from './request.ts';
import {
  type ChatRequest,
  type ChatResult,
  type EngineModelId,
  ModelError,
  type ModelErrorKind,
  type ModelLogger,
  type ModelProvider,
  type ModelUsage,
} from './types.ts';

export { estimatePromptTokens, estimateTokens, jsonObjectText, toolCallsAsProposals } from './answer.ts';

export const LLM_TIMEOUT_MS_DEFAULT = 30_000;
export const LLM_MAX_RETRIES_DEFAULT = 2;
/** The answer's token limit when the caller sets none. */
const MAX_TOKENS_DEFAULT = 4_096;

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
}

export interface ModelRoute {
  endpoint: ModelEndpoint;
  /** `gateway` or the provider name whose endpoint serves the model. */
  via: 'gateway' | ModelProviderName;
  /** The model field sent: the full id to a gateway, the name after the `/` to a provider's endpoint. */
  model: string;
}

/** Where a model's calls go, or undefined when nothing is configured for it. */
export function routeOf(
  modelId: EngineModelId,
  options: Pick<OpenAiCompatibleOptions, 'gateway' | 'endpoints'>,
): ModelRoute | undefined {
  const provider = providerOf(modelId);
  const own = options.endpoints?.[provider];
  if (own) return { endpoint: own, via: provider, model: modelNameOf(modelId) };
  if (options.gateway) return { endpoint: options.gateway, via: 'gateway', model: modelId };
  return undefined;
}

const RETRYABLE_STATUS = (status: number) => status === 408 || status === 429 || status >= 500;
const ERROR_SNIPPET_MAX = 300;

/** Retry-After as milliseconds: delta-seconds (fractions accepted) or an HTTP date; undefined when unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
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

type Estimate = { prompt: number; completion: number };

/**
 * Tokens and cost of one answer as believed: `billedUsd` when the endpoint said what it charged, else the tokens
 * are priced from the table (once, over the call's sum, so nothing is rounded attempt by attempt).
 */
interface Billed {
  prompt: number;
  completion: number;
  billedUsd: number | undefined;
  estimated: boolean;
}

/** One attempt's outcome: an answer, or a failure saying whether another attempt may help. */
type Attempt =
  | { ok: true; content: string; finishReason: string | undefined; model: string | undefined; billed: Billed }
  | {
      ok: false;
      error: { kind: ModelErrorKind; message: string; status?: number };
      retry: 'transient' | 'malformed' | 'never';
      retryAfterMs?: number | undefined;
      rateLimited?: boolean;
      model?: string | undefined;
      billed?: Billed | undefined;
    };

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

  /** Keys never leave in a message, whatever an endpoint echoes back. */
  const scrub = (text: string) => keys.reduce((t, key) => t.split(key).join('[redacted]'), text);

  /** Tokens and cost of an answer that was read: believed within bounds, estimated where not. */
  function bill(model: EngineModelId, body: unknown, bounds: UsageBounds, estimate: Estimate): Billed {
    const reported = reportedUsage(body);
    const tokens = believedTokens(reported, bounds, estimate);
    const { cost, billed } = believedCost(reported, (p, c) => costOf(model, p, c), tokens, bounds);
    return {
      prompt: tokens.prompt,
      completion: tokens.completion,
      billedUsd: billed ? cost : undefined,
      estimated: tokens.estimated,
    };
  }

  async function attempt(
    route: ModelRoute,
    request: ChatRequest,
    label: string,
    body: string,
    bounds: UsageBounds,
    promptEstimate: number,
  ): Promise<Attempt> {
    const estimate = (content: string): Estimate => ({ prompt: promptEstimate, completion: estimateTokens(content) });
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onCallerAbort = () => controller.abort(request.signal?.reason);
    request.signal?.addEventListener('abort', onCallerAbort, { once: true });
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (route.endpoint.apiKey) headers.authorization = `Bearer ${route.endpoint.apiKey}`;
    let status: number;
    let read: Awaited<ReturnType<typeof readCapped>>;
    let retryAfter: string | null;
    try {
      const response = await fetch(`${route.endpoint.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
        method: 'POST',
        headers,
        body,
        signal: controller.signal,
        redirect: 'error',
      });
      status = response.status;
      retryAfter = response.headers.get('retry-after');
      read = await readCapped(response, maxResponseBytes);
    } catch (err) {
      if (request.signal?.aborted) throw request.signal.reason;
      if (timedOut) {
        return {
          ok: false,
          retry: 'transient',
          error: { kind: 'timeout', message: `${label}: no answer within ${timeoutMs} ms` },
        };
      }
      const cause = (err as { cause?: { code?: unknown; message?: unknown } }).cause;
      if (cause?.message === 'unexpected redirect') {
        return {
          ok: false,
          retry: 'never',
          error: {
            kind: 'http',
            message: `${label}: the endpoint answered with a redirect, which is not followed (a model call goes to the configured endpoint only: set its final URL)`,
          },
        };
      }
      const why = typeof cause?.code === 'string' ? cause.code : String((err as Error).message ?? err);
      return {
        ok: false,
        retry: 'transient',
        error: { kind: 'network', message: `${label}: request failed (${why})` },
      };
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onCallerAbort);
    }

    if ('oversize' in read) {
      // Not read, so not known: billed as the whole prompt and the most the answer could have been.
      return {
        ok: false,
        retry: 'never',
        error: { kind: 'oversize', message: `${label}: the answer passed ${maxResponseBytes} bytes and was not read` },
        billed: { prompt: promptEstimate, completion: bounds.completionMax, billedUsd: undefined, estimated: true },
      };
    }
    const text = read.text;
    if (status < 200 || status >= 300) {
      const snippet = text.replace(/\s+/g, ' ').trim().slice(0, ERROR_SNIPPET_MAX);
      const error = {
        kind: 'http' as const,
        message: `${label}: HTTP ${status}${snippet ? `: ${snippet}` : ''}`,
        status,
      };
      if (!RETRYABLE_STATUS(status)) return { ok: false, retry: 'never', error };
      const retryAfterMs = status === 429 ? parseRetryAfter(retryAfter) : undefined;
      return { ok: false, retry: 'transient', error, retryAfterMs, rateLimited: status === 429 };
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return {
        ok: false,
        retry: 'malformed',
        error: { kind: 'malformed', message: `${label}: the answer is not JSON` },
      };
    }
    const model = answeredModel(parsed);
    const answer = completionOf(parsed);
    if (answer.kind === 'no-choice') {
      return {
        ok: false,
        retry: 'malformed',
        model,
        billed: bill(request.model, parsed, bounds, estimate('')),
        error: { kind: 'empty', message: `${label}: the answer has no choices` },
      };
    }
    const billed = bill(request.model, parsed, bounds, estimate(answer.content));
    const failed = (kind: ModelErrorKind, message: string, retry: 'malformed' | 'never'): Attempt => ({
      ok: false,
      retry,
      model,
      billed,
      error: { kind, message: `${label}: ${message}` },
    });
    if (answer.refusal !== undefined) return failed('refused', `the model refused: "${answer.refusal}"`, 'never');
    if (answer.finishReason === 'content_filter') {
      return failed('refused', 'the answer was stopped by the content filter', 'never');
    }
    const cutOff = answer.finishReason === 'length';
    const called = request.tools ? toolCallsAsProposals(answer.message) : undefined;
    if (called !== undefined) return { ok: true, content: called, finishReason: answer.finishReason, model, billed };
    if (answer.content.trim() === '') {
      return cutOff
        ? failed(
            'cut_off',
            `the answer is empty: it stopped at its limit of ${request.maxTokens ?? MAX_TOKENS_DEFAULT} tokens`,
            'never',
          )
        : failed('empty', 'the answer has no content', 'malformed');
    }
    if (!request.json) return { ok: true, content: answer.content, finishReason: answer.finishReason, model, billed };
    const json = jsonObjectText(answer.content);
    if (json === undefined) {
      return cutOff
        ? failed(
            'cut_off',
            `the answer stopped at its limit of ${request.maxTokens ?? MAX_TOKENS_DEFAULT} tokens before its JSON was complete`,
            'never',
          )
        : failed('malformed', 'a JSON object was asked for, the content holds none', 'malformed');
    }
    return { ok: true, content: json, finishReason: answer.finishReason, model, billed };
  }

  async function complete(request: ChatRequest): Promise<ChatResult> {
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
    const span = startCallSpan(tracer, route, request);
    try {
      const result = await callWithRetries(route, request, span);
      span.setAttributes({
        'gen_ai.response.model': result.model,
        'gen_ai.usage.input_tokens': result.promptTokens,
        'gen_ai.usage.output_tokens': result.completionTokens,
        'gen_ai.usage.cost': result.cost,
        'gen_ai.response.finish_reasons': [result.finishReason ?? 'stop'],
        'ai_economy.usage_estimated': result.usageEstimated === true,
      });
      return result;
    } catch (err) {
      const kind = err instanceof ModelError ? err.kind : 'aborted';
      span.setAttribute('error.type', kind);
      if (err instanceof ModelError && err.spent) {
        span.setAttributes({
          'gen_ai.usage.input_tokens': err.spent.promptTokens,
          'gen_ai.usage.output_tokens': err.spent.completionTokens,
          'gen_ai.usage.cost': err.spent.cost,
        });
      }
      span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
      throw err;
    } finally {
      span.end();
    }
  }

  async function callWithRetries(route: ModelRoute, request: ChatRequest, span: Span): Promise<ChatResult> {
    const started = performance.now();
    const provider = providerOf(request.model);
    const lane = `${route.via}:${provider}`;
    const label = `${request.model} via ${route.via === 'gateway' ? 'the gateway' : `the ${route.via} endpoint`}`;
    const maxTokens = request.maxTokens ?? MAX_TOKENS_DEFAULT;
    const sent = { ...request, maxTokens };
    const body = JSON.stringify(requestBody(route, sent));
    const bounds = usageBounds(Buffer.byteLength(body), request.messages.length, maxTokens);
    const promptEstimate = estimatePromptTokens(request.messages);
    // Every attempt's bill, failed ones included, so the round's cost is what was paid.
    const spent = { prompt: 0, completion: 0, listPrompt: 0, listCompletion: 0, billedUsd: 0, estimated: false };
    const add = (b: Billed | undefined) => {
      if (!b) return;
      spent.prompt += b.prompt;
      spent.completion += b.completion;
      if (b.billedUsd !== undefined) spent.billedUsd += b.billedUsd;
      else {
        spent.listPrompt += b.prompt;
        spent.listCompletion += b.completion;
      }
      spent.estimated ||= b.estimated;
    };
    const cost = () => spent.billedUsd + costOf(request.model, spent.listPrompt, spent.listCompletion);
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
      const release = await limiter.acquire(lane, request.signal);
      let outcome: Attempt;
      try {
        outcome = await attempt(route, sent, label, body, bounds, promptEstimate);
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
          ...(outcome.finishReason !== undefined && { finishReason: outcome.finishReason }),
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
      await sleep(delayMs, request.signal);
    }
  }

  return { kind: 'openai-compatible', complete };
}

/** The span of one model call, retries included (GenAI semantic conventions: `chat {model}`, kind CLIENT). */
function startCallSpan(tracer: Tracer, route: ModelRoute, request: ChatRequest): Span {
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
        'gen_ai.provider.name': providerOf(request.model),
        'gen_ai.request.model': request.model,
        'gen_ai.request.max_tokens': request.maxTokens ?? MAX_TOKENS_DEFAULT,
        'ai_economy.route': route.via,
        ...(server && { 'server.address': server.hostname }),
        ...(server?.port && { 'server.port': Number(server.port) }),
      },
    },
    parent,
  );
}
