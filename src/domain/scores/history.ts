// A company's score history (GET /api/companies/{id}/scores): its snapshots, newest first, each with its overall,
// rank, the five components and the raw values they were scored from, from score_snapshots_company_date_idx.
import { desc, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { scoreSnapshots } from '../../db/schema/scores.ts';
import { requireCompany } from '../companies/queries.ts';
import { usdc } from './views.ts';

export async function scoreHistory(db: Tx, idOrSlug: string, limit: number) {
  const company = await requireCompany(db, idOrSlug);
  // Only the columns the covering index holds: an index-only scan.
  const rows = await db
    .select({
      snapshotDate: scoreSnapshots.snapshotDate,
      rank: scoreSnapshots.rank,
      overall: scoreSnapshots.overall,
      treasuryScore: scoreSnapshots.treasuryScore,
      tradingScore: scoreSnapshots.tradingScore,
      volumeScore: scoreSnapshots.volumeScore,
      activityScore: scoreSnapshots.activityScore,
      completenessScore: scoreSnapshots.completenessScore,
      treasuryRaw: scoreSnapshots.treasuryRaw,
      tradingRaw: scoreSnapshots.tradingRaw,
      volumeRaw: scoreSnapshots.volumeRaw,
      activityRaw: scoreSnapshots.activityRaw,
      completenessRaw: scoreSnapshots.completenessRaw,
      referralBoost: scoreSnapshots.referralBoost,
    })
    .from(scoreSnapshots)
    .where(eq(scoreSnapshots.companyId, company.id))
    .orderBy(desc(scoreSnapshots.snapshotDate))
    .limit(limit);
  return {
    companyId: company.id,
    snapshots: rows.map((r) => ({
      date: r.snapshotDate,
      rank: r.rank,
      overall: r.overall,
      treasuryScore: r.treasuryScore,
      tradingScore: r.tradingScore,
      volumeScore: r.volumeScore,
      activityScore: r.activityScore,
      completenessScore: r.completenessScore,
      // Money in USDC, as the Fortune List shows it (views.ts).
      treasuryRaw: usdc(r.treasuryRaw),
      tradingRaw: usdc(r.tradingRaw),
      volumeRaw: usdc(r.volumeRaw),
      activityRaw: r.activityRaw,
      completenessRaw: r.completenessRaw,
      referralBoost: r.referralBoost,
    })),
  };
}
