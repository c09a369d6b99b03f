// The card documents' ready answer (docs/benchmarks.md "The NFT documents' ready answer"): a marketplace or wallet
// reads a card's metadata and image far more often than anything else, and each is fixed bytes. Fastify's hooks
// (the request id, the security and CORS headers, the limiter), each setting its headers through the reply, cost
// such a read about half of a bare route's rate; this hook, the first of every request, answers a plain
// `GET /api/nft/metadata/{id}` or `/api/nft/image/{id}` (no query, a valid id) itself, with the same headers in the
// same order, written in one call. It counts the request in the same bucket the route's limiter would and leaves
// every other case to the route, which then does not count it again: a 304 (If-None-Match hits; its refund is the
// limiter's), a 429, a HEAD, a bad id. The answer's end still runs the onResponse hooks (metrics, the request log).
// test/http/nft.test.ts "the ready answer" holds the two answers' headers equal.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { CardCatalog, RenderedCardDocument } from '../../../domain/cards/catalog.ts';
import { parseCardTokenId } from '../../../domain/cards/tiers.ts';
import { ifNoneMatchHits } from '../../plugins/etag.ts';
import type { RateLimits } from '../../plugins/rate-limit.ts';
import { CARD_DOCUMENTS, type CardDocumentKind } from './token-id.ts';

const PREFIX = '/api/nft/';
const READY_PATH = /^\/api\/nft\/(metadata|image)\/([0-9]+)$/;

export default fp<{ cards: CardCatalog; limits: RateLimits; headers: Readonly<Record<string, string>> }>(
  async (app: FastifyInstance, { cards, limits, headers }) => {
    // Each kind's header list, built once in the answer's order; an answer copies it and fills in its own values.
    const listOf = ({ contentType, cacheControl }: (typeof CARD_DOCUMENTS)[CardDocumentKind]) => [
      'x-request-id',
      '',
      ...Object.entries(headers).flat(),
      'x-ratelimit-limit',
      '',
      'x-ratelimit-remaining',
      '',
      'x-ratelimit-reset',
      '',
      'ratelimit-policy',
      '',
      'ratelimit',
      '',
      'cache-control',
      cacheControl,
      'etag',
      '',
      'content-type',
      contentType,
      'content-length',
      '',
    ];
    const kinds = {
      metadata: { of: (id: number) => cards.metadata(id), list: listOf(CARD_DOCUMENTS.metadata) },
      image: { of: (id: number) => cards.image(id), list: listOf(CARD_DOCUMENTS.image) },
    };
    const at = (name: string) => kinds.metadata.list.indexOf(name) + 1;
    const [ID, LIMIT, REMAINING, RESET, POLICY, RATE, ETAG, LENGTH] = [
      'x-request-id',
      'x-ratelimit-limit',
      'x-ratelimit-remaining',
      'x-ratelimit-reset',
      'ratelimit-policy',
      'ratelimit',
      'etag',
      'content-length',
    ].map(at) as [number, number, number, number, number, number, number, number];
    app.addHook('onRequest', (request, reply, done) => {
      if (request.method !== 'GET' || !request.url.startsWith(PREFIX)) return done();
      const match = READY_PATH.exec(request.url);
      const tokenId = match === null ? undefined : parseCardTokenId(match[2]!);
      if (tokenId === undefined) return done();
      const kind = kinds[match![1] as CardDocumentKind];
      const doc: RenderedCardDocument = kind.of(tokenId);
      limits.countByAddress(request, (count) => {
        if (count.exceeded || ifNoneMatchHits(request.headers['if-none-match'], doc.etag)) {
          request.rateCount = count;
          return done();
        }
        const list = kind.list.slice();
        list[ID] = request.id;
        list[LIMIT] = String(count.max);
        list[REMAINING] = String(count.remaining);
        list[RESET] = String(count.reset);
        list[POLICY] = count.policy;
        list[RATE] = count.rateLimit;
        list[ETAG] = doc.etag;
        list[LENGTH] = String(doc.body.length);
        reply.hijack();
        reply.raw.writeHead(200, list);
        reply.raw.end(doc.body);
      });
    });
  },
  { name: 'card-ready-answers' },
);
