// POST /api/v1/webhooks/{id}/rotate-secret (docs/api/webhooks.md): a new signing secret, shown once; the previous one
// keeps signing beside it for 24 hours.
import { rotateWebhookSecret } from '../../../domain/webhooks/endpoints.ts';
import { route } from '../../route.ts';
import { WebhookEndpointWithSecret, WebhookParams } from './endpoint.ts';

export default route({
  method: 'POST',
  auth: 'apiKey',
  tag: 'webhooks',
  summary: 'A new signing secret, shown once; the previous one keeps signing beside it for 24 hours',
  params: WebhookParams,
  response: WebhookEndpointWithSecret,
  load: (deps, { params, apiKeyId }) => rotateWebhookSecret(deps, apiKeyId!, params.id),
  v1: { url: '/webhooks/:id/rotate-secret' },
});
