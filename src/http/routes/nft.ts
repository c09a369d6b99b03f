// Access-card metadata and image routes (docs/api/nft.md GET /api/nft/metadata/{tokenId}, GET /api/nft/image/{tokenId}).
// Every document is rendered once per token id (see domain/cards/catalog.ts); a request is a lookup, a header
// comparison and a send of ready bytes. Bad token ids answer 400 `{ "error": "<message>" }` (the bare envelope).
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  CARD_TOKEN_ID_MAX,
  CARD_TOKEN_ID_MIN,
  NFT_IMAGE_CACHE_CONTROL,
  NFT_METADATA_CACHE_CONTROL,
} from '../../constants.ts';
import { createCardCatalog, type RenderedCardDocument } from '../../domain/cards/catalog.ts';
import { parseCardTokenId } from '../../domain/cards/tiers.ts';
import { badRequest } from '../../errors.ts';
import { installErrorHandlers } from '../errors.ts';
import { ifNoneMatchHits } from '../plugins/etag.ts';
import { bareErrors } from '../schemas/common.ts';
import { CardImage, CardMetadata, CardTokenIdParams, NotModified } from '../schemas/nft.ts';
import type { App, RouteOptions } from '../types.ts';

const METADATA_CONTENT_TYPE = 'application/json; charset=utf-8';
const IMAGE_CONTENT_TYPE = 'image/svg+xml';
const ALLOWED = `a token id is a whole number from ${CARD_TOKEN_ID_MIN} to ${CARD_TOKEN_ID_MAX}, written in decimal digits`;
const ECHO_MAX = 24;
/** A validator that accepts everything: the route checks its own input (tokenIdOf). */
const documentedOnly = () => () => true;

function tokenIdOf(raw: string): number {
  const tokenId = parseCardTokenId(raw);
  if (tokenId !== undefined) return tokenId;
  const shown = raw.length > ECHO_MAX ? `${raw.slice(0, ECHO_MAX)}...` : raw;
  throw badRequest(`Invalid token id "${shown}": ${ALLOWED}`);
}

function sendDocument(
  request: FastifyRequest,
  reply: FastifyReply,
  doc: RenderedCardDocument,
  contentType: string,
  cacheControl: string,
) {
  reply.header('cache-control', cacheControl).header('etag', doc.etag);
  if (ifNoneMatchHits(request.headers['if-none-match'], doc.etag)) return reply.code(304).send();
  return reply.type(contentType).send(doc.body);
}

/** Registered under /api/nft, with its own error handlers: every error answers in the bare envelope. */
export default async function nftRoutes(app: App, { deps }: RouteOptions) {
  installErrorHandlers(app, 'bare');
  const catalog = createCardCatalog(deps.config);
  const missingTokenId = () => {
    throw badRequest(`Missing token id: ${ALLOWED}`);
  };

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
    (request, reply) =>
      sendDocument(
        request,
        reply,
        catalog.metadata(tokenIdOf(request.params.tokenId)),
        METADATA_CONTENT_TYPE,
        NFT_METADATA_CACHE_CONTROL,
      ),
  );

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
    (request, reply) =>
      sendDocument(
        request,
        reply,
        catalog.image(tokenIdOf(request.params.tokenId)),
        IMAGE_CONTENT_TYPE,
        NFT_IMAGE_CACHE_CONTROL,
      ),
  );

  // Without these, an empty token id (`/api/nft/image/`) would be an unknown route (404), not a bad token id.
  app.get('/metadata', { schema: { hide: true } }, missingTokenId);
  app.get('/image', { schema: { hide: true } }, missingTokenId);
}
