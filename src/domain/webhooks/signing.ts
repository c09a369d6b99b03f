// Standard Webhooks signatures (https://www.standardwebhooks.com): secrets `whsec_<base64>`, and
// `webhook-signature: v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per secret in force,
// space-separated (the secret before a rotation signs beside the new one for a day).
import { createHmac, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';

/** A new signing secret: 32 random bytes. */
export const newWebhookSecret = () => `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;

/** The HMAC key of a secret: the bytes its base64 part decodes to. */
const keyOf = (secret: string) => Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');

/** `v1,<base64 signature>` of one message under one secret. */
export function signWebhook(secret: string, id: string, timestampS: number, body: string): string {
  const mac = createHmac('sha256', keyOf(secret)).update(`${id}.${timestampS}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The three headers of a delivery, signed with every secret given. */
export function webhookHeaders(
  secrets: readonly string[],
  id: string,
  timestampS: number,
  body: string,
): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampS),
    'webhook-signature': secrets.map((s) => signWebhook(s, id, timestampS, body)).join(' '),
  };
}
