// One HTTP POST of a model call on node:http, bounded by a deadline the engine owns. Node's fetch follows the
// caller's AbortSignal through a weak reference (an open issue of Node and undici): once a garbage collection runs
// during an attempt, aborting no longer reaches an answer whose headers arrived and whose body then stalls or
// trickles, and the attempt lasts until undici's own 300 s body timeout. Here the deadline's timer and the caller's
// abort listener hold the request itself, and on either one the socket is destroyed, whatever the body does.
// Redirects are never followed (node:http does not): a 3xx comes back as its status.
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { VERSION } from '../../../version.ts';

/** Connections kept open between calls; no cap of their own (the provider limiter caps calls in flight). */
const httpAgent = new HttpAgent({ keepAlive: true, keepAliveMsecs: 10_000 });
const httpsAgent = new HttpsAgent({ keepAlive: true, keepAliveMsecs: 10_000 });

/** The User-Agent every model call sends. */
export const USER_AGENT = `ai-economy-engine/${VERSION} (node:http)`;

/** Why a POST ended without an answer. */
export class TransportError extends Error {
  constructor(
    readonly reason: 'deadline' | 'aborted' | 'network' | 'first-byte' | 'stalled',
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
  /** Streaming: at most this long until the first body byte, then at most `progressMs` between two chunks. */
  firstByteMs?: number | undefined;
  progressMs?: number | undefined;
}

export interface Posted {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as text, or `oversize` once it passed `maxBytes` (the rest never read). */
  read: { text: string } | { oversize: true; bytes: number };
  /** Milliseconds from sending to the first body byte (undefined for an empty body). */
  firstByteMs?: number | undefined;
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
    let firstByteMs: number | undefined;
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
    const watch = (ms: number | undefined, reason: 'first-byte' | 'stalled', message: string) => {
      clearTimeout(progress);
      if (ms !== undefined) progress = setTimeout(() => fail(reason, message), ms);
    };
    watch(options.firstByteMs, 'first-byte', `no first byte within ${options.firstByteMs} ms`);

    req.on('error', (err: Error & { code?: string }) => {
      finish({ err: new TransportError('network', err.message, err.code) }, true);
    });
    req.on('response', (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > options.maxBytes) {
        return finish({ ok: { status, headers: res.headers, read: { oversize: true, bytes: declared } } }, true);
      }
      const chunks: Buffer[] = [];
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
        watch(options.progressMs, 'stalled', `the answer stalled for ${options.progressMs} ms`);
      });
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        finish({ ok: { status, headers: res.headers, read: { text }, firstByteMs } }, false);
      });
      res.on('error', (err: Error & { code?: string }) => {
        finish({ err: new TransportError('network', err.message, err.code) }, true);
      });
      res.on('aborted', () => fail('network', 'the connection closed before the answer ended'));
    });
    req.end(body);
  });
}
