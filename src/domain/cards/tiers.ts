// Access-card tiers by token id (docs/api/nft.md), and the one rule for what counts as a token id in a URL.
import { CARD_TOKEN_ID_MAX, CARD_TOKEN_ID_MIN, cardTierOf } from '../../constants.ts';

/** The tier a token id falls in, or undefined outside 1-10000 (the shared package's, which the web app uses too). */
export const tierOf = cardTierOf;

/**
 * A token id as written in a URL: 1-5 ASCII decimal digits (leading zeros allowed, so `0001` from a card's
 * name works) with a value in 1-10000. Signs, decimals, exponents (`1e3`), spaces and hex are not token ids,
 * whatever a number parser would make of them.
 */
export const TOKEN_ID_DIGITS = /^[0-9]{1,5}$/;
/**
 * Exactly the ids parseCardTokenId accepts (1 to 10,000 in at most 5 digits, leading zeros allowed), as a pattern, so
 * the OpenAPI document declares the range a client may ask for.
 */
export const CARD_TOKEN_ID_PATTERN = /^(0{0,4}[1-9]|0{0,3}[1-9][0-9]|0{0,2}[1-9][0-9]{2}|0?[1-9][0-9]{3}|10000)$/;

export function parseCardTokenId(raw: string): number | undefined {
  if (!TOKEN_ID_DIGITS.test(raw)) return undefined;
  const tokenId = Number(raw);
  return tokenId >= CARD_TOKEN_ID_MIN && tokenId <= CARD_TOKEN_ID_MAX ? tokenId : undefined;
}

/** `#0001`: the card number as printed on the card and in its name, zero-padded to 4 digits (`#10000` stays 5). */
export const cardNumber = (tokenId: number) => `#${String(tokenId).padStart(4, '0')}`;
