// The OpenAPI document (GET /api/openapi.json) and the API reference (/api/docs), read from the routes' own schemas:
// the schemas every family's routes refer to by id, @fastify/swagger with the service's security schemes, then the
// document made exact (exactOpenApi: optional query parameters, security on every operation, operationIds, each
// operation's real statuses) and the v1 responses' headers declared (openapi-headers.ts). Register it after the
// deprecations' plugin, so a deprecated operation is marked before the document reads it, and before every route.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config.ts';
import { exactOpenApi } from '../openapi.ts';
import { declareV1Headers } from '../openapi-headers.ts';
import { TokenListItem, TokenMarket } from '../routes/tokens/market.ts';
import { BareError, InternalError, V1Error } from '../schemas/common.ts';
import { EVENT_SCHEMAS } from '../schemas/events.ts';
import { docsContentSecurityPolicy } from './security-headers.ts';

export interface ApiDocsOptions {
  config: Pick<Config, 'baseUrl'>;
  chain: { local: boolean; rpcUrl: string };
}

export default fp<ApiDocsOptions>(
  async (app: FastifyInstance, { config, chain }) => {
    for (const schema of [InternalError, V1Error, BareError, ...EVENT_SCHEMAS, TokenMarket, TokenListItem]) {
      app.addSchema(schema);
    }
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
      transformObject: (documentObject) =>
        declareV1Headers(
          exactOpenApi((documentObject as { openapiObject: Record<string, unknown> }).openapiObject),
        ) as never,
    });
    await app.register(swaggerUi, {
      routePrefix: '/api/docs',
      uiConfig: { deepLinking: true },
      staticCSP: docsContentSecurityPolicy(config, chain),
    });
    app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  },
  { name: 'api-docs' },
);
