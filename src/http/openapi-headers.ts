// The response headers of the v1 operations, declared in the OpenAPI document (components.headers, referenced from
// each response): every answer carries the request id and the rate-limit fields (src/http/plugins/rate-limit.ts), a JSON
// read's 200 and 304 its ETag (plugins/etag.ts) and Cache-Control (plugins/cache-control.ts), a 429 and a 503 Retry-After, a 401
// (of any operation) WWW-Authenticate (auth/index.ts).
// Applied after exactOpenApi (openapi.ts), which has made each operation's statuses exact.
type Json = Record<string, any>;

const integer = { type: 'integer', minimum: 0 };
export const V1_RESPONSE_HEADERS: Record<string, Json> = {
  'X-Request-Id': {
    description:
      "The request's id: the client's `x-request-id` when it is 1-128 characters `[A-Za-z0-9._:-]`, else a UUID; it is in every log line of the request",
    schema: { type: 'string' },
  },
  'RateLimit-Policy': {
    description:
      'The rate-limit policy that counted the request (draft-ietf-httpapi-ratelimit-headers-10): `"key";q=600;w=60` is 600 requests per 60 s for the API key (`ip`: for the client address, without a valid key)',
    schema: { type: 'string' },
  },
  RateLimit: {
    description:
      'That policy now: `"key";r=597;t=30` is 597 requests left, the window ending in 30 s (draft-ietf-httpapi-ratelimit-headers-10). A 304 is not counted.',
    schema: { type: 'string' },
  },
  'X-RateLimit-Limit': { description: 'Requests allowed per window in this bucket', schema: integer },
  'X-RateLimit-Remaining': { description: 'Requests left in this window', schema: integer },
  'X-RateLimit-Reset': { description: 'Seconds until the window ends', schema: integer },
  ETag: {
    description: 'Weak entity tag of the body; send it back in If-None-Match to get 304 while it is unchanged',
    schema: { type: 'string' },
  },
  'Cache-Control': {
    description:
      'Who may keep the answer: `private, max-age=0, must-revalidate` on reads with an API key (only the client, revalidating with the ETag before each use; shared caches do not store it), `no-cache` on public ones (any cache, revalidating before each use)',
    schema: { type: 'string' },
  },
  'Retry-After': { description: 'Seconds to wait before retrying', schema: integer },
  'WWW-Authenticate': {
    description:
      'The scheme to authenticate with (RFC 9110 11.6.1), on every 401: `ApiKey realm="ai-economy", header="x-api-key"` (with `, query="api_key"` where the query parameter is accepted) for a missing or invalid API key, `Wallet realm="ai-economy"` for a missing or invalid wallet signature, `Bearer realm="ai-economy"` for a scheduler or admin secret',
    schema: { type: 'string' },
  },
};

const EVERY = [
  'X-Request-Id',
  'RateLimit-Policy',
  'RateLimit',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
];
const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });

/**
 * Declares the headers on every response of the `/api/v1` operations, and `WWW-Authenticate` on every 401 of any
 * operation. Mutates and returns `doc`.
 */
export function declareV1Headers(doc: Json): Json {
  doc.components ??= {};
  doc.components.headers = { ...doc.components.headers, ...V1_RESPONSE_HEADERS };
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
    const v1 = path.startsWith('/api/v1/');
    for (const [method, op] of Object.entries(item)) {
      const responses = (op as Json)?.responses as Json | undefined;
      if (!responses) continue;
      for (const [status, response] of Object.entries(responses) as [string, Json][]) {
        if (!v1) {
          if (status === '401') response.headers = { ...response.headers, 'WWW-Authenticate': ref('WWW-Authenticate') };
          continue;
        }
        const names = [...EVERY];
        if (status === '401') names.push('WWW-Authenticate');
        const jsonRead =
          method === 'get' && (status === '304' || (status === '200' && response.content?.['application/json']));
        if (jsonRead) names.push('ETag', 'Cache-Control');
        if (status === '429' || status === '503') names.push('Retry-After');
        response.headers = { ...response.headers };
        for (const name of names) response.headers[name] = ref(name);
      }
    }
  }
  return doc;
}
