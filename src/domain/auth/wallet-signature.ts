// Wallet signatures (docs/api/README.md "Wallet signature"): `Authorization: Wallet <address>:<unixSeconds>:<signature>` over an EIP-191
// message naming the method, the path and query exactly as sent, the time and the body's sha256. EOAs are
// checked locally; an address with code is asked through ERC-1271, with capped gas and time. Each accepted
// signature is recorded so it can never be used twice. The ERC-1271 path runs code the signer chose, unauthenticated,
// so a signature already used is refused before the chain is asked, and a WalletSignatureGuard keeps the code
// lookups, remembers the contract signatures it found valid, and refuses (429) a client past its contract checks.
import { createHash } from 'node:crypto';
import { eq, lt } from 'drizzle-orm';
import { type Address, getAddress, type Hex, hashMessage, type PublicClient, recoverMessageAddress } from 'viem';
import { hasCode, isValidErc1271Signature } from '../../chain/contracts/erc1271.ts';
import {
  WALLET_CODE_CACHE_MAX,
  WALLET_CODE_CACHE_MS,
  WALLET_ERC1271_CHECKS_MAX,
  WALLET_ERC1271_CHECKS_WINDOW_MS,
  WALLET_ERC1271_CLIENTS_MAX,
  WALLET_SIGNATURE_PREAMBLE,
  WALLET_SIGNATURE_REPLAY_TTL_S,
  WALLET_SIGNATURE_WINDOW_S,
} from '../../constants.ts';
import type { Tx } from '../../db/client.ts';
import { signatureReplays } from '../../db/schema/auth.ts';
import { AppError, unauthorized } from '../../errors.ts';

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
  publicClient: Pick<PublicClient, 'call' | 'getCode'>;
  /** The process's code cache and check counts; without one, every check asks the chain and nothing is limited. */
  guard?: WalletSignatureGuard;
  /** Who sent the request (its IP), whose ERC-1271 checks the guard counts. */
  client?: string;
}

/**
 * What makes the ERC-1271 path affordable, kept per process: "has code" per address for WALLET_CODE_CACHE_MS (at
 * most WALLET_CODE_CACHE_MAX addresses), the contract signatures found valid (for as long as the replay store keeps
 * a signature, so a keyed retry of one is not asked again), and per client the ERC-1271 checks of the current window.
 */
export interface WalletSignatureGuard {
  hasCode(client: VerifyWalletOptions['publicClient'], address: Address, nowMs: number): Promise<boolean>;
  /** Throws 429 RATE_LIMITED (with Retry-After) while `client` has used up its ERC-1271 checks. */
  admit(client: string, nowMs: number): void;
  /** Counts an ERC-1271 check of `client`, whatever its answer. */
  checked(client: string, nowMs: number): void;
  /** Whether these exact signature bytes were found valid for this message (a digest of the three) and still kept. */
  knownValid(digest: string, nowMs: number): boolean;
  /** Remembers a contract signature found valid until `untilMs`. */
  rememberValid(digest: string, untilMs: number): void;
}

export interface WalletSignatureGuardOptions {
  codeCacheMs?: number;
  codeCacheMax?: number;
  checksMax?: number;
  checksWindowMs?: number;
  clientsMax?: number;
}

export function createWalletSignatureGuard(options: WalletSignatureGuardOptions = {}): WalletSignatureGuard {
  const codeCacheMs = options.codeCacheMs ?? WALLET_CODE_CACHE_MS;
  const checksMax = options.checksMax ?? WALLET_ERC1271_CHECKS_MAX;
  const windowMs = options.checksWindowMs ?? WALLET_ERC1271_CHECKS_WINDOW_MS;
  const codes = new BoundedMap<Address, { code: boolean; until: number }>(
    options.codeCacheMax ?? WALLET_CODE_CACHE_MAX,
  );
  const checks = new BoundedMap<string, { count: number; until: number }>(
    options.clientsMax ?? WALLET_ERC1271_CLIENTS_MAX,
  );
  // As many as the code cache: a valid contract signature is rarer than an address looked up.
  const valid = new BoundedMap<string, number>(options.codeCacheMax ?? WALLET_CODE_CACHE_MAX);
  const windowOf = (client: string, nowMs: number) => {
    const w = checks.get(client);
    return w && w.until > nowMs ? w : undefined;
  };
  return {
    async hasCode(publicClient, address, nowMs) {
      const kept = codes.get(address);
      if (kept && kept.until > nowMs) return kept.code;
      const code = await hasCode({ publicClient }, address);
      codes.set(address, { code, until: nowMs + codeCacheMs });
      return code;
    },
    admit(client, nowMs) {
      const w = windowOf(client, nowMs);
      if (!w || w.count < checksMax) return;
      const retryAfter = Math.max(1, Math.ceil((w.until - nowMs) / 1000));
      throw new AppError(
        'RATE_LIMITED',
        `Too many contract-wallet signature checks from this client: at most ${checksMax} per ${Math.round(windowMs / 1000)} s; retry after ${retryAfter} s`,
        { headers: { 'retry-after': String(retryAfter) } },
      );
    },
    checked(client, nowMs) {
      const w = windowOf(client, nowMs);
      if (w) w.count += 1;
      else checks.set(client, { count: 1, until: nowMs + windowMs });
    },
    knownValid(digest, nowMs) {
      const until = valid.get(digest);
      return until !== undefined && until > nowMs;
    },
    rememberValid(digest, untilMs) {
      valid.set(digest, untilMs);
    },
  };
}

/** A Map that forgets its oldest entry when a new one would exceed `max`. */
class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly max: number) {
    super();
  }
  override set(key: K, value: V): this {
    this.delete(key); // a renewed entry becomes the newest
    if (this.size >= this.max) {
      const oldest = this.keys().next();
      if (!oldest.done) this.delete(oldest.value);
    }
    return super.set(key, value);
  }
}

/** Returns the checksummed signer, or throws UNAUTHORIZED naming the reason. */
export async function verifyWalletSignature(options: VerifyWalletOptions): Promise<Address> {
  const { address, message } = await authenticate(options, true);
  await useSignature(options, address, message);
  return address;
}

/**
 * Every check of verifyWalletSignature but the replay store: the header's form, the time window and the signature
 * itself. What an idempotent write's replay needs (src/http/plugins/idempotency.ts): the signer proven, nothing consumed.
 * Throws UNAUTHORIZED naming the reason.
 */
export function authenticateWalletSignature(
  options: VerifyWalletOptions,
): Promise<{ address: Address; message: string }> {
  return authenticate(options, false);
}

/**
 * The checks of authenticateWalletSignature. With `refuseUsed` (a request that will consume its signature), a
 * signature that is not an EOA's and was used already is refused before the chain is asked: its replay would be
 * refused anyway, and each check of a contract wallet runs code its owner chose.
 */
async function authenticate(
  options: VerifyWalletOptions,
  refuseUsed: boolean,
): Promise<{ address: Address; message: string }> {
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
  if (!(await signatureMatches(auth, message, options, refuseUsed))) {
    throw unauthorized(
      'Invalid signature: it was not made by this address over this method, path and query, time and body',
    );
  }
  return { address: auth.address, message };
}

/** Records the authenticated request's signature as used; throws UNAUTHORIZED when it was used before. */
export async function useSignature(
  options: Pick<VerifyWalletOptions, 'db' | 'nowMs'>,
  address: Address,
  message: string,
): Promise<void> {
  const fresh = await consumeSignature(
    options.db,
    address,
    message,
    new Date(options.nowMs + WALLET_SIGNATURE_REPLAY_TTL_S * 1000),
  );
  if (!fresh) throw alreadyUsed();
}

async function signatureMatches(
  auth: WalletAuthorization,
  message: string,
  options: VerifyWalletOptions,
  refuseUsed: boolean,
): Promise<boolean> {
  if (auth.signature.length === 132) {
    try {
      const recovered = await recoverMessageAddress({ message, signature: auth.signature });
      if (recovered === auth.address) return true;
    } catch {
      // not a valid ECDSA signature; a contract wallet may still accept it
    }
  }
  // Only an address with code can validate through ERC-1271; this needs the chain, so a replay is refused first.
  const { guard, client = 'unknown', nowMs, publicClient } = options;
  if (refuseUsed && (await signatureUsed(options.db, auth.address, message))) throw alreadyUsed();
  const digest = sha256Hex(`${auth.address.toLowerCase()}\n${message}\n${auth.signature.toLowerCase()}`);
  if (guard?.knownValid(digest, nowMs)) return true;
  const code = guard
    ? await guard.hasCode(publicClient, auth.address, nowMs)
    : await hasCode({ publicClient }, auth.address);
  if (!code) return false;
  guard?.admit(client, nowMs);
  guard?.checked(client, nowMs);
  const valid = await isValidErc1271Signature({ publicClient }, auth.address, hashMessage(message), auth.signature);
  if (valid) guard?.rememberValid(digest, nowMs + WALLET_SIGNATURE_REPLAY_TTL_S * 1000);
  return valid;
}

const alreadyUsed = () => unauthorized('Signature already used: sign each request anew');
const replayKey = (address: Address, message: string) => sha256Hex(`${address.toLowerCase()}\n${message}`);

/** Whether this signer's message is in the replay store (used before, and not yet purged). */
async function signatureUsed(db: Tx, address: Address, message: string): Promise<boolean> {
  const [row] = await db
    .select({ requestHash: signatureReplays.requestHash })
    .from(signatureReplays)
    .where(eq(signatureReplays.requestHash, replayKey(address, message)))
    .limit(1);
  return row !== undefined;
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
    .values({ requestHash: replayKey(address, message), expiresAt })
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
