// Cursors of the v1 lists (docs/api/pagination.md): an opaque base64url token holding the sort key of the last item
// of a page, so the next page starts strictly after it whatever was inserted meanwhile (no repeat, no gap), and
// without a lookup of the item (it may be gone).
import { validationError } from './errors.ts';

/** The longest cursor accepted: a sort key of a few short values. */
export const CURSOR_MAX_LENGTH = 200;
export const CURSOR_PATTERN = '^[A-Za-z0-9_-]+$';

/** The cursor after an item whose sort key is `key` (strings, in the list's order). */
export const encodeCursor = (key: readonly string[]) => Buffer.from(JSON.stringify(key)).toString('base64url');

/** The sort key in `cursor`, of `length` strings; 400 VALIDATION_ERROR naming `query.cursor` for anything else. */
export function decodeCursor(cursor: string, length: number): string[] {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    key = undefined;
  }
  if (!Array.isArray(key) || key.length !== length || !key.every((part) => typeof part === 'string')) {
    throw validationError('query.cursor', 'is not a cursor this list gave (pagination.nextCursor)');
  }
  return key;
}
