// What counts as a wallet address in the staking routes' path (SPEC.md "GET /api/staking/position/{wallet}").
import { type Address, getAddress } from 'viem';

/** `0x` (lowercase x) and 40 hex digits, nothing before or after. */
export const WALLET_PATTERN = /^0x[0-9a-fA-F]{40}$/;

/** What the 400 message says is allowed. */
export const WALLET_RULE =
  'a wallet is 0x followed by 40 hex characters, all lowercase, all uppercase, or EIP-55 checksummed';

export type WalletParse = { ok: true; address: Address } | { ok: false; reason: string };

/**
 * Parses a wallet as written in a URL and returns it EIP-55 checksummed. The letter case of the 40 hex digits
 * follows EIP-55: all lowercase or all uppercase carry no checksum and are accepted as they are; mixed case is a
 * checksum, and a wrong one is refused (it is most likely a typo in a copied address, which the checksum exists
 * to catch).
 */
export function parseWallet(raw: string): WalletParse {
  if (!WALLET_PATTERN.test(raw)) return { ok: false, reason: 'not an address' };
  const hex = raw.slice(2);
  const address = getAddress(`0x${hex.toLowerCase()}`);
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return { ok: true, address };
  if (address !== raw) return { ok: false, reason: `wrong EIP-55 checksum (checksummed: ${address})` };
  return { ok: true, address };
}
