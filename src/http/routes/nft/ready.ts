// The card documents' ready answer (docs/benchmarks.md "The NFT documents' ready answer"): a marketplace or wallet
// reads a card's metadata and image far more often than anything else, and each is fixed bytes. Fastify's request
// and reply, its hooks (the request id, the security and CORS headers, the limiter), each setting its headers through
// the reply, cost such a read close to half of a bare route's rate. So the HTTP server's request listener answers a
// plain `GET /api/nft/metadata/{id}` or `/api/nft/image/{id}` (no query, a valid id) before Fastify sees it, with the
// route's headers in the route's order, written in one call, and does what Fastify's hooks would: the request id,
// the count in the limiter's bucket for the client's address (as Fastify's `request.ip` names it), the request
// histogram and, at info, the same access line (request-logger.ts). Every other case goes to Fastify: a HEAD, a bad
// id, an If-None-Match that hits (the route's 304 counts and gives its count back), a request past the budget (the
// route answers the 429 with the count made here, `IncomingMessage.rateCount`), and every request once the app is
// closing. `app.inject` never passes the listener: it always meets the route. test/http/nft.test.ts "the ready
// answer" holds the two answers equal over loopback.
import type { IncomingMessage, ServerResponse } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { Logger } from 'pino';
import type { TrustProxy } from '../../../config/parse.ts';
import type { CardCatalog, RenderedCardDocument } from '../../../domain/cards/catalog.ts';
import { parseCardTokenId } from '../../../domain/cards/tiers.ts';
import type { Metrics } from '../../../metrics.ts';
import { ifNoneMatchHits } from '../../plugins/etag.ts';
import type { RateCount, RateLimits } from '../../plugins/rate-limit.ts';
import { requestIdOf } from '../../plugins/request-id.ts';
import { CARD_DOCUMENTS, type CardDocumentKind } from './token-id.ts';

declare module 'node:http' {
  interface IncomingMessage {
    /** This request's count, made by the ready answer, which then left the answer to the route: not counted again. */
    rateCount?: RateCount;
  }
}

const PREFIX = '/api/nft/';
const READY_PATH = /^\/api\/nft\/(metadata|image)\/([0-9]+)$/;
/** The routes' patterns, as the request histogram labels them. */
const ROUTE_OF = { metadata: '/api/nft/metadata/:tokenId', image: '/api/nft/image/:tokenId' } as const;

export interface ReadyAnswerOptions {
  cards: CardCatalog;
  limits: RateLimits;
  /** The headers every API answer carries (security-headers.ts's `api` set with the CORS ones). */
  headers: Readonly<Record<string, string>>;
  metrics: Metrics;
  logger: Logger;
  /** The app's TRUST_PROXY, or its function (app.ts): the client's address is the one Fastify's `request.ip` names. */
  trustProxy: TrustProxy | ((address: string, hop: number) => boolean);
}

/** The client's address as Fastify names it for a trust setting (its request.js). */
function clientAddressOf(trust: ReadyAnswerOptions['trustProxy']): (req: IncomingMessage) => string {
  if (trust === false) return (req) => req.socket.remoteAddress ?? '';
  const trusts = typeof trust === 'function' ? trust : proxyAddr.compile(trust as string[]);
  return (req) => proxyAddr(req, trusts);
}

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The server's request listener: answers a ready read, and hands every other request to `fastify` (Fastify's own
 * listener). `closing()`: the app is closing, and Fastify answers every request (503 with Connection: close).
 */
export function cardReadyAnswers(
  { cards, limits, headers, metrics, logger, trustProxy }: ReadyAnswerOptions,
  fastify: Listener,
  closing: () => boolean,
): Listener {
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
    metadata: {
      of: (id: number) => cards.metadata(id),
      list: listOf(CARD_DOCUMENTS.metadata),
      route: ROUTE_OF.metadata,
    },
    image: { of: (id: number) => cards.image(id), list: listOf(CARD_DOCUMENTS.image), route: ROUTE_OF.image },
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
  const clientAddress = clientAddressOf(trustProxy);

  /** Answers a ready read, or returns false: the request is Fastify's. */
  const answer = (req: IncomingMessage, res: ServerResponse, url: string): boolean => {
    const started = performance.now();
    const match = READY_PATH.exec(url);
    const tokenId = match === null ? undefined : parseCardTokenId(match[2]!);
    if (tokenId === undefined) return false;
    const kind = kinds[match![1] as CardDocumentKind];
    const doc: RenderedCardDocument = kind.of(tokenId);
    if (ifNoneMatchHits(req.headers['if-none-match'], doc.etag)) return false;
    const address = clientAddress(req);
    limits.countByAddress(address, (count) => {
      if (count.exceeded) {
        req.rateCount = count;
        return fastify(req, res);
      }
      try {
        const id = requestIdOf(req);
        const list = kind.list.slice();
        list[ID] = id;
        list[LIMIT] = String(count.max);
        list[REMAINING] = String(count.remaining);
        list[RESET] = String(count.reset);
        list[POLICY] = count.policy;
        list[RATE] = count.rateLimit;
        list[ETAG] = doc.etag;
        list[LENGTH] = String(doc.body.length);
        res.writeHead(200, list);
        res.end(doc.body);
        const ms = performance.now() - started;
        metrics.observeRequest('GET', kind.route, 200, ms / 1000);
        if (logger.isLevelEnabled('info')) {
          const request = { method: 'GET', url, ip: address };
          logger.debug({ reqId: id, req: request }, 'incoming request');
          logger.info({ reqId: id, req: request, res: { statusCode: 200 }, responseTime: ms }, 'request completed');
        }
      } catch (err) {
        req.rateCount = count;
        fault(err, req, res);
      }
    });
    return true;
  };
  /** A fault of the ready answer is logged, and the request is the route's when nothing was written yet. */
  const fault = (err: unknown, req: IncomingMessage, res: ServerResponse) => {
    logger.error({ err, url: req.url }, 'the card ready answer failed');
    if (!res.headersSent) fastify(req, res);
  };

  return (req, res) => {
    const url = req.url;
    if (req.method !== 'GET' || url === undefined || !url.startsWith(PREFIX) || closing()) return fastify(req, res);
    let answered: boolean;
    try {
      answered = answer(req, res, url);
    } catch (err) {
      return fault(err, req, res);
    }
    if (!answered) fastify(req, res);
  };
}
