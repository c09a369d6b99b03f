// The public v1 document (src/http/openapi-v1.ts) and deprecation (src/http/plugins/deprecation.ts): the v1 document holds
// the /api/v1 operations exactly as the full document has them and every component they reach, nothing else, and
// passes Redocly's lint; a deprecated route answers with Deprecation, Sunset and Link (rel="deprecation"), errors
// included, and its operation says `deprecated: true` with those headers.
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkNextPage } from '../../src/http/envelope.ts';
import { v1OpenApi } from '../../src/http/openapi-v1.ts';
import { DEPRECATION_MIN_DAYS, deprecationHeaders } from '../../src/http/plugins/deprecation.ts';
import { IsoTimestamp, internalErrors } from '../../src/http/schemas/common.ts';
import { startTestApp, type TestApp, useTestApp } from '../helpers/app.ts';
import { redoclyLint } from '../helpers/openapi.ts';

const t = useTestApp();
const get = async (url: string) => (await t.app.inject({ method: 'GET', url })).json();

/** Every `$ref` in `node`. */
function refsIn(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) refsIn(item, found);
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') found.push(v);
      else refsIn(v, found);
    }
  }
  return found;
}

describe('GET /api/v1/openapi.json', () => {
  it('holds the v1 operations as the full document has them, and only them', async () => {
    const [full, v1] = await Promise.all([get('/api/openapi.json'), get('/api/v1/openapi.json')]);
    const v1Paths = Object.keys(full.paths).filter((p) => p.startsWith('/api/v1/'));
    expect(v1Paths.length).toBeGreaterThan(5);
    expect(Object.keys(v1.paths).sort()).toEqual(v1Paths.sort());
    // The same operations, but for the service's own address format, which the v1 document leaves to the pattern.
    const withoutServiceFormats = (node: unknown): unknown =>
      JSON.parse(JSON.stringify(node), (key, value) =>
        key === 'format' && value === 'evm-address' ? undefined : value,
      );
    for (const p of v1Paths) expect(v1.paths[p], p).toEqual(withoutServiceFormats(full.paths[p]));
    // No non-standard format is left; every address keeps its pattern.
    const text = JSON.stringify(v1);
    expect(text).not.toContain('evm-address');
    expect(JSON.stringify(full)).toContain('"format":"evm-address"');
    // Internal, admin and cron routes are not in it, nor their schemas or security schemes.
    expect(Object.keys(full.paths).some((p) => p.startsWith('/api/admin') || p.startsWith('/api/cron'))).toBe(true);
    expect(v1.components.schemas.InternalError).toBeUndefined();
    // The schemes the v1 operations name, each documented: the API key (header or query) on every route, and the
    // wallet signature beside it on the signed writes. The internal routes' bearer secret is not among them.
    expect(Object.keys(v1.components.securitySchemes).sort()).toEqual(['apiKey', 'apiKeyQuery', 'wallet']);
    for (const [name, scheme] of Object.entries(v1.components.securitySchemes) as [string, any][]) {
      expect(scheme, name).toEqual(full.components.securitySchemes[name]);
    }
    expect(v1.components.securitySchemes.wallet).toMatchObject({ type: 'apiKey', in: 'header', name: 'Authorization' });
    expect(v1.components.securitySchemes.wallet.description).toMatch(/Wallet <address>:<unixSeconds>:<signature>/);
    // The wallet signature never stands alone on v1: every signed v1 write needs the API key too.
    const requirements = Object.values(v1.paths).flatMap((item: any) =>
      Object.values(item).flatMap((op: any) => op.security ?? []),
    );
    const walletOnes = requirements.filter((r: any) => 'wallet' in r);
    expect(walletOnes.length).toBeGreaterThan(0);
    for (const r of walletOnes) expect(Object.keys(r).sort()).toEqual(['apiKey', 'wallet']);
    expect(v1.info.version).toBe(full.info.version);
  });

  it('has no two paths that differ only by the names of their parameters (one spelling per route)', async () => {
    const v1 = await get('/api/v1/openapi.json');
    const shapes = Object.keys(v1.paths).map((p) => p.replace(/\{[^}]+\}/g, '{}'));
    expect(shapes.filter((s, i) => shapes.indexOf(s) !== i)).toEqual([]);
    // A company is `{slug}` (its id or its slug) in every v1 path.
    expect(Object.keys(v1.paths).filter((p) => p.includes('/companies/{') && !p.includes('/companies/{slug}'))).toEqual(
      [],
    );
  });

  it('declares Retry-After only on 429 and 503', async () => {
    const v1 = await get('/api/v1/openapi.json');
    for (const [path, item] of Object.entries(v1.paths) as [string, any][]) {
      for (const [method, op] of Object.entries(item) as [string, any][]) {
        for (const [status, response] of Object.entries(op.responses) as [string, any][]) {
          const has = 'Retry-After' in (response.headers ?? {});
          expect(has, `${method} ${path} ${status}`).toBe(status === '429' || status === '503');
        }
      }
    }
  });

  it('holds every component its operations reach, the typed event payloads included, and no other', async () => {
    const v1 = await get('/api/v1/openapi.json');
    const refs = new Set(refsIn(v1));
    for (const ref of refs) {
      const [, , kind, name] = ref.split('/');
      expect(v1.components[kind!]?.[name!], ref).toBeDefined();
    }
    const named = Object.keys(v1.components.schemas).map((n) => `#/components/schemas/${n}`);
    expect(named.filter((n) => !refs.has(n))).toEqual([]);
    const stream = v1.paths['/api/v1/events'].get.responses['200'].content['text/event-stream'].schema;
    expect(Object.keys(stream.discriminator.mapping)).toEqual(['decision', 'trade', 'score', 'season']);
    // Reached only through another component (the season event's payload): the walk is transitive.
    expect(v1.components.schemas.EpochFinalizedSeasonData).toBeDefined();
  });

  it('leaves the full document as it was', async () => {
    const full = await get('/api/openapi.json');
    const copy = structuredClone(full);
    v1OpenApi(full);
    expect(full).toEqual(copy);
  });

  it('passes @redocly/cli lint with no error and no warning', async () => {
    const { problems, status } = redoclyLint(await get('/api/v1/openapi.json'));
    expect(problems).toEqual([]);
    expect(status).toBe(0);
  }, 60_000);
});

describe('deprecation headers', () => {
  const deprecated = { since: '2026-11-26', sunset: '2027-03-01', link: '/docs/api/changelog.md#2026-11-26' };
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      database: t.database,
      chain: t.chain,
      extraRoutes: (a) => {
        const schema = {
          tags: ['test'],
          querystring: Type.Object({ n: Type.Optional(Type.Integer({ maximum: 3 })) }),
          response: { 200: Type.Object({ at: IsoTimestamp, nextCursor: Type.String() }), ...internalErrors },
        };
        a.get('/api/test/old', { config: { deprecated }, schema, onSend: linkNextPage }, () => ({
          at: new Date(0).toISOString(),
          nextCursor: 'abc',
        }));
        a.get('/api/test/current', { schema, onSend: linkNextPage }, () => ({
          at: new Date(0).toISOString(),
          nextCursor: 'abc',
        }));
      },
    });
  });
  afterAll(() => app?.close());

  it('answers a deprecated route with Deprecation, Sunset and Link, errors included; other routes without', async () => {
    const res = await app.app.inject({ method: 'GET', url: '/api/test/old' });
    expect(res.statusCode).toBe(200);
    expect(res.headers.deprecation).toBe(`@${Date.parse('2026-11-26T00:00:00Z') / 1000}`);
    expect(res.headers.sunset).toBe('Mon, 01 Mar 2027 00:00:00 GMT');
    // The deprecation link first, then the next page's (linkNextPage adds to it).
    expect(res.headers.link).toBe(
      '</docs/api/changelog.md#2026-11-26>; rel="deprecation", </api/test/old?cursor=abc>; rel="next"',
    );
    const bad = await app.app.inject({ method: 'GET', url: '/api/test/old?n=4' });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers.deprecation).toBe(res.headers.deprecation);
    expect(bad.headers.sunset).toBe(res.headers.sunset);
    expect(bad.headers.link).toBe('</docs/api/changelog.md#2026-11-26>; rel="deprecation"');
    const current = await app.app.inject({ method: 'GET', url: '/api/test/current' });
    expect(current.headers.deprecation).toBeUndefined();
    expect(current.headers.sunset).toBeUndefined();
    expect(current.headers.link).toBe('</api/test/current?cursor=abc>; rel="next"');
    // Browsers may read them (CORS).
    const exposed = String(res.headers['access-control-expose-headers']);
    for (const h of ['deprecation', 'sunset', 'link']) expect(exposed.split(', ')).toContain(h);
  });

  it('marks the operation deprecated in the document, with the dates and the headers it answers with', async () => {
    const doc = (await app.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const op = doc.paths['/api/test/old'].get;
    expect(op.deprecated).toBe(true);
    expect(op.description).toContain('Deprecated since 2026-11-26; may be removed after 2027-03-01');
    for (const status of ['200', '400', '429', '500']) {
      expect(Object.keys(op.responses[status].headers ?? {}), status).toEqual(
        expect.arrayContaining(['Deprecation', 'Sunset', 'Link']),
      );
    }
    expect(op.responses['429'].headers['Retry-After']).toBeDefined();
    expect(doc.paths['/api/test/current'].get.deprecated).toBeUndefined();
    // Nothing of v1 is deprecated today.
    const v1 = (await app.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    for (const item of Object.values(v1.paths) as any[]) {
      for (const op of Object.values(item) as any[]) expect(op.deprecated).toBeUndefined();
    }
  });

  it(`refuses a sunset less than ${DEPRECATION_MIN_DAYS} days after the deprecation, or dates it cannot read`, () => {
    const since = '2026-11-26T00:00:00Z';
    const at = (ms: number) => new Date(Date.parse(since) + ms).toISOString();
    const days = DEPRECATION_MIN_DAYS * 86_400_000;
    expect(deprecationHeaders({ since, sunset: at(days), link: '/x' }).sunset).toBe('Wed, 24 Feb 2027 00:00:00 GMT');
    expect(() => deprecationHeaders({ since, sunset: at(days - 1), link: '/x' })).toThrow(/at least 90 days/);
    expect(() => deprecationHeaders({ since: 'soon', sunset: at(days), link: '/x' })).toThrow(/ISO 8601/);
    expect(() => deprecationHeaders({ since, sunset: at(days), link: '/a b' })).toThrow(/not a link/);
  });
});
