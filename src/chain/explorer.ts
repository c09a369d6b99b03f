// Block-explorer links. A chain has an explorer when EXPLORER_URL names one or its chain id is a known one; the
// local chain has none. Without an explorer a link is null, never a relative path that opens nothing.
import type { Hex } from 'viem';

/** Explorers of the chains the platform is meant for, by chain id. */
export const KNOWN_EXPLORERS: Readonly<Record<number, string>> = {
  8453: 'https://basescan.org',
  84532: 'https://sepolia.basescan.org',
};

/** The explorer of a remote chain: the configured one, else the known one for its id, else none. */
export function explorerUrlFor(chainId: number, configured: string | undefined): string | null {
  return (configured ?? KNOWN_EXPLORERS[chainId] ?? null)?.replace(/\/+$/, '') ?? null;
}

/** The explorer's page of a transaction, or null when the chain has no explorer. */
export function transactionUrl(explorerUrl: string | null, hash: Hex | string): string | null {
  return explorerUrl ? `${explorerUrl.replace(/\/+$/, '')}/tx/${hash}` : null;
}
