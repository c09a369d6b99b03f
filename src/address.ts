// What counts as an Ethereum address anywhere the platform accepts one (a path, a query, a body): 0x and 40 hex
// digits, all lowercase, all uppercase, or a valid EIP-55 checksum, and nothing else.
import { type Address, getAddress } from 'viem';

/** `0x` (lowercase x) and 40 hex digits, nothing before or after. */
export const ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/;

/** The name of the request-schema format that applies `parseAddress` (src/http/validation.ts registers it). */
export const ADDRESS_FORMAT = 'evm-address';

/** What a 400 message says is allowed. */
export const ADDRESS_RULE = '0x and 40 hex digits, all lowercase, all uppercase, or EIP-55 checksummed';

export type AddressParse = { ok: true; address: Address } | { ok: false; reason: string };

/**
 * Parses an address as a client wrote it and returns it EIP-55 checksummed. The letter case of the 40 hex digits
 * follows EIP-55: all lowercase or all uppercase carry no checksum and are accepted as they are; mixed case is a
 * checksum, and a wrong one is refused (it is most likely a typo in a copied address, which the checksum exists
 * to catch).
 */
export function parseAddress(raw: string): AddressParse {
  if (!ADDRESS_PATTERN.test(raw)) return { ok: false, reason: 'not an address' };
  const hex = raw.slice(2);
  const address = getAddress(`0x${hex.toLowerCase()}`);
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return { ok: true, address };
  if (address !== raw) return { ok: false, reason: `wrong EIP-55 checksum (checksummed: ${address})` };
  return { ok: true, address };
}
