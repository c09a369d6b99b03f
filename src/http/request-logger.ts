// Each request's logger (request.log), made only when the request logs something: Fastify's default builds a pino
// child with the request id for every request (its bindings serialized, its prototype chain set up), and at warn
// or above nearly every request logs nothing (Fastify's own "incoming request" and "request completed" lines are
// info: the default LOG_LEVEL logs them, a service that wants no access log sets warn). A line logged at an enabled
// level makes the child then, with the same bindings and options, so the lines are the same as before.
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
