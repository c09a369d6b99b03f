// GET /api/v1/webhooks (docs/api/webhooks.md): the calling API key's webhook endpoints, oldest first, all of them (a key
// holds a few at most).
import { Type } from 'typebox';
import { WEBHOOK_ENDPOINTS_PER_KEY_MAX } from '../../../constants.ts';
import { listWebhookEndpoints } from '../../../domain/webhooks/endpoints.ts';
import { route } from '../../route.ts';
import { WebhookEndpoint } from './endpoint.ts';

export default route({
  auth: 'apiKey',
  tag: 'webhooks',
  summary: "This API key's webhook endpoints, oldest first (all of them: a key holds a few at most)",
  response: Type.Array(WebhookEndpoint),
  page: true,
  load: async (deps, { apiKeyId }) => {
    const data = await listWebhookEndpoints(deps, apiKeyId!);
    const limit = WEBHOOK_ENDPOINTS_PER_KEY_MAX;
    return { data, pagination: { page: 1, limit, total: data.length, hasMore: limit < data.length } };
  },
  v1: { url: '/webhooks' },
});
