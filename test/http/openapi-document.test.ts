// The OpenAPI document as a schema-driven client or proxy reads it: Redocly's linter finds no error or warning,
// optional query parameters are optional, every operation has its security, an operationId and the statuses it
// really answers, each with its error envelope and 429 with Retry-After. (test/helpers/openapi.ts checks every
// response the route tests receive against it.)
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/errors.ts';
import { IsoTimestamp, internalErrors } from '../../src/http/schemas/common.ts';
import { startTestApp, useTestApp } from '../helpers/app.ts';
import { payloads } from '../helpers/events.ts';
import { platformEventCheck, redoclyLint } from '../helpers/openapi.ts';

const t = useTestApp();
const document = async () => (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
const operations = (doc: any) =>
  Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([p, item]) =>
    Object.entries(item)
      .filter(([m]) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
      .map(([m, op]) => ({ key: `${m.toUpperCase()} ${p}`, method: m, path: p, op })),
  );

describe('the responses route tests receive', () => {
  it('are checked against the document: an undocumented status or a body off its schema fails the test app', async () => {
    const checked = await startTestApp({
      database: t.database,
      chain: t.chain,
      extraRoutes: (app) => {
        const schema = { tags: ['test'], response: { 200: Type.Object({ at: IsoTimestamp }), ...internalErrors } };
        app.get('/api/test/teapot', { schema }, (_request, reply) => {
          (reply as unknown as { code(n: number): { send(b: unknown): void } }).code(202).send({ at: 'now' });
        });
        app.get('/api/test/off-schema', { schema }, () => ({ at: 'not a timestamp' }));
        app.get('/api/test/fine', { schema }, () => ({ at: new Date(0).toISOString() }));
      },
    });
    for (const url of ['/api/test/teapot', '/api/test/off-schema', '/api/test/fine']) {
      await checked.app.inject({ method: 'GET', url });
    }
    const closing = checked.close();
    await expect(closing).rejects.toThrow(/GET \/api\/test\/teapot answered 202, which the document does not list/);
    await expect(closing).rejects.toThrow(/GET \/api\/test\/off-schema 200: the body does not match the document/);
    await expect(closing).rejects.not.toThrow(/\/api\/test\/fine/);
  });
});

describe('the OpenAPI document', () => {
  it('passes @redocly/cli lint with no error and no warning', async () => {
    const { problems, status } = redoclyLint(await document());
    expect(problems).toEqual([]);
    expect(status).toBe(0);
  }, 60_000);

  it('types every event of the stream by its type (and season events by kind), amounts as integer strings', async () => {
    const doc = await document();
    const stream = doc.paths['/api/v1/events'].get.responses['200'].content['text/event-stream'].schema;
    expect(stream.discriminator.propertyName).toBe('type');
    expect(Object.keys(stream.discriminator.mapping)).toEqual(['decision', 'trade', 'score', 'season']);
    expect(doc.components.schemas.SeasonEvent.properties.data.discriminator.propertyName).toBe('kind');
    const check = platformEventCheck(t.app);
    const event = (type: string, data: object) => ({
      id: '7',
      type,
      companyId: 'c1',
      companySlug: 'c-one',
      data,
      timestamp: '2026-11-26T03:01:57.456Z',
    });
    // Every event names its company by id and by slug.
    const { companySlug: _slug, ...withoutSlug } = event('score', payloads.score);
    expect(check(withoutSlug)).toMatch(/companySlug/);
    const trade = payloads.trade;
    expect(check(event('trade', trade))).toBeNull();
    const place = Object.fromEntries(
      ['tokenSymbol', 'companySlug', 'tokenAddress', 'txHash', 'logIndex', 'blockNumber', 'blockTime'].map((k) => [
        k,
        trade[k],
      ]),
    );
    expect(check(event('trade', { ...place, kind: 'launch' }))).toBeNull();
    expect(check(event('trade', { ...place, kind: 'graduation', poolId: `0x${'ef'.repeat(32)}` }))).toBeNull();
    expect(check(event('trade', { ...place, kind: 'graduation' }))).not.toBeNull(); // no poolId
    expect(check(event('season', payloads.season))).toBeNull();
    expect(check(event('decision', payloads.decision))).toBeNull();
    expect(check(event('score', payloads.score))).toBeNull();
    const snapshot = { kind: 'snapshot', epoch: 3, date: '2026-11-26', companies: 4 };
    expect(check(event('season', snapshot))).toBeNull();
    // The forms the stream sent before 2026-11-26 (docs/api/changelog.md) are off the document.
    expect(check(event('trade', { ...trade, amount: '677.042934099066134378', price: '0.007385' }))).toMatch(/pattern/);
    expect(check(event('season', { ...snapshot, epoch: '2026-11-26' }))).not.toBeNull();
    expect(check(event('trade', payloads.decision))).not.toBeNull();
  });

  it('marks no query parameter with a default as required', async () => {
    const wrong = operations(await document()).flatMap(({ key, op }) =>
      ((op.parameters ?? []) as any[])
        .filter((p) => p.in === 'query' && p.schema?.default !== undefined && p.required)
        .map((p) => `${key} ${p.name}`),
    );
    expect(wrong).toEqual([]);
    const agents = (await document()).paths['/api/agents'].get.parameters;
    expect(agents.find((p: any) => p.name === 'page')).toMatchObject({ required: false, schema: { default: 1 } });
  });

  it('gives every operation a unique operationId and its security, [] for a public route', async () => {
    const ops = operations(await document());
    const ids = ops.map(({ op }) => op.operationId);
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { key, op } of ops) expect(Array.isArray(op.security), key).toBe(true);
    const doc = await document();
    expect(doc.paths['/api/fortune-list'].get.security).toEqual([]);
    expect(doc.paths['/api/v1/tokens'].get.security).toEqual(
      expect.arrayContaining([expect.objectContaining({ apiKey: [] })]),
    );
  });

  it("lists each operation's statuses with the error envelope, the open code enum and Retry-After on 429", async () => {
    const doc = await document();
    // An open enum: every known code, and any other string a later version may add.
    const code = doc.components.schemas.InternalError.properties.error.properties.code;
    expect(code.anyOf).toEqual([{ type: 'string', enum: [...ERROR_CODES] }, { type: 'string' }]);
    const statuses = (p: string, m: string) => Object.keys(doc.paths[p][m].responses);
    expect(statuses('/api/companies/{id}/decisions/run', 'post')).toEqual([
      '201',
      '400',
      '401',
      '403',
      '404',
      '409',
      '413',
      '415',
      '429',
      '500',
      '503',
    ]);
    // A JSON read also answers 304 to an If-None-Match naming its ETag.
    expect(statuses('/api/fortune-list', 'get')).toEqual(['200', '304', '400', '429', '500', '503']);
    // The claim names its company in the body: an unknown one answers 404.
    expect(statuses('/api/epochs/claim', 'post')).toContain('404');
    // The health 503 carries the health body (which dependency is down), not the error envelope.
    const health503 = doc.paths['/api/health'].get.responses['503'].content['application/json'].schema;
    expect(health503.properties.data.properties.db).toBeDefined();
    for (const { key, op } of operations(doc)) {
      const r429 = op.responses['429'];
      if (r429) expect(r429.headers?.['Retry-After'], key).toBeDefined();
      expect(op.responses['4XX'], key).toBeUndefined();
    }
  });
});
