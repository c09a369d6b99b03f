// Schemas of the access-card routes: the token id path parameter, the ERC-721 metadata document and the SVG image.
import { Type } from 'typebox';
import {
  CARD_TOKEN_ID_MAX,
  CARD_TOKEN_ID_MIN,
  NFT_IMAGE_CACHE_CONTROL,
  NFT_METADATA_CACHE_CONTROL,
} from '../../constants.ts';
import { CARD_TRAIT_TYPES } from '../../domain/cards/metadata.ts';
import { CARD_TOKEN_ID_PATTERN } from '../../domain/cards/tiers.ts';
import { StringEnum } from './common.ts';

/**
 * The pattern documents the accepted form; the route itself decides with `parseCardTokenId` (digits and range)
 * so that every bad id answers the same bare 400 message.
 */
export const CardTokenIdParams = Type.Object({
  tokenId: Type.String({
    pattern: CARD_TOKEN_ID_PATTERN.source,
    description: `Token id, a whole number from ${CARD_TOKEN_ID_MIN} to ${CARD_TOKEN_ID_MAX} in decimal digits (leading zeros allowed)`,
    examples: ['1', '1001', '4001'],
  }),
});

export const CardAttribute = Type.Object({
  trait_type: StringEnum(CARD_TRAIT_TYPES),
  value: Type.String({ description: 'Always a string, e.g. "Black", "1", "5x", "1000", "100 USDC"' }),
});

const cachingHeaders = (cacheControl: string) => ({
  ETag: { type: 'string', description: 'Strong entity tag of the body; send it back in If-None-Match for a 304' },
  'Cache-Control': { type: 'string', description: cacheControl },
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

/** Documented only (the route sends pre-rendered bytes): an SVG document of 800x500. */
export const CardImage = Type.Unsafe<string>({
  description: 'The card drawn as an 800x500 SVG in its tier colours',
  headers: cachingHeaders(NFT_IMAGE_CACHE_CONTROL),
  content: { 'image/svg+xml': { schema: { type: 'string', description: 'SVG document' } } },
});

export const NotModified = Type.Null({ description: 'Not Modified: If-None-Match matched the current ETag; no body' });
