// Entity tags on the API's JSON reads (src/http/plugins/etag.ts): a 200 carries a weak ETag of its bytes, If-None-Match
// naming it (or `*`) answers 304 with no body, a change gives a new tag, and writes, errors and routes with their own
// (strong) tags are left alone.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.ts';
import { signed, staffedCompany } from '../helpers/companies.ts';

const t = useTestApp();
const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

describe('ETag and 304 on JSON reads', () => {
  it('tags a read, answers 304 to its tag, and a new tag once the answer changes', async () => {
    const co = await staffedCompany(t, 1, { name: 'Etag Co' });
    const first = await get(`/api/companies/${co.id}`);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/);
    for (const header of [etag, etag.slice(2), `"other", ${etag}`, '*']) {
      const again = await get(`/api/companies/${co.id}`, { 'if-none-match': header });
      expect(again.statusCode, header).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers.etag).toBe(etag);
    }
    expect((await get(`/api/companies/${co.id}`, { 'if-none-match': '"stale"' })).statusCode).toBe(200);

    const changed = await signed(t.app, 1, 'PATCH', `/api/companies/${co.id}`, { ceoPrompt: 'Keep going.' });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).toBeUndefined();
    const after = await get(`/api/companies/${co.id}`, { 'if-none-match': etag });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
  });

  it('leaves errors, the web app and the NFT documents (their own strong tags) alone', async () => {
    const missing = await get('/api/companies/nope', { 'if-none-match': '*' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers.etag).toBeUndefined();
    expect((await get('/')).headers.etag).toBeUndefined();
    const metadata = await get('/api/nft/metadata/1');
    if (metadata.statusCode === 200) expect(metadata.headers.etag).toMatch(/^"/);
  });
});
