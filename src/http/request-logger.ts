// Each request's logger (request.log), made only when the request logs something: Fastify's default builds a pino
// child with the request id for every request (its bindings serialized, its prototype chain set up), and at warn
// or above nearly every request logs nothing. A line logged at an enabled level makes the child then, with the same
// bindings and options, so the lines are the same as before.
//
// And the access log: one line a request at info, "request completed" with the request (method, URL with its
// secrets redacted, client address), the status and the time taken, where Fastify writes two (its "incoming
// request" with the request, then "request completed" without it). The arrival is logged at debug: a request that
// never completes is still seen there. Half the lines, and the same facts in the one that is kept.
import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import type { Bindings, ChildLoggerOptions, Logger } from 'pino';

type Level = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';
type LogArgs = Parameters<Logger['info']>;

class LazyRequestLogger {
  private made: Logger | undefined;
  constructor(
    private readonly parent: Logger,
    private readonly childBindings: Bindings,
  ) {}

  /** The real child logger, made on first use. */
  private real(): Logger {
    this.made ??= this.parent.child(this.childBindings);
    return this.made;
  }

  private log(level: Level, args: LogArgs) {
    if (this.made !== undefined) return (this.made[level] as (...a: LogArgs) => void)(...args);
    if (!this.parent.isLevelEnabled(level)) return;
    (this.real()[level] as (...a: LogArgs) => void)(...args);
  }

  trace(...args: LogArgs) {
    this.log('trace', args);
  }
  debug(...args: LogArgs) {
    this.log('debug', args);
  }
  info(...args: LogArgs) {
    this.log('info', args);
  }
  warn(...args: LogArgs) {
    this.log('warn', args);
  }
  error(...args: LogArgs) {
    this.log('error', args);
  }
  fatal(...args: LogArgs) {
    this.log('fatal', args);
  }
  silent() {}

  get level(): string {
    return (this.made ?? this.parent).level;
  }
  set level(level: string) {
    this.real().level = level;
  }
  isLevelEnabled(level: string): boolean {
    return (this.made ?? this.parent).isLevelEnabled(level);
  }
  bindings(): Bindings {
    return this.made?.bindings() ?? { ...this.parent.bindings(), ...this.childBindings };
  }
  child(bindings: Bindings, options?: ChildLoggerOptions): Logger {
    return this.real().child(bindings, options);
  }
  flush(callback?: (err?: Error) => void) {
    this.parent.flush(callback);
  }
}

/**
 * Fastify's `childLoggerFactory`: a request logger that makes its pino child only when a line is logged at an
 * enabled level. A route with its own log level or serializers gets its child at once, as by default.
 */
export function lazyRequestLogger(logger: Logger, bindings: Bindings, options: ChildLoggerOptions): Logger {
  if (options.level !== undefined || options.serializers !== undefined) return logger.child(bindings, options);
  return new LazyRequestLogger(logger, bindings) as unknown as Logger;
}

/** Fastify's `logController`: the access log above; every other line (errors, 404s, streams) is Fastify's own. */
export class AccessLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) super.requestCompleted(error, request, reply);
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
