// One attempt of a model call over HTTP: the request sent (no redirect followed, the caller's AbortSignal and a
// timeout), the answer read up to its byte cap, and what came back judged: an answer the phase can use, or a
// failure that says whether another attempt may help, with what the attempt was billed (believed within the
// request's bounds, estimated where it cannot be). models/retries.ts retries and records.
import type { ModelEndpoint } from '../../../config.ts';
import type { ModelProviderName } from '../../../constants.ts';
import {
  answeredModel,
  believedCost,
  believedTokens,
  completionOf,
  estimateTokens,
  jsonObjectText,
  reportedUsage,
  toolCallsAsProposals,
  type UsageBounds,
} from './answer.ts';
import { costOf, dearestPrice, type PriceTable, priceOf } from './catalog.ts';
import { isEventStream, StreamedAnswer } from './stream.ts';
import { type Posted, post, TransportError, USER_AGENT } from './transport.ts';
import type { ChatRequest, EngineModelId, ModelErrorKind } from './types.ts';

/** Where a call goes: the endpoint, and how the body names the model. */
export interface ModelRoute {
  endpoint: ModelEndpoint;
  /** `gateway` or the provider name whose endpoint serves the model. */
  via: 'gateway' | ModelProviderName;
  /** The model field sent: the full id to a gateway, the name after the `/` to a provider's endpoint. */
  model: string;
}

/** The answer's token limit when the caller sets none. */
export const MAX_TOKENS_DEFAULT = 4_096;

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

type Estimate = { prompt: number; completion: number };

/**
 * Tokens and cost of one answer as believed: `billedUsd` when the endpoint said what it charged, else the tokens
 * are priced from the table (once, over the call's sum, so nothing is rounded attempt by attempt).
 */
export interface Billed {
  prompt: number;
  completion: number;
  billedUsd: number | undefined;
  estimated: boolean;
  /** Neither the endpoint said what it billed nor does any price table know the model: the cost is unknown. */
  unpriced?: boolean;
  /** Prompt tokens read from the provider's cache, as reported (at most the prompt tokens believed). */
  cached?: number;
}

/** One attempt's outcome: an answer, or a failure saying whether another attempt may help. */
export type Attempt =
  | {
      ok: true;
      content: string;
      finishReason: string | undefined;
      model: string | undefined;
      billed: Billed;
      /** The answer's id (`chatcmpl-...`), when it names one. */
      responseId?: string | undefined;
      /** Milliseconds to the first token of a streamed answer. */
      firstTokenMs?: number | undefined;
    }
  | {
      ok: false;
      error: { kind: ModelErrorKind; message: string; status?: number };
      retry: 'transient' | 'malformed' | 'never';
      retryAfterMs?: number | undefined;
      rateLimited?: boolean;
      model?: string | undefined;
      billed?: Billed | undefined;
    };

/** What every attempt of one call shares. */
export interface AttemptCall {
  /** `<model> via <route>`, the start of every message. */
  label: string;
  /** The request body, serialized once. */
  body: string;
  bounds: UsageBounds;
  promptEstimate: number;
  timeoutMs: number;
  maxResponseBytes: number;
  /** Sent with every attempt (the app's HTTP-Referer and X-Title). */
  headers?: Record<string, string>;
  /** The operator's prices (LLM_PRICES), over the built-in list prices. */
  prices?: PriceTable | undefined;
  /**
   * The bounds of a streamed answer. With `asked` the body asked to stream (`stream: true`): the attempt may last
   * `maxMs` as long as its first token comes within `firstTokenMs` and no gap between tokens passes `progressMs`.
   * Without it, an answer that streams anyway is read the same way, within `timeoutMs`.
   */
  stream?: { asked: boolean; firstTokenMs: number; progressMs: number; maxMs: number } | undefined;
}

/**
 * Tokens and cost of an answer that was read: believed within bounds, estimated where not. The cost is what the
 * endpoint says it billed (OpenRouter's `usage.cost`, LiteLLM's `x-litellm-response-cost`), else the price table's;
 * a model no table prices is `unpriced` (a reported bill of it is believed within the dearest known price).
 */
function bill(
  model: EngineModelId,
  body: unknown,
  bounds: UsageBounds,
  estimate: Estimate,
  headerCost: string | undefined,
  prices: PriceTable | undefined,
): Billed {
  const reported = reportedUsage(body, headerCost);
  const tokens = believedTokens(reported, bounds, estimate);
  const priced = priceOf(model, prices) !== undefined;
  const dearest = dearestPrice(prices);
  const listCost = priced
    ? (p: number, c: number) => costOf(model, p, c, prices)
    : (p: number, c: number) => (p * dearest.inputMicroUsdPerM + c * dearest.outputMicroUsdPerM) / 1e12;
  const { cost, billed } = believedCost(reported, listCost, tokens, bounds);
  return {
    prompt: tokens.prompt,
    completion: tokens.completion,
    billedUsd: billed ? cost : undefined,
    estimated: tokens.estimated,
    ...(reported.cached !== undefined &&
      reported.cached > 0 &&
      !tokens.estimated && { cached: Math.min(reported.cached, tokens.prompt) }),
    ...(!billed && !priced && { unpriced: true }),
  };
}

export async function attempt(route: ModelRoute, request: ChatRequest, call: AttemptCall): Promise<Attempt> {
  const { label, body, bounds, promptEstimate, timeoutMs, maxResponseBytes } = call;
  const estimate = (content: string): Estimate => ({ prompt: promptEstimate, completion: estimateTokens(content) });
  const stream = call.stream;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: stream?.asked ? 'text/event-stream, application/json' : 'application/json',
    'user-agent': USER_AGENT,
    ...call.headers,
  };
  if (route.endpoint.apiKey) headers.authorization = `Bearer ${route.endpoint.apiKey}`;
  let status: number;
  let read: Posted['read'];
  let retryAfter: string | null;
  let headerCost: string | undefined;
  let streamed: StreamedAnswer | undefined;
  let firstTokenMs: number | undefined;
  try {
    const answer = await post(`${route.endpoint.baseUrl.replace(/\/+$/, '')}/chat/completions`, headers, body, {
      deadlineMs: stream?.asked ? stream.maxMs : timeoutMs,
      maxBytes: maxResponseBytes,
      signal: request.signal,
      ...(stream && {
        stream: {
          asked: stream.asked,
          firstTokenMs: stream.firstTokenMs,
          progressMs: stream.progressMs,
          plainDeadlineMs: timeoutMs,
        },
      }),
    });
    streamed = answer.streamed;
    firstTokenMs = answer.firstTokenMs;
    status = answer.status;
    const header = answer.headers['retry-after'];
    retryAfter = typeof header === 'string' ? header : null;
    const cost = answer.headers['x-litellm-response-cost'];
    headerCost = typeof cost === 'string' ? cost : undefined;
    read = answer.read;
  } catch (err) {
    if (request.signal?.aborted) throw request.signal.reason;
    if (err instanceof TransportError && err.reason !== 'network') {
      return {
        ok: false,
        retry: 'transient',
        error: { kind: 'timeout', message: `${label}: ${err.message}` },
        // The provider may bill an attempt it was still answering: the prompt and the most the answer could be.
        billed: {
          prompt: promptEstimate,
          completion: bounds.completionMax,
          billedUsd: undefined,
          estimated: true,
          ...(priceOf(request.model, call.prices) === undefined && { unpriced: true }),
        },
      };
    }
    const why = err instanceof TransportError ? (err.code ?? err.message) : String((err as Error).message ?? err);
    return {
      ok: false,
      retry: 'transient',
      error: { kind: 'network', message: `${label}: request failed (${why})` },
    };
  }
  if (status >= 300 && status < 400) {
    return {
      ok: false,
      retry: 'never',
      error: {
        kind: 'http',
        message: `${label}: the endpoint answered with a redirect, which is not followed (a model call goes to the configured endpoint only: set its final URL)`,
        status,
      },
    };
  }

  if ('oversize' in read) {
    // Not read, so not known: billed as the whole prompt and the most the answer could have been.
    return {
      ok: false,
      retry: 'never',
      error: { kind: 'oversize', message: `${label}: the answer passed ${maxResponseBytes} bytes and was not read` },
      billed: {
        prompt: promptEstimate,
        completion: bounds.completionMax,
        billedUsd: undefined,
        estimated: true,
        ...(priceOf(request.model, call.prices) === undefined && { unpriced: true }),
      },
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
  // Events under another content type (`application/json`) are read as the stream they are.
  if (!streamed && isEventStream(undefined, text.slice(0, 64))) {
    streamed = new StreamedAnswer();
    streamed.feed(text);
    streamed.end();
  }
  if (streamed) {
    parsed = streamed.completion();
    const failed = streamedFailure(streamed, label);
    if (failed) {
      const content = completionOf(parsed);
      return {
        ...failed,
        model: answeredModel(parsed),
        billed: bill(
          request.model,
          parsed,
          bounds,
          estimate(content.kind === 'choice' ? content.content : ''),
          headerCost,
          call.prices,
        ),
      };
    }
  } else {
    try {
      parsed = JSON.parse(text);
    } catch {
      return {
        ok: false,
        retry: 'malformed',
        error: { kind: 'malformed', message: `${label}: the answer is not JSON` },
      };
    }
  }
  const model = answeredModel(parsed);
  const responseId = answerId(parsed);
  const answer = completionOf(parsed);
  if (answer.kind === 'no-choice') {
    return {
      ok: false,
      retry: 'malformed',
      model,
      billed: bill(request.model, parsed, bounds, estimate(''), headerCost, call.prices),
      error: { kind: 'empty', message: `${label}: the answer has no choices` },
    };
  }
  const billed = bill(request.model, parsed, bounds, estimate(answer.content), headerCost, call.prices);
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
  const ok = { ok: true as const, finishReason: answer.finishReason, model, billed, responseId, firstTokenMs };
  if (called !== undefined) return { ...ok, content: called };
  if (answer.content.trim() === '') {
    return cutOff
      ? failed(
          'cut_off',
          `the answer is empty: it stopped at its limit of ${request.maxTokens ?? MAX_TOKENS_DEFAULT} tokens`,
          'never',
        )
      : failed('empty', 'the answer has no content', 'malformed');
  }
  if (!request.json) return { ...ok, content: answer.content };
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
  return { ...ok, content: json };
}

/**
 * A streamed answer that cannot be used as it is: an `error` event (the status it names, retried like that status),
 * or a stream that ended before its answer did (the connection cut mid-answer: retried like a network error).
 */
function streamedFailure(
  streamed: StreamedAnswer,
  label: string,
): Omit<Extract<Attempt, { ok: false }>, 'billed' | 'model'> | undefined {
  if (streamed.error) {
    const status = streamed.error.status ?? 502;
    const snippet = streamed.error.message.replace(/\s+/g, ' ').trim().slice(0, ERROR_SNIPPET_MAX);
    return {
      ok: false,
      retry: RETRYABLE_STATUS(status) ? 'transient' : 'never',
      error: { kind: 'http', message: `${label}: the stream ended with an error (${status}): ${snippet}`, status },
      ...(status === 429 && { rateLimited: true }),
    };
  }
  if (!streamed.finished) {
    return {
      ok: false,
      retry: 'transient',
      error: { kind: 'network', message: `${label}: the stream ended before its answer did` },
    };
  }
  if (streamed.garbled > 0 && completionOf(streamed.completion()).kind === 'no-choice') {
    return {
      ok: false,
      retry: 'malformed',
      error: { kind: 'malformed', message: `${label}: the stream's events are not JSON` },
    };
  }
  return undefined;
}

/** The id an answer names (`chatcmpl-...`), kept when it is a plausible id. */
function answerId(body: unknown): string | undefined {
  const id = (body as { id?: unknown } | null)?.id;
  return typeof id === 'string' && id.length > 0 && id.length <= 200 && /^[\x21-\x7e]+$/.test(id) ? id : undefined;
}
