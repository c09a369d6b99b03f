// The API client: typed from the service's OpenAPI document (api-schema.d.ts, generated), one error type whose
// message a person can read, and signed requests (the platform's wallet signature, made by the connected wallet).
import createClient from 'openapi-fetch';
import type { paths } from './api-schema';

/** Until when reads skip the browser's and the service's reuse of an answer: a transaction was just mined. */
let freshUntil = 0;

/**
 * Reads made in the next seconds ask for a fresh answer (`cache: 'no-store'`: no conditional request, and the
 * browser sends `Cache-Control: no-cache`), so a route that reads the chain reads its latest block instead of
 * answering 304 from the block it last saw. Called once a transaction is mined: what the page shows next includes it.
 */
export function readFresh(seconds = 10): void {
  freshUntil = Date.now() + seconds * 1000;
}

export const api = createClient<paths>({
  baseUrl: '',
  fetch: (request) => (Date.now() < freshUntil ? fetch(request, { cache: 'no-store' }) : fetch(request)),
});

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

/** The errors a failure wraps (viem's `cause` chain), outermost first. */
type Failure = { name?: string; code?: number; message?: string; shortMessage?: string };
function causes(err: unknown): Failure[] {
  const chain: Failure[] = [];
  let e = err as { cause?: unknown } | undefined;
  for (let i = 0; e && i < 10; i++) {
    chain.push(e as Failure);
    e = e.cause as typeof e;
  }
  return chain;
}

/** A person pressed Reject in the wallet (EIP-1193 code 4001, viem's UserRejectedRequestError). */
export const rejectedInWallet = (err: unknown) =>
  causes(err).some(
    (e) =>
      e.name === 'UserRejectedRequestError' ||
      e.code === 4001 ||
      /user (rejected|denied)|rejected the request/i.test(e.message ?? ''),
  );

/** The blockchain node did not answer (viem's HttpRequestError or TimeoutError, a failed fetch). */
export const nodeUnreachable = (err: unknown) =>
  causes(err).some(
    (e) =>
      e.name === 'HttpRequestError' ||
      e.name === 'TimeoutError' ||
      e.name === 'WebSocketRequestError' ||
      /failed to fetch|fetch failed|networkerror/i.test(e.message ?? ''),
  );

/**
 * Whatever a failure was, a sentence for the page saying what happened and what to do (a rejected wallet request,
 * an unreachable node, the API's own message); never a library's dump, which `technicalDetail` gives instead.
 * `action` names what was being done ("buy", "mint").
 */
export function humanError(err: unknown, action?: string): string {
  if (err instanceof ApiError) return err.message;
  if (rejectedInWallet(err)) {
    return action
      ? `You declined the request in your wallet, so the ${action} was not made. Nothing was sent.`
      : 'The request was rejected in the wallet. Nothing was sent.';
  }
  if (nodeUnreachable(err)) {
    return `The blockchain node is not answering${action ? `, so the ${action} was not sent` : ''}. Try again in a moment.`;
  }
  const e = err as { shortMessage?: string; message?: string; name?: string };
  // A library's first line, at most a sentence long; the rest is behind "details".
  const first = (e?.shortMessage ?? e?.message ?? String(err)).split('\n')[0]!.trim();
  const said = first.length > 160 ? `${first.slice(0, 157)}…` : first;
  return `Something went wrong${action ? ` with the ${action}` : ''}: ${said.replace(/\.$/, '')}. Try again; if it keeps happening, open the details below and tell us.`;
}

/** The technical text of a failure, for a "details" toggle: viem's whole message, an API error's code. */
export function technicalDetail(err: unknown): string | undefined {
  if (err instanceof ApiError) return `HTTP ${err.status} ${err.code}`;
  const detail = (err as { detail?: unknown })?.detail;
  if (typeof detail === 'string') return detail;
  const e = err as { message?: string; name?: string };
  if (typeof e?.message === 'string') return `${e.name ?? 'Error'}: ${e.message}`;
  return err === undefined ? undefined : String(err);
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
