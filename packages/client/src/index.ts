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
import createFetchClient, { type Client } from 'openapi-fetch';
import {
  backoffDelay,
  type RateLimitState,
  RateLimitTracker,
  type RetryOptions,
  retryAfterSeconds,
  retryingFetch,
  sleep,
} from './backoff.js';
import type { components, operations, paths } from './schema.js';
import { SignatureClock, type WalletSigner, walletAuthorization } from './wallet.js';

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
export type Schemas = components['schemas'];
/** A platform event of the stream, typed by `type` (and season events by `data.kind`). */
export type PlatformEvent =
  | Schemas['DecisionEvent']
  | Schemas['TradeEvent']
  | Schemas['ScoreEvent']
  | Schemas['SeasonEvent'];
export type EventType = PlatformEvent['type'];
export type V1Error = Schemas['V1Error'];

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

/** An answer other than 2xx, with the v1 error envelope's code, message and details when it had one. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly details: V1Error['error']['details'];
  /** Seconds, from Retry-After (429, 503). */
  readonly retryAfter: number | undefined;

  constructor(status: number, body: unknown, headers?: Headers) {
    const error = (body as Partial<V1Error> | undefined)?.error;
    super(error ? `${status} ${error.code}: ${error.message}` : `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.code = error?.code;
    this.details = error?.details;
    const retry = Number(headers?.get('retry-after') ?? Number.NaN);
    this.retryAfter = Number.isFinite(retry) ? retry : undefined;
  }
}

/** The 200 JSON body of a GET path. */
type Body200<P extends keyof paths> = paths[P] extends {
  get: { responses: { 200: { content: { 'application/json': infer B } } } };
}
  ? B
  : never;
/** The query parameters of a GET path. */
type QueryOf<P extends keyof paths> = paths[P] extends { get: { parameters: { query?: infer Q } } }
  ? NonNullable<Q>
  : never;
/** The v1 lists: GET paths without path parameters whose answer has `pagination`. */
export type ListPath = {
  [P in keyof paths]: [Body200<P>] extends [never]
    ? never
    : Body200<P> extends { pagination: unknown }
      ? paths[P] extends { get: { parameters: { path?: never } } }
        ? P
        : never
      : never;
}[keyof paths];
export type ListQuery<P extends ListPath> = QueryOf<P>;
export type ListPage<P extends ListPath> = Body200<P>;
export type ListItem<P extends ListPath> = Body200<P> extends { data: (infer I)[] } ? I : never;

export interface EventsOptions {
  /** Only these types (all when absent). */
  types?: EventType[];
  /** Only these companies, by slug or id (all when absent); season events pass every filter. */
  companies?: string[];
  /** Resume after this event id (the last one a previous follower saw). */
  lastEventId?: string;
  /** Ends the follower: the iteration then finishes without an error. */
  signal?: AbortSignal;
  /**
   * The wait before reconnecting after the stream ends or the server cannot be reached; the server's `retry:` field
   * (3000 ms) when absent. Doubles while attempts fail, up to maxReconnectDelayMs.
   */
  reconnectDelayMs?: number;
  /** The longest wait between failed attempts; 30,000 ms by default. */
  maxReconnectDelayMs?: number;
  /** Called each time a stream opens, with the id it resumes after (undefined on a fresh start). */
  onConnect?: (info: { lastEventId: string | undefined; attempt: number }) => void;
  /**
   * When a resume is refused with 410 EVENTS_EXPIRED because the events after its id are older than the stream
   * serves (but still kept): read them from the backfill (`GET /api/v1/events?after=`, page after page, the same
   * filters), yield them, and resume the stream after the last one, instead of ending with the ApiError. Events the
   * retention deleted still end the follower with the 410 (rebuild from the REST reads). Off by default.
   */
  backfill?: boolean;
  /** Called after each backfill, with the id it read after and how many events it yielded. */
  onBackfill?: (info: { after: string; events: number }) => void;
}

/** The followed stream: an async iterable of platform events that knows the last event id it saw. */
export interface EventStream extends AsyncIterable<PlatformEvent> {
  /** The id to resume after: the last event received, or the `connected` message's when none came yet. */
  readonly lastEventId: string | undefined;
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

export type WriteMethod = 'post' | 'put' | 'patch';
type OperationOf<M extends WriteMethod, P extends keyof paths> = NonNullable<paths[P][M]>;
type HeadersOf<Op> = Op extends { parameters: { header?: infer H } } ? NonNullable<H> : never;
/** The v1 writes a wallet signs: those taking an Idempotency-Key. */
export type SignedWritePath<M extends WriteMethod> = {
  [P in keyof paths]: [paths[P][M]] extends [undefined]
    ? never
    : [HeadersOf<OperationOf<M, P>>] extends [never]
      ? never
      : 'Idempotency-Key' extends keyof HeadersOf<OperationOf<M, P>>
        ? P
        : never;
}[keyof paths];
type PathParamsOf<M extends WriteMethod, P extends keyof paths> = OperationOf<M, P> extends {
  parameters: { path: infer T };
}
  ? T extends Record<string, unknown>
    ? T
    : never
  : never;
type BodyOf<M extends WriteMethod, P extends keyof paths> = OperationOf<M, P> extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;
type SuccessOf<R> = R extends { 200: { content: { 'application/json': infer B } } }
  ? B
  : R extends { 201: { content: { 'application/json': infer B } } }
    ? B
    : never;
/** The `data` of a signed write's success. */
export type WriteData<M extends WriteMethod, P extends keyof paths> = SuccessOf<
  OperationOf<M, P>['responses']
> extends {
  data: infer D;
}
  ? D
  : never;

export type WriteInit<M extends WriteMethod, P extends keyof paths> = {
  /** The card holder's account (a viem account fits). */
  signer: WalletSigner;
  /** Retries send this key again; a new UUID when absent (read it back from the result). */
  idempotencyKey?: string;
  signal?: AbortSignal;
} & ([PathParamsOf<M, P>] extends [never] ? { params?: never } : { params: PathParamsOf<M, P> }) &
  ([BodyOf<M, P>] extends [never] ? { body?: never } : { body: BodyOf<M, P> });

export interface WriteResult<D> {
  data: D;
  status: number;
  /** The key the write was sent under: send it again to get the same answer for 24 hours. */
  idempotencyKey: string;
  /** true when the answer is the stored first answer (a retry of a write that had happened). */
  replayed: boolean;
  /** How many times it was sent. */
  attempts: number;
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

/** One message of a text/event-stream (https://html.spec.whatwg.org/multipage/server-sent-events.html). */
interface SseMessage {
  event: string;
  data: string;
  id: string | undefined;
}

/** Splits a byte stream into SSE messages; reports `retry:` values to `onRetry`. */
async function* sseMessages(
  body: ReadableStream<Uint8Array>,
  onRetry: (ms: number) => void,
): AsyncGenerator<SseMessage> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let id: string | undefined;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      // A line ends with CRLF, LF or CR; a CR at the very end may be the first half of a CRLF still to come.
      for (;;) {
        const at = buffer.search(/\r\n|\n|\r(?!$)/);
        if (at === -1) break;
        const line = buffer.slice(0, at);
        buffer = buffer.slice(at + (buffer.startsWith('\r\n', at) ? 2 : 1));
        if (line === '') {
          if (data.length > 0) yield { event: event || 'message', data: data.join('\n'), id };
          event = '';
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        let value = colon === -1 ? '' : line.slice(colon + 1);
        if (value.startsWith(' ')) value = value.slice(1);
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
        else if (field === 'id' && !value.includes('\0')) id = value;
        else if (field === 'retry' && /^[0-9]+$/.test(value)) onRetry(Number(value));
      }
    }
  } finally {
    // Also when the caller stops iterating: the connection is closed, not left open.
    await reader.cancel().catch(() => {});
  }
}

/** A 410 EVENTS_EXPIRED for events outside the stream's window but still kept (not one for deleted events). */
function outsideWindow(status: number, body: unknown): boolean {
  const error = (body as Partial<V1Error> | undefined)?.error;
  return (
    status === 410 &&
    error?.code === 'EVENTS_EXPIRED' &&
    (error.details ?? []).some((d) => d.message.startsWith("outside the stream's window"))
  );
}

/** The backfill's events after `after`, oldest first, page after page (docs/api/events.md "Backfill"). */
async function* backfillEvents(
  baseUrl: string,
  headers: Record<string, string>,
  doFetch: typeof globalThis.fetch,
  filters: URLSearchParams,
  after: string,
  signal: AbortSignal | undefined,
): AsyncGenerator<PlatformEvent> {
  let cursor: string | undefined;
  for (;;) {
    const query = new URLSearchParams(filters);
    query.set('after', after);
    if (cursor) query.set('cursor', cursor);
    const response = await doFetch(`${baseUrl}/api/v1/events?${query}`, {
      headers: { ...headers, accept: 'application/json' },
      signal,
    });
    const body = await response.json().catch(() => undefined);
    if (!response.ok) throw new ApiError(response.status, body, response.headers);
    const page = body as { data: PlatformEvent[]; pagination: { hasMore: boolean; nextCursor?: string | null } };
    for (const event of page.data) yield event;
    if (!page.pagination.hasMore || !page.pagination.nextCursor) return;
    cursor = page.pagination.nextCursor;
  }
}

/** Event ids a follower remembers to drop repeats after a resume from a low-water mark. */
const SEEN_KEPT = 10_000;

async function* follow(
  baseUrl: string,
  headers: Record<string, string>,
  doFetch: typeof globalThis.fetch,
  options: EventsOptions,
  state: { lastEventId: string | undefined },
  tracker: RateLimitTracker,
  retry: RetryOptions,
): AsyncGenerator<PlatformEvent> {
  const { signal } = options;
  const query = new URLSearchParams();
  if (options.types?.length) query.set('types', options.types.join(','));
  if (options.companies?.length) query.set('companies', options.companies.join(','));
  const search = query.toString();
  const url = `${baseUrl}/api/v1/events${search ? `?${search}` : ''}`;
  let serverRetry = 3000;
  let failures = 0;
  // A frame's id is where to resume: below an event still missing that may commit late, so a resume sends again
  // what came after it. Repeats are dropped by the event's own id (the latest SEEN_KEPT are remembered).
  const seen = new Set<string>();
  for (let attempt = 1; !signal?.aborted; attempt++) {
    let response: Response | undefined;
    try {
      const resume = state.lastEventId;
      response = await doFetch(url, {
        headers: { ...headers, accept: 'text/event-stream', ...(resume ? { 'last-event-id': resume } : {}) },
        signal,
      });
      tracker.observe(response.headers);
      if (response.ok && response.body) {
        failures = 0;
        options.onConnect?.({ lastEventId: resume, attempt });
        for await (const message of sseMessages(response.body, (ms) => {
          serverRetry = ms;
        })) {
          if (message.id !== undefined) state.lastEventId = message.id;
          if (message.event === 'connected') continue;
          const event = JSON.parse(message.data) as PlatformEvent;
          if (seen.has(event.id)) continue;
          seen.add(event.id);
          if (seen.size > SEEN_KEPT) seen.delete(seen.values().next().value as string);
          yield event;
        }
      } else {
        const body = await response.json().catch(() => undefined);
        const after = state.lastEventId;
        if (options.backfill && after !== undefined && outsideWindow(response.status, body)) {
          // The events the stream no longer serves, from the backfill; then the stream again at once.
          let count = 0;
          for await (const event of backfillEvents(baseUrl, headers, doFetch, query, after, signal)) {
            state.lastEventId = event.id;
            if (seen.has(event.id)) continue;
            seen.add(event.id);
            if (seen.size > SEEN_KEPT) seen.delete(seen.values().next().value as string);
            count++;
            yield event;
          }
          options.onBackfill?.({ after, events: count });
          // A backfill that moved nothing would be refused the same way again.
          if (state.lastEventId === after) throw new ApiError(response.status, body, response.headers);
          continue;
        }
        // A request the server refuses as such (a bad filter, a key it does not know) would fail again.
        if (response.status < 500 && response.status !== 429)
          throw new ApiError(response.status, body, response.headers);
        failures++;
      }
    } catch (err) {
      if (err instanceof ApiError) throw err;
      if (signal?.aborted) return;
      // The server is down or the connection dropped: wait, then resume.
      failures++;
    }
    const base = options.reconnectDelayMs ?? serverRetry;
    const retryAfter = retryAfterSeconds(response?.headers);
    const random = retry.random ?? Math.random;
    // Retry-After as asked plus a little jitter; else doubling while attempts fail, the last quarter random, so
    // followers dropped together do not all come back in the same instant.
    const step = Math.min(base * 2 ** Math.max(0, failures - 1), options.maxReconnectDelayMs ?? 30_000);
    const wait =
      retryAfter !== undefined ? retryAfter * 1000 + random() * Math.min(base, 1000) : step * (0.75 + random() / 4);
    await sleep(wait, signal);
  }
}
