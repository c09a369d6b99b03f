// The signed writes under /api/v1 (docs/api/README.md "v1 writes"): the same definitions as the internal routes,
// answered in the v1 envelope, behind an API key and the wallet signature, with Idempotency-Key; the internal
// routes keep their own envelope.
import { beforeAll, describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { createApiKey } from '../../src/domain/auth/api-keys.ts';
import { useTestApp } from '../helpers/app.ts';
import { companyBody, mintCard, signed } from '../helpers/companies.ts';
import { type HttpMethod, serializeBody, signedRequest } from '../helpers/security.ts';

const t = useTestApp();
let apiKey: string;
let second = Math.floor(Date.now() / 1000);

/** A v1 write signed by dev account `index`, with the API key (unless `key` is null) and headers of the test's. */
async function v1(
  index: number,
  method: HttpMethod,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
  key: string | null = apiKey,
) {
  // Each call its own second: a signature is accepted once.
  const auth = await signedRequest(devAccount(index), method, url, body, --second);
  const payload = serializeBody(body);
  return t.app.inject({
    method,
    url,
    headers: { ...auth, ...(key === null ? {} : { 'x-api-key': key }), ...headers },
    ...(payload === undefined ? {} : { payload }),
  });
}
const expectV1 = (res: { json(): any }) => {
  const body = res.json();
  expect(Object.keys(body).sort()).toEqual(body.error ? ['error', 'meta'] : ['data', 'meta']);
  expect(Date.parse(body.meta.timestamp)).not.toBeNaN();
  return body;
};

let companyId: string;
let companySlug: string;

beforeAll(async () => {
  apiKey = (await createApiKey(t.database.db, 'writes')).key;
  await mintCard(t.chain, 1);
});

describe('POST /api/v1/companies', () => {
  it('needs the API key and the signature, each refused as 401 in the v1 envelope', async () => {
    const noKey = await v1(1, 'POST', '/api/v1/companies', companyBody(), {}, null);
    expect(noKey.statusCode).toBe(401);
    expect(expectV1(noKey).error.message).toMatch(/API key/);
    expect(noKey.headers['www-authenticate']).toMatch(/^ApiKey/);
    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/api/v1/companies',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      payload: JSON.stringify(companyBody()),
    });
    expect(unsigned.statusCode).toBe(401);
    expect(expectV1(unsigned).error.code).toBe('UNAUTHORIZED');
    // Every 401 names its scheme (RFC 9110 11.6.1): here the wallet signature's.
    expect(unsigned.headers['www-authenticate']).toBe('Wallet realm="ai-economy"');
    // A secret's 401 names Bearer, and a success carries no challenge.
    const noSecret = await t.app.inject({ method: 'POST', url: '/api/cron/epoch-distribute' });
    expect(noSecret.statusCode).toBe(401);
    expect(noSecret.headers['www-authenticate']).toBe('Bearer realm="ai-economy"');
    const read = await t.app.inject({ method: 'GET', url: '/api/v1/tokens', headers: { 'x-api-key': apiKey } });
    expect(read.statusCode).toBe(200);
    expect(read.headers['www-authenticate']).toBeUndefined();
  });

  it('creates a company in the v1 envelope; the same Idempotency-Key again answers the first answer', async () => {
    const body = companyBody({ name: 'Writes On V1' });
    const first = await v1(1, 'POST', '/api/v1/companies', body, { 'idempotency-key': 'create-1' });
    expect(first.statusCode, first.body).toBe(201);
    const created = expectV1(first).data;
    expect(created).toMatchObject({
      name: 'Writes On V1',
      slug: 'writes-on-v1',
      creatorAddress: devAccount(1).address,
    });
    companyId = created.id;
    companySlug = created.slug;
    // A retry (a new signature, the same request and key): the stored answer, not a second company.
    const again = await v1(1, 'POST', '/api/v1/companies', body, { 'idempotency-key': 'create-1' });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().data).toEqual(created);
    // Another request under the same key.
    const reused = await v1(1, 'POST', '/api/v1/companies', companyBody(), { 'idempotency-key': 'create-1' });
    expect(reused.statusCode).toBe(409);
    expect(expectV1(reused).error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });
});

describe('the other v1 writes', () => {
  it('sets the engine and proves the treasury in the v1 envelope, the company named by slug or id; another wallet is 403', async () => {
    const engine = await v1(1, 'PATCH', `/api/v1/companies/${companySlug}/engine`, { masterDirective: 'Grow slowly' });
    expect(engine.statusCode, engine.body).toBe(200);
    expect(expectV1(engine).data.masterDirective).toBe('Grow slowly');
    const stranger = await v1(2, 'PATCH', `/api/v1/companies/${companyId}/engine`, { masterDirective: 'Mine now' });
    expect(stranger.statusCode).toBe(403);
    expectV1(stranger);
    const treasury = await v1(1, 'PUT', `/api/v1/companies/${companyId}/treasury`, {
      treasuryAddress: devAccount(1).address,
    });
    expect(treasury.statusCode, treasury.body).toBe(200);
    expect(expectV1(treasury).data.treasuryAddress).toBe(devAccount(1).address);
  });

  it('launches the token through v1 at the path the token read has, which then reads it by slug or id', async () => {
    const res = await v1(1, 'POST', `/api/v1/companies/${companySlug}/token`, { name: 'Writes Token', symbol: 'WRT' });
    expect(res.statusCode, res.body).toBe(201);
    expect(expectV1(res).data).toMatchObject({ status: 'BONDING', tokenSymbol: 'WRT' });
    for (const ref of [companySlug, companyId]) {
      const read = await t.app.inject({ url: `/api/v1/companies/${ref}/token`, headers: { 'x-api-key': apiKey } });
      expect(read.statusCode, read.body).toBe(200);
      expect(read.json().data).toMatchObject({ slug: companySlug, tokenSymbol: 'WRT' });
    }
  });

  it('answers 404 in the v1 envelope for a company no id or slug names', async () => {
    const res = await v1(1, 'PATCH', '/api/v1/companies/no-such-company/engine', { masterDirective: 'x' });
    expect(res.statusCode).toBe(404);
    expect(expectV1(res).error.code).toBe('NOT_FOUND');
  });

  it('answers a round and a claim the domain refuses in the v1 envelope', async () => {
    // No agents yet: the round is refused before it starts.
    const round = await v1(1, 'POST', `/api/v1/companies/${companyId}/decisions/run`);
    expect(round.statusCode).toBe(400);
    expect(expectV1(round).error.code).toBe('BAD_REQUEST');
    const claim = await v1(1, 'POST', '/api/v1/epochs/claim', { companyId: 'no-such-company', epochNumber: 0 });
    expect(claim.statusCode).toBe(404);
    expectV1(claim);
  });

  it('leaves the internal routes in their own envelope', async () => {
    const res = await signed(t.app, 1, 'PATCH', `/api/companies/${companyId}/engine`, { masterDirective: 'Internal' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, data: { masterDirective: 'Internal' } });
  });
});
