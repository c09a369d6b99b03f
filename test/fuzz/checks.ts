// What every fuzzed answer must satisfy (no 5xx, the route family's error envelope with a known code, JSON or the
// route's own media type on success), and a checksum of the main tables to prove a refused request changed nothing.
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import pino, { type Logger } from 'pino';
import type { Db } from '../../src/db/client.ts';
import { rowsOf } from '../../src/db/client.ts';
import { ERROR_CODES } from '../../src/errors.ts';
import { codeToStatus } from '../../src/http/errors.ts';

export type Family = 'v1' | 'bare' | 'internal';

/** The error envelope of a URL as sent (docs/api/README.md "Envelopes": /api/v1 -> v1, /api/nft -> bare, else internal). */
export function familyOf(url: string): Family {
  // app.inject resolves dot segments (`/api/v1/companies/../../x` arrives as `/api/x`), as WHATWG URL does.
  let path = url.split('?')[0] ?? '';
  try {
    path = new URL(url, 'http://localhost').pathname;
  } catch {
    // keep the raw path
  }
  if (path.startsWith('/api/v1/') || path === '/api/v1') return 'v1';
  if (path.startsWith('/api/nft/')) return 'bare';
  return 'internal';
}

export interface Answer {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Returns a description of what is wrong with the answer, or undefined when it is fine. */
export function problemWith(
  url: string,
  answer: Answer,
  media: { svg?: boolean; sse?: boolean; markdown?: boolean } = {},
) {
  const { statusCode: status } = answer;
  if (status >= 500) return `server error ${status}`;
  const type = String(answer.headers['content-type'] ?? '');
  // A path whose dot segments lead out of /api (`/api/companies/../../x`) is the web app's, as a browser resolves it:
  // one of its pages (200), or its "Page not found" (404, src/http/plugins/web.ts); an /api path itself never is.
  if (type.startsWith('text/html') && (status === 200 || status === 404)) {
    return new URL(url, 'http://x').pathname.startsWith('/api') ? 'an /api path answered with the web app' : undefined;
  }
  if (status >= 400) {
    let body: unknown;
    try {
      body = JSON.parse(answer.body);
    } catch {
      return `${status} with a non-JSON body`;
    }
    if (!isObject(body)) return `${status} body is not an object`;
    const family = familyOf(url);
    if (family === 'bare') {
      if (typeof body.error !== 'string' || Object.keys(body).length !== 1) return `${status} not a bare { error }`;
      return undefined;
    }
    const error = body.error;
    if (!isObject(error) || typeof error.code !== 'string' || typeof error.message !== 'string') {
      return `${status} without { error: { code, message } }`;
    }
    if (!(ERROR_CODES as readonly string[]).includes(error.code)) return `unknown error code ${error.code}`;
    // Fastify's own 4xx (413 body too large, 414, 415 media type...) map to BAD_REQUEST with their own status.
    const expected = codeToStatus[error.code as keyof typeof codeToStatus];
    const mappedStatuses = new Set(Object.values(codeToStatus));
    const fits = error.code === 'BAD_REQUEST' ? status === 400 || !mappedStatuses.has(status) : expected === status;
    if (!fits) return `code ${error.code} on a ${status}`;
    if (error.details !== undefined) {
      const details = error.details;
      if (!Array.isArray(details) || !details.every((d) => isObject(d) && typeof d.path === 'string')) {
        return 'error.details is not a list of { path, message }';
      }
    }
    if (family === 'v1') {
      if (!isObject(body.meta) || Number.isNaN(Date.parse(String(body.meta.timestamp)))) return 'v1 error without meta';
      if ('success' in body) return 'v1 error with an internal envelope';
    } else if (body.success !== false) {
      return 'internal error without success: false';
    }
    if (status === 429 && answer.headers['retry-after'] === undefined) return '429 without Retry-After';
    return undefined;
  }
  if (status >= 300) {
    // 304 answers an If-None-Match naming the ETag the answer carries (`*` names any): no body.
    if (status === 304 && (familyOf(url) === 'bare' || answer.headers.etag !== undefined)) {
      return answer.body === '' ? undefined : '304 with a body';
    }
    return `unexpected ${status}`;
  }
  if (media.sse && type.startsWith('text/event-stream')) return undefined;
  if (media.markdown && type.startsWith('text/markdown')) return answer.body.length > 0 ? undefined : 'empty markdown';
  if (media.svg && type.startsWith('image/svg+xml')) {
    return answer.body.trimStart().startsWith('<') ? undefined : 'SVG answer is not markup';
  }
  if (!type.startsWith('application/json')) return `${status} with content-type ${type}`;
  try {
    const body = JSON.parse(answer.body);
    if (isObject(body) && 'success' in body && body.success !== true) return `${status} with success: ${body.success}`;
  } catch {
    return `${status} with a body that is not JSON`;
  }
  return undefined;
}

export const WATCHED_TABLES = [
  'companies',
  'agents',
  'token_trades',
  'decision_rounds',
  'reward_claims',
  'chain_txs',
  'platform_events',
] as const;

/** Row count and md5 of every row's text of each watched table, in one query. */
export async function snapshot(db: Db): Promise<Record<string, string>> {
  const parts = WATCHED_TABLES.map(
    (table) =>
      `select '${table}' as t, count(*)::text || ':' || md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from ${table} x`,
  );
  const rows = rowsOf<{ t: string; h: string }>(await db.execute(sql.raw(parts.join(' union all '))));
  return Object.fromEntries(rows.map((r) => [r.t, r.h]));
}

export const changedTables = (before: Record<string, string>, after: Record<string, string>) =>
  WATCHED_TABLES.filter((t) => before[t] !== after[t]);

/** A logger that keeps error-level entries (the app logs the stack of every 5xx), for failure reports. */
export function capturingLogger(): { logger: Logger; mark(): number; since(mark: number): string } {
  const kept: string[] = [];
  let written = 0;
  const stream = new Writable({
    write(chunk, _encoding, done) {
      kept.push(String(chunk));
      written++;
      if (kept.length > 200) kept.shift();
      done();
    },
  });
  return {
    logger: pino({ level: 'error' }, stream),
    mark: () => written,
    since: (mark) => kept.slice(Math.max(0, kept.length - (written - mark))).join('\n'),
  };
}
