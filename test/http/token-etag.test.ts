// The ETags of the two token routes a bot polls most, /api/v1/tokens and /api/v1/companies/{slug}/token: they follow
// the data, not the clock. Two requests a few seconds apart (past the time the pages are kept, so the second is read
// again, with a larger ageSeconds) get the same tag and a 304; a trade changes the tag.

import type { Address } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/domain/auth/api-keys.ts';
import { VOLUMES_REUSE_MS } from '../../src/domain/tokens/queries.ts';
import { weakEtagOf } from '../../src/http/plugins/etag.ts';
import { useTestApp } from '../helpers/app.ts';
import { staffedCompany } from '../helpers/companies.ts';
import { tokenTrading } from '../helpers/trading.ts';

const t = useTestApp();
const trading = tokenTrading(t);
const USDC = 1_000_000n;
let key: string;
let slug: string;
let token: Address;

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { 'x-api-key': key, ...headers } });
/** The route's item for our token: the detail, or its row of the list. */
const itemOf = (url: string, body: { data: unknown }) =>
  (url.endsWith('/token') ? body.data : (body.data as { slug: string }[]).find((x) => x.slug === slug)) as {
    ageSeconds: number;
    publicAt: string;
    buys24h: number;
  };

beforeAll(async () => {
  key = (await createApiKey(t.database.db, 'etag')).key;
  const co = await staffedCompany(t, 1, { name: 'Polled Co' });
  slug = (await t.app.inject({ method: 'GET', url: `/api/companies/${co.id}` })).json().data.slug;
  token = await trading.launch(co.id, 'POLL', 1);
  await trading.buy(2, token, 50n * USDC);
  await trading.index();
});

describe('weakEtagOf', () => {
  it('leaves ageSeconds out, and nothing else', () => {
    expect(weakEtagOf('{"a":1,"ageSeconds":5}')).toBe(weakEtagOf('{"a":1,"ageSeconds":6000}'));
    expect(weakEtagOf('{"a":1,"ageSeconds":5}')).not.toBe(weakEtagOf('{"a":2,"ageSeconds":5}'));
    // The same text inside a string value is data (its quotes escaped), and counts.
    expect(weakEtagOf('{"note":"\\"ageSeconds\\":5"}')).not.toBe(weakEtagOf('{"note":"\\"ageSeconds\\":6"}'));
  });
});

describe.each(['/api/v1/tokens', '/api/v1/companies/{slug}/token'])('%s', (route) => {
  const url = () => route.replace('{slug}', slug);

  it('answers 304 to a poll seconds later while the data is unchanged, though ageSeconds grew', async () => {
    const first = await get(url());
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"/);
    const before = itemOf(url(), first.json());
    // Past the time a page and the chain's clock are reused: the next answer is read and aged anew.
    await new Promise((r) => setTimeout(r, VOLUMES_REUSE_MS + 1_500));
    const polled = await get(url(), { 'if-none-match': etag });
    expect(polled.statusCode).toBe(304);
    expect(polled.body).toBe('');
    expect(polled.headers.etag).toBe(etag);
    // The full answer has the same tag, a later age and the same launch time it derives from.
    const full = await get(url());
    expect(full.headers.etag).toBe(etag);
    const after = itemOf(url(), full.json());
    expect(after.ageSeconds).toBeGreaterThan(before.ageSeconds);
    expect(after.publicAt).toBe(before.publicAt);
  });

  it('gives a new tag once a trade is indexed, and answers the old one 200', async () => {
    const etag = (await get(url())).headers.etag as string;
    const buys = itemOf(url(), (await get(url())).json()).buys24h;
    await trading.buy(3, token, 20n * USDC);
    await trading.index();
    const res = await get(url(), { 'if-none-match': etag });
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).not.toBe(etag);
    expect(itemOf(url(), res.json()).buys24h).toBe(buys + 1);
  });
});
