// Forged page cursors answered 500. 22 of 100 hand-made cursors on /api/v1/tokens, /api/tokens and
// /api/v1/fortune reached the database with values PostgreSQL refuses (dates JavaScript parses but PostgreSQL does
// not, a NUL in an id, scores like `0b1` or `1e-400`). Now a cursor decodes into exactly the types its query needs,
// and anything else is 400 VALIDATION_ERROR naming query.cursor. Property-tested with random strings (fast-check).
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/domain/auth/api-keys.ts';
import { encodeCursor } from '../../src/page-cursor.ts';
import { useTestApp } from '../helpers/app.ts';

const t = useTestApp();
let apiKey: string;

const ROUTES = [
  { url: '/api/v1/tokens', parts: 2 },
  { url: '/api/tokens', parts: 2 },
  { url: '/api/v1/fortune', parts: 6 },
  { url: '/api/v1/trades', parts: 3 },
] as const;

async function get(url: string, cursor: string) {
  return t.app.inject({
    method: 'GET',
    url: `${url}?cursor=${encodeURIComponent(cursor)}`,
    headers: { 'x-api-key': apiKey },
  });
}

/** What a cursor may answer: a page, a clear 400 on query.cursor, or 409 for a stale Fortune ranking. */
function expectClean(res: Awaited<ReturnType<typeof get>>) {
  expect([200, 400, 409]).toContain(res.statusCode);
  if (res.statusCode === 400) expect(res.json().error.code).toBe('VALIDATION_ERROR');
}

/** Values a forger tries: what JavaScript parses and PostgreSQL refuses, and anything at all. */
const nasty = fc.oneof(
  fc.constantFrom(
    '2024-02-30T00:00:00.000Z',
    '+275760-09-13T00:00:00.000Z',
    '2024-01-01',
    'Tue Jan 02 2024',
    '0',
    '0b1',
    '0x1f',
    '1e-400',
    '1e400',
    'Infinity',
    ' 1',
    'abc\u0000def',
    '\u0000',
    '',
    '2024-01-01T00:00:00.000Z',
    'ckabcdefghijklmnopqrstuv',
    '1',
  ),
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.double().map(String),
  fc.date({ noInvalidDate: false }).map((d) => (Number.isNaN(d.getTime()) ? 'Invalid Date' : d.toISOString())),
);

beforeAll(async () => {
  apiKey = (await createApiKey(t.database.db, 'forged-cursors')).key;
});

describe('forged page cursors', () => {
  it('the issue’s cursors answer 400, never 500', async () => {
    const forged = [
      ['2024-02-30T00:00:00.000Z', 'x'],
      ['+275760-09-13T00:00:00.000Z', 'x'],
      ['2024-01-01T00:00:00.000Z', 'a\u0000b'],
    ];
    for (const key of forged) {
      for (const url of ['/api/v1/tokens', '/api/tokens']) {
        const res = await get(url, encodeCursor(key));
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toMatchObject({ code: 'VALIDATION_ERROR' });
      }
    }
    for (const score of ['0b1', '1e-400', '0x10', ' 5', 'Infinity']) {
      const res = await get('/api/v1/fortune', encodeCursor(['', '|', score, '1700000000000000', 'abc', '1']));
      expect(res.statusCode).toBe(400);
    }
    const nul = await get('/api/v1/fortune', encodeCursor(['', '|', '5', '1700000000000000', 'a\u0000b', '1']));
    expect(nul.statusCode).toBe(400);
    // Just inside: a well-formed key answers a page (empty after it).
    expect((await get('/api/v1/tokens', encodeCursor(['2024-01-01T00:00:00.000Z', 'abc']))).statusCode).toBe(200);
    expect(
      (await get('/api/v1/fortune', encodeCursor(['', '|', '5', '1700000000000000', 'abc', '1']))).statusCode,
    ).not.toBe(400);
  });

  it('a trades cursor whose block or log index its column cannot hold answers 400; the largest that fit answer 200', async () => {
    for (const [block, log] of [
      ['9223372036854775808', '0'],
      ['9999999999999999999', '0'],
      ['1', '2147483648'],
      ['1', '9999999999'],
    ]) {
      const res = await get('/api/v1/trades', encodeCursor(['d', block!, log!]));
      expect(res.statusCode, `${block}/${log}`).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'VALIDATION_ERROR' });
    }
    const inside = await get('/api/v1/trades', encodeCursor(['d', '9223372036854775807', '2147483647']));
    expect(inside.statusCode, inside.body).toBe(200);
  });

  it('random cursors of the right shape or any shape never answer 500', async () => {
    for (const route of ROUTES) {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.array(nasty, { minLength: route.parts, maxLength: route.parts }).map(encodeCursor),
            fc.array(nasty, { maxLength: 7 }).map(encodeCursor),
            fc.string({ maxLength: 200 }),
          ),
          async (cursor) => expectClean(await get(route.url, cursor)),
        ),
        { numRuns: 60, seed: 3706 },
      );
    }
  });
});
