// Builds the HTTP application: logging with request ids, JSON bodies kept raw for signatures, validation and
// error envelopes, OpenAPI, rate limits, then every area's routes.
import { randomUUID } from 'node:crypto';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyServerOptions } from 'fastify';
import type { Logger } from 'pino';
import { ADDRESS_FORMAT, ADDRESS_PATTERN } from '../address.ts';
import { latestBlock } from '../chain/contracts/access-card.ts';
import { createLogger } from '../logger.ts';
import { installAllowedMethods } from './allowed-methods.ts';
import { createChainHead } from './block-reads.ts';
import { installCacheControl } from './cache-control.ts';
import { installDeprecations } from './deprecation.ts';
import { envelopeOfUnroutedUrl, installErrorHandlers, mapError, sendError } from './errors.ts';
import { installEtags } from './etag.ts';
import { installIdempotency } from './idempotency.ts';
import { exactOpenApi } from './openapi.ts';
import { declareV1Headers } from './openapi-headers.ts';
import { installRateLimits } from './rate-limit.ts';
import { createReadCache } from './read-cache.ts';
import adminRoutes from './routes/admin.ts';
import agentRoutes from './routes/agents.ts';
import companyRoutes from './routes/companies.ts';
import decisionRoutes from './routes/decisions.ts';
import epochRoutes from './routes/epochs.ts';
import { publicEventRoutes } from './routes/events.ts';
import fortuneRoutes from './routes/fortune.ts';
import metricsRoutes from './routes/metrics.ts';
import nftRoutes from './routes/nft.ts';
import stakingRoutes from './routes/staking.ts';
import systemRoutes from './routes/system.ts';
import tokenRoutes from './routes/tokens.ts';
import tradingRoutes from './routes/trading.ts';
import v1Routes from './routes/v1.ts';
import walletRoutes from './routes/wallets.ts';
import { BareError, InternalError, V1Error } from './schemas/common.ts';
import { EVENT_SCHEMAS } from './schemas/events.ts';
import { TokenListItem, TokenMarket } from './schemas/tokens.ts';
import { docsContentSecurityPolicy, securityHeaders } from './security-headers.ts';
import { buildCachedSerializer } from './serialization.ts';
import type { ApiDeps, App } from './types.ts';
import { createValidatorCompiler, rejectUnstorableText } from './validation.ts';
import { webApp } from './web.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route checks all of its input itself (the NFT routes' token id): no schema run, no unstorable-text check. */
    ownInput?: boolean;
  }
}

export const BODY_LIMIT_BYTES = 64 * 1024;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
// The response serializer checks unions with an Ajv of its own: it must know the request schemas' formats too. One
// object a process, so the serializers compiled with it are kept across apps (serialization.ts).
const SERIALIZER_OPTIONS = { ajv: { formats: { [ADDRESS_FORMAT]: ADDRESS_PATTERN } } };

/** The longest path parameter the router matches (a cursor, a slug, an address); longer is a 404. */
const MAX_PARAM_LENGTH = 200;

export interface BuildAppOptions {
  /** The process logger; a fresh one at the configured level when absent. Tests pass their own. */
  logger?: Logger;
}

export async function buildApp(deps: ApiDeps, options: BuildAppOptions = {}): Promise<App> {
  const { config } = deps;
  const app = Fastify({
    loggerInstance: options.logger ?? createLogger(config.logLevel, config.logFormat),
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // A hop count as proxy-addr's own rule for it (Fastify's types take only its function form).
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (
            (hops: number) => (_address: string, hop: number) =>
              hop < hops
          )(config.trustProxy)
        : config.trustProxy,
    bodyLimit: BODY_LIMIT_BYTES,
    serializerOpts: SERIALIZER_OPTIONS,
    schemaController: { compilersFactory: { buildSerializer: buildCachedSerializer } },
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH, ignoreTrailingSlash: true },
    forceCloseConnections: 'idle',
    // The router's own errors (a broken percent-escape in the path) come before any route family: the path says
    // which family's envelope they answer in.
    frameworkErrors: (error, request, reply) => {
      sendError(reply, envelopeOfUnroutedUrl(request.url), mapError(error));
    },
  } satisfies FastifyServerOptions).withTypeProvider<TypeBoxTypeProvider>() as unknown as App;

  app.setValidatorCompiler(createValidatorCompiler());
  // Before any route: a wrong method on a known path is a 405 naming the methods it takes.
  installAllowedMethods(app, MAX_PARAM_LENGTH);
  // The hooks every request runs are callback hooks (no promise and microtask hop each) and do only per-request
  // work; everything that can be is computed once here (the NFT routes must stay close to a bare route's speed, docs/benchmarks.md).
  // After the schemas: text no column can store (NUL, unpaired surrogates) is refused before any handler runs.
  // Routes that attach their validation error, or check their input themselves, answer it with their own message.
  app.addHook('preHandler', (request, _reply, done) => {
    if (request.validationError || request.routeOptions.config.ownInput) return done();
    try {
      rejectUnstorableText({ params: request.params, query: request.query, body: request.body });
    } catch (err) {
      return done(err as Error);
    }
    done();
  });

  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  // Latency by route pattern (never the raw URL) and status class; event streams are hijacked and not counted here.
  app.addHook('onResponse', (request, reply, done) => {
    deps.metrics.observeRequest(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  app.addHook('onError', (_request, _reply, err, done) => {
    if (mapError(err).code === 'CHAIN_UNAVAILABLE') deps.metrics.countRpcError(err, 'http');
    done();
  });

  // JSON bodies are parsed by Fastify's own safe parser, and the exact bytes are kept for the wallet
  // signature's body hash.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    request.rawBody = body as string;
    if (body === '') return done(null, undefined);
    parseJson(request, body as string, done);
  });

  // First among the plugins, so every answer carries the headers: errors, 404s and 429s included.
  // Computed once; a callback hook, so no promise per request. Routes that need another policy set their own later
  // (the API reference's, below).
  const security = securityHeaders(config, deps.chain);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(security);
    done();
  });
  installEtags(app);
  installCacheControl(app);
  // Stores the answers of signed writes sent with an Idempotency-Key (idempotency.ts).
  installIdempotency(app, deps);

  // The web app's assets, and its pages for every GET outside /api that no route takes (deep links included).
  installErrorHandlers(app, 'internal', await webApp(app));
  for (const schema of [InternalError, V1Error, BareError, ...EVENT_SCHEMAS, TokenMarket, TokenListItem]) {
    app.addSchema(schema);
  }

  // Before the document's plugin: a deprecated route is marked in its operation before the document reads it.
  installDeprecations(app);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'ai-economy API',
        version: '1',
        description:
          'Companies run by AI agents, their tokens, staking, epoch rewards and the Fortune List. Internal routes answer `{ success, data }`; public `/api/v1` routes answer `{ data, meta }`.',
      },
      servers: [{ url: config.baseUrl }],
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
          apiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key' },
          wallet: {
            type: 'apiKey',
            in: 'header',
            name: 'Authorization',
            description:
              'Wallet <address>:<unixSeconds>:<signature>: an EIP-191 signature by the card holder over four lines, the preamble, `<METHOD> <path and query as sent>`, the unix seconds and the hex sha256 of the body (docs/api/README.md "Wallet signature"). On /api/v1 always beside the API key.',
          },
          bearerSecret: { type: 'http', scheme: 'bearer' },
        },
      },
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    // Optional query parameters, security on every operation, operationIds and each operation's real statuses.
    // Then the v1 responses' headers (openapi-headers.ts).
    transformObject: (documentObject) =>
      declareV1Headers(
        exactOpenApi((documentObject as { openapiObject: Record<string, unknown> }).openapiObject),
      ) as never,
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    uiConfig: { deepLinking: true },
    staticCSP: docsContentSecurityPolicy(config, deps.chain),
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  // Every route is callable from browsers (dashboards, marketplaces, dapps): credentials travel in headers,
  // never in cookies, so any origin may call.
  // The header lists are given joined: the plugin joins an array again on every request.
  await app.register(cors, {
    origin: '*',
    methods: 'GET, HEAD, POST, PUT, PATCH, DELETE',
    allowedHeaders:
      'content-type, authorization, x-api-key, x-request-id, last-event-id, if-none-match, idempotency-key',
    exposedHeaders:
      'x-request-id, retry-after, etag, link, deprecation, sunset, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, ratelimit, ratelimit-policy, idempotent-replayed, location, www-authenticate',
    maxAge: 86_400,
  });

  // Per API key on v1, per client IP elsewhere; 304s not charged; x-ratelimit-* and the IETF RateLimit fields.
  await installRateLimits(app, deps);

  // The read routes' bodies, kept until a table they were read from changes (read-cache.ts).
  const reads = createReadCache(deps.database, { maxBytes: deps.config.readCacheMaxBytes });
  app.addHook('onClose', async () => {
    await reads.stop();
  });
  // The chain's latest block as this process last read it, for the routes that read the chain (block-reads.ts).
  const chainHead = createChainHead(() => latestBlock(deps.chain), deps.config.chainHeadReuseMs);
  const routes = { deps, reads, chainHead };
  await app.register(systemRoutes, routes);
  await app.register(metricsRoutes, routes);
  await app.register(nftRoutes, { ...routes, prefix: '/api/nft' });
  await app.register(stakingRoutes, routes);
  await app.register(companyRoutes, routes);
  await app.register(agentRoutes, routes);
  await app.register(tradingRoutes, routes);
  await app.register(v1Routes, { ...routes, prefix: '/api/v1' });
  await app.register(publicEventRoutes, { ...routes, prefix: '/api' });
  await app.register(tokenRoutes, routes);
  await app.register(walletRoutes, routes);
  await app.register(decisionRoutes, routes);
  await app.register(fortuneRoutes, routes);
  await app.register(epochRoutes, routes);
  await app.register(adminRoutes, routes);
  return app;
}
