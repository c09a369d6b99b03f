// GET /api/v1/companies/{slug}/token/quote (docs/api/tokens.md "Quote"): what a buy or a sale of a given size would
// get now, read from the token launcher at the latest block; the trade itself is made on-chain by the trader.
import { Type } from 'typebox';
import { tokenQuote } from '../../../domain/tokens/quote.ts';
import { route } from '../../route.ts';
import { AddressString, Nullable, StringEnum } from '../../schemas/common.ts';
import { SlugParams } from '../../schemas/tokens.ts';
import { Decimal } from './market.ts';

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
export const Quote = Type.Object({
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
});

export default route({
  auth: 'apiKey',
  tag: 'tokens',
  summary: 'What a buy or a sale of a given size would get now: amount out, price impact and fee',
  description:
    'Read from the token launcher at the latest block (quoteBuy or quoteSell, priceOf): nothing is sent, and the trade itself is made on-chain by the trader. 404 for an unknown company or one without a token; 503 CHAIN_UNAVAILABLE when the chain does not answer (docs/api/tokens.md "Quote")',
  params: SlugParams,
  query: QuoteQuery,
  response: Quote,
  load: (deps, { params, query }) => tokenQuote(deps, params.slug, query.side, BigInt(query.amount)),
  v1: { url: '/companies/:slug/token/quote' },
});
