// The reads that existed only on the internal routes, under /api/v1 with a key and the v1 envelope (registered by
// v1.ts): a company's detail and decisions, a quote of a trade, a wallet's position and PnL, the reward epochs and
// staking. Each answers what its internal twin answers (same domain read, same fields), so the two stay one data.
import { readFile } from 'node:fs/promises';
import { Type } from 'typebox';
import { getAddress } from 'viem';
import { chainDateForReads } from '../../chain/time.ts';
import { getCompanyView } from '../../domain/companies/queries.ts';
import { tokenQuote } from '../../domain/tokens/quote.ts';
import { tokenPositionOf } from '../../domain/trading/position.ts';
import { requireApiKey } from '../auth/index.ts';
import { v1Body } from '../envelope.ts';
import { registerRoute } from '../route.ts';
import { AddressString, Nullable, StringEnum, v1Errors, v1Ok } from '../schemas/common.ts';
import { CompanyResponse } from '../schemas/companies.ts';
import { PositionResponse, SlugParams } from '../schemas/tokens.ts';
import type { App, RouteOptions } from '../types.ts';
import { decisionReads } from './decisions/index.ts';
import { epochReads } from './epochs/index.ts';
import { stakingReads } from './staking/index.ts';
import { walletReads } from './wallets/index.ts';

/** The `data` of an internal route's answer, in the v1 envelope. */
const v1Of = <T extends { properties: { data: Parameters<typeof v1Ok>[0] } }>(internal: T) =>
  v1Ok(internal.properties.data as T['properties']['data']);

const WalletPath = Type.Object({ wallet: { ...AddressString, description: 'A wallet address, any case' } });
const Decimal = (description: string) => Type.String({ pattern: '^[0-9]+(\\.[0-9]+)?$', description });
const Raw = (description: string) => Type.String({ pattern: '^[0-9]+$', description });

export const QuoteQuery = Type.Object({
  side: StringEnum(['buy', 'sell'] as const, {
    description: 'A buy pays USDC for tokens; a sale pays tokens for USDC',
  }),
  amount: Type.String({
    pattern: '^[1-9][0-9]{0,59}$',
    description:
      'What goes in, in base units (an integer): USDC (6 decimals) for a buy, tokens (18 decimals) for a sale',
  }),
});
export const QuoteResponse = v1Ok(
  Type.Object({
    companyId: Type.String(),
    companySlug: Type.String(),
    tokenAddress: AddressString,
    side: StringEnum(['buy', 'sell'] as const),
    venue: StringEnum(['CURVE', 'POOL'] as const, { description: 'The bonding curve, or the v4 pool once graduated' }),
    blockNumber: Type.Integer({ minimum: 0, description: 'The block every figure was read at' }),
    amountIn: Decimal('What goes in (USDC for a buy, tokens for a sale)'),
    amountInRaw: Raw('amountIn in base units'),
    amountOut: Decimal('What comes out, after fees (tokens for a buy, USDC for a sale)'),
    amountOutRaw: Raw('amountOut in base units'),
    spotPrice: Decimal('USDC per token before the trade (the launcher’s priceOf, 6 decimals)'),
    averagePrice: Nullable(
      Decimal('USDC per token the trade gets, fees included, 18 decimals; null when it would get nothing'),
    ),
    priceImpactPercent: Nullable(
      Type.Number({
        description:
          'How much worse than spotPrice averagePrice is, in percent (2 decimals), fees included; null without a price',
      }),
    ),
    feeBps: Type.Integer({
      minimum: 0,
      description:
        "The venue's fee in basis points, included in amountOut: the launcher's curveFeeBps on the curve, the pool hook's 250 (2.5%) in the pool",
    }),
  }),
);

/** The API changelog of the repository, served as it is (docs/api/changelog.md). */
const CHANGELOG = new URL('../../../docs/api/changelog.md', import.meta.url);

export default async function v1ReadRoutes(app: App, options: RouteOptions) {
  const { deps } = options;
  const apiKey = requireApiKey(deps);
  const db = deps.database.db;
  const keyed = { preValidation: apiKey };
  const security = [{ apiKey: [] }];

  app.get(
    '/companies/:slug',
    {
      ...keyed,
      schema: {
        tags: ['companies'],
        summary: 'A company by id or slug, with its agents (the detail of GET /api/companies/{id})',
        security,
        params: SlugParams,
        response: { 200: v1Of(CompanyResponse), ...v1Errors },
      },
    },
    async (request) => {
      const now = (await chainDateForReads(deps.chain.publicClient, deps.now)).getTime();
      return v1Body(await getCompanyView(deps, request.params.slug, now));
    },
  );

  // The twins of the decision reads, from their definitions (routes/decisions/).
  for (const def of decisionReads) registerRoute(app, options, def, 'v1');

  app.get(
    '/companies/:slug/token/quote',
    {
      ...keyed,
      schema: {
        tags: ['tokens'],
        summary: 'What a buy or a sale of a given size would get now: amount out, price impact and fee',
        description:
          'Read from the token launcher at the latest block (quoteBuy or quoteSell, priceOf): nothing is sent, and the trade itself is made on-chain by the trader. 404 for an unknown company or one without a token; 503 CHAIN_UNAVAILABLE when the chain does not answer (docs/api/tokens.md "Quote")',
        security,
        params: SlugParams,
        querystring: QuoteQuery,
        response: { 200: QuoteResponse, ...v1Errors },
      },
    },
    async (request) =>
      v1Body(await tokenQuote(deps, request.params.slug, request.query.side, BigInt(request.query.amount))),
  );

  app.get(
    '/companies/:slug/token/position/:wallet',
    {
      ...keyed,
      schema: {
        tags: ['tokens'],
        summary: "A wallet's position in the company token at average cost, and its realised PnL",
        description:
          'As GET /api/companies/{id}/token/position/{wallet}: quantity and costUsdc by the average-cost method, from the indexed trades. 404 for an unknown company',
        security,
        params: Type.Object({ ...SlugParams.properties, ...WalletPath.properties }),
        response: { 200: v1Of(PositionResponse), ...v1Errors },
      },
    },
    async (request) =>
      v1Body(await tokenPositionOf(db, request.params.slug, getAddress(request.params.wallet.toLowerCase()))),
  );

  // The twins of the wallet reads, from their definitions (routes/wallets/).
  for (const def of walletReads) registerRoute(app, options, def, 'v1');

  // The twins of the epoch reads, from their definitions (routes/epochs/).
  for (const def of epochReads) registerRoute(app, options, def, 'v1');

  // The twins of the staking reads, from their definitions (routes/staking/).
  for (const def of stakingReads) registerRoute(app, options, def, 'v1');

  // Open like the document: what changed is no secret, and a client reads it before it has a key.
  let changelog: string | undefined;
  app.get(
    '/changelog',
    {
      schema: {
        tags: ['system'],
        summary: 'The API changelog (docs/api/changelog.md), newest first, as Markdown',
        description:
          'What changed for a client of /api/v1 and of the event stream, with the deprecations and their Sunset dates (docs/api/README.md "Stability"). text/markdown; no key needed.',
        response: {
          200: { description: 'The changelog', content: { 'text/markdown': { schema: { type: 'string' } } } },
          ...v1Errors,
        },
      },
    },
    async (_request, reply) => {
      changelog ??= await readFile(CHANGELOG, 'utf8');
      return reply.type('text/markdown; charset=utf-8').header('cache-control', 'public, max-age=300').send(changelog);
    },
  );
}
