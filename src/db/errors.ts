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
