// POST /api/v1/webhooks (docs/api/webhooks.md): a webhook endpoint of the calling API key; the answer holds its
// signing secret, shown once.
import { Type } from 'typebox';
import {
  EVENT_TYPES,
  SSE_FILTER_COMPANIES_MAX,
  WEBHOOK_DESCRIPTION_MAX,
  WEBHOOK_ENDPOINTS_PER_KEY_MAX,
  WEBHOOK_URL_MAX,
} from '../../../constants.ts';
import { createWebhookEndpoint } from '../../../domain/webhooks/endpoints.ts';
import { route } from '../../route.ts';
import { StringEnum } from '../../schemas/common.ts';
import { WebhookEndpointWithSecret } from './endpoint.ts';

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

export default route({
  method: 'POST',
  auth: 'apiKey',
  tag: 'webhooks',
  summary: 'Register a webhook endpoint for this API key; the answer holds its signing secret, shown once',
  description: `Deliveries of the platform events after its creation that pass its filters, signed per Standard Webhooks (docs/api/webhooks.md). At most ${WEBHOOK_ENDPOINTS_PER_KEY_MAX} endpoints a key (409 CONFLICT past it); 400 VALIDATION_ERROR for a URL that is not http(s), carries credentials or points to a loopback, private or link-local address.`,
  body: CreateWebhookBody,
  status: 201,
  response: WebhookEndpointWithSecret,
  load: (deps, { body, apiKeyId }) => createWebhookEndpoint(deps, apiKeyId!, body),
  v1: { url: '/webhooks' },
});
