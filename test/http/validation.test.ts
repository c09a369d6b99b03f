// The shared request-validation mechanism, through a probe route that uses the same schema helpers as the
// real routes: repeated keys, wrong types, huge numbers, unknown enum values, bad bodies.
import { Type } from 'typebox';
import { beforeAll, describe, expect, it } from 'vitest';
import { PAGE_MAX, V1_PAGE_SIZE_DEFAULT, V1_PAGE_SIZE_MAX } from '../../src/constants.ts';
import { createApiKey } from '../../src/domain/auth/api-keys.ts';
import { ok, v1Body } from '../../src/http/envelope.ts';
import { internalErrors, PageQuery, StringEnum, v1Errors } from '../../src/http/schemas/common.ts';
import { underV1, useTestApp } from '../helpers/app.ts';

const t = useTestApp({
  extraRoutes: async (app) => {
    await underV1(app, (v1App) => {
      v1App.get(
        '/probe',
        {
          schema: {
            querystring: Type.Object({
              ...PageQuery(V1_PAGE_SIZE_DEFAULT, V1_PAGE_SIZE_MAX),
              status: Type.Optional(StringEnum(['BONDING', 'GRADUATED'])),
            }),
            response: { 200: Type.Any(), ...v1Errors },
          },
        },
        async (request) => v1Body(request.query),
      );
    });
    app.post(
      '/api/probe',
      {
        schema: {
          body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 5 }) }, { additionalProperties: false }),
          response: { 200: Type.Any(), ...internalErrors },
        },
      },
      async (request) => ok(request.body),
    );
  },
});

const get = (query: string) => t.app.inject({ method: 'GET', url: `/api/v1/probe${query}` });

describe('query validation', () => {
  it('applies defaults', async () => {
    const res = await get('');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ page: 1, limit: 50 });
  });

  it('accepts the bounds just inside', async () => {
    expect((await get(`?page=1&limit=1`)).statusCode).toBe(200);
    expect((await get(`?page=${PAGE_MAX}&limit=${V1_PAGE_SIZE_MAX}`)).statusCode).toBe(200);
  });

  it.each([
    ['?limit=101', 'query.limit'],
    ['?limit=0', 'query.limit'],
    ['?page=0', 'query.page'],
    [`?page=${PAGE_MAX + 1}`, 'query.page'],
    ['?page=abc', 'query.page'],
    ['?page=1.5', 'query.page'],
    ['?page=99999999999999999999999', 'query.page'],
    ['?page=1e400', 'query.page'],
    ['?page=1e3', 'query.page'],
    ['?page=0x10', 'query.page'],
    ['?page=%205', 'query.page'],
    ['?page=', 'query.page'],
    ['?page=-1', 'query.page'],
    ['?page=1&page=2', 'query.page'],
    ['?status=bonding', 'query.status'],
    ['?status=BONDING&status=GRADUATED', 'query.status'],
  ])('%s answers 400 VALIDATION_ERROR naming %s in the v1 envelope', async (query, path) => {
    const res = await get(query);
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error.code).toBe('VALIDATION_ERROR');
    expect(body.error.details[0].path).toBe(path);
    expect(body.error.message).toContain(path);
    expect(Date.parse(body.meta.timestamp)).not.toBeNaN();
  });

  it('names the allowed values of an enum', async () => {
    const res = await get('?status=LISTED');
    expect(res.json().error.details[0].message).toBe('must be one of BONDING, GRADUATED');
  });

  it('names every invalid parameter at once, each once', async () => {
    const res = await get('?limit=abc&page=-1&status=BONDING&status=GRADUATED');
    expect(res.statusCode).toBe(400);
    const { error } = res.json();
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.details.map((d: { path: string }) => d.path).sort()).toEqual([
      'query.limit',
      'query.page',
      'query.status',
    ]);
    for (const path of ['query.limit', 'query.page', 'query.status']) expect(error.message).toContain(path);
    // Two parameters wrong, one right: only the two are named.
    const two = (await get('?limit=abc&page=-1&status=BONDING')).json().error;
    expect(two.details.map((d: { path: string }) => d.path).sort()).toEqual(['query.limit', 'query.page']);
  });

  it('ignores parameters no route declares, and drops them before the handler', async () => {
    const res = await get('?_=1732590000&foo=bar&limit=7');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ page: 1, limit: 7 });
  });

  it('still checks the declared parameters beside an unknown one', async () => {
    const res = await get('?_=1&limit=101');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toEqual([{ path: 'query.limit', message: expect.any(String) }]);
  });
});

describe('unknown query parameters on the real routes', () => {
  let key: string;
  beforeAll(async () => {
    key = (await createApiKey(t.database.db, 'validation')).key;
  });
  const real = (url: string, withKey = true) =>
    t.app.inject({ method: 'GET', url, headers: withKey ? { 'x-api-key': key } : {} });

  it.each([
    '/api/v1/tokens?_=1732590000',
    '/api/v1/tokens?status=BONDING&utm_source=x',
    '/api/v1/fortune?foo=bar',
    '/api/v1/companies/no-such-co/scores?_=1',
    '/api/tokens?_=1732590000',
    '/api/agents?_=1&typo=1',
    '/api/fortune-list?_=1',
  ])('%s is not refused for its unknown parameter', async (url) => {
    const res = await real(url);
    // The scores of an unknown company are 404: the parameter itself is not what is refused.
    expect(res.statusCode, res.body).toBe(url.includes('no-such-co') ? 404 : 200);
  });

  it.each([
    ['/api/v1/tokens?_=1&limit=abc&page=-1', ['query.limit', 'query.page']],
    ['/api/agents?_=1&limit=abc&page=-1', ['query.limit', 'query.page']],
    ['/api/v1/fortune?foo=bar&limit=0&page=0', ['query.limit', 'query.page']],
  ])('%s names every invalid declared parameter', async (url, paths) => {
    const res = await real(url);
    expect(res.statusCode).toBe(400);
    expect(
      res
        .json()
        .error.details.map((d: { path: string }) => d.path)
        .sort(),
    ).toEqual(paths);
  });
});

describe('body validation', () => {
  const post = (payload: string, contentType = 'application/json') =>
    t.app.inject({ method: 'POST', url: '/api/probe', payload, headers: { 'content-type': contentType } });

  it('accepts a valid body', async () => {
    const res = await post('{"name":"abc"}');
    expect(res.json()).toEqual({ success: true, data: { name: 'abc' } });
  });

  it.each([
    ['{}', 'body.name', 'is required'],
    ['{"name":""}', 'body.name', 'must NOT have fewer than 1 characters'],
    ['{"name":"abcdef"}', 'body.name', 'must NOT have more than 5 characters'],
    ['{"name":"a","admin":true}', 'body.admin', 'is not an allowed field'],
    ['{"name":5}', 'body.name', 'must be string'],
  ])('%s answers 400 VALIDATION_ERROR at %s', async (payload, path, message) => {
    const res = await post(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      success: false,
      error: { code: 'VALIDATION_ERROR', message: `${path} ${message}`, details: [{ path, message }] },
    });
  });

  it('answers 400 BAD_REQUEST for malformed JSON and for prototype poisoning', async () => {
    for (const payload of ['{"name":', '{"__proto__":{"x":1},"name":"a"}']) {
      const res = await post(payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('BAD_REQUEST');
    }
  });

  it('answers 413 for a body over the limit and 415 for an unsupported media type', async () => {
    const big = await post(JSON.stringify({ name: 'x'.repeat(70 * 1024) }));
    expect(big.statusCode).toBe(413);
    expect(big.json().success).toBe(false);
    const text = await post('name=abc', 'application/x-www-form-urlencoded');
    expect(text.statusCode).toBe(415);
    expect(text.json().error.code).toBe('BAD_REQUEST');
  });
});

describe('addresses', () => {
  type Schema = { type?: string; pattern?: string; format?: string; properties?: Record<string, Schema> };
  /** Every string field a request schema of the document names an address, with where it is. */
  function addressFields(doc: any): { where: string; schema: Schema }[] {
    const found: { where: string; schema: Schema }[] = [];
    const visit = (where: string, schema: Schema | undefined, name: string) => {
      if (!schema) return;
      const looksLikeAddress = /address|wallet|creator|claimTo/i.test(name) || (schema.pattern ?? '').includes('{40}');
      if (schema.type === 'string' && looksLikeAddress) found.push({ where, schema });
      for (const [key, prop] of Object.entries(schema.properties ?? {})) visit(`${where}.${key}`, prop, key);
    };
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        for (const p of op.parameters ?? []) visit(`${method} ${path} ${p.in}.${p.name}`, p.schema, p.name);
        const body = op.requestBody?.content?.['application/json']?.schema;
        visit(`${method} ${path} body`, body, '');
      }
    }
    return found;
  }

  it('every route takes addresses through the one address schema (lowercase, uppercase or EIP-55 checksummed)', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const fields = addressFields(doc);
    // The treasury (create and update), the agents' creator filter and the staking wallet at least.
    expect(fields.length).toBeGreaterThanOrEqual(4);
    for (const { where, schema } of fields) expect(schema.format, where).toBe('evm-address');
  });
});
