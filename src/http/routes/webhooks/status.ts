// POST /api/v1/webhooks/{id}/disable and /enable (docs/api/webhooks.md): a webhook endpoint disabled by its owner, or
// enabled again.
import { setWebhookEndpointStatus } from '../../../domain/webhooks/endpoints.ts';
import { route } from '../../route.ts';
import { WebhookEndpoint, WebhookParams } from './endpoint.ts';

const statusRoute = (action: 'disable' | 'enable', status: 'DISABLED' | 'ACTIVE', summary: string) =>
  route({
    method: 'POST',
    auth: 'apiKey',
    tag: 'webhooks',
    summary,
    params: WebhookParams,
    response: WebhookEndpoint,
    load: (deps, { params, apiKeyId }) => setWebhookEndpointStatus(deps, apiKeyId!, params.id, status),
    v1: { url: `/webhooks/:id/${action}` },
  });

export const disable = statusRoute(
  'disable',
  'DISABLED',
  'Disable a webhook endpoint: nothing more is sent, and its pending deliveries end FAILED',
);
export const enable = statusRoute(
  'enable',
  'ACTIVE',
  'Enable a disabled webhook endpoint again: it receives the events published from now on, and its failure clock starts over',
);
