// Rendered access-card documents, built once per token id on first use and kept: the metadata JSON and the SVG
// are pure functions of the token id and the service URLs, so serving a card is a lookup. At most 10,000 ids
// exist, which bounds the memory (about 3.1 KB per image and 0.7 KB per metadata document).
import { createHash } from 'node:crypto';
import { CARD_TOKEN_ID_MAX } from '../../constants.ts';
import { renderCardSvg } from './image.ts';
import { buildCardMetadata, type CardUrls } from './metadata.ts';

export interface RenderedCardDocument {
  /** The exact bytes to send (UTF-8). */
  body: Buffer;
  /** Strong entity tag of `body`, quoted: `"<base64url of the first 16 bytes of its sha256>"`. */
  etag: string;
}

export interface CardCatalog {
  /** The token's ERC-721 metadata as JSON. `tokenId` must be a valid token id (1-10000). */
  metadata(tokenId: number): RenderedCardDocument;
  /** The token's SVG image. `tokenId` must be a valid token id (1-10000). */
  image(tokenId: number): RenderedCardDocument;
}

function rendered(text: string): RenderedCardDocument {
  const body = Buffer.from(text, 'utf8');
  const digest = createHash('sha256').update(body).digest().subarray(0, 16).toString('base64url');
  return { body, etag: `"${digest}"` };
}

function memoised(render: (tokenId: number) => string): (tokenId: number) => RenderedCardDocument {
  const cache: (RenderedCardDocument | undefined)[] = new Array(CARD_TOKEN_ID_MAX + 1);
  return (tokenId) => {
    let doc = cache[tokenId];
    if (doc === undefined) {
      doc = rendered(render(tokenId));
      cache[tokenId] = doc;
    }
    return doc;
  };
}

export function createCardCatalog(urls: CardUrls): CardCatalog {
  return {
    metadata: memoised((tokenId) => JSON.stringify(buildCardMetadata(tokenId, urls))),
    image: memoised(renderCardSvg),
  };
}
