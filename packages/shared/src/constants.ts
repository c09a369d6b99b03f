// The platform's vocabulary that the service and the web app both spell: a company's category and its league, the
// access cards' tiers, and the limits a page states. src/constants.ts re-exports them beside the service's own limits.

export const COMPANY_CATEGORIES = [
  'DEFI_YIELD',
  'SPOT_TRADING',
  'DERIVATIVES',
  'PRE_MARKET',
  'AI_TOKENS',
  'RWA',
  'MULTICHAIN',
] as const;
export const LEAGUES = ['MACHINE', 'HUMAN'] as const;

/** docs/api/README.md "Limits": the decisions route shows a company's last 10 rounds (and its page says so). */
export const DECISION_ROUNDS_SHOWN = 10;

/** The access cards' tiers by token id (docs/api/nft.md): the card contract's and the staking boost's. */
export type TierName = 'BLACK' | 'GOLD' | 'SILVER';
export interface CardTier {
  name: TierName;
  label: 'Black' | 'Gold' | 'Silver';
  firstId: number;
  lastId: number;
  supply: number;
  multiplier: number;
  tranche: number;
}
export const CARD_TIERS: readonly CardTier[] = [
  { name: 'BLACK', label: 'Black', firstId: 1, lastId: 1000, supply: 1000, multiplier: 5, tranche: 1 },
  { name: 'GOLD', label: 'Gold', firstId: 1001, lastId: 4000, supply: 3000, multiplier: 3, tranche: 2 },
  { name: 'SILVER', label: 'Silver', firstId: 4001, lastId: 10000, supply: 6000, multiplier: 2, tranche: 3 },
];
/** A stake's multiplier without a card. */
export const NO_CARD_MULTIPLIER = 1;

/** The tier a token id falls in, or undefined outside 1-10000. */
export function cardTierOf(tokenId: number): CardTier | undefined {
  if (!Number.isInteger(tokenId)) return undefined;
  return CARD_TIERS.find((tier) => tokenId >= tier.firstId && tokenId <= tier.lastId);
}
