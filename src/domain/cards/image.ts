// The access card's artwork (docs/api/nft.md GET /api/nft/image/{tokenId}): an 800x500 SVG credit card in the tier's
// colours with the wordmark, a chip, the card number in large monospace, the boost badge, chain and standard
// labels and the footer lines. Pure string building: one call per token id, memoised by the catalog.
import type { CardTier, TierName } from '../../constants.ts';
import { boostLabel, cardName } from './metadata.ts';
import { cardNumber, tierOf } from './tiers.ts';

export const CARD_IMAGE_WIDTH = 800;
export const CARD_IMAGE_HEIGHT = 500;
/** The collection lives on Base (chain id 8453, docs/api/nft.md); the artwork names it whatever chain serves the API. */
export const CARD_CHAIN_LABEL = 'BASE';
export const CARD_STANDARD_LABEL = 'ERC-721';
export const CARD_WORDMARK = 'AI ECONOMY';
export const CARD_FOOTER_LEFT = 'AI ECONOMY ACCESS';
export const CARD_FOOTER_RIGHT = '1 CARD = 1 COMPANY';

export interface CardPalette {
  /** Background gradient, top-left to bottom-right. */
  from: string;
  to: string;
  text: string;
  border: string;
  /** Text on the badge, which is filled with the text colour. */
  badgeText: string;
  chipFrom: string;
  chipTo: string;
}

/** The tier table (docs/api/nft.md "GET /api/nft/image/{tokenId}"): background, text and border colours; the chip and badge follow from them. */
export const CARD_PALETTES: Readonly<Record<TierName, CardPalette>> = {
  BLACK: {
    from: '#0a0a0c',
    to: '#1a1920',
    text: '#c9a84c',
    border: '#c9a84c',
    badgeText: '#0a0a0c',
    chipFrom: '#e8cf86',
    chipTo: '#a8873a',
  },
  GOLD: {
    from: '#c9a84c',
    to: '#b8943f',
    text: '#0a0a0c',
    border: '#f1dc9b',
    badgeText: '#c9a84c',
    chipFrom: '#f4e3ae',
    chipTo: '#c2a04a',
  },
  SILVER: {
    from: '#8f8e94',
    to: '#6b6a70',
    text: '#0a0a0c',
    border: '#dcdce1',
    badgeText: '#8f8e94',
    chipFrom: '#f2f2f5',
    chipTo: '#a9a8ae',
  },
};

const SANS = "Inter, 'Helvetica Neue', Arial, sans-serif";
const MONO = "'JetBrains Mono', 'SFMono-Regular', Menlo, Consolas, 'Courier New', monospace";

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
/** Escapes text and attribute values for XML; every value placed in the SVG goes through it. */
export const escapeXml = (value: string) => value.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);

export function renderCardSvg(tokenId: number): string {
  const tier = tierOf(tokenId);
  if (!tier) throw new RangeError(`no access card has token id ${tokenId}`);
  return drawCard(tier, tokenId);
}

function drawCard(tier: CardTier, tokenId: number): string {
  const p = CARD_PALETTES[tier.name];
  const x = escapeXml;
  // Ids carry the card number so that several cards inlined in one HTML page do not share gradients.
  const id = `aie${tokenId}`;
  const w = CARD_IMAGE_WIDTH;
  const h = CARD_IMAGE_HEIGHT;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" role="img" aria-labelledby="${id}-title">`,
    `<title id="${id}-title">${x(cardName(tier, tokenId))}</title>`,
    '<defs>',
    `<linearGradient id="${id}-bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${x(p.from)}"/><stop offset="1" stop-color="${x(p.to)}"/></linearGradient>`,
    `<linearGradient id="${id}-sheen" x1="0" y1="0" x2="1" y2="0.6"><stop offset="0" stop-color="#ffffff" stop-opacity="0.12"/><stop offset="0.5" stop-color="#ffffff" stop-opacity="0"/></linearGradient>`,
    `<linearGradient id="${id}-chip" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${x(p.chipFrom)}"/><stop offset="1" stop-color="${x(p.chipTo)}"/></linearGradient>`,
    '</defs>',
    // Card body, sheen and an inner hairline frame.
    `<rect x="2" y="2" width="${w - 4}" height="${h - 4}" rx="36" fill="url(#${id}-bg)" stroke="${x(p.border)}" stroke-width="4"/>`,
    `<rect x="2" y="2" width="${w - 4}" height="${h - 4}" rx="36" fill="url(#${id}-sheen)"/>`,
    `<rect x="22" y="22" width="${w - 44}" height="${h - 44}" rx="24" fill="none" stroke="${x(p.border)}" stroke-opacity="0.35" stroke-width="1.5"/>`,
    `<g fill="${x(p.text)}" font-family="${x(SANS)}">`,
    // Wordmark and tier line.
    `<text x="56" y="96" font-size="34" font-weight="700" letter-spacing="6">${x(CARD_WORDMARK)}</text>`,
    `<text x="58" y="126" font-size="15" font-weight="600" letter-spacing="5" fill-opacity="0.8">${x(tier.label.toUpperCase())} TIER</text>`,
    // Boost badge.
    `<rect x="620" y="52" width="124" height="56" rx="28"/>`,
    `<text x="682" y="92" font-size="32" font-weight="700" text-anchor="middle" fill="${x(p.badgeText)}">${x(boostLabel(tier))}</text>`,
    `<text x="682" y="132" font-size="12" font-weight="600" letter-spacing="3" text-anchor="middle" fill-opacity="0.8">STAKING BOOST</text>`,
    // Chip, then a contactless mark.
    '<g transform="translate(60 170)">',
    `<rect width="96" height="72" rx="12" fill="url(#${id}-chip)" stroke="#0a0a0c" stroke-opacity="0.45" stroke-width="1.5"/>`,
    `<path d="M0 24H30M66 24H96M0 48H30M66 48H96M30 0V72M66 0V72" fill="none" stroke="#0a0a0c" stroke-opacity="0.4" stroke-width="1.5"/>`,
    `<rect x="30" y="16" width="36" height="40" rx="6" fill="none" stroke="#0a0a0c" stroke-opacity="0.4" stroke-width="1.5"/>`,
    '</g>',
    `<path d="M188 188a26 26 0 0 1 0 36M200 180a38 38 0 0 1 0 52M212 172a50 50 0 0 1 0 68" fill="none" stroke="${x(p.text)}" stroke-opacity="0.7" stroke-width="4" stroke-linecap="round"/>`,
    // Card number in large monospace.
    `<text x="56" y="340" font-family="${x(MONO)}" font-size="84" font-weight="700" letter-spacing="10">${x(cardNumber(tokenId))}</text>`,
    // Chain and standard labels.
    `<g font-size="14" font-weight="700" letter-spacing="2" text-anchor="middle">`,
    `<rect x="548" y="300" width="80" height="32" rx="16" fill="none" stroke="${x(p.text)}" stroke-width="1.5"/>`,
    `<text x="588" y="321">${x(CARD_CHAIN_LABEL)}</text>`,
    `<rect x="640" y="300" width="104" height="32" rx="16" fill="none" stroke="${x(p.text)}" stroke-width="1.5"/>`,
    `<text x="692" y="321">${x(CARD_STANDARD_LABEL)}</text>`,
    '</g>',
    // Footer.
    `<path d="M56 392H744" stroke="${x(p.text)}" stroke-opacity="0.35" stroke-width="1.5"/>`,
    `<text x="56" y="440" font-size="18" font-weight="600" letter-spacing="4">${x(CARD_FOOTER_LEFT)}</text>`,
    `<text x="740" y="440" font-size="18" font-weight="600" letter-spacing="4" text-anchor="end">${x(CARD_FOOTER_RIGHT)}</text>`,
    '</g>',
    '</svg>',
  ].join('');
}
