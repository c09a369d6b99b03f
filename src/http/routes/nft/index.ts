// The access-card family (docs/api/nft.md): a card's metadata and image. Every document is rendered once per token
// id (see domain/cards/catalog.ts); a request is a lookup, a header comparison and a send of ready bytes. Registered
// under /api/nft with its own error handlers: every error, a bad token id's 400 included, answers in the bare
// envelope (`{ "error": "<message>" }`).
import type { CardCatalog } from '../../../domain/cards/catalog.ts';
import { badRequest } from '../../../errors.ts';
import { installErrorHandlers } from '../../errors.ts';
import type { App, RouteOptions } from '../../types.ts';
import { registerImage } from './image.ts';
import { registerMetadata } from './metadata.ts';
import { ALLOWED } from './token-id.ts';

export default async function nftRoutes(app: App, { cards: catalog }: RouteOptions & { cards: CardCatalog }) {
  installErrorHandlers(app, 'bare');
  registerMetadata(app, catalog);
  registerImage(app, catalog);

  // Without these, an empty token id (`/api/nft/image/`) would be an unknown route (404), not a bad token id.
  const missingTokenId = () => {
    throw badRequest(`Missing token id: ${ALLOWED}`);
  };
  app.get('/metadata', { schema: { hide: true } }, missingTokenId);
  app.get('/image', { schema: { hide: true } }, missingTokenId);
}
