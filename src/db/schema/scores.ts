// Daily score snapshots (docs/api/fortune.md "The daily snapshot", docs/api/epochs.md "The flow"): one row per company and UTC date, taken at
// 00:00 UTC, holding the five raw values, their 0-100 scores, the referral boost, the overall score and the rank.
// The Fortune List reads a date's rows by rank; epoch rewards read a window of dates (the primary key's order).
// Money is in USDC base units (6 decimals) in numeric(78,0); the scores are exact 2-decimal numerics.
import {
  bigint,
  date,
  doublePrecision,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { companies } from './companies.ts';

const score = (name: string) => numeric(name, { precision: 5, scale: 2, mode: 'number' }).notNull();
const usdc = (name: string) => numeric(name, { precision: 78, scale: 0, mode: 'bigint' }).notNull();

export const scoreSnapshots = pgTable(
  'score_snapshots',
  {
    /** The UTC date whose 00:00 the snapshot stands for (the Fortune List's `epoch`, docs/api/fortune.md). */
    snapshotDate: date('snapshot_date', { mode: 'string' }).notNull(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    /** The company's category, fixed at creation; copied so a filtered list reads one index. */
    category: text('category').notNull(),
    /** The company's league when the snapshot was taken (it moves with the autonomy level). */
    league: text('league').notNull().default('MACHINE'),
    /** USDC balance of the treasury; 0 without one. */
    treasuryRaw: usdc('treasury_raw'),
    /** Realised PnL of the company's agents' sales over the day before the snapshot; may be negative. */
    tradingRaw: usdc('trading_raw'),
    /** Counted USDC volume of the company's token over the day before the snapshot (domain/scores/volume.ts). */
    volumeRaw: usdc('volume_raw'),
    /** COMPLETE SCHEDULED decision rounds started in the 7 days before the snapshot. */
    activityRaw: integer('activity_raw').notNull(),
    /** Share 0-1 of the 11 profile items filled (domain/scores/formula.ts). */
    completenessRaw: doublePrecision('completeness_raw').notNull(),
    treasuryScore: score('treasury_score'),
    tradingScore: score('trading_score'),
    volumeScore: score('volume_score'),
    activityScore: score('activity_score'),
    completenessScore: score('completeness_score'),
    referralBoost: numeric('referral_boost', { precision: 3, scale: 2, mode: 'number' }).notNull(),
    /** At most 100 * 1.25. */
    overall: numeric('overall', { precision: 6, scale: 2, mode: 'number' }).notNull(),
    /** 1 = best: overall desc, then company created_at asc, then id asc. */
    rank: integer('rank').notNull(),
    /** 1 = best within `league`, in the order of `rank`: the Fortune List's ranks under a league filter. */
    leagueRank: integer('league_rank').notNull().default(0),
    /** Block the treasury balances were read at; null when the chain did not answer and the last values were kept. */
    treasuryBlock: bigint('treasury_block', { mode: 'bigint' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.snapshotDate, t.companyId] }),
    // GET /api/fortune-list: a date's entries by rank, with and without a category.
    index('score_snapshots_date_rank_idx').on(t.snapshotDate, t.rank),
    index('score_snapshots_date_category_rank_idx').on(t.snapshotDate, t.category, t.rank),
    // ... and within a league, with and without a category.
    index('score_snapshots_date_league_rank_idx').on(t.snapshotDate, t.league, t.leagueRank),
    index('score_snapshots_date_category_league_rank_idx').on(t.snapshotDate, t.category, t.league, t.leagueRank),
    // GET /api/companies/{id}/scores: a company's history, newest first. Migrations 0017 and
    // score_history_raw_covering make it covering (INCLUDE the rank, overall, five scores, raws and boost the route
    // shows), which Drizzle's index builder cannot say.
    index('score_snapshots_company_date_idx').on(t.companyId, t.snapshotDate.desc()),
  ],
);
