// The public v1 API's own OpenAPI document (docs/api/README.md "Stability"): the service's full document cut down to
// the /api/v1 paths and the components they reach ($ref, transitively), so integrators and client generators see
// neither the web app's internal routes nor the admin and cron routes. Served at GET /api/v1/openapi.json and kept
// in the repository as docs/api/openapi.v1.json (test/web/api-client.test.ts fails when that file is stale).

import { ADDRESS_FORMAT } from '../address.ts';

type Json = Record<string, any>;

export const V1_PREFIX = '/api/v1/';

/** Every `#/components/<kind>/<name>` that `node` refers to. */
function refsOf(node: unknown, found: Set<string>) {
  if (Array.isArray(node)) {
    for (const item of node) refsOf(item, found);
  } else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/')) found.add(value);
      else refsOf(value, found);
    }
  }
}

/**
 * Formats no standard defines, which the request validator checks (the EIP-55 checksum, src/http/validation.ts) but
 * a generic client or validator would not know: the document says the same with the pattern each schema carries
 * beside it, and leaves the format out.
 */
const SERVICE_FORMATS = new Set([ADDRESS_FORMAT]);

/** Removes the service's own formats from every schema of `node` (in place); their patterns stay. */
function stripServiceFormats(node: unknown) {
  if (Array.isArray(node)) {
    for (const item of node) stripServiceFormats(item);
  } else if (node && typeof node === 'object') {
    const o = node as Json;
    if (typeof o.format === 'string' && SERVICE_FORMATS.has(o.format)) {
      if (typeof o.pattern !== 'string') throw new Error(`a schema with format ${o.format} has no pattern to keep`);
      delete o.format;
    }
    for (const value of Object.values(o)) stripServiceFormats(value);
  }
}

/** The v1 document cut from the full one (which it does not change). */
export function v1OpenApi(full: Json): Json {
  const doc = structuredClone(full) as Json;
  const paths: Json = {};
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Json)) {
    if (path.startsWith(V1_PREFIX)) paths[path] = item;
  }
  // The components the paths reach, and those they reach in turn.
  const refs = new Set<string>();
  refsOf(paths, refs);
  const components = (doc.components ?? {}) as Json;
  const kept: Json = {};
  const pending = [...refs];
  while (pending.length > 0) {
    const ref = pending.pop()!;
    const [, , kind, name] = ref.split('/') as [string, string, string, string];
    const value = components[kind]?.[name];
    if (value === undefined || kept[kind]?.[name] !== undefined) continue;
    kept[kind] ??= {};
    kept[kind][name] = value;
    const inner = new Set<string>();
    refsOf(value, inner);
    for (const r of inner) {
      if (refs.has(r)) continue;
      refs.add(r);
      pending.push(r);
    }
  }
  // The security schemes the operations name.
  const schemes = new Set<string>();
  for (const item of Object.values(paths) as Json[]) {
    for (const op of Object.values(item) as Json[]) {
      for (const requirement of (op?.security ?? []) as Json[])
        for (const s of Object.keys(requirement)) schemes.add(s);
    }
  }
  const securitySchemes: Json = {};
  for (const s of [...schemes].sort()) {
    if (components.securitySchemes?.[s]) securitySchemes[s] = components.securitySchemes[s];
  }
  const sorted = (o: Json) =>
    Object.fromEntries(
      Object.keys(o)
        .sort()
        .map((k) => [k, o[k]]),
    );
  const keptComponents: Json = {};
  for (const kind of Object.keys(kept).sort()) keptComponents[kind] = sorted(kept[kind]);
  keptComponents.securitySchemes = securitySchemes;
  const tags = new Set<string>();
  for (const item of Object.values(paths) as Json[]) {
    for (const op of Object.values(item) as Json[]) for (const tag of (op?.tags ?? []) as string[]) tags.add(tag);
  }
  stripServiceFormats(paths);
  stripServiceFormats(keptComponents);
  return {
    openapi: doc.openapi,
    info: {
      ...doc.info,
      title: 'ai-economy public API (v1)',
      description:
        'The public v1 API for integrators: `{ data, meta }` answers, an API key in `x-api-key`, and on the writes the wallet signature of the card holder beside it (`Authorization: Wallet ...`, with an optional `Idempotency-Key`). Stable: within v1 changes are additive only, and anything deprecated says so in the `Deprecation` and `Sunset` headers and in docs/api/changelog.md for at least 90 days before it goes (docs/api/README.md "Stability").',
    },
    ...(doc.servers ? { servers: doc.servers } : {}),
    ...(doc.tags ? { tags: (doc.tags as Json[]).filter((t) => tags.has(t.name)) } : {}),
    paths,
    components: keptComponents,
  };
}
