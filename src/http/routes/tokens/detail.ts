// GET /api/v1/companies/{slug}/token (docs/api/tokens.md): a company's launched token, its curve or pool and its
// market fields; 404 while it has none.
import { Type } from 'typebox';
import { getTokenDetail, VOLUMES_REUSE_MS } from '../../../domain/tokens/queries.ts';
import { route } from '../../route.ts';
import { AddressOut, Hash32, IsoTimestamp, Nullable, StringEnum } from '../../schemas/common.ts';
import { SlugParams } from '../../schemas/tokens.ts';
import { PoolId, ref, TOKEN_LIST_TABLES, TokenMarket } from './market.ts';

const TokenDetailBase = Type.Object({
  companyId: Type.String(),
  name: Type.String(),
  slug: Type.String(),
  tokenStatus: StringEnum(['BONDING', 'GRADUATED'] as const),
  tokenSymbol: Type.String(),
  tokenAddress: AddressOut(),
  bondingCurve: Type.Object({
    address: AddressOut('The token launcher, which holds every curve'),
    graduationThreshold: Type.Number(),
    graduated: Type.Boolean(),
    graduatedAt: Nullable(IsoTimestamp),
  }),
  v4Pool: Type.Object({ address: Nullable(PoolId) }),
  launchTxHash: Hash32('The launch transaction'),
  publicAt: IsoTimestamp,
});

export const TokenDetail = Type.Intersect([TokenDetailBase, ref(TokenMarket)]);

export default route({
  auth: 'apiKey',
  tag: 'tokens',
  summary: "A company's token (v1 detail view); 404 while it has none",
  params: SlugParams,
  response: TokenDetail,
  // Kept like the lists, so its ETag is that of its content, without the response's timestamp (and, as every tag,
  // without the derived ageSeconds: plugins/etag.ts), and a poll of unchanged data gets 304.
  cache: {
    name: 'v1-token',
    tables: TOKEN_LIST_TABLES,
    maxAgeMs: VOLUMES_REUSE_MS,
    key: ({ params }) => params.slug,
  },
  load: (deps, { params }) => getTokenDetail(deps, params.slug),
  v1: { url: '/companies/:slug/token' },
});
