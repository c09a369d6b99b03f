// The process logger: JSON lines with request ids; secrets (Authorization, API keys, api_key in URLs) redacted.
import pino, { type Logger } from 'pino';

/** Query parameters whose values are secrets and never reach a log line, in any percent-encoded spelling. */
const SECRET_QUERY = /([?&](?:api(?:_|%5f)key|apikey|token)=)[^&]*/gi;
export const redactUrl = (url: string) => url.replace(SECRET_QUERY, '$1[redacted]');

export function createLogger(level: string): Logger {
  return pino({
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
  });
}
