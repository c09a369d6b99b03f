// The Fortune List entries (docs/api/fortune.md): the internal view (a snapshot row with its company) and the v1 view (a
// company by its live platformScore). Money raws are shown in USDC, the stored base units / 10^6.
import { formatUnits } from 'viem';
import { USDC_DECIMALS } from '../../constants.ts';
import { snapshotCovers } from './dates.ts';

/** A USDC amount in base units as a JSON number of USDC (the raws of the rankings and the score history). */
export const usdc = (baseUnits: bigint) => Number(formatUnits(baseUnits, USDC_DECIMALS));
/** A symbol recorded for a launch still in flight is not shown, as in the token views. */
const symbolOf = (tokenStatus: string, tokenSymbol: string | null) =>
  tokenStatus === 'PRE_PUBLIC' ? null : tokenSymbol;

export interface FortuneListRow {
  rank: number;
  platformRank: number;
  id: string;
  name: string;
  slug: string;
  tokenStatus: string;
  tokenSymbol: string | null;
  logoUrl: string | null;
  status: string;
  league: string;
  category: string;
  overall: number;
  treasuryScore: number;
  tradingScore: number;
  volumeScore: number;
  activityScore: number;
  completenessScore: number;
  treasuryRaw: bigint;
  tradingRaw: bigint;
  volumeRaw: bigint;
  activityRaw: number;
  completenessRaw: number;
  referralBoost: number;
}

/** docs/api/fortune.md "Fortune List entry (internal view)". */
export function fortuneListEntry(row: FortuneListRow) {
  return {
    rank: row.rank,
    platformRank: row.platformRank,
    company: {
      id: row.id,
      name: row.name,
      slug: row.slug,
      tokenSymbol: symbolOf(row.tokenStatus, row.tokenSymbol),
      logoUrl: row.logoUrl,
      status: row.status,
      league: row.league,
      category: row.category,
    },
    score: {
      overall: row.overall,
      treasuryScore: row.treasuryScore,
      tradingScore: row.tradingScore,
      volumeScore: row.volumeScore,
      activityScore: row.activityScore,
      completenessScore: row.completenessScore,
      treasuryRaw: usdc(row.treasuryRaw),
      tradingRaw: usdc(row.tradingRaw),
      volumeRaw: usdc(row.volumeRaw),
      activityRaw: row.activityRaw,
      completenessRaw: row.completenessRaw,
      referralBoost: row.referralBoost,
    },
  };
}

export type FortuneListEntry = ReturnType<typeof fortuneListEntry>;

/** A row of the v1 list query (raw SQL, so timestamps may arrive as strings on some drivers). */
export interface FortuneRow {
  id: string;
  name: string;
  slug: string;
  category: string;
  league: string;
  platformScore: number | string;
  tokenStatus: string;
  tokenSymbol: string | null;
  creatorAddress: string;
  logoUrl: string | null;
  createdAt: Date | string;
  agents: number;
  /** The company's latest snapshot, null before its first (numerics arrive as strings from raw SQL). */
  snapshotDate: string | null;
  overall: number | string | null;
  treasuryScore: number | string | null;
  tradingScore: number | string | null;
  volumeScore: number | string | null;
  activityScore: number | string | null;
  completenessScore: number | string | null;
  /** USDC base units, as text. */
  treasuryRaw: string | null;
  tradingRaw: string | null;
  volumeRaw: string | null;
  activityRaw: number | null;
  completenessRaw: number | string | null;
  referralBoost: number | string | null;
}

/** The components of a v1 row's snapshot, as the internal Fortune List shows them; null without a snapshot. */
function snapshotComponents(row: FortuneRow) {
  if (row.snapshotDate === null) return null;
  const usdcOf = (text: string | null) => usdc(BigInt(text ?? 0));
  return {
    overall: Number(row.overall),
    treasuryScore: Number(row.treasuryScore),
    tradingScore: Number(row.tradingScore),
    volumeScore: Number(row.volumeScore),
    activityScore: Number(row.activityScore),
    completenessScore: Number(row.completenessScore),
    treasuryRaw: usdcOf(row.treasuryRaw),
    tradingRaw: usdcOf(row.tradingRaw),
    volumeRaw: usdcOf(row.volumeRaw),
    activityRaw: Number(row.activityRaw),
    completenessRaw: Number(row.completenessRaw),
    referralBoost: Number(row.referralBoost),
  };
}

/** docs/api/fortune.md "Fortune List entry (v1 view)"; `rank` is the position in the (filtered) ranking. */
export function fortuneEntry(row: FortuneRow, rank: number) {
  return {
    rank,
    id: row.id,
    name: row.name,
    slug: row.slug,
    category: row.category,
    league: row.league,
    platformScore: Number(row.platformScore),
    tokenStatus: row.tokenStatus,
    tokenSymbol: symbolOf(row.tokenStatus, row.tokenSymbol),
    creatorAddress: row.creatorAddress,
    logoUrl: row.logoUrl,
    createdAt: new Date(row.createdAt).toISOString(),
    _count: { agents: Number(row.agents) },
    snapshotDate: row.snapshotDate,
    covers: row.snapshotDate === null ? null : snapshotCovers(row.snapshotDate),
    components: snapshotComponents(row),
  };
}
