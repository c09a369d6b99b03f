// The platform score's fixed numbers (docs/api/fortune.md): component weights, the referral boost, the unit of the
// money log scale, the activity window, the volume cap per trader and the profile items of completeness. The
// snapshot's SQL is built from these, and the tests and docs/api/fortune.md quote them. The floors each component is
// scaled against, and the trading score's minimum hold, are settings (SCORE_FLOOR_*, TRADING_MIN_HOLD_S).
import { AGENT_ROLES } from '../../constants.ts';

/** Weight of each 0-100 component in the overall score; they sum to 1. */
export const SCORE_WEIGHTS = {
  treasury: 0.3,
  trading: 0.2,
  volume: 0.2,
  activity: 0.2,
  completeness: 0.1,
} as const;

/** Boost per company referred, and its ceiling: overall = weighted sum * (1 + boost). */
export const REFERRAL_BOOST_PER_COMPANY = 0.01;
export const REFERRAL_BOOST_MAX = 0.25;

/**
 * The unit of the money log scale, in USDC base units: 100 USDC. A money component scores
 * 100 * ln(1 + x / unit) / ln(1 + max(best, floor) / unit), so amounts well below the unit count almost linearly and
 * for little (1 USDC beside a best of 10,000 USDC scores 0.22, not the 7.5 a 1 USDC unit would give), while above it
 * each tenfold counts the same and a million dollars is not a million times a dollar.
 */
export const MONEY_LOG_UNIT = 100_000_000n;

/** Decision rounds counted by activity: completed SCHEDULED rounds started in this many days before the snapshot. */
export const ACTIVITY_WINDOW_DAYS = 7;

/**
 * The largest share of a company's counted volume one trader may hold, in basis points (2,500 = 25%): a trader's
 * netted volume counts up to this share of the company's total, so a company's volume needs at least
 * 10,000 / VOLUME_TRADER_SHARE_MAX_BPS = 4 traders, and one wallet cannot buy a volume score alone.
 */
export const VOLUME_TRADER_SHARE_MAX_BPS = 2_500;

/**
 * The profile items of completeness, each worth the same: four profile fields, then each C-suite role held by
 * an agent that is not TERMINATED. Completeness raw = filled / COMPLETENESS_ITEMS.length.
 */
export const COMPLETENESS_ITEMS = [
  'description',
  'logoUrl',
  'treasuryAddress',
  'token launched',
  ...AGENT_ROLES.map((role) => `${role} role filled`),
] as const;

/** Scores and the overall are rounded half away from zero to this many decimals. */
export const SCORE_DECIMALS = 2;
