// Classifies database errors at the boundary. Both drivers report PostgreSQL's SQLSTATE and constraint name,
// possibly wrapped by Drizzle in a `cause`.

function find(err: unknown, test: (e: { code?: unknown; constraint?: unknown }) => boolean) {
  let e: unknown = err;
  for (let depth = 0; e && depth < 5; depth++) {
    if (typeof e === 'object' && test(e as { code?: unknown })) return e as { code: string; constraint?: string };
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The constraint a unique violation (23505) hit, or undefined for any other error. */
export function uniqueViolation(err: unknown): string | undefined {
  const found = find(err, (e) => e.code === '23505');
  return found ? (found.constraint ?? 'unknown') : undefined;
}

/** Whether a statement waited past its lock_timeout (55P03 lock_not_available). */
export function isLockTimeout(err: unknown): boolean {
  return find(err, (e) => e.code === '55P03') !== undefined;
}

/** SQLSTATEs of a server that ended or refused the session: shutting down, restarting, starting up, in recovery. */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03']);
/** Socket errors on the way to the server. */
const UNAVAILABLE_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
/** node-postgres's own messages for a connection that is gone or could not be made in time. */
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/, // "... unexpectedly", "... due to connection timeout"
  /^timeout exceeded when trying to connect$/, // the pool's connectionTimeoutMillis
  /^Client has encountered a connection error and is not queryable$/,
  /^Client was closed and is not queryable$/,
];

/**
 * Whether the database could not be reached or dropped the connection (a restart, a failover, a network cut) rather
 * than refusing the statement: the request may succeed when retried, so it answers 503 DATABASE_UNAVAILABLE.
 * SQLSTATE class 08 (connection exception) counts too.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string') {
      if (UNAVAILABLE_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code) || UNAVAILABLE_ERRNOS.has(code)) return true;
    }
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((re) => re.test(message))) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
