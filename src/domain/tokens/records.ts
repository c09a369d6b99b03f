// The token stream's records: what a log of the launcher or the fee hook says (a launch, a trade, a transfer that
// carries a position, a graduation), each with where its log is on the chain, and the fields every `trade` event
// about one carries. apply.ts and launches.ts write them to the database.
import { type Address, getAddress, type Hex } from 'viem';
import type { MovedCompany } from '../companies/store.ts';

/** Where a log is on the chain: what every event about it carries. */
export interface LogPlace {
  txHash: Hex;
  logIndex: number;
  blockNumber: bigint;
  blockTime: Date;
}

export interface LaunchRecord extends LogPlace {
  token: Address;
  /** The launch's graduation threshold (USDC base units): the curve opens at (floor(G/3), OPENING_VIRTUAL_TOKENS). */
  graduationThreshold: bigint;
}

export interface TradeRecord extends LogPlace {
  /** The hash of the log's block, when known. */
  blockHash?: Hex;
  token: Address;
  trader: Address;
  isBuy: boolean;
  usdcAmount: bigint;
  tokenAmount: bigint;
  fee: bigint;
  venue: 'CURVE' | 'POOL';
  /**
   * The token's spot price and market cap right after the trade, USDC base units (when the log tells them), and
   * after a curve trade the curve's virtual USDC reserve.
   */
  spot?: { price: bigint; marketCap: bigint; virtualUsdc?: bigint };
}

/** A company token's `Transfer`: one from an agent's wallet into its own company's Safe carries a position. */
export interface TransferRecord extends Omit<LogPlace, 'blockTime'> {
  token: Address;
  from: Address;
  to: Address;
  value: bigint;
}

/** A transfer that carries the sender's position to its company's Safe, with the token's company. */
export interface CarryRecord extends TransferRecord {
  companyId: string;
}

export interface GraduationRecord extends LogPlace {
  token: Address;
  poolId: Hex;
}

/** The fields every `trade` event carries: the company, the token, and where the log is on the chain. */
export const tradeEventBase = (company: MovedCompany, at: LogPlace) => ({
  tokenSymbol: company.symbol,
  companySlug: company.slug,
  tokenAddress: getAddress(company.token),
  txHash: at.txHash,
  logIndex: at.logIndex,
  blockNumber: Number(at.blockNumber),
  blockTime: at.blockTime.toISOString(),
  // REST's names for the same values (docs/api/README.md "Names and units").
  time: at.blockTime.toISOString(),
  transactionHash: at.txHash,
});
