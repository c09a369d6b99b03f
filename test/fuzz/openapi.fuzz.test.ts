// Fuzzing every operation of the OpenAPI document. fast-check builds path parameters, query
// strings, headers (API key, wallet signatures good and bad) and bodies (schema values and their mutations,
// non-JSON, wrong content types) for each operation, sends them through app.inject and checks that every answer
// is a success or a 4xx in the route family's envelope with a known code, never a 5xx, and that no refused
// request changed a row of the main tables. FUZZ_RUNS sets the cases per operation (default 40), FUZZ_SEED
// replays a run; fast-check prints the seed and the shrunk case of any failure.
// Excluded on purpose: the creator's valid signature is never paired with a schema-valid body, nor (on routes
// without a body) with the seeded company or agent ids, so POST .../decisions/run (a whole decision round with
// on-chain anchoring), POST .../deploy-suite (seven agents and their identity pipeline), token launches, engine
// and treasury changes and agent termination never succeed here; their invalid variants are all fuzzed, and a
// stranger's valid signature reaches every handler. POST /api/cron/epoch-distribute only ever sees wrong secrets
// (none is configured). The streams of /api/v1/events and /api/events are read up to their headers and dropped; a
// backfill page of /api/v1/events?after= (JSON) is read whole.
import { createHash } from 'node:crypto';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import type { Address } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { createApiKey } from '../../src/domain/auth/api-keys.ts';
import { walletAuthorizationHeader, walletSignatureMessage } from '../../src/domain/auth/wallet-signature.ts';
import { useTestApp } from '../helpers/app.ts';
import { companyBody, mintCard, signed } from '../helpers/companies.ts';
import type { HttpMethod } from '../helpers/security.ts';
import {
  anyString,
  type BodyPlan,
  contentType,
  encode,
  encodeMaybe,
  fromSchema,
  headerGarbage,
  type JsonSchema,
  mutatedBody,
  paramText,
  rawBody,
  rawQueryJunk,
  serializePlan,
} from './arbitraries.ts';
import { type Answer, capturingLogger, changedTables, problemWith, snapshot } from './checks.ts';

const RUNS = Math.max(1, Number(process.env.FUZZ_RUNS ?? 40));
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);

const captured = capturingLogger();
// Rate limits would turn the run into a stream of 429s: lift them, the suite of rate-limit.test.ts covers them.
const t = useTestApp({ logger: captured.logger, env: { RATE_LIMIT_MAX: '10000000' } });

const creator = devAccount(1);
const stranger = devAccount(2);

interface Seeded {
  companyId: string;
  slug: string;
  agentId: string;
  apiKey: string;
  tokenId: string;
}
let seeded: Seeded;
let doc: any;

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema?: JsonSchema;
}

interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  params: Parameter[];
  body?: JsonSchema;
  validBody?: ValidateFunction;
  security: Set<string>;
}

const ajv = new (Ajv as unknown as typeof Ajv.default)({ strict: false, allErrors: false, coerceTypes: false });
(addFormats as unknown as (a: unknown) => void)(ajv);

function operationsOf(document: typeof doc): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, JsonSchema>>)) {
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const body = op.requestBody?.content?.['application/json']?.schema as JsonSchema | undefined;
      ops.push({
        method: method.toUpperCase() as Operation['method'],
        path,
        params: (op.parameters ?? []) as Parameter[],
        ...(body ? { body, validBody: ajv.compile(body) } : {}),
        security: new Set(((op.security ?? []) as Record<string, unknown>[]).flatMap((s) => Object.keys(s))),
      });
    }
  }
  return ops;
}

type AuthKind = 'none' | 'garbage' | 'malformed' | 'creator' | 'stranger' | 'expired' | 'future' | 'impostor';

interface Case {
  path: Record<string, { text: string; raw: boolean }>;
  query: string[];
  apiKey: { kind: 'none' } | { kind: 'valid' } | { kind: 'garbage'; value: string };
  auth: { kind: AuthKind; garbage: string };
  body?: { mutation: string; plan: BodyPlan } | undefined;
  contentType: string | undefined;
  extraHeaders: Record<string, string>;
}

/** Values a path parameter may take: the seeded records (so routes reach their handlers), and garbage. */
function pathValue(p: Parameter): fc.Arbitrary<{ text: string; raw: boolean }> {
  const seededValues = (): string[] => {
    switch (p.name) {
      case 'tokenId':
        return [seeded.tokenId, '2', '0', '10000', '10001', '00001', '99999'];
      case 'wallet':
        return [creator.address, creator.address.toLowerCase(), `0x${'0'.repeat(40)}`, stranger.address];
      case 'epoch':
        return ['0', '1', '2147483647', '2147483648', '-1'];
      default:
        return [seeded.companyId, seeded.slug, seeded.agentId, seeded.companyId.toUpperCase(), `${seeded.slug}-x`];
    }
  };
  const special = fc.constantFrom(
    '',
    '.',
    '..',
    '%2e%2e%2f',
    '..%2f..%2fapi',
    '%00',
    '%',
    '%zz',
    'a%2fb',
    '9'.repeat(250),
  );
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...seededValues()).map((text) => ({ text, raw: false })) },
    { weight: 4, arbitrary: fc.tuple(paramText(p.schema), fc.boolean()).map(([text, raw]) => ({ text, raw })) },
    { weight: 1, arbitrary: special.map((text) => ({ text, raw: true })) },
  );
}

function caseOf(op: Operation): fc.Arbitrary<Case> {
  const pathParams = op.params.filter((p) => p.in === 'path');
  const queryParams = op.params.filter((p) => p.in === 'query');
  const headerParams = op.params.filter((p) => p.in === 'header');

  const path = fc.record(Object.fromEntries(pathParams.map((p) => [p.name, pathValue(p)])));

  const queryPair = (name: string, schema: JsonSchema | undefined) =>
    fc
      .tuple(fc.array(paramText(schema), { minLength: 1, maxLength: 2 }), fc.boolean())
      .map(([values, raw]) => values.map((v) => `${encodeMaybe(name, false)}=${encodeMaybe(v, raw)}`));
  // In-schema values only, so that list routes and the event stream are reached past validation too.
  const cleanQuery = fc
    .tuple(
      ...queryParams.map((p) =>
        fc.option(
          fromSchema(p.schema).map((v) => `${p.name}=${encode(typeof v === 'string' ? v : String(v))}`),
          { nil: undefined, freq: 2 },
        ),
      ),
    )
    .map((pairs) => pairs.filter((x): x is string => x !== undefined));
  const messyQuery = fc
    .tuple(
      ...queryParams.map((p) => fc.option(queryPair(p.name, p.schema), { nil: [] as string[], freq: 3 })),
      fc.option(fc.array(fc.tuple(anyString(12), anyString(20)), { maxLength: 3 }), { nil: [], freq: 2 }),
      op.security.has('apiKeyQuery')
        ? fc.option(fc.oneof(fc.constant('VALID'), headerGarbage), { nil: undefined, freq: 2 })
        : fc.constant(undefined),
      fc.option(rawQueryJunk, { nil: undefined, freq: 5 }),
    )
    .map((parts) => {
      const n = queryParams.length;
      const pairs = (parts.slice(0, n) as string[][]).flat();
      const extra = parts[n] as [string, string][];
      const apiKeyQuery = parts[n + 1] as string | undefined;
      const junk = parts[n + 2] as string | undefined;
      for (const [k, v] of extra) pairs.push(`${encodeMaybe(k, false)}=${encodeMaybe(v, false)}`);
      if (apiKeyQuery !== undefined) {
        pairs.push(`api_key=${apiKeyQuery === 'VALID' ? seeded.apiKey : encode(apiKeyQuery)}`);
      }
      if (junk !== undefined) pairs.push(junk);
      return pairs;
    });

  const query = fc.oneof(cleanQuery, messyQuery);

  const apiKey = fc.oneof(
    { weight: op.security.has('apiKey') ? 4 : 1, arbitrary: fc.constant({ kind: 'valid' as const }) },
    { weight: 2, arbitrary: fc.constant({ kind: 'none' as const }) },
    { weight: 2, arbitrary: headerGarbage.map((value) => ({ kind: 'garbage' as const, value })) },
  );

  const wallet = op.security.has('wallet');
  const authKinds: AuthKind[] = wallet
    ? [
        'creator',
        'creator',
        'creator',
        'stranger',
        'stranger',
        'none',
        'garbage',
        'malformed',
        'expired',
        'future',
        'impostor',
      ]
    : ['none', 'none', 'garbage', 'malformed'];
  const auth = fc.record({ kind: fc.constantFrom(...authKinds), garbage: headerGarbage });

  const hasBody = op.body !== undefined;
  const body = hasBody
    ? fc.option(mutatedBody(op.body), { nil: undefined, freq: 8 })
    : op.method === 'GET'
      ? fc.option(
          rawBody.map((text) => ({ mutation: 'raw', plan: { kind: 'raw', text } as BodyPlan })),
          {
            nil: undefined,
            freq: 10,
          },
        )
      : fc.option(
          rawBody.map((text) => ({ mutation: 'raw', plan: { kind: 'raw', text } as BodyPlan })),
          {
            nil: undefined,
            freq: 2,
          },
        );

  const extraHeaders = fc.record(
    {
      'x-request-id': headerGarbage,
      'if-none-match': fc.oneof(headerGarbage, fc.constant('*'), fc.constant('"x"')),
      accept: fc.constantFrom('*/*', 'text/event-stream', 'image/svg+xml', 'application/xml', ''),
      ...Object.fromEntries(headerParams.map((p) => [p.name, paramText(p.schema)])),
    },
    { requiredKeys: [] },
  );

  return fc.record({ path, query, apiKey, auth, body, contentType, extraHeaders }) as fc.Arbitrary<Case>;
}

interface Built {
  method: Operation['method'];
  url: string;
  headers: Record<string, string>;
  payload?: string;
  /** What the case is, for failure reports. */
  note: string;
}

const SAFE_HEADER = /^[\t\x20-\x7e]*$/;

async function build(op: Operation, c: Case): Promise<Built> {
  let url = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const v = c.path[name];
    return v ? encodeMaybe(v.text, v.raw) : '';
  });
  if (c.query.length > 0) url += `?${c.query.join('&')}`;

  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(c.extraHeaders)) if (SAFE_HEADER.test(v)) headers[k] = v;
  if (c.apiKey.kind === 'valid') headers['x-api-key'] = seeded.apiKey;
  if (c.apiKey.kind === 'garbage') headers['x-api-key'] = c.apiKey.value;

  let payload: string | undefined;
  if (c.body) {
    payload = serializePlan(c.body.plan);
    if (c.contentType !== undefined) headers['content-type'] = c.contentType;
  }

  // A correct creator signature goes only with a request that must be refused: a body the schema rejects, or for
  // routes without a body, ids that are not the seeded records (so deploy-suite and decisions/run never run).
  let auth = c.auth.kind;
  if (auth === 'creator') {
    if (op.body) {
      let parsed: unknown;
      let json = payload !== undefined;
      try {
        parsed = payload === undefined || payload === '' ? undefined : JSON.parse(payload);
      } catch {
        json = false;
      }
      if (json && op.validBody?.(parsed)) auth = 'stranger';
      if (payload === undefined && op.validBody?.(undefined)) auth = 'stranger';
    } else {
      const seededIds = [seeded.companyId, seeded.slug, seeded.agentId].map((s) => s.toLowerCase());
      const decoded = decodeURIComponentSafe(url).toLowerCase();
      if (seededIds.some((id) => decoded.includes(id))) auth = 'stranger';
    }
  }

  const nowS = Math.floor(Date.now() / 1000);
  const sign = async (account: typeof creator, ts: number, claimed: Address = account.address) => {
    const message = walletSignatureMessage(op.method, url, ts, payload ?? '');
    const signature = await account.signMessage({ message });
    return walletAuthorizationHeader(claimed, ts, signature);
  };
  switch (auth) {
    case 'none':
      break;
    case 'garbage':
      headers.authorization = c.auth.garbage;
      break;
    case 'malformed':
      headers.authorization = `Wallet ${creator.address}:${nowS}:${c.auth.garbage.slice(0, 140)}`;
      break;
    case 'creator':
      headers.authorization = await sign(creator, nowS);
      break;
    case 'stranger':
      headers.authorization = await sign(stranger, nowS);
      break;
    case 'expired':
      headers.authorization = await sign(creator, nowS - 400);
      break;
    case 'future':
      headers.authorization = await sign(creator, nowS + 400);
      break;
    case 'impostor':
      headers.authorization = await sign(stranger, nowS, creator.address);
      break;
  }
  if (headers.authorization !== undefined && !SAFE_HEADER.test(headers.authorization)) delete headers.authorization;

  const sha = payload === undefined ? '-' : createHash('sha256').update(payload).digest('hex').slice(0, 12);
  const note = `${c.body?.mutation ?? 'no body'}; auth ${auth}; payload ${payload === undefined ? 'none' : `${payload.length} chars sha ${sha}`}`;
  return { method: op.method, url, headers, ...(payload === undefined ? {} : { payload }), note };
}

function decodeURIComponentSafe(s: string) {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const isStream = (op: Operation) => op.path === '/api/v1/events' || op.path === '/api/events';

/** Sends one request; an event stream is read only up to its headers (payloadAsStream) and then dropped. */
async function send(op: Operation, req: Built): Promise<Answer> {
  const base = {
    method: req.method,
    url: req.url,
    headers: req.headers,
    ...(req.payload === undefined ? {} : { payload: req.payload }),
  };
  if (!isStream(op)) {
    const res = await t.app.inject(base);
    return { statusCode: res.statusCode, headers: res.headers, body: res.body };
  }
  const res = await t.app.inject({ ...base, payloadAsStream: true });
  const stream = res.stream();
  // The stream has no end to wait for; a backfill page (`after`) is JSON with an end, and is read whole.
  if (res.statusCode === 200 && String(res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
    stream.destroy();
    return { statusCode: res.statusCode, headers: res.headers, body: '' };
  }
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return { statusCode: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') };
}

const excerpt = (s: string | undefined, n = 300) =>
  s === undefined ? 'none' : s.length > n ? `${JSON.stringify(s.slice(0, n))}… (${s.length} chars)` : JSON.stringify(s);

beforeAll(async () => {
  const tokenId = await mintCard(t.chain, 1);
  const company = await signed(t.app, creator, 'POST', '/api/companies', companyBody({ description: 'fuzz target' }));
  expect(company.statusCode).toBe(201);
  const beforeAgent = await snapshot(t.container.database.db);
  const agent = await signed(t.app, creator, 'POST', '/api/agents', {
    name: 'Fuzz Agent',
    persona: { role: 'CFO', description: 'keeps the books' },
    skills: ['accounting'],
    strategy: { type: 'value', preset: 'BALANCED' },
  });
  expect(agent.statusCode).toBe(201);
  // The checksum sees a change: a new agent (and its platform event, if any) moves it.
  expect(changedTables(beforeAgent, await snapshot(t.container.database.db))).toContain('agents');
  const key = await createApiKey(t.container.database.db, 'fuzz');
  t.container.apiKeys.clear();
  seeded = {
    companyId: company.json().data.id,
    slug: company.json().data.slug,
    agentId: agent.json().data.id,
    apiKey: key.key,
    tokenId: String(tokenId),
  };
  const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(res.statusCode).toBe(200);
  doc = res.json();
});

describe('fuzzing every operation of the OpenAPI document', () => {
  it(
    'answers every generated request with a success or an enveloped 4xx, changing nothing when refusing',
    async () => {
      const ops = operationsOf(doc);
      expect(ops.length).toBeGreaterThan(30);
      const failures: string[] = [];
      const stats: string[] = [];
      for (const op of ops) {
        const started = Date.now();
        const statuses = new Map<number, number>();
        const property = fc.asyncProperty(caseOf(op), async (c) => {
          const req = await build(op, c);
          const before = await snapshot(t.container.database.db);
          const logMark = captured.mark();
          const answer = await send(op, req);
          statuses.set(answer.statusCode, (statuses.get(answer.statusCode) ?? 0) + 1);
          let problem = problemWith(req.url, answer, {
            svg: op.path.startsWith('/api/nft/image/'),
            sse: isStream(op),
            // The changelog is served as the document it is (docs/api/changelog.md).
            markdown: op.path === '/api/v1/changelog',
          });
          if (!problem && answer.statusCode >= 400) {
            const changed = changedTables(before, await snapshot(t.container.database.db));
            if (changed.length > 0) problem = `a refused request (${answer.statusCode}) changed ${changed.join(', ')}`;
          }
          const log = captured.since(logMark);
          if (problem) {
            throw new Error(
              [
                problem,
                `request: ${req.method} ${excerpt(req.url, 500)} (${req.note})`,
                `headers: ${excerpt(JSON.stringify(req.headers), 800)}`,
                `payload: ${excerpt(req.payload)}`,
                `answer: ${answer.statusCode} ${excerpt(answer.body, 600)}`,
                ...(log ? [`server log: …${log.slice(-4000)}`] : []),
              ].join('\n'),
            );
          }
        });
        try {
          await fc.assert(property, { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) });
        } catch (err) {
          const cause = (err as Error).cause;
          failures.push(
            `${op.method} ${op.path}\n${(err as Error).message}${cause instanceof Error ? `\n${cause.message}` : ''}`,
          );
        }
        const counts = [...statuses].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}x${n}`);
        stats.push(`${op.method} ${op.path}: ${Date.now() - started} ms, ${counts.join(' ')}`);
      }
      if (process.env.FUZZ_VERBOSE) console.log(stats.join('\n'));
      expect(failures, failures.join('\n\n')).toEqual([]);
    },
    60_000 + RUNS * 35 * 2_000,
  );
});

// Reproductions of the defects this fuzzer found (docs/fuzzing.md), kept as regression tests now they are fixed.
describe('defects the fuzzer found', () => {
  const long = '9'.repeat(250);
  for (const url of [
    '/api/companies/%zz',
    `/api/agents/${long}`,
    '/api/nft/metadata/%',
    `/api/v1/companies/${long}/token`,
  ]) {
    it(`GET ${url.slice(0, 40)}: a router error (bad percent-encoding, over-long parameter) is in the envelope`, async () => {
      const res = await t.app.inject({ method: 'GET', url, headers: { 'x-api-key': seeded.apiKey } });
      expect(res.statusCode).toBeLessThan(500);
      expect(problemWith(url, res)).toBeUndefined();
    });
  }

  const nulPaths = (s: Seeded) => [
    '/api/companies/a%00b',
    '/api/agents/a%00b',
    '/api/agents/a%00b/registration.json',
    '/api/companies/a%00b/token',
    '/api/v1/companies/a%00b/token',
    '/api/companies/a%00b/decisions',
    '/api/decisions/a%00b/verify',
    '/api/epochs/claimable/a%00b',
    `/api/epochs/0/proof/a%00b`,
    `/api/v1/events?companies=${s.slug},a%00b`,
  ];
  for (let i = 0; i < nulPaths({ slug: 'x' } as Seeded).length; i++) {
    const label = nulPaths({ slug: '{slug}' } as Seeded)[i]!;
    it(`GET ${label}: a NUL byte in a parameter is refused with a 4xx, not a 500`, async () => {
      const url = nulPaths(seeded)[i]!;
      const res = await t.app.inject({
        method: 'GET',
        url,
        headers: { 'x-api-key': seeded.apiKey },
        payloadAsStream: true,
      });
      res.stream().destroy();
      expect(res.statusCode).toBeLessThan(500);
    });
  }

  const nulBodies = (s: Seeded): [HttpMethod, string, unknown][] => [
    [
      'POST',
      '/api/agents',
      {
        name: 'a\u0000b',
        persona: { role: 'CFO', description: 'x' },
        skills: ['a'],
        strategy: { type: 'v', preset: 'BALANCED' },
      },
    ],
    ['PUT', `/api/agents/${s.agentId}`, { name: 'a\u0000b' }],
    ['PATCH', `/api/companies/${s.companyId}`, { ceoPrompt: 'a\u0000b' }],
    ['PATCH', `/api/companies/${s.companyId}/engine`, { masterDirective: 'a\u0000b' }],
    ['POST', '/api/epochs/claim', { companyId: 'a\u0000b', epochNumber: 0 }],
  ];
  it('POST /api/companies: a NUL byte in referrerCompanyId is refused with a 4xx, not a 500', async () => {
    const body = { name: 'x', category: 'AI_TOKENS', referrerCompanyId: 'a\u0000b' };
    const res = await signed(t.app, stranger, 'POST', '/api/companies', body);
    expect(res.statusCode).toBeLessThan(500);
  });

  it('POST /api/agents: a lone surrogate in a JSON (jsonb) field is refused with a 4xx, not a 500', async () => {
    const res = await signed(t.app, stranger, 'POST', '/api/agents', {
      name: 'x',
      persona: { role: 'x', description: '\ud800x' },
      skills: ['a'],
      strategy: { type: 'v', preset: 'BALANCED' },
    });
    expect(res.statusCode).toBeLessThan(500);
  });

  const placeholder = { agentId: '{id}', companyId: '{id}' } as Seeded;
  for (let i = 0; i < nulBodies(placeholder).length; i++) {
    const [method, label] = nulBodies(placeholder)[i]!;
    it(`${method} ${label}: a NUL byte in a body string is refused with a 4xx, not a 500`, async () => {
      const [m, url, body] = nulBodies(seeded)[i]!;
      const res = await signed(t.app, creator, m, url, body);
      expect(res.statusCode).toBeLessThan(500);
    });
  }
});
