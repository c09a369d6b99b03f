// A typed client of the ai-economy public v1 API. The types (schema.ts) are generated from the v1 OpenAPI document
// (GET /api/v1/openapi.json, docs/api/openapi.v1.json in the repository) by openapi-typescript; every call goes
// through openapi-fetch, so a path, a parameter or a field the API does not have is a type error. On top of it:
// - pages(path, query): the pages of a v1 list, following `pagination.nextCursor` (or the Link header rel="next");
// - events(options): the event stream, reconnecting after a drop and resuming with Last-Event-ID, so a follower
//   sees every retained event once, in order, across restarts of the server;
// - every call backs off on 429 and 503 with jitter, honouring Retry-After (backoff.ts), and `rateLimit` is what
//   the last answer said of the rate limit;
// - write(method, path, init): a signed v1 write (wallet.ts), signed again for each retry under one Idempotency-Key;
// - verifyWebhook(secret, headers, body): a Standard Webhooks delivery checked (webhooks.ts).
// This file holds the client itself; api-types.ts the types derived from the schema, errors.ts ApiError, and
// events.ts the event stream's follower.
import createFetchClient, { type Client } from 'openapi-fetch';
import type {
  ListItem,
  ListPage,
  ListPath,
  ListQuery,
  SignedWritePath,
  V1Error,
  WriteData,
  WriteInit,
  WriteMethod,
  WriteResult,
} from './api-types.js';
import {
  backoffDelay,
  type RateLimitState,
  RateLimitTracker,
  type RetryOptions,
  retryAfterSeconds,
  retryingFetch,
  sleep,
} from './backoff.js';
import { ApiError } from './errors.js';
import { type EventStream, type EventsOptions, follow } from './events.js';
import type { components, operations, paths } from './schema.js';
import { SignatureClock, walletAuthorization } from './wallet.js';

// The package's public entry: everything a user imports is exported from here.
export type {
  EventType,
  ListItem,
  ListPage,
  ListPath,
  ListQuery,
  PlatformEvent,
  Schemas,
  SignedWritePath,
  V1Error,
  WriteData,
  WriteInit,
  WriteMethod,
  WriteResult,
} from './api-types.js';
export { ApiError } from './errors.js';
export type { EventStream, EventsOptions } from './events.js';
export type { components, operations, paths };
export {
  backoffDelay,
  type RateLimitState,
  type RetryInfo,
  type RetryOptions,
  readRateLimit,
  retryAfterSeconds,
} from './backoff.js';
export {
  sha256Hex,
  WALLET_SIGNATURE_PREAMBLE,
  type WalletSigner,
  walletAuthorization,
  walletSignatureMessage,
} from './wallet.js';
export {
  type VerifyWebhookOptions,
  verifyWebhook,
  type WebhookHeaders,
  WebhookVerificationError,
} from './webhooks.js';

export interface ClientOptions {
  /** The service's origin, e.g. `https://api.example.com` (the paths carry `/api/v1`). */
  baseUrl: string;
  /** Sent as `x-api-key` with every request. */
  apiKey?: string;
  /** Another fetch (a proxy's, a test's); the global one by default. */
  fetch?: typeof globalThis.fetch;
  /** More headers for every request. */
  headers?: Record<string, string>;
  /** Backing off on 429 and 503 (and the signed writes' retries): 4 retries from 500 ms by default. */
  retry?: RetryOptions;
}

export interface AiEconomyClient {
  /** The openapi-fetch client: `api.GET('/api/v1/tokens', { params: { query: { limit: 10 } } })`, fully typed. */
  api: Client<paths>;
  /** Each page of a v1 list, from the first asked for to the last, following the cursors. */
  pages<P extends ListPath>(
    path: P,
    query?: ListQuery<P>,
    init?: { signal?: AbortSignal },
  ): AsyncGenerator<ListPage<P>>;
  /** Each item of a v1 list, page after page. */
  items<P extends ListPath>(
    path: P,
    query?: ListQuery<P>,
    init?: { signal?: AbortSignal },
  ): AsyncGenerator<ListItem<P>>;
  /** Follows GET /api/v1/events, reconnecting and resuming with Last-Event-ID. */
  events(options?: EventsOptions): EventStream;
  /**
   * A signed v1 write (docs/api/README.md "v1 writes"): the body serialised once, signed by `signer` over the exact
   * bytes sent, under an Idempotency-Key (a new UUID unless given). A 429, a 503, a 409 IDEMPOTENCY_KEY_IN_USE or a
   * network error is retried after a backoff, signed again at a later second under the same key, so a write that
   * did happen answers its first answer (`replayed`) instead of happening twice. Throws ApiError on a refusal.
   */
  write<M extends WriteMethod, P extends SignedWritePath<M>>(
    method: M,
    path: P,
    init: WriteInit<M, P>,
  ): Promise<WriteResult<WriteData<M, P>>>;
  /** What the last answer said of the rate limit (undefined before the first answer that said anything). */
  readonly rateLimit: RateLimitState | undefined;
}

export function createClient(options: ClientOptions): AiEconomyClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const headers: Record<string, string> = { ...options.headers };
  if (options.apiKey !== undefined) headers['x-api-key'] = options.apiKey;
  const doFetch = options.fetch ?? globalThis.fetch;
  const tracker = new RateLimitTracker();
  const retry = options.retry ?? {};
  const sendWithRetries = retryingFetch((request) => doFetch(request), tracker, retry);
  const api = createFetchClient<paths>({ baseUrl, headers, fetch: sendWithRetries });
  const clock = new SignatureClock();

  async function* pages<P extends ListPath>(path: P, query?: ListQuery<P>, init: { signal?: AbortSignal } = {}) {
    let q: Record<string, unknown> = { ...(query as Record<string, unknown> | undefined) };
    for (;;) {
      // The generic path defeats openapi-fetch's overloads; the answer is typed by ListPage<P> instead.
      const get = api.GET as unknown as (
        p: string,
        i: unknown,
      ) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
      const { data, error, response } = await get(path, { params: { query: q }, signal: init.signal });
      if (!response.ok || data === undefined) throw new ApiError(response.status, error, response.headers);
      const page = data as ListPage<P> & { pagination: { hasMore: boolean; nextCursor?: string | null } };
      yield page;
      if (!page.pagination.hasMore) return;
      const next = page.pagination.nextCursor ?? nextLinkCursor(response.headers.get('link'));
      if (next) {
        // A cursor counts pages from itself.
        const { page: _page, ...rest } = q;
        q = { ...rest, cursor: next };
      } else {
        q = { ...q, page: Number(q.page ?? 1) + 1 };
      }
    }
  }

  async function* items<P extends ListPath>(path: P, query?: ListQuery<P>, init: { signal?: AbortSignal } = {}) {
    for await (const page of pages(path, query, init)) {
      for (const item of (page as unknown as { data: ListItem<P>[] }).data) yield item;
    }
  }

  function events(eventOptions: EventsOptions = {}): EventStream {
    const state: { lastEventId: string | undefined } = { lastEventId: eventOptions.lastEventId };
    return {
      get lastEventId() {
        return state.lastEventId;
      },
      [Symbol.asyncIterator]: () => follow(baseUrl, headers, doFetch, eventOptions, state, tracker, retry),
    };
  }

  async function write<M extends WriteMethod, P extends SignedWritePath<M>>(
    method: M,
    path: P,
    init: WriteInit<M, P>,
  ): Promise<WriteResult<WriteData<M, P>>> {
    const params = (init.params ?? {}) as Record<string, string>;
    const target = (path as string).replace(/\{([^}]+)\}/g, (_, name: string) => {
      const value = params[name];
      if (value === undefined) throw new TypeError(`write: no value for {${name}} in ${path}`);
      return encodeURIComponent(value);
    });
    const body = init.body === undefined ? undefined : JSON.stringify(init.body);
    const key = init.idempotencyKey ?? globalThis.crypto.randomUUID();
    const verb = method.toUpperCase();
    const retries = retry.retries ?? 4;
    for (let attempt = 1; ; attempt++) {
      const pace = tracker.waitMs();
      if (pace > 0) await sleep(Math.min(pace, retry.maxDelayMs ?? 60_000), init.signal);
      const timestamp = clock.next(init.signer.address);
      const authorization = await walletAuthorization(init.signer, verb, target, body ?? '', timestamp);
      let response: Response | undefined;
      let networkError: unknown;
      try {
        response = await doFetch(`${baseUrl}${target}`, {
          method: verb,
          headers: {
            ...headers,
            authorization,
            'idempotency-key': key,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body }),
          signal: init.signal,
        });
      } catch (err) {
        if (init.signal?.aborted) throw err;
        networkError = err;
      }
      let payload: unknown;
      if (response) {
        tracker.observe(response.headers);
        payload = await response.json().catch(() => undefined);
        if (response.ok) {
          return {
            data: (payload as { data: WriteData<M, P> }).data,
            status: response.status,
            idempotencyKey: key,
            replayed: response.headers.get('idempotent-replayed') === 'true',
            attempts: attempt,
          };
        }
      }
      const code = (payload as Partial<V1Error> | undefined)?.error?.code;
      const retriable =
        response === undefined ||
        RETRIED.has(response.status) ||
        (response.status === 409 && code === 'IDEMPOTENCY_KEY_IN_USE');
      const retryAfter = retryAfterSeconds(response?.headers);
      // In use: the first request is usually done within a second (the message says so; no Retry-After on a 409).
      const delayMs =
        attempt > retries || !retriable
          ? undefined
          : backoffDelay(attempt, retryAfter ?? (code === 'IDEMPOTENCY_KEY_IN_USE' ? 1 : undefined), retry);
      if (delayMs === undefined) {
        if (response) throw new ApiError(response.status, payload, response.headers);
        throw networkError;
      }
      retry.onRetry?.({
        attempt,
        status: response?.status ?? 0,
        delayMs,
        retryAfter,
        method: verb,
        url: `${baseUrl}${target}`,
      });
      await sleep(delayMs, init.signal);
    }
  }

  return {
    api,
    pages,
    items,
    events,
    write,
    get rateLimit() {
      return tracker.state;
    },
  };
}

const RETRIED: ReadonlySet<number> = new Set([429, 503]);

/** The `cursor` of a Link header's rel="next" URL, if it has one. */
function nextLinkCursor(link: string | null): string | undefined {
  if (!link) return undefined;
  for (const part of link.split(',')) {
    const match = /<([^>]*)>\s*;\s*rel="?next"?/.exec(part.trim());
    if (match) return new URL(match[1]!, 'http://placeholder').searchParams.get('cursor') ?? undefined;
  }
  return undefined;
}
