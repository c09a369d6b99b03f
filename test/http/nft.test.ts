import { Writable } from 'node:stream';
import { AccessCardAbi, MockUSDCAbi } from '@ai-economy/shared/abis';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { parseEventLogs } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CARD_MINT_PRICE_USDC,
  CARD_TIERS,
  type CardTier,
  NFT_IMAGE_CACHE_CONTROL,
  NFT_METADATA_CACHE_CONTROL,
} from '../../src/constants.ts';
import { CARD_PALETTES, escapeXml } from '../../src/domain/cards/image.ts';
import { tierOf } from '../../src/domain/cards/tiers.ts';
import { createLogger } from '../../src/logger.ts';
import { startTestApp, type TestApp, useTestApp } from '../helpers/app.ts';
import { type RawAnswer, rawRequest } from '../helpers/raw-http.ts';

const BASE_URL = 'https://cards.example.test';
const MARKETPLACE_URL = 'https://market.example.test';

const t = useTestApp({ chain: { baseUrl: BASE_URL }, env: { BASE_URL, MARKETPLACE_URL, RATE_LIMIT_MAX: '100000' } });

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
const tier = (label: CardTier['label']) => CARD_TIERS.find((x) => x.label === label)!;

/** Token ids at every tier edge, with what the tier table of docs/api/nft.md says about them. */
const EDGES = [
  { id: 1, tier: 'Black', boost: '5x', supply: '1000', number: '#0001' },
  { id: 1000, tier: 'Black', boost: '5x', supply: '1000', number: '#1000' },
  { id: 1001, tier: 'Gold', boost: '3x', supply: '3000', number: '#1001' },
  { id: 4000, tier: 'Gold', boost: '3x', supply: '3000', number: '#4000' },
  { id: 4001, tier: 'Silver', boost: '2x', supply: '6000', number: '#4001' },
  { id: 10000, tier: 'Silver', boost: '2x', supply: '6000', number: '#10000' },
] as const;

/** Every one is refused with 400 and the bare `{ error }` body; `''` is the empty path segment. */
const BAD_IDS = [
  '0',
  '10001',
  '-1',
  '1.5',
  'abc',
  '1e3',
  '99999999999999999999',
  '',
  '%201',
  '0x10',
  '+1',
  '1%00',
  '000001',
];

describe('GET /api/nft/metadata/{tokenId}', () => {
  it.each(EDGES)('describes token $id as a $tier card with boost $boost', async (edge) => {
    const res = await get(`/api/nft/metadata/${edge.id}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body)).toEqual(['name', 'description', 'image', 'external_url', 'attributes']);
    expect(body.name).toBe(`AI Economy Access Card \u2014 ${edge.tier} ${edge.number}`);
    expect(body.description).toContain(`${edge.tier} tier`);
    expect(body.description).toContain(`Staking boost ${edge.boost}`);
    expect(body.image).toBe(`${BASE_URL}/api/nft/image/${edge.id}`);
    expect(body.external_url).toBe(`${MARKETPLACE_URL}/cards/${edge.id}`);
    expect(body.attributes).toEqual([
      { trait_type: 'Tier', value: edge.tier },
      { trait_type: 'Token ID', value: String(edge.id) },
      { trait_type: 'Staking Boost', value: edge.boost },
      { trait_type: 'Supply', value: edge.supply },
      { trait_type: 'Mint Price', value: '100 USDC' },
    ]);
    expect(edge.supply).toBe(String(tier(edge.tier).supply));
  });

  it('answers JSON with the metadata Cache-Control and a strong ETag', async () => {
    const res = await get('/api/nft/metadata/1');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe(NFT_METADATA_CACHE_CONTROL);
    expect(res.headers['cache-control']).toBe('public, max-age=3600, s-maxage=86400');
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
  });

  it('serves the same bytes and ETag every time, and a different ETag per token', async () => {
    const [a, b, c, padded] = await Promise.all([
      get('/api/nft/metadata/7'),
      get('/api/nft/metadata/7'),
      get('/api/nft/metadata/8'),
      get('/api/nft/metadata/0007'),
    ]);
    expect(b.body).toBe(a.body);
    expect(b.headers.etag).toBe(a.headers.etag);
    expect(c.headers.etag).not.toBe(a.headers.etag);
    // Leading zeros name the same token (the card's name prints `#0007`).
    expect(padded.body).toBe(a.body);
    expect(padded.headers.etag).toBe(a.headers.etag);
  });
});

describe('GET /api/nft/image/{tokenId}', () => {
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' });
  /** The text content of every <text> element, in document order. */
  const textsOf = (svg: string) => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);

  const SPEC_COLOURS = {
    Black: { background: ['#0a0a0c', '#1a1920'], text: '#c9a84c', border: CARD_PALETTES.BLACK.border },
    Gold: { background: ['#c9a84c', '#b8943f'], text: '#0a0a0c', border: CARD_PALETTES.GOLD.border },
    Silver: { background: ['#8f8e94', '#6b6a70'], text: '#0a0a0c', border: CARD_PALETTES.SILVER.border },
  } as const;

  it.each(EDGES)('draws token $id as a well-formed 800x500 $tier card', async (edge) => {
    const res = await get(`/api/nft/image/${edge.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers['cache-control']).toBe(NFT_IMAGE_CACHE_CONTROL);
    expect(res.headers['cache-control']).toBe('public, max-age=86400, s-maxage=604800');
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);

    const svg = res.body;
    expect(XMLValidator.validate(svg)).toBe(true);
    const root = parser.parse(svg).svg;
    expect(root.xmlns).toBe('http://www.w3.org/2000/svg');
    expect(root.width).toBe('800');
    expect(root.height).toBe('500');
    expect(root.viewBox).toBe('0 0 800 500');

    const colours = SPEC_COLOURS[edge.tier];
    const [from, to] = colours.background;
    expect(svg).toMatch(
      new RegExp(
        `<linearGradient id="([^"]+)-bg"[^>]*><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/>`,
      ),
    );
    expect(svg).toMatch(/<rect [^>]*fill="url\(#[^)]+-bg\)" stroke="([^"]+)"/);
    expect(svg.match(/fill="url\(#[^)]+-bg\)" stroke="([^"]+)"/)![1]).toBe(colours.border);
    expect(svg).toContain(`<g fill="${colours.text}"`);
    // The chip is drawn with its own gradient.
    expect(svg).toMatch(/<rect [^>]*fill="url\(#[^)]+-chip\)"/);

    const texts = textsOf(svg);
    expect(texts).toEqual(
      expect.arrayContaining([
        'AI ECONOMY',
        `${edge.tier.toUpperCase()} TIER`,
        edge.boost,
        edge.number,
        'BASE',
        'ERC-721',
        'AI ECONOMY ACCESS',
        '1 CARD = 1 COMPANY',
      ]),
    );
    // The card number is the large monospace line.
    const numberLine = svg.match(new RegExp(`<text ([^>]*)>${edge.number}</text>`))![1]!;
    expect(numberLine).toContain('monospace');
    expect(Number(numberLine.match(/font-size="(\d+)"/)![1])).toBeGreaterThanOrEqual(64);
  });

  it('draws each tier in its own colours only', async () => {
    const black = (await get('/api/nft/image/1')).body;
    const silver = (await get('/api/nft/image/4001')).body;
    expect(black).not.toContain('#8f8e94');
    expect(silver).not.toContain('#1a1920');
  });

  it('escapes every character XML gives a meaning to', () => {
    expect(escapeXml(`<a b="c">'&'</a>`)).toBe('&lt;a b=&quot;c&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;');
    expect(XMLValidator.validate(`<t a="${escapeXml(`"'<&>`)}">${escapeXml(`<&>"'`)}</t>`)).toBe(true);
  });
});

describe('ETag and If-None-Match', () => {
  for (const route of ['metadata', 'image'] as const) {
    it(`answers 304 on /api/nft/${route} when the tag matches, and the body otherwise`, async () => {
      const url = `/api/nft/${route}/42`;
      const first = await get(url);
      const etag = first.headers.etag as string;
      const cacheControl = route === 'metadata' ? NFT_METADATA_CACHE_CONTROL : NFT_IMAGE_CACHE_CONTROL;

      for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const res = await get(url, { 'if-none-match': header });
        expect(res.statusCode, header).toBe(304);
        expect(res.body).toBe('');
        expect(res.headers.etag).toBe(etag);
        expect(res.headers['cache-control']).toBe(cacheControl);
      }
      const stale = await get(url, { 'if-none-match': '"not-the-tag"' });
      expect(stale.statusCode).toBe(200);
      expect(stale.body).toBe(first.body);
      // Another token's tag does not match.
      const other = (await get(`/api/nft/${route}/43`)).headers.etag as string;
      expect((await get(url, { 'if-none-match': other })).statusCode).toBe(200);
    });
  }

  it('answers HEAD with the headers and no body', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: '/api/nft/image/1' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers.etag).toMatch(/^"/);
    expect(res.body).toBe('');
  });
});

describe('the ready answer (routes/nft/ready.ts)', () => {
  // The route's own answer carries this header (an onSend hook of the test's); the ready answer, written before
  // Fastify sees the request, does not: that is how the test tells the two apart. A query string sends a read to the
  // route. The ready answer is the server's request listener: asked over loopback, never through `inject`.
  const ROUTE_MARK = 'x-test-answered-by-route';
  let marked: TestApp;
  let base: string;
  beforeAll(async () => {
    marked = await startTestApp({
      database: t.database,
      chain: t.chain,
      env: { BASE_URL, MARKETPLACE_URL, RATE_LIMIT_MAX: '100000' },
      extraRoutes: (app) => {
        app.addHook('onSend', (_request, reply, payload, done) => {
          reply.header(ROUTE_MARK, '1');
          done(null, payload);
        });
      },
    });
    base = await marked.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => marked?.close());
  /** Header names the network layer adds, not the service. */
  const TRANSPORT = ['date', 'connection', 'keep-alive', 'transfer-encoding', ROUTE_MARK];
  /** Header values that differ between any two answers. */
  const PER_REQUEST = ['x-request-id', 'x-ratelimit-remaining', 'ratelimit', 'x-ratelimit-reset'];
  const ask = (path: string, options: { method?: string; headers?: Record<string, string> } = {}) =>
    rawRequest(`${base}${path}`, options);

  for (const kind of ['metadata', 'image'] as const) {
    it(`answers /api/nft/${kind}/{id} with the route's bytes and headers, in the same order, counted once`, async () => {
      const ready = await ask(`/api/nft/${kind}/77`);
      const routed = await ask(`/api/nft/${kind}/77?via=route`);
      expect(ready.headers[ROUTE_MARK]).toBeUndefined();
      expect(routed.headers[ROUTE_MARK]).toBe('1');
      expect([ready.statusCode, routed.statusCode]).toEqual([200, 200]);
      expect(ready.body.equals(routed.body)).toBe(true);
      const names = (answer: RawAnswer) => answer.names.filter((n) => !TRANSPORT.includes(n));
      expect(names(ready)).toEqual(names(routed));
      for (const name of names(ready).filter((n) => !PER_REQUEST.includes(n))) {
        expect(ready.headers[name], name).toBe(routed.headers[name]);
      }
      // One request, one count, in the bucket the route counts in.
      expect(Number(routed.headers['x-ratelimit-remaining'])).toBe(Number(ready.headers['x-ratelimit-remaining']) - 1);
      expect(ready.headers['content-length']).toBe(String(ready.body.length));
      // The answer is the document the route serves, as its route says.
      expect(ready.body.equals((await get(`/api/nft/${kind}/77`)).rawPayload)).toBe(true);
    });
  }

  it('is counted in the request histogram under its route, as the route is', async () => {
    const seen = async () => {
      const text = await marked.container.metrics.render();
      const line = text
        .split('\n')
        .find(
          (l) => l.startsWith('http_request_duration_seconds_count{') && l.includes('route="/api/nft/image/:tokenId"'),
        );
      return line === undefined ? 0 : Number(line.split(' ').at(-1));
    };
    const before = await seen();
    expect((await ask('/api/nft/image/12')).headers[ROUTE_MARK]).toBeUndefined();
    expect((await ask('/api/nft/image/12?via=route')).headers[ROUTE_MARK]).toBe('1');
    expect(await seen()).toBe(before + 2);
  });

  it("writes the route's access lines, at info and at debug", async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const logged = await startTestApp({
      database: t.database,
      chain: t.chain,
      env: { BASE_URL, MARKETPLACE_URL },
      logger: createLogger('debug', 'json', stream),
    });
    try {
      const at = await logged.app.listen({ port: 0, host: '127.0.0.1' });
      const ready = await rawRequest(`${at}/api/nft/metadata/3`, { headers: { 'x-request-id': 'ready-1' } });
      const routed = await rawRequest(`${at}/api/nft/metadata/3?via=route`, { headers: { 'x-request-id': 'route-1' } });
      expect([ready.statusCode, routed.statusCode]).toEqual([200, 200]);
      const of = (reqId: string) => lines.filter((l) => l.reqId === reqId);
      const shape = (line: Record<string, any>) => ({
        msg: line.msg,
        level: line.level,
        keys: Object.keys(line).sort(),
        req: { ...line.req, url: line.req.url.replace('?via=route', '') },
        res: line.res,
      });
      expect(of('ready-1').map(shape)).toEqual(of('route-1').map(shape));
      expect(of('ready-1').map((l) => l.msg)).toEqual(['incoming request', 'request completed']);
      expect(of('ready-1')[1]).toMatchObject({
        req: { method: 'GET', url: '/api/nft/metadata/3', remoteAddress: '127.0.0.1' },
        res: { statusCode: 200 },
        responseTime: expect.any(Number),
      });
    } finally {
      await logged.close();
    }
  });

  it("echoes the client's request id, and leaves a 304, a HEAD and a bad id to the route", async () => {
    const ready = await ask('/api/nft/metadata/5', { headers: { 'x-request-id': 'bot-7.req:42' } });
    expect(ready.headers['x-request-id']).toBe('bot-7.req:42');
    expect(ready.headers[ROUTE_MARK]).toBeUndefined();
    const fresh = await ask('/api/nft/metadata/5', { headers: { 'x-request-id': 'a b' } });
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const etag = ready.headers.etag as string;
    const notModified = await ask('/api/nft/metadata/5', { headers: { 'if-none-match': etag } });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.headers[ROUTE_MARK]).toBe('1');
    // The 304 is given back (docs/api/README.md "Rate limits" 3): the count before it stands.
    expect(Number(notModified.headers['x-ratelimit-remaining'])).toBe(Number(fresh.headers['x-ratelimit-remaining']));
    const head = await ask('/api/nft/metadata/5', { method: 'HEAD' });
    expect([head.statusCode, head.headers[ROUTE_MARK], head.body.length]).toEqual([200, '1', 0]);
    const bad = await ask('/api/nft/image/10001');
    expect([bad.statusCode, bad.headers[ROUTE_MARK]]).toEqual([400, '1']);
    const slash = await ask('/api/nft/image/10/');
    expect([slash.statusCode, slash.headers[ROUTE_MARK]]).toEqual([200, '1']);
  });
});

describe('invalid token ids', () => {
  for (const route of ['metadata', 'image'] as const) {
    it.each(BAD_IDS)(`/api/nft/${route}/%s answers 400 with the bare { error } body`, async (raw) => {
      const res = await get(`/api/nft/${route}/${raw}`);
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      const body = res.json();
      expect(Object.keys(body)).toEqual(['error']);
      expect(body.error).toEqual(expect.any(String));
      expect(body.error).toContain('from 1 to 10000');
      expect(res.headers.etag).toBeUndefined();
    });

    it(`/api/nft/${route} without any id answers 400 too`, async () => {
      const res = await get(`/api/nft/${route}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        error: 'Missing token id: a token id is a whole number from 1 to 10000, written in decimal digits',
      });
    });
  }

  it('names the refused value in the message, shortened when long', async () => {
    expect((await get('/api/nft/metadata/1e3')).json()).toEqual({
      error: 'Invalid token id "1e3": a token id is a whole number from 1 to 10000, written in decimal digits',
    });
    const long = (await get(`/api/nft/image/${'9'.repeat(100)}`)).json();
    expect(long.error).toContain(`"${'9'.repeat(24)}..."`);
    expect(long.error.length).toBeLessThan(150);
  });
});

describe('OpenAPI', () => {
  it('documents both routes under the nft tag with their response types', async () => {
    const doc = (await get('/api/openapi.json')).json();
    const metadata = doc.paths['/api/nft/metadata/{tokenId}'].get;
    const image = doc.paths['/api/nft/image/{tokenId}'].get;
    expect(metadata.tags).toEqual(['nft']);
    expect(image.tags).toEqual(['nft']);
    expect(metadata.summary).toEqual(expect.any(String));
    expect(metadata.parameters[0]).toMatchObject({ in: 'path', name: 'tokenId', required: true });
    expect(Object.keys(metadata.responses['200'].content['application/json'].schema.properties)).toEqual([
      'name',
      'description',
      'image',
      'external_url',
      'attributes',
    ]);
    expect(image.responses['200'].content['image/svg+xml'].schema.type).toBe('string');
    expect(image.responses['200'].headers).toHaveProperty('ETag');
    expect(metadata.responses['404'].content['application/json'].schema.$ref).toContain('BareError');
    expect(doc.paths['/api/nft/metadata']).toBeUndefined();
  });
});

describe('a card minted on the chain', () => {
  it('is described by the metadata route its tokenURI points to', async () => {
    const buyer = t.chain.wallet(1);
    const { publicClient } = t.chain.chain;
    const { accessCard, usdc } = t.chain.chain.contracts;
    const approve = await buyer.writeContract({
      address: usdc!,
      abi: MockUSDCAbi,
      functionName: 'approve',
      args: [accessCard!, CARD_MINT_PRICE_USDC],
    });
    await publicClient.waitForTransactionReceipt({ hash: approve });
    const mint = await buyer.writeContract({ address: accessCard!, abi: AccessCardAbi, functionName: 'mint' });
    const receipt = await publicClient.waitForTransactionReceipt({ hash: mint });
    expect(receipt.status).toBe('success');

    const [transfer] = parseEventLogs({ abi: AccessCardAbi, eventName: 'Transfer', logs: receipt.logs });
    const tokenId = transfer!.args.tokenId;
    expect(transfer!.args.to).toBe(buyer.account.address);
    const totalMinted = await publicClient.readContract({
      address: accessCard!,
      abi: AccessCardAbi,
      functionName: 'totalMinted',
    });
    expect(tokenId).toBe(totalMinted);

    const tokenUri = await publicClient.readContract({
      address: accessCard!,
      abi: AccessCardAbi,
      functionName: 'tokenURI',
      args: [tokenId],
    });
    expect(tokenUri).toBe(`${BASE_URL}/api/nft/metadata/${tokenId}`);

    const res = await get(new URL(tokenUri).pathname);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const expectedTier = tierOf(Number(tokenId))!;
    expect(body.name).toBe(`AI Economy Access Card \u2014 ${expectedTier.label} #${String(tokenId).padStart(4, '0')}`);
    expect(body.attributes).toContainEqual({ trait_type: 'Token ID', value: String(tokenId) });
    expect(body.attributes).toContainEqual({ trait_type: 'Tier', value: expectedTier.label });

    const image = await get(new URL(body.image).pathname);
    expect(image.statusCode).toBe(200);
    expect(XMLValidator.validate(image.body)).toBe(true);
  });
});
