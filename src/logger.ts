// The process logger: JSON lines with request ids, or the same records pretty-printed for a person at a terminal
// (LOG_FORMAT, src/config.ts); secrets (Authorization, API keys, api_key in URLs) redacted in both.
import pino, { type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { LogFormat } from './config.ts';

/** Query parameters whose values are secrets and never reach a log line, in any percent-encoded spelling. */
const SECRET_QUERY = /([?&](?:api(?:_|%5f)key|apikey|token)=)[^&]*/gi;
export const redactUrl = (url: string) => url.replace(SECRET_QUERY, '$1[redacted]');

/** One line per record, coloured, with the time of day and without pid and hostname; written synchronously. */
export const prettyStream = (destination?: DestinationStream): DestinationStream =>
  pretty({
    colorize: destination === undefined,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    singleLine: true,
    sync: true,
    ...(destination ? { destination } : {}),
  });

export function createLogger(level: string, format: LogFormat = 'json', destination?: DestinationStream): Logger {
  const options = {
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: { method: string; url: string; ip?: string; socket?: { remoteAddress?: string } }) => ({
        method: req.method,
        url: redactUrl(req.url),
        remoteAddress: req.ip ?? req.socket?.remoteAddress,
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      err: pino.stdSerializers.err,
    },
  };
  if (format === 'pretty') return pino(options, prettyStream(destination));
  return destination ? pino(options, destination) : pino(options);
}
