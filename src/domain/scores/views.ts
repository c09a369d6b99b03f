// The Fortune List entries (docs/api/fortune.md): the internal view (a snapshot row with its company) and the v1 view (a
// company by its live platformScore). Money raws are shown in USDC, the stored base units / 10^6.
import { formatUnits } from 'viem';
import { USDC_DECIMALS } from '../../constants.ts';

const usdc = (baseUnits: bigint) => Number(formatUnits(baseUnits, USDC_DECIMALS));
/** A symbol recorded for a launch still in flight is not shown, as in the token views. */
const symbolOf = (tokenStatus: string, tokenSymbol: string | null) =>
  tokenStatus === 'PRE_PUBLIC' ? null : tokenSymbol;

export interface FortuneListRow {
  rank: number;
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
  };
}
