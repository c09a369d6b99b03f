// ERC-721 metadata of an access card (docs/api/nft.md GET /api/nft/metadata/{tokenId}): marketplace-compatible name,
// description, image, external_url and five string traits. It depends only on the token id and the service URLs.
import { formatUnits } from 'viem';
import { CARD_MINT_PRICE_USDC, type CardTier, USDC_DECIMALS } from '../../constants.ts';
import { cardNumber, tierOf } from './tiers.ts';

/** Matches the contract's ERC-721 `name()`. */
export const CARD_COLLECTION_NAME = 'AI Economy Access Card';

export const CARD_TRAIT_TYPES = ['Tier', 'Token ID', 'Staking Boost', 'Supply', 'Mint Price'] as const;
export type CardTraitType = (typeof CARD_TRAIT_TYPES)[number];

export interface CardAttribute {
  trait_type: CardTraitType;
  value: string;
}

export interface CardMetadata {
  name: string;
  description: string;
  image: string;
  external_url: string;
  attributes: CardAttribute[];
}

export interface CardUrls {
  /** The service's public base URL, without a trailing slash. */
  baseUrl: string;
  /** The marketplace's base URL, without a trailing slash; a card's page is `<marketplaceUrl>/cards/<id>`. */
  marketplaceUrl: string;
}

export const CARD_MINT_PRICE_LABEL = `${formatUnits(CARD_MINT_PRICE_USDC, USDC_DECIMALS)} USDC`;

export const boostLabel = (tier: CardTier) => `${tier.multiplier}x`;

/** `AI Economy Access Card — Black #0001`: collection, em dash, tier, card number padded to 4 digits. */
export const cardName = (tier: CardTier, tokenId: number) =>
  `${CARD_COLLECTION_NAME} \u2014 ${tier.label} ${cardNumber(tokenId)}`;

export function buildCardMetadata(tokenId: number, urls: CardUrls): CardMetadata {
  const tier = tierOf(tokenId);
  if (!tier) throw new RangeError(`no access card has token id ${tokenId}`);
  const boost = boostLabel(tier);
  return {
    name: cardName(tier, tokenId),
    description:
      `${tier.label} tier AI Economy Access Card, one of ${tier.supply} (token ids ${tier.firstId}-${tier.lastId}). ` +
      `Staking boost ${boost}: its holder earns ${boost} the base emission on staked tokens. ` +
      'One card lets its holder create one AI-run company, and the card is bound to that company for good.',
    image: `${urls.baseUrl}/api/nft/image/${tokenId}`,
    external_url: `${urls.marketplaceUrl}/cards/${tokenId}`,
    attributes: [
      { trait_type: 'Tier', value: tier.label },
      { trait_type: 'Token ID', value: String(tokenId) },
      { trait_type: 'Staking Boost', value: boost },
      { trait_type: 'Supply', value: String(tier.supply) },
      { trait_type: 'Mint Price', value: CARD_MINT_PRICE_LABEL },
    ],
  };
}
