// The platform score's fixed numbers (DESIGN.md "Scores"): component weights, the referral boost, the unit of
// the money log scale and the profile items of completeness. The snapshot's SQL is built from these, and the
// tests and docs/api/fortune.md quote them.
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
 * Money is log-scaled before min-max: sign(x) * ln(1 + |x| / unit), with x in USDC base units and unit 1 USDC,
 * so amounts below a dollar barely count and a million dollars is not a million times a dollar.
 */
export const MONEY_LOG_UNIT = 1_000_000;

/** Decision rounds counted by activity: COMPLETE rounds started in this many days before the snapshot. */
export const ACTIVITY_WINDOW_DAYS = 7;
/** Trade volume and trading PnL cover the day before the snapshot. */
export const TRADING_WINDOW_HOURS = 24;

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
