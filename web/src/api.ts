// The API client: typed from the service's OpenAPI document (api-schema.d.ts, generated), one error type whose
// message a person can read, and signed requests (the platform's wallet signature, made by the connected wallet).
import createClient from 'openapi-fetch';
import type { paths } from './api-schema';

export const api = createClient<paths>({ baseUrl: '' });

/** What went wrong, said for a person; `code` is the API's error code (or NETWORK when nothing answered). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const HUMAN: Record<string, string> = {
  CHAIN_UNAVAILABLE: 'The blockchain node is not answering right now. Try again in a moment.',
  RATE_LIMITED: 'Too many requests: wait a few seconds and try again.',
  INTERNAL_ERROR: 'Something went wrong on our side. Try again.',
  NETWORK: 'The service cannot be reached. Check your connection.',
};

type Envelope = {
  success?: boolean;
  error?: { code?: string; message?: string; details?: { path: string; message: string }[] };
};

export function errorOf(status: number, body: unknown): ApiError {
  const error = (body as Envelope | undefined)?.error;
  const code = error?.code ?? (status === 0 ? 'NETWORK' : 'HTTP');
  const details = error?.details?.map((d) => `${d.path}: ${d.message}`).join('; ');
  const message =
    HUMAN[code] ?? (details ? `${error?.message ?? 'Invalid input'} (${details})` : error?.message) ?? `HTTP ${status}`;
  return new ApiError(status, code, message);
}

/** The `data` of an answer, or its error thrown as an ApiError. */
export async function data<T>(call: Promise<{ data?: { data: T }; error?: unknown; response: Response }>): Promise<T> {
  let result: Awaited<typeof call>;
  try {
    result = await call;
  } catch {
    throw new ApiError(0, 'NETWORK', HUMAN.NETWORK!);
  }
  if (result.error !== undefined || !result.data) throw errorOf(result.response.status, result.error);
  return result.data.data;
}

/** Whatever a failure was, a sentence for the page (a rejected wallet request included). */
export function humanError(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  const e = err as { shortMessage?: string; message?: string; name?: string; code?: number };
  if (e?.name === 'UserRejectedRequestError' || e?.code === 4001 || /reject|denied/i.test(e?.message ?? '')) {
    return 'The request was rejected in the wallet. Nothing was sent.';
  }
  return e?.shortMessage ?? e?.message ?? String(err);
}

export interface Signer {
  address: `0x${string}`;
  signMessage(message: string): Promise<`0x${string}`>;
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * A request signed by the connected wallet (docs/api/README.md "Wallet signature"): `personal_sign` of the method and path,
 * the time and the body's sha256, sent as `Authorization: Wallet <address>:<time>:<signature>`.
 */
export async function signedRequest<T>(signer: Signer, method: string, path: string, body?: unknown): Promise<T> {
  const raw = body === undefined ? '' : JSON.stringify(body);
  const time = Math.floor(Date.now() / 1000);
  const message = ['ai-economy request', `${method} ${path}`, String(time), await sha256Hex(raw)].join('\n');
  const signature = await signer.signMessage(message);
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: {
        authorization: `Wallet ${signer.address}:${time}:${signature}`,
        ...(raw ? { 'content-type': 'application/json' } : {}),
      },
      ...(raw ? { body: raw } : {}),
    });
  } catch {
    throw new ApiError(0, 'NETWORK', HUMAN.NETWORK!);
  }
  const json = await response.json().catch(() => undefined);
  if (!response.ok) throw errorOf(response.status, json);
  return (json as { data: T }).data;
}
