// The platform's vocabulary that the service and the web app both spell: a company's category and its league, and
// the limits a page states. src/constants.ts re-exports them beside the service's own limits.

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
