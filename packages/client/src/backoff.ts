// Backing off: every call the client makes waits and tries again on 429 (too many requests) and 503 (the service or
// a dependency unavailable), honouring Retry-After and adding jitter so that many clients refused at once do not
// come back at once. The rate-limit headers of every answer (docs/api/README.md "Rate limits") are read into a
// RateLimitState the caller can see, and a client whose window is spent waits for its end before sending.

export interface RetryOptions {
  /** Attempts after the first one; 4 by default, 0 never retries. */
  retries?: number;
  /** The wait after a first refusal without Retry-After, doubled with each further one; 500 ms by default. */
  baseDelayMs?: number;
  /**
   * The longest wait: a Retry-After longer than this is not waited out (the refusal is answered to the caller, as
   * after the last attempt); 60,000 ms by default.
   */
  maxDelayMs?: number;
  /** Called before each wait, with what it waits for. */
  onRetry?: (info: RetryInfo) => void;
  /** Another source of randomness for the jitter (a test's); Math.random by default. */
  random?: () => number;
}

export interface RetryInfo {
  /** 1 for the first retry. */
  attempt: number;
  /** The status that is retried (429, 503, or 409 for an Idempotency-Key still in use); 0 for a network error. */
  status: number;
  /** How long it waits, in milliseconds. */
  delayMs: number;
  /** Retry-After of the refusal, in seconds, when it had one. */
  retryAfter: number | undefined;
  method: string;
  url: string;
}

/** The statuses worth the same request again later. */
export const RETRIED_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/**
 * The rate limit as the last answer stated it: `RateLimit-Policy` (`"key";q=600;w=60`) and `RateLimit`
 * (`"key";r=597;t=30`), or the `X-RateLimit-*` fields.
 */
export interface RateLimitState {
  /** The policy that counted the request: `key` (per API key) or `ip`. */
  policy: string | undefined;
  /** Requests allowed per window. */
  limit: number | undefined;
  /** The window, in seconds. */
  windowSeconds: number | undefined;
  /** Requests left in this window. */
  remaining: number | undefined;
  /** Seconds until the window ends, when the answer came. */
  resetSeconds: number | undefined;
  /** When the answer came (ms since the epoch): the window ends at `observedAt + resetSeconds * 1000`. */
  observedAt: number;
}

/** `"key";r=597;t=30` as `{ name: 'key', r: 597, t: 30 }`. */
function structuredItem(value: string | null): { name: string; params: Record<string, number> } | undefined {
  if (!value) return undefined;
  const [first, ...params] = value
    .split(',')[0]!
    .split(';')
    .map((s) => s.trim());
  const name = first!.replace(/^"|"$/g, '');
  const out: Record<string, number> = {};
  for (const param of params) {
    const [k, v] = param.split('=');
    const n = Number(v);
    if (k && Number.isFinite(n)) out[k] = n;
  }
  return { name, params: out };
}

const numberOf = (value: string | null) => {
  if (value === null || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
};

/** The rate-limit state an answer's headers give; undefined when they give none. */
export function readRateLimit(headers: Headers, nowMs: number = Date.now()): RateLimitState | undefined {
  const policy = structuredItem(headers.get('ratelimit-policy'));
  const current = structuredItem(headers.get('ratelimit'));
  const state: RateLimitState = {
    policy: current?.name ?? policy?.name,
    limit: policy?.params.q ?? numberOf(headers.get('x-ratelimit-limit')),
    windowSeconds: policy?.params.w,
    remaining: current?.params.r ?? numberOf(headers.get('x-ratelimit-remaining')),
    resetSeconds: current?.params.t ?? numberOf(headers.get('x-ratelimit-reset')),
    observedAt: nowMs,
  };
  return state.limit === undefined && state.remaining === undefined ? undefined : state;
}

/** Retry-After in seconds: delta-seconds or an HTTP-date; undefined when absent or unreadable. */
export function retryAfterSeconds(headers: Headers | undefined, nowMs: number = Date.now()): number | undefined {
  const value = headers?.get('retry-after');
  if (value === null || value === undefined || value.trim() === '') return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - nowMs) / 1000));
}

/**
 * The wait before retry number `attempt` (1 for the first): Retry-After when the answer had one, plus up to
 * `baseDelayMs` of jitter; without it, exponential with equal jitter (half the step fixed, half random).
 * Undefined when Retry-After asks for longer than `maxDelayMs`: do not wait, give the refusal back.
 */
export function backoffDelay(
  attempt: number,
  retryAfter: number | undefined,
  options: RetryOptions = {},
): number | undefined {
  const base = options.baseDelayMs ?? 500;
  const max = options.maxDelayMs ?? 60_000;
  const random = options.random ?? Math.random;
  if (retryAfter !== undefined) {
    const wait = retryAfter * 1000;
    if (wait > max) return undefined;
    return Math.round(wait + random() * base);
  }
  const step = Math.min(max, base * 2 ** (attempt - 1));
  return Math.round(step / 2 + random() * (step / 2));
}

/** Resolves after `ms`, or at once when `signal` aborts (the caller's next await then sees the abort). */
export const sleep = (ms: number, signal?: AbortSignal | null) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted || ms <= 0) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/** Where the client keeps what the answers said of the rate limit. */
export class RateLimitTracker {
  state: RateLimitState | undefined;

  observe(headers: Headers) {
    const state = readRateLimit(headers);
    if (state) this.state = state;
  }

  /** Milliseconds to wait before sending so as not to be refused: the rest of a window with nothing left. */
  waitMs(nowMs: number = Date.now()): number {
    const s = this.state;
    if (!s || s.remaining === undefined || s.remaining > 0 || s.resetSeconds === undefined) return 0;
    return Math.max(0, s.observedAt + s.resetSeconds * 1000 - nowMs);
  }
}

/**
 * A fetch that waits out a spent window, and on 429 or 503 waits (backoffDelay) and sends the same request again,
 * up to `retries` times; it records every answer's rate-limit headers in `tracker`. A request signed by a wallet
 * (`Authorization: Wallet ...`) is sent once: its signature may not be used twice, so the signed-write helper
 * (`client.write`) retries it by signing again.
 */
export function retryingFetch(
  doFetch: typeof globalThis.fetch,
  tracker: RateLimitTracker,
  options: RetryOptions = {},
): (request: Request) => Promise<Response> {
  const retries = options.retries ?? 4;
  const max = options.maxDelayMs ?? 60_000;
  return async (request: Request) => {
    const signed = /^\s*wallet\s/i.test(request.headers.get('authorization') ?? '');
    for (let attempt = 0; ; attempt++) {
      const pace = tracker.waitMs();
      if (pace > 0) await sleep(Math.min(pace, max), request.signal);
      const last = signed || attempt >= retries;
      const response = await doFetch(last ? request : request.clone());
      tracker.observe(response.headers);
      if (last || !RETRIED_STATUSES.has(response.status)) return response;
      const retryAfter = retryAfterSeconds(response.headers);
      const delayMs = backoffDelay(attempt + 1, retryAfter, options);
      if (delayMs === undefined) return response;
      options.onRetry?.({
        attempt: attempt + 1,
        status: response.status,
        delayMs,
        retryAfter,
        method: request.method,
        url: request.url,
      });
      // The refused answer's body is not needed: free the connection.
      await response.body?.cancel().catch(() => {});
      await sleep(delayMs, request.signal);
      if (request.signal?.aborted) throw request.signal.reason ?? new Error('aborted');
    }
  };
}
