// One model call on one route, retried: the request body built once, each attempt waiting for a slot of the
// provider's lane (moving the round's heartbeat while it waits), transient failures retried with backoff and
// jitter (a 429's Retry-After pausing the whole lane), a malformed answer retried once; and every attempt's bill
// added up, so that what is recorded, answered or failed, is what was paid.

import type { Span } from '@opentelemetry/api';
import { estimatePromptTokens, MODEL_TEXT_KEPT_MAX, usageBounds } from './answer.ts';
import { type Attempt, attempt, type Billed, MAX_TOKENS_DEFAULT, type ModelRoute } from './attempt.ts';
import { costOf, type PriceTable, providerOf } from './catalog.ts';
import { openRouterFields } from './fallbacks.ts';
import type { ProviderLimiter } from './limiter.ts';
import { cacheFields, reasoningFields, requestBody } from './request.ts';
import {
  type ChatRequest,
  type ChatResult,
  type EngineModelId,
  ModelError,
  type ModelLogger,
  type ModelUsage,
} from './types.ts';

/** How a provider calls: its bounds, its lanes, its retry policy, and what it sends with every request. */
export interface CallSettings {
  timeoutMs: number;
  maxRetries: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  retryAfterMaxMs: number;
  maxResponseBytes: number;
  limiter: ProviderLimiter;
  random: () => number;
  log: ModelLogger | undefined;
  appHeaders: Record<string, string>;
  streaming: { asked: boolean; firstTokenMs: number; progressMs: number; maxMs: number };
  prices: PriceTable | undefined;
  gatewayKind: 'openrouter' | 'generic' | undefined;
  /** Keys never leave in a message, whatever an endpoint echoes back. */
  scrub: (text: string) => string;
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

export async function callWithRetries(
  settings: CallSettings,
  route: ModelRoute,
  request: ChatRequest,
  span: Span,
  gatewayModels: EngineModelId[] | undefined,
): Promise<ChatResult> {
  const { limiter, log, streaming, scrub, random, maxRetries, backoffBaseMs, backoffMaxMs, retryAfterMaxMs } = settings;
  const started = performance.now();
  const provider = providerOf(request.model);
  const lane = `${route.via}:${provider}`;
  const label = `${request.model} via ${route.via === 'gateway' ? 'the gateway' : `the ${route.via} endpoint`}`;
  const maxTokens = request.maxTokens ?? MAX_TOKENS_DEFAULT;
  const sent = { ...request, maxTokens };
  const body = JSON.stringify({
    ...requestBody(route, sent),
    ...cacheFields(route, sent),
    ...reasoningFields(route, sent, settings.gatewayKind),
    ...(request.user !== undefined && { user: request.user }),
    ...(settings.gatewayKind === 'openrouter' && route.via === 'gateway' && openRouterFields(sent, gatewayModels)),
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
      ? costOf(request.model, spent.listPrompt, spent.listCompletion, settings.prices)
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
        timeoutMs: settings.timeoutMs,
        maxResponseBytes: settings.maxResponseBytes,
        headers: settings.appHeaders,
        prices: settings.prices,
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
