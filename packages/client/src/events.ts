// The event stream's follower: the SSE messages of GET /api/v1/events read from the byte stream, a reconnect after a
// drop resuming with Last-Event-ID (backing off while attempts fail), and, when asked, the events a resume is too
// late for read from the backfill before the stream resumes after them.
import type { EventType, PlatformEvent, V1Error } from './api-types.js';
import { type RateLimitTracker, type RetryOptions, retryAfterSeconds, sleep } from './backoff.js';
import { ApiError } from './errors.js';

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

/** The events of the stream, followed across reconnects (the client's `events()`). */
export async function* follow(
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
