// Builds the HTTP application: the Fastify instance (request ids, validation, serialization, router limits), the
// cross-cutting plugins of src/http/plugins/ in the order their hooks must run, then every route family.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyServerOptions } from 'fastify';
import type { Logger } from 'pino';
import { ADDRESS_FORMAT, ADDRESS_PATTERN } from '../address.ts';
import { latestBlock } from '../chain/contracts/access-card.ts';
import type { TrustProxy } from '../config/parse.ts';
import { createCardCatalog } from '../domain/cards/catalog.ts';
import { createLogger } from '../logger.ts';
import { createChainHead } from './block-reads.ts';
import { envelopeOfUnroutedUrl, mapError, sendError } from './errors.ts';
import allowedMethods from './plugins/allowed-methods.ts';
import apiDocs from './plugins/api-docs.ts';
import cacheControl from './plugins/cache-control.ts';
import cors, { CORS_HEADERS } from './plugins/cors.ts';
import deprecation from './plugins/deprecation.ts';
import etag from './plugins/etag.ts';
import idempotency from './plugins/idempotency.ts';
import rateLimit, { createRateLimits } from './plugins/rate-limit.ts';
import requestBody from './plugins/request-body.ts';
import requestId, { requestIdOf } from './plugins/request-id.ts';
import requestMetrics from './plugins/request-metrics.ts';
import securityHeaders, { answerHeaderSets } from './plugins/security-headers.ts';
import web from './plugins/web.ts';
import { createReadCache } from './read-cache.ts';
import { AccessLog, lazyRequestLogger } from './request-logger.ts';
import adminRoutes from './routes/admin/index.ts';
import agentRoutes from './routes/agents/index.ts';
import companyRoutes from './routes/companies/index.ts';
import decisionRoutes from './routes/decisions/index.ts';
import epochRoutes from './routes/epochs/index.ts';
import { publicEventRoutes } from './routes/events/index.ts';
import fortuneRoutes from './routes/fortune/index.ts';
import nftRoutes from './routes/nft/index.ts';
import { cardReadyAnswers } from './routes/nft/ready.ts';
import stakingRoutes from './routes/staking/index.ts';
import systemRoutes from './routes/system/index.ts';
import tokenRoutes from './routes/tokens/index.ts';
import tradingRoutes from './routes/trading/index.ts';
import v1Routes from './routes/v1.ts';
import walletRoutes from './routes/wallets/index.ts';
import { buildCachedSerializer } from './serialization.ts';
import type { ApiDeps, App } from './types.ts';
import { createValidatorCompiler } from './validation.ts';

export const BODY_LIMIT_BYTES = 64 * 1024;
// The response serializer checks unions with an Ajv of its own: it must know the request schemas' formats too. One
// object a process, so the serializers compiled with it are kept across apps (serialization.ts).
const SERIALIZER_OPTIONS = { ajv: { formats: { [ADDRESS_FORMAT]: ADDRESS_PATTERN } } };

/** The longest path parameter the router matches (a cursor, a slug, an address); longer is a 404. */
const MAX_PARAM_LENGTH = 200;

export interface BuildAppOptions {
  /** The process logger; a fresh one at the configured level when absent. Tests pass their own. */
  logger?: Logger;
}

/** TRUST_PROXY as Fastify takes it: a hop count as proxy-addr's own rule for it (Fastify's types take only its function form). */
const trustProxy = (trust: TrustProxy) =>
  typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust;

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Puts `first` before Fastify's own request listener on the app's server: it answers what it can and hands the rest
 * to Fastify. `closing()` is true from the app's close on, when Fastify answers every request itself.
 */
function answerFirst(app: App, first: (fastify: Listener, closing: () => boolean) => Listener) {
  const [fastify] = app.server.listeners('request') as [Listener];
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.server.removeListener('request', fastify);
  app.server.on(
    'request',
    first(fastify, () => closing),
  );
}

export async function buildApp(deps: ApiDeps, options: BuildAppOptions = {}): Promise<App> {
  const { config, chain } = deps;
  const trust = trustProxy(config.trustProxy);
  const app = Fastify({
    loggerInstance: options.logger ?? createLogger(config.logLevel, config.logFormat),
    genReqId: requestIdOf,
    // A request's pino child is made only when it logs (request-logger.ts): most requests log nothing.
    childLoggerFactory: lazyRequestLogger as never,
    // One access line a request, at info (request-logger.ts).
    logController: new AccessLog(),
    trustProxy: trust,
    bodyLimit: BODY_LIMIT_BYTES,
    serializerOpts: SERIALIZER_OPTIONS,
    schemaController: { compilersFactory: { buildSerializer: buildCachedSerializer } },
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH, ignoreTrailingSlash: true },
    forceCloseConnections: 'idle',
    // The router's own errors (a broken percent-escape in the path) come before any route family: the path says
    // which family's envelope they answer in.
    frameworkErrors: (error, request, reply) => sendError(reply, envelopeOfUnroutedUrl(request.url), mapError(error)),
  } satisfies FastifyServerOptions).withTypeProvider<TypeBoxTypeProvider>() as unknown as App;
  app.setValidatorCompiler(createValidatorCompiler());

  // The hooks every request runs are callback hooks that do only per-request work (the NFT routes must stay close
  // to a bare route's speed, docs/benchmarks.md). Before any route: a wrong method on a known path is a 405.
  await app.register(allowedMethods, { maxParamLength: MAX_PARAM_LENGTH });
  // The card documents answer plain reads before Fastify sees them, with its hooks' headers (routes/nft/ready.ts).
  const limits = createRateLimits(deps);
  const cards = createCardCatalog(config);
  answerFirst(app, (fastify, closing) =>
    cardReadyAnswers(
      {
        cards,
        limits,
        headers: answerHeaderSets(config, chain, CORS_HEADERS).api,
        metrics: deps.metrics,
        logger: app.log as Logger,
        trustProxy: trust,
      },
      fastify,
      closing,
    ),
  );
  await app.register(requestBody);
  await app.register(requestId);
  await app.register(requestMetrics, { metrics: deps.metrics });
  // First among the answers' plugins, so every answer carries the headers (the CORS ones with them): errors, 404s
  // and 429s included.
  await app.register(securityHeaders, { config, chain, also: CORS_HEADERS });
  await app.register(etag);
  await app.register(cacheControl); // the routes' own hooks, which run after etag's: its 304s are seen as such
  await app.register(idempotency, { deps });
  await app.register(web);
  await app.register(deprecation); // before the document's plugin reads the operations
  await app.register(apiDocs, { config, chain });
  await app.register(cors); // the preflights
  await app.register(rateLimit, { deps, limits });

  // The read routes' bodies, kept until a table they were read from changes (read-cache.ts), and the chain's latest
  // block as this process last read it, for the routes that read the chain (block-reads.ts).
  const reads = createReadCache(deps.database, { maxBytes: config.readCacheMaxBytes });
  app.decorateRequest('keptNextCursor', undefined);
  app.addHook('onClose', () => reads.stop());
  const chainHead = createChainHead(() => latestBlock(chain), config.chainHeadReuseMs);
  const routes = { deps, reads, chainHead };
  await app.register(systemRoutes, routes);
  await app.register(nftRoutes, { ...routes, cards, prefix: '/api/nft' });
  await app.register(stakingRoutes, routes);
  await app.register(companyRoutes, routes);
  await app.register(agentRoutes, routes);
  await app.register(tradingRoutes, routes);
  await app.register(v1Routes, { ...routes, prefix: '/api/v1' });
  await app.register(publicEventRoutes, routes);
  await app.register(tokenRoutes, routes);
  await app.register(walletRoutes, routes);
  await app.register(decisionRoutes, routes);
  await app.register(fortuneRoutes, routes);
  await app.register(epochRoutes, routes);
  await app.register(adminRoutes, routes);
  return app;
}
