// Schemas of the webhook routes under /api/v1/webhooks (docs/api/webhooks.md).
import { Type } from 'typebox';
import {
  EVENT_TYPES,
  SSE_FILTER_COMPANIES_MAX,
  WEBHOOK_DESCRIPTION_MAX,
  WEBHOOK_PAGE_DEFAULT,
  WEBHOOK_PAGE_MAX,
  WEBHOOK_URL_MAX,
} from '../../constants.ts';
import {
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_DISABLED_REASONS,
  WEBHOOK_ENDPOINT_STATUSES,
} from '../../db/schema/webhooks.ts';
import { CursorQuery, IsoTimestamp, Nullable, StringEnum, v1List, v1Ok } from './common.ts';

const EndpointId = Type.String({ pattern: '^whe_[A-Za-z0-9_-]{1,60}$', description: 'Webhook endpoint id' });
const DecimalId = (description: string) => Type.String({ pattern: '^[0-9]{1,19}$', description });
/** An id a client sends: at most 18 digits, so any value the pattern takes fits the bigint column (never a 500). */
const DecimalIdParam = (description: string) => Type.String({ pattern: '^(0|[1-9][0-9]{0,17})$', description });

export const WebhookParams = Type.Object({ id: EndpointId });

export const CreateWebhookBody = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: WEBHOOK_URL_MAX,
      description:
        'Where deliveries are POSTed: https (http too outside production); a host that resolves to a public address only',
    }),
    description: Type.Optional(Type.String({ maxLength: WEBHOOK_DESCRIPTION_MAX })),
    types: Type.Optional(
      Type.Array(StringEnum(EVENT_TYPES), {
        minItems: 1,
        maxItems: EVENT_TYPES.length,
        description: "Only these event types (as the stream's `types`); every type when absent",
      }),
    ),
    companies: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
        minItems: 1,
        maxItems: SSE_FILTER_COMPANIES_MAX,
        description:
          "Only these companies' events, by slug or id (as the stream's `companies`; `season` events pass too); every company when absent",
      }),
    ),
  },
  { additionalProperties: false },
);

const endpointProperties = {
  id: EndpointId,
  url: Type.String(),
  description: Type.String(),
  types: Nullable(Type.Array(StringEnum(EVENT_TYPES))),
  companies: Nullable(Type.Array(Type.String(), { description: 'Company ids' })),
  status: StringEnum(WEBHOOK_ENDPOINT_STATUSES),
  disabledReason: Nullable(
    StringEnum(WEBHOOK_DISABLED_REASONS, {
      description:
        'OWNER: disabled by its owner; FAILING: every delivery failed for 5 days, so the platform disabled it',
    }),
  ),
  disabledAt: Nullable(IsoTimestamp),
  failingSince: Nullable({ ...IsoTimestamp, description: 'Since when every attempt failed; null while it succeeds' }),
  createdAt: IsoTimestamp,
};
export const WebhookEndpoint = Type.Object(endpointProperties);
const WebhookEndpointWithSecret = Type.Object({
  ...endpointProperties,
  secret: Type.String({
    pattern: '^whsec_[A-Za-z0-9+/=]+$',
    description: 'The signing secret (Standard Webhooks `whsec_<base64>`): shown once, here',
  }),
});

export const WebhookEndpointResponse = v1Ok(WebhookEndpoint);
export const WebhookSecretResponse = v1Ok(WebhookEndpointWithSecret);
export const WebhookEndpointListResponse = v1List(WebhookEndpoint);

export const WebhookPageQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: WEBHOOK_PAGE_MAX, default: WEBHOOK_PAGE_DEFAULT }),
  ...CursorQuery('`pagination.nextCursor` of the page before: the older items after it'),
});

export const WebhookAttemptsQuery = Type.Object({
  ...WebhookPageQuery.properties,
  delivery: Type.Optional(DecimalIdParam("Only this delivery's attempts")),
});

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
export const WebhookDeliveriesResponse = v1List(WebhookDelivery);

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
export const WebhookAttemptsResponse = v1List(WebhookAttempt);
