// GET /api/v1/webhooks/{id} (docs/api/webhooks.md): a webhook endpoint of the calling API key, its filters and status.
import { toWebhookEndpoint, webhookEndpointOf } from '../../../domain/webhooks/endpoints.ts';
import { route } from '../../route.ts';
import { WebhookEndpoint, WebhookParams } from './endpoint.ts';

export default route({
  auth: 'apiKey',
  tag: 'webhooks',
  summary: 'A webhook endpoint of this API key: its filters and status (DISABLED, and why, once it is)',
  params: WebhookParams,
  response: WebhookEndpoint,
  load: async (deps, { params, apiKeyId }) => toWebhookEndpoint(await webhookEndpointOf(deps, apiKeyId!, params.id)),
  v1: { url: '/webhooks/:id' },
});
