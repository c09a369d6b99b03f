// A company's category in words, one table for every page that shows or offers one (the Fortune List, a company's
// profile, the create form): "DeFi yield", not DEFI_YIELD.
import { COMPANY_CATEGORIES, type LEAGUES } from '@ai-economy/shared/constants';

export type Category = (typeof COMPANY_CATEGORIES)[number];

/** A company's league, the Fortune List's other filter beside its category. */
export type League = (typeof LEAGUES)[number];

export const CATEGORY_LABELS: Record<Category, string> = {
  DEFI_YIELD: 'DeFi yield',
  SPOT_TRADING: 'Spot trading',
  DERIVATIVES: 'Derivatives',
  PRE_MARKET: 'Pre-market',
  AI_TOKENS: 'AI tokens',
  RWA: 'Real-world assets',
  MULTICHAIN: 'Multichain',
};

/** The category's words; an unknown value (a newer API) as it came. */
export const categoryLabel = (category: string) => CATEGORY_LABELS[category as Category] ?? category;

export { COMPANY_CATEGORIES };
