// GET /api/nft/image/{tokenId} (docs/api/nft.md): an access card drawn as an 800x500 SVG in its tier colours.
// Registered by hand: route() has no bare envelope, no 304, no answer but JSON and no route that checks its whole
// input itself.
import { Type } from 'typebox';
import { NFT_IMAGE_CACHE_CONTROL } from '../../../constants.ts';
import type { CardCatalog } from '../../../domain/cards/catalog.ts';
import { bareErrors } from '../../schemas/common.ts';
import type { App } from '../../types.ts';
import { CardTokenIdParams, cachingHeaders, documentedOnly, NotModified, sendDocument, tokenIdOf } from './token-id.ts';

/** Documented only (the route sends pre-rendered bytes): an SVG document of 800x500. */
export const CardImage = Type.Unsafe<string>({
  description: 'The card drawn as an 800x500 SVG in its tier colours',
  headers: cachingHeaders(NFT_IMAGE_CACHE_CONTROL),
  content: { 'image/svg+xml': { schema: { type: 'string', description: 'SVG document' } } },
});

export function registerImage(app: App, catalog: CardCatalog) {
  // As the metadata: tokenIdOf decides, the params schema only documents.
  app.get(
    '/image/:tokenId',
    {
      validatorCompiler: documentedOnly,
      config: { ownInput: true },
      schema: {
        tags: ['nft'],
        summary: 'SVG image of an access card: an 800x500 card in its tier colours',
        description: `Content-Type image/svg+xml. Cache-Control: ${NFT_IMAGE_CACHE_CONTROL}; strong ETag, If-None-Match answers 304.`,
        params: CardTokenIdParams,
        response: { 200: CardImage, 304: NotModified, ...bareErrors },
      },
    },
    (request, reply) => sendDocument(request, reply, catalog.image(tokenIdOf(request.params.tokenId)), 'image'),
  );
}
