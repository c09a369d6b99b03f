// The token views (docs/api/tokens.md): the public token status (GET /api/companies/{id}/token), the v1 detail view
// (GET /api/v1/companies/{slug}/token) and the v1 list item (GET /api/v1/tokens). USDC amounts are 6-decimal
// strings; the graduation threshold is a number of whole USD.
import { formatUnits } from 'viem';
import { USDC_DECIMALS } from '../../constants.ts';
import type { companies } from '../../db/schema/companies.ts';

type CompanyRow = typeof companies.$inferSelect;
type Launched = 'BONDING' | 'GRADUATED';

/** Price and market cap in USDC base units, read from the launcher (`priceOf`). */
export interface Market {
  price: bigint;
  marketCap: bigint;
}

/** Whole USD of a threshold in USDC base units. */
export const thresholdUsd = (threshold: bigint | null) => (threshold === null ? null : Number(threshold / 10n ** 6n));

/** Market cap as a percentage of the threshold, 0-100 with 2 decimals (rounded down, so 100 means reached). */
export function graduationProgress(status: string, marketCap: bigint, threshold: bigint): number {
  if (status === 'GRADUATED') return 100;
  if (threshold <= 0n) return 0;
  const basisPoints = (marketCap * 10_000n) / threshold;
  return Number(basisPoints > 10_000n ? 10_000n : basisPoints) / 100;
}

const usdc = (amount: bigint) => formatUnits(amount, USDC_DECIMALS);
const iso = (d: Date | null) => (d ? d.toISOString() : null);

export type TokenStatusView =
  | {
      slug: string;
      status: 'PRE_PUBLIC';
      tokenAddress: null;
      tokenSymbol: null;
      price: null;
      marketCap: null;
      graduationProgress: 0;
      graduatedAt: null;
      v4PoolAddress: null;
    }
  | {
      slug: string;
      name: string;
      status: Launched;
      tokenAddress: string;
      tokenSymbol: string;
      price: string;
      marketCap: string;
      graduationThreshold: number;
      graduationProgress: number;
      graduated: boolean;
      graduatedAt: string | null;
      v4PoolAddress: string | null;
    };

/** docs/api/tokens.md "Token status (public view)": fewer fields while PRE_PUBLIC (a launch in flight still shows nothing). */
export function tokenStatusView(company: CompanyRow, market: Market | undefined): TokenStatusView {
  if (company.tokenStatus === 'PRE_PUBLIC' || !market) {
    return {
      slug: company.slug,
      status: 'PRE_PUBLIC',
      tokenAddress: null,
      tokenSymbol: null,
      price: null,
      marketCap: null,
      graduationProgress: 0,
      graduatedAt: null,
      v4PoolAddress: null,
    };
  }
  const threshold = company.tokenGraduationThreshold ?? 0n;
  return {
    slug: company.slug,
    name: company.tokenName!,
    status: company.tokenStatus as Launched,
    tokenAddress: company.tokenAddress!,
    tokenSymbol: company.tokenSymbol!,
    price: usdc(market.price),
    marketCap: usdc(market.marketCap),
    graduationThreshold: thresholdUsd(threshold)!,
    graduationProgress: graduationProgress(company.tokenStatus, market.marketCap, threshold),
    graduated: company.tokenStatus === 'GRADUATED',
    graduatedAt: iso(company.tokenGraduatedAt),
    v4PoolAddress: company.tokenPoolId,
  };
}

/** docs/api/tokens.md "Token (v1 detail view)"; only for a launched token. */
export function tokenDetailView(company: CompanyRow, launcher: string) {
  return {
    companyId: company.id,
    name: company.name,
    slug: company.slug,
    tokenStatus: company.tokenStatus as Launched,
    tokenSymbol: company.tokenSymbol!,
    tokenAddress: company.tokenAddress!,
    bondingCurve: {
      address: launcher,
      graduationThreshold: thresholdUsd(company.tokenGraduationThreshold)!,
      graduated: company.tokenStatus === 'GRADUATED',
      graduatedAt: iso(company.tokenGraduatedAt),
    },
    v4Pool: { address: company.tokenPoolId },
    launchTxHash: company.tokenLaunchTxHash!,
    publicAt: iso(company.tokenPublicAt)!,
  };
}

/** The columns the v1 list reads. */
export type TokenListRow = Pick<
  CompanyRow,
  | 'id'
  | 'name'
  | 'slug'
  | 'tokenStatus'
  | 'tokenSymbol'
  | 'tokenAddress'
  | 'tokenGraduationThreshold'
  | 'tokenGraduatedAt'
  | 'tokenPoolId'
  | 'platformScore'
  | 'category'
  | 'tokenPublicAt'
  | 'tokenPrice'
  | 'tokenMarketCap'
>;

/**
 * docs/api/tokens.md "Token (v1 list item)", with its price and market cap after its latest indexed trade (null before one)
 * and its USDC volume over the last 24 hours of the chain's clock.
 */
export function tokenListItem(row: TokenListRow, launcher: string, volume24h: bigint) {
  const { tokenPrice: price, tokenMarketCap: marketCap } = row;
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    tokenStatus: row.tokenStatus as Launched,
    tokenSymbol: row.tokenSymbol!,
    tokenAddress: row.tokenAddress!,
    bondingCurveAddress: launcher,
    graduationThreshold: thresholdUsd(row.tokenGraduationThreshold)!,
    graduatedAt: iso(row.tokenGraduatedAt),
    v4PoolAddress: row.tokenPoolId,
    platformScore: row.platformScore,
    category: row.category,
    publicAt: iso(row.tokenPublicAt)!,
    price: price === null ? null : formatUnits(price, USDC_DECIMALS),
    marketCap: marketCap === null ? null : formatUnits(marketCap, USDC_DECIMALS),
    volume24h: formatUnits(volume24h, USDC_DECIMALS),
  };
}
