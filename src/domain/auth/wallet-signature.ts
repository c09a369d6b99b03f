// Wallet signatures (docs/api/README.md "Wallet signature"): `Authorization: Wallet <address>:<unixSeconds>:<signature>` over an EIP-191
// message naming the method, the path and query exactly as sent, the time and the body's sha256. EOAs are
// checked locally; an address with code is asked through ERC-1271 (viem's verifyMessage). Each accepted
// signature is recorded so it can never be used twice.
import { createHash } from 'node:crypto';
import { lt } from 'drizzle-orm';
import { type Address, getAddress, type Hex, type PublicClient, recoverMessageAddress } from 'viem';
import {
  WALLET_SIGNATURE_PREAMBLE,
  WALLET_SIGNATURE_REPLAY_TTL_S,
  WALLET_SIGNATURE_WINDOW_S,
} from '../../constants.ts';
import type { Tx } from '../../db/client.ts';
import { signatureReplays } from '../../db/schema/auth.ts';
import { unauthorized } from '../../errors.ts';

export interface WalletAuthorization {
  address: Address;
  timestamp: number;
  signature: Hex;
}

const EXPECTED = 'expected "Wallet <address>:<unixSeconds>:<signature>"';
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** Whole seconds without leading zeros, so one time has one spelling (it is signed as written). */
const UNIX_SECONDS = /^(?:0|[1-9]\d{0,11})$/;
/** 65 bytes or more of hex, whole bytes: an ECDSA signature, or a longer one a contract wallet understands. */
const SIGNATURE = /^0x(?:[0-9a-fA-F]{2}){65,}$/;

/** Parses the Authorization header; throws UNAUTHORIZED naming what is missing or malformed. */
export function parseWalletAuthorization(header: string | undefined): WalletAuthorization {
  if (header === undefined || header.trim() === '') {
    throw unauthorized(`Missing Authorization header: ${EXPECTED}`);
  }
  // The scheme name is case-insensitive (RFC 9110, section 11.1).
  const scheme = /^\s*(\S+)(?:\s+(\S+))?\s*$/.exec(header);
  if (!scheme || scheme[1]!.toLowerCase() !== 'wallet') {
    throw unauthorized(`Malformed Authorization header: not the Wallet scheme; ${EXPECTED}`);
  }
  if (scheme[2] === undefined) throw unauthorized(`Malformed Authorization header: no credentials; ${EXPECTED}`);
  const parts = scheme[2].split(':');
  if (parts.length !== 3) {
    throw unauthorized(`Malformed Authorization header: ${EXPECTED}, three parts separated by colons`);
  }
  const [address, time, signature] = parts as [string, string, string];
  if (!ADDRESS.test(address)) {
    throw unauthorized('Malformed Authorization header: the address must be 0x followed by 40 hex characters');
  }
  if (!UNIX_SECONDS.test(time)) {
    throw unauthorized('Malformed Authorization header: the time must be whole unix seconds, e.g. 1767225600');
  }
  if (!SIGNATURE.test(signature)) {
    throw unauthorized('Malformed Authorization header: the signature must be 0x followed by at least 65 bytes of hex');
  }
  return { address: getAddress(address.toLowerCase()), timestamp: Number(time), signature: signature as Hex };
}

export const sha256Hex = (body: string | Uint8Array) => createHash('sha256').update(body).digest('hex');

/**
 * The four signed lines. The method and the path are taken exactly as given (HTTP methods are case-sensitive),
 * so a client builds the message from the very method and request target it sends.
 */
export function walletSignatureMessage(
  method: string,
  pathAndQuery: string,
  timestamp: number,
  body: string | Uint8Array,
): string {
  return [WALLET_SIGNATURE_PREAMBLE, `${method} ${pathAndQuery}`, String(timestamp), sha256Hex(body)].join('\n');
}

/** The Authorization header value for a signature made over walletSignatureMessage(...). */
export const walletAuthorizationHeader = (address: Address, timestamp: number, signature: Hex) =>
  `Wallet ${address}:${timestamp}:${signature}`;

export interface VerifyWalletOptions {
  header: string | undefined;
  method: string;
  /** Path and query string exactly as the client sent them. */
  url: string;
  /** The raw request body; the empty string when there is none. */
  body: string | Uint8Array;
  nowMs: number;
  db: Tx;
  /** Used for ERC-1271 contract wallets only; EOAs are verified without the chain. */
  publicClient: Pick<PublicClient, 'verifyMessage' | 'getCode'>;
}

/** Returns the checksummed signer, or throws UNAUTHORIZED naming the reason. */
export async function verifyWalletSignature(options: VerifyWalletOptions): Promise<Address> {
  const auth = parseWalletAuthorization(options.header);
  // Compared in milliseconds: a signature is usable while |now - time| <= window, and not a moment longer.
  // The replay entry below outlives that moment (see consumeSignature), so no replay slips through a purge.
  const ageMs = options.nowMs - auth.timestamp * 1000;
  const windowMs = WALLET_SIGNATURE_WINDOW_S * 1000;
  if (ageMs > windowMs) {
    throw unauthorized(
      `Signature expired: it was made ${Math.floor(ageMs / 1000)} s ago; its time must be within ${WALLET_SIGNATURE_WINDOW_S} s of the server clock`,
    );
  }
  if (-ageMs > windowMs) {
    throw unauthorized(
      `Signature from the future: its time is ${Math.ceil(-ageMs / 1000)} s ahead; it must be within ${WALLET_SIGNATURE_WINDOW_S} s of the server clock`,
    );
  }
  const message = walletSignatureMessage(options.method, options.url, auth.timestamp, options.body);
  if (!(await signatureMatches(auth, message, options.publicClient))) {
    throw unauthorized(
      'Invalid signature: it was not made by this address over this method, path and query, time and body',
    );
  }
  const fresh = await consumeSignature(
    options.db,
    auth.address,
    message,
    new Date(options.nowMs + WALLET_SIGNATURE_REPLAY_TTL_S * 1000),
  );
  if (!fresh) throw unauthorized('Signature already used: sign each request anew');
  return auth.address;
}

async function signatureMatches(
  auth: WalletAuthorization,
  message: string,
  client: VerifyWalletOptions['publicClient'],
): Promise<boolean> {
  if (auth.signature.length === 132) {
    try {
      const recovered = await recoverMessageAddress({ message, signature: auth.signature });
      if (recovered === auth.address) return true;
    } catch {
      // not a valid ECDSA signature; a contract wallet may still accept it
    }
  }
  // Only an address with code can validate through ERC-1271; this needs the chain.
  const code = await client.getCode({ address: auth.address });
  if (!code || code === '0x') return false;
  return client.verifyMessage({ address: auth.address, message, signature: auth.signature });
}

/**
 * Records a signed request as used; false when it was used before. The key is the signer and the signed
 * message, not the signature bytes: an ECDSA signature has a second valid form (s and n - s), and keying on
 * the bytes would let that twin through. An entry made at `now` must outlive the signature: its time is at
 * most `window` ahead of now, so it is usable until now + 2 * window at the latest, which the replay TTL covers.
 */
export async function consumeSignature(db: Tx, address: Address, message: string, expiresAt: Date): Promise<boolean> {
  const rows = await db
    .insert(signatureReplays)
    .values({ requestHash: sha256Hex(`${address.toLowerCase()}\n${message}`), expiresAt })
    .onConflictDoNothing()
    .returning({ requestHash: signatureReplays.requestHash });
  return rows.length === 1;
}

/** Deletes replay entries past their expiry; their timestamps are outside the window anyway. */
export async function purgeExpiredSignatures(db: Tx, now: Date): Promise<number> {
  const rows = await db
    .delete(signatureReplays)
    .where(lt(signatureReplays.expiresAt, now))
    .returning({ requestHash: signatureReplays.requestHash });
  return rows.length;
}
