// GET /api/v1/webhooks/{id}/attempts (docs/api/webhooks.md): a webhook endpoint's delivery attempts (of one delivery
// with `delivery`), newest first, paged by cursor.
import { Type } from 'typebox';
import { listAttempts } from '../../../domain/webhooks/endpoint-rows.ts';
import { webhookEndpointOf } from '../../../domain/webhooks/endpoints.ts';
import { route } from '../../route.ts';
import { IsoTimestamp, Nullable } from '../../schemas/common.ts';
import { beforeOf, cursorPage, DecimalId, WebhookPageQuery, WebhookParams } from './endpoint.ts';

/** An id a client sends: at most 18 digits, so any value the pattern takes fits the bigint column (never a 500). */
const DecimalIdParam = (description: string) => Type.String({ pattern: '^(0|[1-9][0-9]{0,17})$', description });

export const WebhookAttemptsQuery = Type.Object({
  ...WebhookPageQuery.properties,
  delivery: Type.Optional(DecimalIdParam("Only this delivery's attempts")),
});

const WebhookAttempt = Type.Object({
  id: DecimalId('Attempt id'),
  deliveryId: DecimalId('Delivery id'),
  eventId: DecimalId('The platform event'),
  attempt: Type.Integer({ minimum: 1, description: "1 for the delivery's first attempt" }),
  attemptedAt: IsoTimestamp,
  statusCode: Nullable(Type.Integer({ description: "The receiver's HTTP status; null when none came" })),
  latencyMs: Type.Integer({ minimum: 0 }),
  response: Type.String({ description: "The first 1,024 bytes of the receiver's answer" }),
  error: Nullable(Type.String({ description: 'Why the attempt failed; null for a 2xx' })),
});

export default route({
  auth: 'apiKey',
  tag: 'webhooks',
  summary: "A webhook endpoint's delivery attempts (of one delivery with `delivery`), newest first, paged by cursor",
  description:
    "Each attempt's HTTP status, latency and the first 1,024 bytes of the answer, or why no answer came. `total` counts the items of this page.",
  params: WebhookParams,
  query: WebhookAttemptsQuery,
  response: Type.Array(WebhookAttempt),
  page: true,
  load: async (deps, { params, query, apiKeyId }) => {
    const endpoint = await webhookEndpointOf(deps, apiKeyId!, params.id);
    const { limit, cursor, delivery } = query;
    const rows = await listAttempts(deps.database.db, endpoint.id, {
      deliveryId: delivery === undefined ? undefined : BigInt(delivery),
      before: beforeOf(cursor),
      limit: limit + 1,
    });
    return cursorPage(
      rows.map((r) => ({ ...r, attemptedAt: new Date(r.attemptedAt).toISOString() })),
      limit,
    );
  },
  v1: { url: '/webhooks/:id/attempts' },
});
