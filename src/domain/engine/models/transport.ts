// One HTTP POST of a model call on node:http, bounded by a deadline the engine owns. Node's fetch follows the
// caller's AbortSignal through a weak reference (an open issue of Node and undici): once a garbage collection runs
// during an attempt, aborting no longer reaches an answer whose headers arrived and whose body then stalls or
// trickles, and the attempt lasts until undici's own 300 s body timeout. Here the deadline's timer and the caller's
// abort listener hold the request itself, and on either one the socket is destroyed, whatever the body does.
// Redirects are never followed (node:http does not): a 3xx comes back as its status. A streamed answer (Server-Sent
// Events) is read event by event as it arrives (stream.ts), bounded by its time to first token and the longest gap
// between two tokens as well as by the deadline, and by the same byte cap as any answer.
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { StringDecoder } from 'node:string_decoder';
import { VERSION } from '../../../version.ts';
import { isEventStream, StreamedAnswer } from './stream.ts';

/** Connections kept open between calls; no cap of their own (the provider limiter caps calls in flight). */
const httpAgent = new HttpAgent({ keepAlive: true, keepAliveMsecs: 10_000 });
const httpsAgent = new HttpsAgent({ keepAlive: true, keepAliveMsecs: 10_000 });

/** The User-Agent every model call sends. */
export const USER_AGENT = `ai-economy-engine/${VERSION} (node:http)`;

/** Why a POST ended without an answer. */
export class TransportError extends Error {
  constructor(
    readonly reason: 'deadline' | 'aborted' | 'network' | 'first-token' | 'stalled',
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

export interface PostOptions {
  /** The whole attempt, from sending to the last byte read; the socket is destroyed when it passes. */
  deadlineMs: number;
  /** Bytes of the body read at most; past it the socket is destroyed and `oversize` returned. */
  maxBytes: number;
  signal?: AbortSignal | undefined;
  /**
   * The bounds of a streamed answer (Server-Sent Events): at most `firstTokenMs` until the first event that carries
   * some of the answer, then at most `progressMs` between two such events (keep-alive comments are not progress).
   * With `asked`, the request asked to stream: the first token is timed from sending, and an answer that comes back
   * as plain JSON must end within `plainDeadlineMs` of sending. Without it, an answer that streams anyway is held
   * to the same bounds from its headers on, within `deadlineMs`.
   */
  stream?: { firstTokenMs: number; progressMs: number; asked: boolean; plainDeadlineMs?: number } | undefined;
}

export interface Posted {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as text, or `oversize` once it passed `maxBytes` (the rest never read). */
  read: { text: string } | { oversize: true; bytes: number };
  /** The answer as its events were read, when it was a stream (`text` then holds the raw events). */
  streamed?: StreamedAnswer | undefined;
  /** Milliseconds from sending to the first body byte (undefined for an empty body). */
  firstByteMs?: number | undefined;
  /** Milliseconds from sending to the first event that carried some of a streamed answer. */
  firstTokenMs?: number | undefined;
}

/** POSTs `body` to `url`; resolves with the status and body read, rejects with a TransportError. */
export function post(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: PostOptions,
): Promise<Posted> {
  return new Promise<Posted>((resolve, reject) => {
    const { signal } = options;
    if (signal?.aborted) return reject(signal.reason);
    const target = new URL(url);
    const secure = target.protocol === 'https:';
    const started = performance.now();
    let settled = false;
    let progress: NodeJS.Timeout | undefined;
    let plain: NodeJS.Timeout | undefined;
    let firstByteMs: number | undefined;
    let firstTokenMs: number | undefined;
    const req = (secure ? httpsRequest : httpRequest)(target, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      agent: secure ? httpsAgent : httpAgent,
    });
    // Every path out goes through `finish`: the timers cleared, the listener removed, the socket destroyed unless
    // the answer was read whole.
    const finish = (outcome: { ok: Posted } | { err: unknown }, destroy: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      clearTimeout(plain);
      clearTimeout(progress);
      signal?.removeEventListener('abort', onAbort);
      if (destroy) req.destroy();
      if ('ok' in outcome) resolve(outcome.ok);
      else reject(outcome.err);
    };
    const fail = (reason: TransportError['reason'], message: string) =>
      finish({ err: new TransportError(reason, message) }, true);
    const deadline = setTimeout(
      () => fail('deadline', `no answer within ${options.deadlineMs} ms`),
      options.deadlineMs,
    );
    const onAbort = () => finish({ err: signal?.reason }, true);
    signal?.addEventListener('abort', onAbort, { once: true });
    const bounds = options.stream;
    const watch = (ms: number, reason: 'first-token' | 'stalled', message: string) => {
      clearTimeout(progress);
      progress = setTimeout(() => fail(reason, message), ms);
    };
    const watchFirstToken = () => {
      if (bounds) watch(bounds.firstTokenMs, 'first-token', `no first token within ${bounds.firstTokenMs} ms`);
    };
    if (bounds?.asked) watchFirstToken();

    req.on('error', (err: Error & { code?: string }) => {
      finish({ err: new TransportError('network', err.message, err.code) }, true);
    });
    req.on('response', (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > options.maxBytes) {
        return finish({ ok: { status, headers: res.headers, read: { oversize: true, bytes: declared } } }, true);
      }
      const contentType = res.headers['content-type'];
      // Whether the answer is a stream: by its content type, else by its first bytes.
      let streamed: StreamedAnswer | undefined;
      let judged = false;
      const judge = (head: string) => {
        judged = true;
        if (status >= 200 && status < 300 && isEventStream(contentType, head)) {
          streamed = new StreamedAnswer();
          if (bounds && !bounds.asked) watchFirstToken();
          return;
        }
        // Not a stream: no token to wait for; a request that asked to stream ends within its plain deadline.
        clearTimeout(progress);
        if (bounds?.asked && bounds.plainDeadlineMs !== undefined) {
          const ms = bounds.plainDeadlineMs;
          plain = setTimeout(
            () => fail('deadline', `no answer within ${ms} ms`),
            Math.max(0, ms - (performance.now() - started)),
          );
        }
      };
      if (typeof contentType === 'string' && contentType.trim() !== '') judge('');
      const chunks: Buffer[] = [];
      const decoder = new StringDecoder('utf8');
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        if (settled) return;
        if (firstByteMs === undefined) firstByteMs = Math.round(performance.now() - started);
        bytes += chunk.byteLength;
        if (bytes > options.maxBytes) {
          finish({ ok: { status, headers: res.headers, read: { oversize: true, bytes } } }, true);
          return;
        }
        chunks.push(chunk);
        if (!judged) judge(chunk.toString('utf8', 0, Math.min(chunk.byteLength, 64)));
        if (streamed?.feed(decoder.write(chunk))) {
          firstTokenMs ??= Math.round(performance.now() - started);
          if (bounds) watch(bounds.progressMs, 'stalled', `the streamed answer stalled for ${bounds.progressMs} ms`);
        }
      });
      res.on('end', () => {
        if (!judged) judge('');
        if (streamed) {
          streamed.feed(decoder.end());
          streamed.end();
        }
        const text = Buffer.concat(chunks).toString('utf8');
        finish({ ok: { status, headers: res.headers, read: { text }, streamed, firstByteMs, firstTokenMs } }, false);
      });
      res.on('error', (err: Error & { code?: string }) => {
        finish({ err: new TransportError('network', err.message, err.code) }, true);
      });
      res.on('aborted', () => fail('network', 'the connection closed before the answer ended'));
    });
    req.end(body);
  });
}
