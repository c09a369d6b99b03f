// GET /api/v1/webhooks/{id}/deliveries (docs/api/webhooks.md): a webhook endpoint's deliveries, newest first, paged by
// cursor.
import { Type } from 'typebox';
import { EVENT_TYPES } from '../../../constants.ts';
import { WEBHOOK_DELIVERY_STATUSES } from '../../../db/schema/webhooks.ts';
import { listDeliveries } from '../../../domain/webhooks/endpoint-rows.ts';
import { webhookEndpointOf } from '../../../domain/webhooks/endpoints.ts';
import { route } from '../../route.ts';
import { IsoTimestamp, Nullable, StringEnum } from '../../schemas/common.ts';
import { beforeOf, cursorPage, DecimalId, WebhookPageQuery, WebhookParams } from './endpoint.ts';

const WebhookDelivery = Type.Object({
  id: DecimalId('Delivery id'),
  eventId: DecimalId('The platform event delivered: the `webhook-id` header'),
  eventType: StringEnum(EVENT_TYPES),
  status: StringEnum(WEBHOOK_DELIVERY_STATUSES, {
    description:
      'PENDING (not delivered yet; retried), SUCCEEDED (a 2xx), FAILED (retries exhausted or endpoint disabled)',
  }),
  attempts: Type.Integer({ minimum: 0 }),
  nextAttemptAt: Nullable({ ...IsoTimestamp, description: 'When the next attempt is due (PENDING only)' }),
  createdAt: IsoTimestamp,
  completedAt: Nullable(IsoTimestamp),
});

const iso = (at: Date | number | null) => (at === null ? null : new Date(at).toISOString());

export default route({
  auth: 'apiKey',
  tag: 'webhooks',
  summary: "A webhook endpoint's deliveries, newest first, paged by cursor",
  description:
    'One delivery per event the endpoint receives, kept 7 days after it ends. `total` counts the items of this page.',
  params: WebhookParams,
  query: WebhookPageQuery,
  response: Type.Array(WebhookDelivery),
  page: true,
  load: async (deps, { params, query, apiKeyId }) => {
    const endpoint = await webhookEndpointOf(deps, apiKeyId!, params.id);
    const rows = await listDeliveries(deps.database.db, endpoint.id, beforeOf(query.cursor), query.limit + 1);
    const items = rows.map((r) => ({
      ...r,
      nextAttemptAt: iso(r.nextAttemptAt),
      createdAt: new Date(r.createdAt).toISOString(),
      completedAt: iso(r.completedAt),
    }));
    return cursorPage(items, query.limit);
  },
  v1: { url: '/webhooks/:id/deliveries' },
});
