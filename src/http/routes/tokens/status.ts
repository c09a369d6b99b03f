// GET /api/companies/{id}/token (docs/api/tokens.md): a company's token status, its price and market cap read
// on-chain (from the v4 pool once graduated).
import { Type } from 'typebox';
import { getTokenStatus } from '../../../domain/tokens/queries.ts';
import { route } from '../../route.ts';
import { AddressOut, IsoTimestamp, Nullable, StringEnum } from '../../schemas/common.ts';
import { CompanyParams } from '../../schemas/companies.ts';
import { PoolId, UsdcString } from './market.ts';

const PrePublicToken = Type.Object({
  slug: Type.String(),
  status: Type.Literal('PRE_PUBLIC'),
  tokenAddress: Type.Null(),
  tokenSymbol: Type.Null(),
  price: Type.Null(),
  marketCap: Type.Null(),
  graduationProgress: Type.Literal(0),
  graduatedAt: Type.Null(),
  v4PoolAddress: Type.Null(),
});

const LaunchedToken = Type.Object({
  slug: Type.String(),
  name: Type.String(),
  status: StringEnum(['BONDING', 'GRADUATED'] as const),
  tokenAddress: AddressOut(),
  tokenSymbol: Type.String(),
  price: UsdcString,
  marketCap: UsdcString,
  graduationThreshold: Type.Number({ description: 'USD (USDC)' }),
  graduationProgress: Type.Number({ minimum: 0, maximum: 100 }),
  graduated: Type.Boolean(),
  graduatedAt: Nullable(IsoTimestamp),
  v4PoolAddress: Nullable(PoolId),
});

export const TokenStatus = Type.Union([PrePublicToken, LaunchedToken]);

export default route({
  url: '/api/companies/:id/token',
  auth: 'none',
  tag: 'tokens',
  summary: "A company's token status; price and market cap read on-chain (from the v4 pool once graduated)",
  params: CompanyParams,
  response: TokenStatus,
  // The price is read on-chain: kept per block (block-reads.ts), and until the company's row changes (its launch).
  cache: { name: 'token-status', tables: ['companies'], perBlock: true, key: ({ params }) => params.id },
  load: (deps, { params }, block) => getTokenStatus(deps, params.id, block),
});
