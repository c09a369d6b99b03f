// Verifying a webhook delivery (docs/api/webhooks.md "Delivery"), per Standard Webhooks
// (https://www.standardwebhooks.com): `webhook-signature` holds one or more space-separated `v1,<base64>` entries,
// each the HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>` under the key that the base64 part of the
// endpoint's `whsec_<base64>` secret decodes to. A delivery verifies when one entry matches (compared in constant
// time) and its timestamp is within the tolerance of the receiver's clock. Web Crypto only: Node 20+ and browsers.
import type { PlatformEvent } from './index.js';

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

export interface VerifyWebhookOptions {
  /** How far the delivery's timestamp may be from the clock, in seconds; 300 by default (Standard Webhooks'). */
  toleranceSeconds?: number;
  /** The receiver's clock, in ms; Date.now() by default. */
  nowMs?: number;
}

/** Request headers as Node (`IncomingHttpHeaders`), the Fetch API (`Headers`) or a plain object give them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value.join(' ') : value;
}

function base64Bytes(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Equal bytes, in time independent of where they differ. */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/**
 * Checks a delivery against the endpoint's secret (or secrets: a receiver mid-rotation may hold both), over the raw
 * body exactly as received, and answers its event. Throws WebhookVerificationError when the headers are missing,
 * the timestamp is outside the tolerance or no signature matches. Dedupe on `event.id` (= `webhook-id`): delivery is
 * at least once.
 */
export async function verifyWebhook(
  secret: string | readonly string[],
  headers: WebhookHeaders,
  body: string | Uint8Array,
  options: VerifyWebhookOptions = {},
): Promise<PlatformEvent> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) {
    throw new WebhookVerificationError('Missing webhook-id, webhook-timestamp or webhook-signature');
  }
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp is not unix seconds');
  const tolerance = options.toleranceSeconds ?? 300;
  const nowS = Math.floor((options.nowMs ?? Date.now()) / 1000);
  if (Math.abs(nowS - Number(timestamp)) > tolerance) {
    throw new WebhookVerificationError(`webhook-timestamp is more than ${tolerance} s from the clock`);
  }
  const bodyBytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  const prefix = new TextEncoder().encode(`${id}.${timestamp}.`);
  const content = new Uint8Array(prefix.length + bodyBytes.length);
  content.set(prefix);
  content.set(bodyBytes, prefix.length);
  const given = signatures
    .split(' ')
    .map((entry) => entry.split(','))
    .filter(([version, sig]) => version === 'v1' && sig)
    .map(([, sig]) => {
      try {
        return base64Bytes(sig!);
      } catch {
        return new Uint8Array(0);
      }
    });
  for (const s of typeof secret === 'string' ? [secret] : secret) {
    const key = await globalThis.crypto.subtle.importKey(
      'raw',
      base64Bytes(s.startsWith('whsec_') ? s.slice('whsec_'.length) : s),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    const expected = new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', key, content));
    if (given.some((g) => constantTimeEqual(g, expected))) {
      return JSON.parse(typeof body === 'string' ? body : new TextDecoder().decode(body)) as PlatformEvent;
    }
  }
  throw new WebhookVerificationError('No webhook-signature entry matches the secret');
}
