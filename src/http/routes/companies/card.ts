// GET /api/cards/{tokenId} (docs/api/companies.md): the company an access card is bound to, null while none is.
import { Type } from 'typebox';
import { companyOfCard } from '../../../domain/companies/queries.ts';
import { route } from '../../route.ts';
import { Nullable } from '../../schemas/common.ts';

export const CardParams = Type.Object({
  tokenId: Type.Integer({ minimum: 1, maximum: 10_000, description: 'Access card token id' }),
});

export const CardCompany = Type.Object({
  cardTokenId: Type.Integer(),
  company: Nullable(Type.Object({ id: Type.String(), slug: Type.String(), name: Type.String() })),
});

export default route({
  url: '/api/cards/:tokenId',
  auth: 'none',
  tag: 'companies',
  summary: 'The company an access card is bound to (null while none is)',
  description:
    "A card binds to one company for ever, at the company's creation. The card's image, tier and boost are its NFT metadata (/api/nft/metadata/{tokenId}); its holder is the access card's ownerOf.",
  params: CardParams,
  response: CardCompany,
  cache: { name: 'card', tables: ['companies'], key: ({ params }) => String(params.tokenId) },
  load: (deps, { params }) => companyOfCard(deps.database.db, params.tokenId),
});
