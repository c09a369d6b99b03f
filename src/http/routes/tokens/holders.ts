// GET /api/companies/{id}/token/holders (docs/api/tokens.md "Holders"): the company token's largest holders with their
// share of the supply, from its indexed Transfer logs.
import { Type } from 'typebox';
import { topHolders } from '../../../domain/tokens/holders.ts';
import { route } from '../../route.ts';
import { AddressOut, AddressString, Nullable, StringEnum } from '../../schemas/common.ts';
import { CompanyParams } from '../../schemas/companies.ts';
import { Decimal } from './market.ts';

/** The top holders' query: how many, largest first. */
export const HoldersQuery = Type.Object({
  limit: Type.Integer({
    minimum: 1,
    maximum: 100,
    default: 10,
    description: 'How many holders, largest balance first (1-100, default 10)',
  }),
});

export const Holders = Type.Object({
  companyId: Type.String(),
  tokenAddress: Nullable({
    ...AddressString,
    description: 'The company token (checksummed); null before its launch',
  }),
  holderCount: Type.Integer({ minimum: 0, description: 'Addresses holding a positive balance' }),
  supply: Decimal('Tokens minted less burned'),
  holders: Type.Array(
    Type.Object({
      address: AddressOut('Checksummed'),
      kind: StringEnum(['curve', 'pool', 'wallet'] as const, {
        description:
          "`curve`: the launcher, holding what the bonding curve has not sold yet; `pool`: the Uniswap v4 PoolManager, holding a graduated pool's tokens; `wallet`: any other address",
      }),
      balance: Decimal('Tokens held'),
      sharePercent: Type.String({
        pattern: '^[0-9]{1,3}\\.[0-9]{2}$',
        description: 'Percent of the supply, 2 decimals, rounded down',
      }),
    }),
  ),
});

export default route({
  url: '/api/companies/:id/token/holders',
  auth: 'none',
  tag: 'tokens',
  summary: "The company token's largest holders with their share of the supply, largest first",
  description:
    "From the token's indexed Transfer logs. The launcher (kind `curve`: what the bonding curve has not sold yet) and the v4 PoolManager (kind `pool`) are named as such. Empty before the launch; 404 for an unknown company.",
  params: CompanyParams,
  query: HoldersQuery,
  response: Holders,
  // Kept until a balance or the holder count changes (the holder stream's writes).
  cache: {
    name: 'token-holders',
    tables: ['companies', 'token_balances', 'token_holder_counts'],
    key: ({ params, query }) => `${params.id}|${query.limit}`,
  },
  load: (deps, { params, query }) => topHolders(deps, params.id, query.limit),
});
