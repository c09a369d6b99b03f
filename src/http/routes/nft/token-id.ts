// What the access-card routes share: the token id path parameter, checked by the routes themselves so that every
// bad id answers the same bare 400 message, and the send of a pre-rendered document with its caching headers.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import {
  CARD_TOKEN_ID_MAX,
  CARD_TOKEN_ID_MIN,
  NFT_IMAGE_CACHE_CONTROL,
  NFT_METADATA_CACHE_CONTROL,
} from '../../../constants.ts';
import type { RenderedCardDocument } from '../../../domain/cards/catalog.ts';
import { CARD_TOKEN_ID_PATTERN, parseCardTokenId } from '../../../domain/cards/tiers.ts';
import { badRequest } from '../../../errors.ts';
import { ifNoneMatchHits } from '../../plugins/etag.ts';

export const ALLOWED = `a token id is a whole number from ${CARD_TOKEN_ID_MIN} to ${CARD_TOKEN_ID_MAX}, written in decimal digits`;
const ECHO_MAX = 24;

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

export const NotModified = Type.Null({ description: 'Not Modified: If-None-Match matched the current ETag; no body' });

export const cachingHeaders = (cacheControl: string) => ({
  ETag: { type: 'string', description: 'Strong entity tag of the body; send it back in If-None-Match for a 304' },
  'Cache-Control': { type: 'string', description: cacheControl },
});

/** A validator that accepts everything: the route checks its own input (tokenIdOf). */
export const documentedOnly = () => () => true;

export function tokenIdOf(raw: string): number {
  const tokenId = parseCardTokenId(raw);
  if (tokenId !== undefined) return tokenId;
  const shown = raw.length > ECHO_MAX ? `${raw.slice(0, ECHO_MAX)}...` : raw;
  throw badRequest(`Invalid token id "${shown}": ${ALLOWED}`);
}

/** Each card document's content type and caching policy: the route's answer and the ready answer (ready.ts) send. */
export const CARD_DOCUMENTS = {
  metadata: { contentType: 'application/json; charset=utf-8', cacheControl: NFT_METADATA_CACHE_CONTROL },
  image: { contentType: 'image/svg+xml', cacheControl: NFT_IMAGE_CACHE_CONTROL },
} as const;
export type CardDocumentKind = keyof typeof CARD_DOCUMENTS;

export function sendDocument(
  request: FastifyRequest,
  reply: FastifyReply,
  doc: RenderedCardDocument,
  kind: CardDocumentKind,
) {
  const { contentType, cacheControl } = CARD_DOCUMENTS[kind];
  reply.header('cache-control', cacheControl).header('etag', doc.etag);
  if (ifNoneMatchHits(request.headers['if-none-match'], doc.etag)) return reply.code(304).send();
  return reply.type(contentType).send(doc.body);
}
