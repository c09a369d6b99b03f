// The token views (docs/api/tokens.md): the public token status (GET /api/companies/{id}/token), the v1 detail view
// (GET /api/v1/companies/{slug}/token) and the v1 list item (GET /api/v1/tokens). USDC amounts are 6-decimal
// strings; the graduation threshold is a number of whole USD.
import { formatUnits } from 'viem';
import { COMPANY_TOKEN_SUPPLY } from '../../chain/contracts/launcher.ts';
import { COMPANY_TOKEN_DECIMALS, USDC_DECIMALS } from '../../constants.ts';
import type { companies } from '../../db/schema/companies.ts';
import { type MarketStats, priceChangePercent } from './market.ts';

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

/** docs/api/tokens.md "Token (v1 detail view)"; only for a launched token; with its price, market cap and market fields. */
export function tokenDetailView(company: TokenMarketRow & CompanyRow, launcher: string, market: MarketContext) {
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
    ...priceFields(company),
    ...tokenMarketFields(company, market),
  };
}

/** What the market fields need beyond the company: the chain, its clock, the pair's quote token. */
export interface MarketContext {
  chainId: number;
  /** USDC's address (the quote token of every pair). */
  usdc: string;
  /** The chain's clock, ms (the end of the 24-hour window). */
  now: number;
  /** The token's trades over the window (NO_TRADES without any). */
  stats: MarketStats;
}

/** The columns the market fields read beside the company's: its holder stream row and the pool's token balance. */
export interface TokenMarketRow {
  tokenStatus: string;
  tokenPrice: bigint | null;
  tokenMarketCap: bigint | null;
  tokenGraduationThreshold: bigint | null;
  tokenPublicAt: Date | null;
  tokenPoolId: string | null;
  tokenCurveUsdc: bigint | null;
  logoUrl: string | null;
  /** token_holder_counts; null until the holder stream has seen the launch. */
  holders: number | null;
  supply: bigint | null;
  /** The v4 PoolManager's balance of the token (token_balances); null when it holds none. */
  poolTokens: bigint | null;
}

const priceFields = (row: Pick<TokenMarketRow, 'tokenPrice' | 'tokenMarketCap'>) => ({
  price: row.tokenPrice === null ? null : formatUnits(row.tokenPrice, USDC_DECIMALS),
  marketCap: row.tokenMarketCap === null ? null : formatUnits(row.tokenMarketCap, USDC_DECIMALS),
});

const WAD = 10n ** 18n;

/**
 * The market fields of docs/api/tokens.md ("Market fields"), one definition for the v1 and internal lists and the
 * v1 detail: the 24-hour window's change, range, counts and volume, liquidity, FDV, supply, holders and age.
 */
export function tokenMarketFields(row: TokenMarketRow, market: MarketContext) {
  const { stats } = market;
  const supply = row.supply ?? COMPANY_TOKEN_SUPPLY;
  const price = row.tokenPrice;
  const liquidity =
    row.tokenStatus === 'GRADUATED'
      ? price === null
        ? null
        : // A full-range pool holds equal values of both sides: twice its tokens' worth.
          (2n * (row.poolTokens ?? 0n) * price) / WAD
      : (row.tokenCurveUsdc ?? 0n);
  const publicAt = row.tokenPublicAt?.getTime() ?? market.now;
  return {
    poolId: row.tokenPoolId,
    volume24h: usdc(stats.volume),
    priceChange24h: priceChangePercent(stats),
    high24h: stats.high === null ? null : usdc(stats.high),
    low24h: stats.low === null ? null : usdc(stats.low),
    buys24h: stats.buys,
    sells24h: stats.sells,
    liquidity: liquidity === null ? null : usdc(liquidity),
    fdv: price === null ? null : usdc((price * supply) / WAD),
    decimals: COMPANY_TOKEN_DECIMALS,
    totalSupply: supply.toString(),
    chainId: market.chainId,
    quoteToken: { address: market.usdc, symbol: 'USDC', decimals: USDC_DECIMALS },
    logoUrl: row.logoUrl,
    lastTradeAt: iso(stats.lastTradeAt),
    holderCount: row.holders ?? 0,
    ageSeconds: Math.max(0, Math.floor((market.now - publicAt) / 1000)),
    graduationProgress: graduationProgress(
      row.tokenStatus,
      row.tokenMarketCap ?? 0n,
      row.tokenGraduationThreshold ?? 0n,
    ),
  };
}

/** The columns the token lists read. */
export type TokenListRow = TokenMarketRow &
  Pick<
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
 * docs/api/tokens.md "Token (v1 list item)", with its price and market cap after its latest indexed trade (the curve's opening ones before one)
 * and its USDC volume over the last 24 hours of the chain's clock.
 */
export function tokenListItem(row: TokenListRow, launcher: string, market: MarketContext) {
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
    ...priceFields(row),
    ...tokenMarketFields(row, market),
  };
}
