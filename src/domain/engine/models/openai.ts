// The HTTP model provider: any endpoint that speaks OpenAI's chat-completions protocol (OpenAI itself, OpenRouter
// and other gateways, LiteLLM, vLLM, the compatibility endpoints of Anthropic, Google and DeepSeek). Calls are
// bounded by a timeout, retried with backoff on transient failures, and costed from the catalog's price table.

import type { ModelEndpoint } from '../../../config.ts';
import { MODEL_PROVIDERS, type ModelProviderName } from '../../../constants.ts';
import { costOf, modelNameOf, providerOf } from './catalog.ts';
import {
  type ChatMessage,
  type ChatRequest,
  type ChatResult,
  type EngineModelId,
  ModelError,
  type ModelLogger,
  type ModelProvider,
  type ModelUsage,
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
  /** Answers models that have neither their provider's endpoint nor a gateway; without one they fail 'unconfigured'. */
  fallback?: ModelProvider | undefined;
  log?: ModelLogger | undefined;
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

/** Rough token count of a text, for endpoints that report no usage: ~4 characters per token. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export function estimatePromptTokens(messages: ChatMessage[]): number {
  // Each message carries a few tokens of framing (role, separators) besides its text.
  return messages.reduce((n, m) => n + estimateTokens(m.content) + 4, 0);
}

/** Retry-After as milliseconds: delta-seconds (fractions accepted) or an HTTP date; undefined when unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Takes a JSON object out of an answer, tolerating a Markdown code fence around it; undefined if there is none. */
export function jsonObjectText(content: string): string | undefined {
  let text = content.trim();
  const fenced = /^```[A-Za-z]*\s*\n?([\s\S]*?)\n?```$/.exec(text);
  if (fenced) text = fenced[1]!.trim();
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? text : undefined;
  } catch {
    return undefined;
  }
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

/** OpenAI's own API takes `max_completion_tokens` and only the default temperature for its reasoning models. */
function requestBody(route: ModelRoute, request: ChatRequest): Record<string, unknown> {
  const body: Record<string, unknown> = { model: route.model, messages: request.messages };
  const openAiReasoning = route.via === 'openai' && /^(gpt-5|o\d)/.test(route.model);
  if (request.maxTokens !== undefined)
    body[openAiReasoning ? 'max_completion_tokens' : 'max_tokens'] = request.maxTokens;
  if (request.temperature !== undefined && !openAiReasoning) body.temperature = request.temperature;
  if (request.json) body.response_format = { type: 'json_object' };
  if (request.tools && request.tools.length > 0) {
    body.tools = request.tools.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));
    body.tool_choice = 'auto';
  }
  return body;
}

interface ToolCallMessage {
  content?: unknown;
  tool_calls?: { type?: unknown; function?: { name?: unknown; arguments?: unknown } }[];
}

/**
 * An answer's function calls as the roles phase's `{"proposals": [...]}` JSON (each call's arguments parsed, the
 * message's text as their rationale); undefined when it made none. What a call names is checked like any proposal.
 */
export function toolCallsAsProposals(message: ToolCallMessage | undefined): string | undefined {
  const calls = Array.isArray(message?.tool_calls) ? message.tool_calls : [];
  if (calls.length === 0) return undefined;
  const rationale = typeof message?.content === 'string' ? message.content.trim() : '';
  const proposals = calls.flatMap((call) => {
    const name = call?.function?.name;
    if (typeof name !== 'string') return [];
    let args: unknown = {};
    try {
      args = typeof call.function?.arguments === 'string' ? JSON.parse(call.function.arguments || '{}') : {};
    } catch {
      return [];
    }
    return [{ tool: name, args, rationale }];
  });
  return JSON.stringify({ proposals });
}

/** One attempt's outcome: an answer, or a failure saying whether another attempt may help. */
type Attempt =
  | { ok: true; content: string; usage: { prompt: number; completion: number } | undefined }
  | {
      ok: false;
      error: ModelError;
      retry: 'transient' | 'malformed' | 'never';
      retryAfterMs?: number | undefined;
      usage?: { prompt: number; completion: number } | undefined;
    };

function readUsage(body: unknown): { prompt: number; completion: number } | undefined {
  const usage = (body as { usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } } | null)?.usage;
  const prompt = usage?.prompt_tokens;
  const completion = usage?.completion_tokens;
  if (!Number.isSafeInteger(prompt) || !Number.isSafeInteger(completion)) return undefined;
  if ((prompt as number) < 0 || (completion as number) < 0) return undefined;
  return { prompt: prompt as number, completion: completion as number };
}

export function createOpenAiCompatibleProvider(options: OpenAiCompatibleOptions): ModelProvider {
  const timeoutMs = options.timeoutMs ?? LLM_TIMEOUT_MS_DEFAULT;
  const maxRetries = options.maxRetries ?? LLM_MAX_RETRIES_DEFAULT;
  const backoffBaseMs = options.backoffBaseMs ?? 500;
  const backoffMaxMs = options.backoffMaxMs ?? 8_000;
  const retryAfterMaxMs = options.retryAfterMaxMs ?? 30_000;
  const random = options.random ?? Math.random;
  const log = options.log;
  const keys = [options.gateway?.apiKey, ...MODEL_PROVIDERS.map((p) => options.endpoints?.[p]?.apiKey)].filter(
    (k): k is string => typeof k === 'string' && k.length > 0,
  );
  const fellBack = new Set<string>();

  /** Keys never leave in a message, whatever an endpoint echoes back. */
  const scrub = (text: string) => keys.reduce((t, key) => t.split(key).join('[redacted]'), text);
  const fail = (kind: ModelError['kind'], message: string, status?: number) =>
    new ModelError(kind, scrub(message), status);

  async function attempt(route: ModelRoute, request: ChatRequest, label: string): Promise<Attempt> {
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
    let text: string;
    let retryAfter: string | null;
    try {
      const response = await fetch(`${route.endpoint.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
        method: 'POST',
        headers,
        body: JSON.stringify(requestBody(route, request)),
        signal: controller.signal,
      });
      status = response.status;
      retryAfter = response.headers.get('retry-after');
      text = await response.text();
    } catch (err) {
      if (request.signal?.aborted) throw request.signal.reason;
      if (timedOut) {
        return { ok: false, retry: 'transient', error: fail('timeout', `${label}: no answer within ${timeoutMs} ms`) };
      }
      const cause = (err as { cause?: { code?: unknown; message?: unknown } }).cause;
      const why = typeof cause?.code === 'string' ? cause.code : String((err as Error).message ?? err);
      return { ok: false, retry: 'transient', error: fail('network', `${label}: request failed (${why})`) };
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onCallerAbort);
    }

    if (status < 200 || status >= 300) {
      const snippet = text.replace(/\s+/g, ' ').trim().slice(0, ERROR_SNIPPET_MAX);
      const error = fail('http', `${label}: HTTP ${status}${snippet ? `: ${snippet}` : ''}`, status);
      if (!RETRYABLE_STATUS(status)) return { ok: false, retry: 'never', error };
      const retryAfterMs = status === 429 ? parseRetryAfter(retryAfter) : undefined;
      return { ok: false, retry: 'transient', error, retryAfterMs };
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return { ok: false, retry: 'malformed', error: fail('malformed', `${label}: the answer is not JSON`) };
    }
    const usage = readUsage(body);
    const message = (body as { choices?: { message?: ToolCallMessage }[] } | null)?.choices?.[0]?.message;
    const called = request.tools ? toolCallsAsProposals(message) : undefined;
    if (called !== undefined) return { ok: true, content: called, usage };
    const content = message?.content;
    if (typeof content !== 'string' || content.trim() === '') {
      return {
        ok: false,
        retry: 'malformed',
        usage,
        error: fail('malformed', `${label}: the answer has no choices[0].message.content`),
      };
    }
    if (!request.json) return { ok: true, content, usage };
    const json = jsonObjectText(content);
    if (json === undefined) {
      return {
        ok: false,
        retry: 'malformed',
        usage,
        error: fail('malformed', `${label}: a JSON object was asked for, the content is not one`),
      };
    }
    return { ok: true, content: json, usage };
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

    const started = performance.now();
    const label = `${request.model} via ${route.via === 'gateway' ? 'the gateway' : `the ${route.via} endpoint`}`;
    // Billed tokens of answers that could not be used, so the round's cost is what was paid.
    const wasted = { prompt: 0, completion: 0 };
    let transientRetries = 0;
    let malformedRetries = 0;
    for (let attemptNo = 1; ; attemptNo++) {
      if (request.signal?.aborted) throw request.signal.reason;
      const outcome = await attempt(route, request, label);
      if (outcome.ok) {
        const estimated = outcome.usage === undefined;
        const promptTokens = wasted.prompt + (outcome.usage?.prompt ?? estimatePromptTokens(request.messages));
        const completionTokens = wasted.completion + (outcome.usage?.completion ?? estimateTokens(outcome.content));
        return {
          content: outcome.content,
          model: request.model,
          provider: providerOf(request.model),
          promptTokens,
          completionTokens,
          cost: costOf(request.model, promptTokens, completionTokens),
          latencyMs: Math.round(performance.now() - started),
          ...(estimated && { usageEstimated: true }),
        };
      }
      if (outcome.usage) {
        wasted.prompt += outcome.usage.prompt;
        wasted.completion += outcome.usage.completion;
      }
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
        const spent: ModelUsage | undefined =
          wasted.prompt + wasted.completion > 0
            ? {
                promptTokens: wasted.prompt,
                completionTokens: wasted.completion,
                cost: costOf(request.model, wasted.prompt, wasted.completion),
              }
            : undefined;
        const { kind, message, status } = outcome.error;
        const tries = attemptNo > 1 ? ` (after ${attemptNo} attempts)` : '';
        throw new ModelError(kind, `${message}${tries}`, status, spent);
      }
      log?.warn(
        {
          model: request.model,
          via: route.via,
          attempt: attemptNo,
          kind: outcome.error.kind,
          delayMs: Math.round(delayMs),
        },
        `model call failed, retrying: ${outcome.error.message}`,
      );
      await sleep(delayMs, request.signal);
    }
  }

  return { kind: 'openai-compatible', complete };
}
