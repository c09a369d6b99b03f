// One webhook attempt over HTTP(S): the name resolved here and only allowed addresses handed to the connection
// (targets.ts), the connected address checked again, a whole-attempt timeout, no redirect followed (a 3xx is a
// failure), and only the first bytes of the answer read.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction, type Socket } from 'node:net';
import { WEBHOOK_RESPONSE_PREFIX_BYTES } from '../../constants.ts';
import { storableText } from '../../text.ts';
import { VERSION } from '../../version.ts';
import { isAllowedTarget } from './targets.ts';

export interface AttemptResult {
  /** The receiver's status; null when none came. */
  statusCode: number | null;
  latencyMs: number;
  /** The first WEBHOOK_RESPONSE_PREFIX_BYTES of the answer, as UTF-8 text. */
  response: string;
  /** Why the attempt failed; null for a 2xx. */
  error: string | null;
}

export interface SendOptions {
  timeoutMs: number;
  allowLoopback: boolean;
}

const REFUSED = 'the target resolves to a loopback, private, link-local or reserved address';

/** A lookup that answers only allowed addresses, and fails when the name has none. */
function guardedLookup(allowLoopback: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const allowed = addresses.filter((a) => isAllowedTarget(a.address, allowLoopback));
      if (allowed.length === 0) return callback(Object.assign(new Error(REFUSED), { code: 'EREFUSEDTARGET' }), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
      return callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}

export function sendWebhook(
  target: string,
  headers: Record<string, string>,
  body: string,
  options: SendOptions,
): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (result: Omit<AttemptResult, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, latencyMs: elapsed() });
    };
    const fail = (error: string) => finish({ statusCode: null, response: '', error });
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      fail('invalid URL');
      return;
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) !== 0 && !isAllowedTarget(host, options.allowLoopback)) {
      fail(REFUSED);
      return;
    }
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const payload = Buffer.from(body);
    const req = send(url, {
      method: 'POST',
      agent: false,
      lookup: guardedLookup(options.allowLoopback),
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': String(payload.length),
        'user-agent': `ai-economy-webhooks/${VERSION}`,
      },
    });
    timer = setTimeout(() => {
      req.destroy();
      fail(`timed out after ${options.timeoutMs} ms`);
    }, options.timeoutMs);
    req.on('socket', (socket: Socket) => {
      // The address actually connected to, whatever resolved it.
      socket.once('connect', () => {
        const remote = socket.remoteAddress;
        if (remote === undefined || !isAllowedTarget(remote, options.allowLoopback)) {
          req.destroy();
          fail(REFUSED);
        }
      });
    });
    req.on('error', (err: NodeJS.ErrnoException) => fail(err.message === REFUSED ? REFUSED : errorText(err)));
    req.on('response', (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => {
        const status = res.statusCode ?? 0;
        // The receiver's bytes are outside text: a NUL would make PostgreSQL refuse the batch of attempts it is in.
        const response = storableText(
          Buffer.concat(chunks).subarray(0, WEBHOOK_RESPONSE_PREFIX_BYTES).toString('utf8'),
          WEBHOOK_RESPONSE_PREFIX_BYTES,
        );
        const ok = status >= 200 && status < 300;
        finish({
          statusCode: status,
          response,
          error: ok ? null : status >= 300 && status < 400 ? `redirect (${status}) not followed` : `HTTP ${status}`,
        });
        res.destroy();
      };
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= WEBHOOK_RESPONSE_PREFIX_BYTES) done();
      });
      res.on('end', done);
      res.on('error', done);
      res.on('close', done);
    });
    req.end(payload);
  });
}

/** A network error as a short sentence: its code and message, never the request's headers. */
function errorText(err: NodeJS.ErrnoException): string {
  return storableText(err.code ? `${err.code}: ${err.message}` : err.message, 300);
}
