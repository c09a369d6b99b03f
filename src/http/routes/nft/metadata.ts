// GET /api/nft/metadata/{tokenId} (docs/api/nft.md): an access card's ERC-721 metadata, bare JSON as marketplaces
// read it. Registered by hand: route() has no bare envelope, no 304 and no route that checks its whole input itself.
import { Type } from 'typebox';
import { NFT_METADATA_CACHE_CONTROL } from '../../../constants.ts';
import type { CardCatalog } from '../../../domain/cards/catalog.ts';
import { CARD_TRAIT_TYPES } from '../../../domain/cards/metadata.ts';
import { bareErrors, StringEnum } from '../../schemas/common.ts';
import type { App } from '../../types.ts';
import { CardTokenIdParams, cachingHeaders, documentedOnly, NotModified, sendDocument, tokenIdOf } from './token-id.ts';

export const CardAttribute = Type.Object({
  trait_type: StringEnum(CARD_TRAIT_TYPES),
  value: Type.String({ description: 'Always a string, e.g. "Black", "1", "5x", "1000", "100 USDC"' }),
});

export const CardMetadata = Type.Object(
  {
    name: Type.String({
      description: 'Collection, tier and zero-padded card number',
      examples: ['AI Economy Access Card \u2014 Black #0001'],
    }),
    description: Type.String({ description: 'Names the tier and its staking boost' }),
    image: Type.String({ format: 'uri', description: '{base_url}/api/nft/image/<tokenId>' }),
    external_url: Type.String({
      format: 'uri',
      description: 'The card on the marketplace: <marketplace>/cards/<tokenId>',
    }),
    attributes: Type.Array(CardAttribute, {
      minItems: CARD_TRAIT_TYPES.length,
      maxItems: CARD_TRAIT_TYPES.length,
      description: `One each, in this order: ${CARD_TRAIT_TYPES.join(', ')}`,
    }),
  },
  { description: "The card's ERC-721 metadata", headers: cachingHeaders(NFT_METADATA_CACHE_CONTROL) },
);

export function registerMetadata(app: App, catalog: CardCatalog) {
  // The params schema documents the token id, and tokenIdOf decides (digits, then range), so every bad id answers
  // the same bare 400 message rather than an ajv wording: the schema is not run on requests at all.
  app.get(
    '/metadata/:tokenId',
    {
      validatorCompiler: documentedOnly,
      config: { ownInput: true },
      schema: {
        tags: ['nft'],
        summary: 'ERC-721 metadata of an access card (bare JSON, marketplace compatible)',
        description: `Tier, staking boost, supply and mint price of the card. Cache-Control: ${NFT_METADATA_CACHE_CONTROL}; strong ETag, If-None-Match answers 304.`,
        params: CardTokenIdParams,
        response: { 200: CardMetadata, 304: NotModified, ...bareErrors },
      },
    },
    (request, reply) => sendDocument(request, reply, catalog.metadata(tokenIdOf(request.params.tokenId)), 'metadata'),
  );
}
