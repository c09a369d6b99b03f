// Wallet signatures of DESIGN.md: `Authorization: Wallet <address>:<unixSeconds>:<signature>` over an EIP-191
// message naming the method, the path and query exactly as sent, the time and the body's sha256. EOAs are
// checked locally; an address with code is asked through ERC-1271 (viem's verifyMessage). Each accepted
// signature is recorded so it can never be used twice.
import { createHash } from 'node:crypto';
import { lt } from 'drizzle-orm';
import { type Address, getAddress, type Hex, isAddress, isHex, type PublicClient, recoverMessageAddress } from 'viem';
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

const HEADER = /^Wallet (0x[0-9a-fA-F]{40}):(\d{1,12}):(0x[0-9a-fA-F]+)$/;

export function parseWalletAuthorization(header: string | undefined): WalletAuthorization {
  if (header === undefined || header === '') {
    throw unauthorized('Missing Authorization header: expected "Wallet <address>:<unixSeconds>:<signature>"');
  }
  const m = HEADER.exec(header.trim());
  if (!m) throw unauthorized('Malformed Authorization header: expected "Wallet <address>:<unixSeconds>:<signature>"');
  const [, address, ts, signature] = m as unknown as [string, string, string, Hex];
  if (!isAddress(address, { strict: false })) throw unauthorized('Malformed Authorization header: invalid address');
  if (!isHex(signature) || signature.length < 132) {
    throw unauthorized('Malformed Authorization header: the signature must be at least 65 bytes of hex');
  }
  return { address: getAddress(address), timestamp: Number(ts), signature };
}

export const sha256Hex = (body: string | Buffer) => createHash('sha256').update(body).digest('hex');

export function walletSignatureMessage(method: string, pathAndQuery: string, timestamp: number, body: string | Buffer) {
  return [
    WALLET_SIGNATURE_PREAMBLE,
    `${method.toUpperCase()} ${pathAndQuery}`,
    String(timestamp),
    sha256Hex(body),
  ].join('\n');
}

export interface VerifyWalletOptions {
  header: string | undefined;
  method: string;
  /** Path and query string exactly as the client sent them. */
  url: string;
  /** The raw request body; the empty string when there is none. */
  body: string | Buffer;
  nowMs: number;
  db: Tx;
  /** Used for ERC-1271 contract wallets only; EOAs are verified without the chain. */
  publicClient: Pick<PublicClient, 'verifyMessage' | 'getCode'>;
}

/** Returns the checksummed signer, or throws UNAUTHORIZED naming the reason. */
export async function verifyWalletSignature(options: VerifyWalletOptions): Promise<Address> {
  const auth = parseWalletAuthorization(options.header);
  const nowS = Math.floor(options.nowMs / 1000);
  if (auth.timestamp < nowS - WALLET_SIGNATURE_WINDOW_S) {
    throw unauthorized(`Signature expired: its time must be within ${WALLET_SIGNATURE_WINDOW_S} s of the server clock`);
  }
  if (auth.timestamp > nowS + WALLET_SIGNATURE_WINDOW_S) {
    throw unauthorized(
      `Signature from the future: its time must be within ${WALLET_SIGNATURE_WINDOW_S} s of the server clock`,
    );
  }
  const message = walletSignatureMessage(options.method, options.url, auth.timestamp, options.body);
  if (!(await signatureMatches(auth, message, options.publicClient))) {
    throw unauthorized('Invalid signature: it does not match the address for this method, path, time and body');
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
 * the bytes would let that twin through.
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
