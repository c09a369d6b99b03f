// A company token's largest holders from its indexed Transfer logs (token_balances, kept by the holder stream), each
// with its share of the supply: what the token page lists under "Top holders". The launcher (the tokens the curve
// has not sold yet) and the v4 PoolManager (a graduated pool's tokens) are named as such, not as wallets.
import { desc, eq } from 'drizzle-orm';
import { formatUnits, getAddress } from 'viem';
import { COMPANY_TOKEN_DECIMALS } from '../../constants.ts';
import { tokenBalances, tokenHolderCounts } from '../../db/schema/tokens.ts';
import { requireCompany } from '../companies/queries.ts';
import type { Deps as DomainDeps } from '../deps.ts';

type Deps = Pick<DomainDeps, 'chain' | 'database'>;

export type HolderKind = 'curve' | 'pool' | 'wallet';

export interface TopHolder {
  /** Checksummed. */
  address: string;
  kind: HolderKind;
  /** Whole tokens, full precision. */
  balance: string;
  /** Percent of the supply, 2 decimals, rounded down. */
  sharePercent: string;
}

export interface TopHolders {
  companyId: string;
  tokenAddress: string | null;
  /** Addresses with a positive balance (the holder stream's count). */
  holderCount: number;
  /** Minted less burned, whole tokens. */
  supply: string;
  holders: TopHolder[];
}

/** Percent of `supply` that `balance` is, 2 decimals, rounded down ("12.34"); "0.00" for an empty supply. */
export function sharePercent(balance: bigint, supply: bigint): string {
  if (supply <= 0n) return '0.00';
  const basis = (balance * 10_000n) / supply;
  return `${basis / 100n}.${(basis % 100n).toString().padStart(2, '0')}`;
}

/** The `limit` largest balances of the company's token, largest first (ties by address); none before a launch. */
export async function topHolders(deps: Deps, idOrSlug: string, limit: number): Promise<TopHolders> {
  const db = deps.database.db;
  const company = await requireCompany(db, idOrSlug);
  if (!company.tokenAddress || company.tokenStatus === 'PRE_PUBLIC') {
    return { companyId: company.id, tokenAddress: null, holderCount: 0, supply: '0', holders: [] };
  }
  const token = getAddress(company.tokenAddress);
  const [counts] = await db
    .select({ holders: tokenHolderCounts.holders, supply: tokenHolderCounts.supply })
    .from(tokenHolderCounts)
    .where(eq(tokenHolderCounts.tokenAddress, token));
  const rows = await db
    .select({ holder: tokenBalances.holder, balance: tokenBalances.balance })
    .from(tokenBalances)
    .where(eq(tokenBalances.tokenAddress, token))
    .orderBy(desc(tokenBalances.balance), tokenBalances.holder)
    .limit(limit);
  const supply = counts?.supply ?? 0n;
  const launcher = deps.chain.contracts.tokenLauncher?.toLowerCase();
  const poolManager = deps.chain.contracts.poolManager?.toLowerCase();
  const kindOf = (address: string): HolderKind => {
    const lower = address.toLowerCase();
    if (lower === launcher) return 'curve';
    if (lower === poolManager) return 'pool';
    return 'wallet';
  };
  return {
    companyId: company.id,
    tokenAddress: token,
    holderCount: counts?.holders ?? 0,
    supply: formatUnits(supply, COMPANY_TOKEN_DECIMALS),
    holders: rows.map((r) => ({
      address: getAddress(r.holder),
      kind: kindOf(r.holder),
      balance: formatUnits(r.balance, COMPANY_TOKEN_DECIMALS),
      sharePercent: sharePercent(r.balance, supply),
    })),
  };
}
