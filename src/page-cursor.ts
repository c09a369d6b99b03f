// Cursors of the v1 lists (docs/api/pagination.md): an opaque base64url token holding the sort key of the last item
// of a page, so the next page starts strictly after it whatever was inserted meanwhile (no repeat, no gap), and
// without a lookup of the item (it may be gone).
import { validationError } from './errors.ts';

/** The longest cursor accepted: a sort key of a few short values. */
export const CURSOR_MAX_LENGTH = 200;
export const CURSOR_PATTERN = '^[A-Za-z0-9_-]+$';

/** The cursor after an item whose sort key is `key` (strings, in the list's order). */
export const encodeCursor = (key: readonly string[]) => Buffer.from(JSON.stringify(key)).toString('base64url');

const notACursor = () => validationError('query.cursor', 'is not a cursor this list gave (pagination.nextCursor)');

/**
 * A cursor's parts, each decoded into exactly the type its query needs: anything a hand-made cursor
 * could put there that the database would refuse (a date JavaScript parses but PostgreSQL does not, a NUL in an id,
 * a score like `0b1` or `1e-400`) is 400 VALIDATION_ERROR, never a 500.
 */
export const cursorPart = {
  /** An instant exactly as `Date.toISOString` writes it. */
  instant(s: string): string {
    const d = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(s) ? new Date(s) : undefined;
    if (!d || Number.isNaN(d.getTime()) || d.toISOString() !== s) throw notACursor();
    return s;
  },
  /** A row id (cuid2, or a seed's plain id). */
  id(s: string): string {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(s)) throw notACursor();
    return s;
  },
  /** A finite float8 exactly as `String(number)` writes it (so no underflow, no `0b1`, no `Infinity`). */
  float(s: string): string {
    const n = Number(s);
    if (!Number.isFinite(n) || String(n) !== s) throw notACursor();
    return s;
  },
};

/** The sort key in `cursor`, of `length` strings; 400 VALIDATION_ERROR naming `query.cursor` for anything else. */
export function decodeCursor(cursor: string, length: number): string[] {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    key = undefined;
  }
  if (!Array.isArray(key) || key.length !== length || !key.every((part) => typeof part === 'string')) {
    throw notACursor();
  }
  return key;
}
