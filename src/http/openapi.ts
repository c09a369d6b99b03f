// The OpenAPI document made exact, in one pass over what @fastify/swagger generates from the route schemas:
// - a query parameter with a default is optional (the validator fills the default), never `required: true`;
// - every operation states its security, `[]` for a public route;
// - every operation has an operationId, derived from its method and path unless the route names one;
// - the routes' catch-all error responses (4xx, 5xx) become the statuses each operation really answers, each with
//   the family's error envelope (whose `code` is the enum of src/errors.ts), and 429 with its Retry-After header.
// The statuses follow from the route: 400 always (input, and query text no column can store), 413 and 415 for
// writes (the body limit and content type), 401 when it needs credentials, 403 when a wallet
// must be the creator or card holder, 404 when it names a record in its path, 409 and the 429 of the daily gas
// budget for the writes listed below, 410 for the event stream's expired resume; 429 (rate limit), 500 and 503
// (database or chain unavailable) everywhere.
// A status a route documents with its own schema (the health body of GET /api/health's 503) is kept as it is.
// Every GET with a JSON answer also lists 304 (If-None-Match, src/http/plugins/etag.ts).
// Every write signed by a wallet takes the optional `Idempotency-Key` header, lists 409 (IDEMPOTENCY_KEY_REUSED,
// IDEMPOTENCY_KEY_IN_USE) and marks a replayed answer with `Idempotent-Replayed` (src/http/plugins/idempotency.ts).

import { IDEMPOTENCY_KEY_MAX } from '../constants.ts';

type Json = Record<string, any>;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Routes that answer 409 CONFLICT (a concurrent or repeated write, a stale cursor) besides the derived statuses. */
const CONFLICTS = new Set([
  'post /api/companies',
  'post /api/companies/{id}/decisions/run',
  'post /api/companies/{id}/token',
  // A transfer asked for a company whose C-suite has no wallet yet (docs/api/companies.md "Money in, money out").
  'get /api/companies/{id}/funding',
  // A cursor of a ranking a score snapshot has changed since (docs/api/fortune.md "Cursors").
  'get /api/v1/fortune',
  // An API key's endpoint past WEBHOOK_ENDPOINTS_PER_KEY_MAX.
  'post /api/v1/webhooks',
]);
/** Writes the platform pays gas for: 429 GAS_BUDGET_EXCEEDED past the company's daily budget. */
const GAS_PAID = new Set([
  'post /api/companies/{id}/deploy-suite',
  'post /api/companies/{id}/decisions/run',
  'post /api/companies/{id}/token',
  'post /api/epochs/claim',
]);
/** Routes that answer 410 EVENTS_EXPIRED: a resume outside the stream's window, or a backfill from deleted events. */
const EXPIRED = new Set(['get /api/v1/events']);
/** Routes that name a record in their body or query rather than their path: 404 when it does not exist. */
const NAMED_IN_BODY = new Set(['post /api/epochs/claim', 'get /api/v1/trades']);
/** Routes that answer without any dependency (no 503). */
const NO_DEPENDENCY = new Set(['get /api/live', 'get /api/openapi.json']);

const DESCRIPTIONS: Record<number, string> = {
  400: 'VALIDATION_ERROR or BAD_REQUEST: the request is malformed or out of bounds (details name each field)',
  413: 'BAD_REQUEST: the body is larger than 64 KiB',
  415: 'BAD_REQUEST: the body is not JSON',
  401: 'UNAUTHORIZED: missing or invalid credentials',
  403: 'FORBIDDEN: the credentials are valid but not those of the creator or card holder',
  404: 'NOT_FOUND: no such record',
  409: 'CONFLICT: the write collides with another or was done already',
  410: 'EVENTS_EXPIRED: a stream resume from an id with later events of its filters older than the stream\'s window (EVENT_RETENTION_MS): the message and details point to the backfill and its `after`; or events after the given id were deleted (EVENT_BACKFILL_RETENTION_MS): they name the oldest event held and the id to continue after (docs/api/events.md "Resume")',
  429: 'RATE_LIMITED (or GAS_BUDGET_EXCEEDED where the platform pays gas): retry after Retry-After seconds',
  500: 'INTERNAL_ERROR: the request id identifies it in the logs',
  503: 'DATABASE_UNAVAILABLE or CHAIN_UNAVAILABLE: a dependency did not answer; retry shortly',
};

const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes the write safe to retry (docs/api/README.md "Idempotent writes"): per signer, the same request again within 24 hours gets the first answer with Idempotent-Replayed: true, without running again; another request under the same key gets 409 IDEMPOTENCY_KEY_REUSED, and one sent while the first still runs 409 IDEMPOTENCY_KEY_IN_USE.',
  schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX, pattern: '^[\\x20-\\x7E]+$' },
};
const IDEMPOTENT_REPLAYED = {
  'Idempotent-Replayed': {
    description: 'true when this is the stored first answer to a request sent again with the same Idempotency-Key',
    schema: { type: 'string', enum: ['true'] },
  },
};
const IDEMPOTENT_CONFLICT =
  '; IDEMPOTENCY_KEY_REUSED: the Idempotency-Key was used for another request; IDEMPOTENCY_KEY_IN_USE: a request with it still runs (retry after a second; no Retry-After, which belongs to 429 and 503)';

/** A write signed by a wallet: the routes that take an Idempotency-Key. */
const isSignedWrite = (method: string, op: Json) =>
  ['post', 'put', 'patch', 'delete'].includes(method) &&
  ((op.security ?? []) as Json[]).some((s) => Object.keys(s).includes('wallet'));

/** The headers of a deprecated operation's answers (src/http/plugins/deprecation.ts). */
const DEPRECATION_HEADERS = {
  Deprecation: {
    description: 'RFC 9745: `@<unix seconds>`, since when the operation is deprecated',
    schema: { type: 'string', pattern: '^@[0-9]+$' },
  },
  Sunset: { description: 'RFC 8594: the HTTP-date after which it may be removed', schema: { type: 'string' } },
  Link: { description: 'RFC 8288: `<notice>; rel="deprecation"`, the changelog entry', schema: { type: 'string' } },
};

const RETRY_AFTER = {
  'Retry-After': {
    description: 'Seconds to wait before retrying',
    schema: { type: 'integer', minimum: 0 },
  },
};

/** `getCompaniesById`, `postCompaniesByIdDecisionsRun`, `getV1Tokens`: unique per method and path. */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .replace(/^\/api\//, '/')
    .split('/')
    .filter(Boolean)
    .flatMap((segment) => {
      const param = /^\{(.+)\}$/.exec(segment);
      return (param ? ['by', param[1]!] : segment.split(/[^A-Za-z0-9]+/)).filter(Boolean);
    });
  return method + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

/**
 * Whether a set of routes names this one, or the internal route a v1 signed write twins (its `v1` in route.ts):
 * `post /api/v1/companies/{slug}/token` answers as `post /api/companies/{id}/token` does.
 */
const names = (set: Set<string>, method: string, path: string, op: Json) =>
  set.has(`${method} ${path}`) ||
  (isSignedWrite(method, op) &&
    path.startsWith('/api/v1/') &&
    set.has(`${method} /api/${path.slice(8).replace('{slug}', '{id}')}`));

function statusesOf(method: string, path: string, op: Json): number[] {
  const key = `${method} ${path}`;
  const security = ((op.security ?? []) as Json[]).flatMap((s) => Object.keys(s));
  // 400 everywhere: besides each route's own input, any query string holding text no column can store is refused.
  const statuses = new Set<number>([400, 429, 500]);
  // A body sent to any write (with or without a schema of its own) is read: too large, or of another type.
  if (['post', 'put', 'patch', 'delete'].includes(method)) {
    statuses.add(413);
    statuses.add(415);
  }
  if (security.length > 0) statuses.add(401);
  if (security.includes('wallet')) statuses.add(403);
  if (path.includes('{') || names(NAMED_IN_BODY, method, path, op)) statuses.add(404);
  if (names(CONFLICTS, method, path, op) || isSignedWrite(method, op)) statuses.add(409);
  if (EXPIRED.has(key)) statuses.add(410);
  if (!NO_DEPENDENCY.has(key)) statuses.add(503);
  return [...statuses].sort((a, b) => a - b);
}

/** The document, exact: see the header. Mutates and returns `doc`. */
export function exactOpenApi(doc: Json): Json {
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      op.operationId ??= operationIdOf(method, path);
      op.security ??= [];
      for (const p of (op.parameters ?? []) as Json[]) {
        if (p.in === 'query' && p.schema?.default !== undefined) p.required = false;
      }
      const responses = op.responses as Json;
      if (isSignedWrite(method, op)) {
        op.parameters = [...((op.parameters ?? []) as Json[]), IDEMPOTENCY_KEY_PARAMETER];
        for (const [status, response] of Object.entries(responses)) {
          if (/^2\d\d$/.test(status)) response.headers = { ...response.headers, ...IDEMPOTENT_REPLAYED };
        }
      }
      // Every JSON read answers 304 to an If-None-Match naming its ETag (src/http/plugins/etag.ts).
      if (method === 'get' && responses['200']?.content?.['application/json'] && !responses['304']) {
        responses['304'] = {
          description: 'Not Modified: If-None-Match named the ETag of the current answer (no body)',
        };
      }
      if (op.deprecated) {
        for (const [status, response] of Object.entries(responses)) {
          if (/^[1-5]/.test(status)) response.headers = { ...response.headers, ...DEPRECATION_HEADERS };
        }
      }
      const catchAll = responses['4XX'] ?? responses['4xx'];
      if (!catchAll) continue;
      const serverCatchAll = responses['5XX'] ?? responses['5xx'] ?? catchAll;
      for (const k of ['4XX', '4xx', '5XX', '5xx']) delete responses[k];
      for (const status of statusesOf(method, path, op)) {
        // A status the route documents itself (the health body of a 503) stands as written.
        if (responses[String(status)]) continue;
        const base = status >= 500 ? serverCatchAll : catchAll;
        let description = DESCRIPTIONS[status]!;
        if (status === 409 && isSignedWrite(method, op)) {
          description = names(CONFLICTS, method, path, op)
            ? `${description}${IDEMPOTENT_CONFLICT}`
            : 'IDEMPOTENCY_KEY_REUSED or IDEMPOTENCY_KEY_IN_USE: the Idempotency-Key was used for another request, or a request with it still runs (retry after a second)';
        }
        if (status === 429 && names(GAS_PAID, method, path, op)) {
          description = `${description}; GAS_BUDGET_EXCEEDED when the company's daily gas budget would be passed`;
        }
        responses[String(status)] = {
          ...base,
          description,
          ...(status === 429 ? { headers: { ...base.headers, ...RETRY_AFTER } } : {}),
        };
      }
    }
  }
  return doc;
}
