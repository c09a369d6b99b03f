// The wallet signature of a write (docs/api/README.md "Wallet signature"): `Authorization: Wallet
// <address>:<unixSeconds>:<signature>`, an EIP-191 personal-message signature by the card holder over four lines:
// the preamble, `<METHOD> <path and query as sent>`, the unix seconds, and the hex sha256 of the body's bytes. The
// server accepts a time within 5 minutes of its clock, and each signature once.

/** The first line of every signed message. */
export const WALLET_SIGNATURE_PREAMBLE = 'ai-economy request';

/**
 * Anything that signs an EIP-191 personal message: a viem account (`privateKeyToAccount(...)`, a JSON-RPC account's
 * wallet client wrapped as `{ address, signMessage }`), an ethers signer adapted the same way.
 */
export interface WalletSigner {
  address: `0x${string}`;
  signMessage(args: { message: string }): Promise<`0x${string}`>;
}

const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');

/** The hex sha256 of `body` (its UTF-8 bytes for a string). */
export async function sha256Hex(body: string | Uint8Array): Promise<string> {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  return hex(await globalThis.crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
}

/**
 * The message a wallet signs for a request: the method and the path with its query exactly as sent (e.g.
 * `POST /api/v1/companies/acme/token`), the unix seconds, and the body exactly as sent (the empty string without one).
 */
export async function walletSignatureMessage(
  method: string,
  pathAndQuery: string,
  timestamp: number,
  body: string | Uint8Array = '',
): Promise<string> {
  return [WALLET_SIGNATURE_PREAMBLE, `${method} ${pathAndQuery}`, String(timestamp), await sha256Hex(body)].join('\n');
}

/** The Authorization header of a request signed by `signer` at `timestamp` (unix seconds). */
export async function walletAuthorization(
  signer: WalletSigner,
  method: string,
  pathAndQuery: string,
  body: string | Uint8Array = '',
  timestamp: number = Math.floor(Date.now() / 1000),
): Promise<string> {
  const message = await walletSignatureMessage(method, pathAndQuery, timestamp, body);
  const signature = await signer.signMessage({ message });
  return `Wallet ${signer.address}:${timestamp}:${signature}`;
}

/**
 * The times a client signs at: the current second, or one past the last it used for the same signer when that is
 * later, so that a request signed again (a retry) never repeats a signature the server has already seen.
 */
export class SignatureClock {
  private readonly last = new Map<string, number>();

  next(address: string, nowMs: number = Date.now()): number {
    const key = address.toLowerCase();
    const t = Math.max(Math.floor(nowMs / 1000), (this.last.get(key) ?? 0) + 1);
    this.last.set(key, t);
    return t;
  }
}
