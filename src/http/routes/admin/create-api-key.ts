// POST /api/admin/api-keys (ADMIN_SECRET): a new API key; the key is in this answer only (only its sha256 is stored).
import { Type } from 'typebox';
import { createApiKey } from '../../../domain/auth/api-keys.ts';
import { route } from '../../route.ts';
import { apiKeyFields, apiKeyView } from './api-key.ts';

export const ApiKeyBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }) },
  { additionalProperties: false },
);

export const CreatedApiKey = Type.Object({
  ...apiKeyFields,
  key: Type.String({ description: 'The key itself: shown only this once' }),
});

export default route({
  method: 'POST',
  url: '/api/admin/api-keys',
  auth: 'adminSecret',
  tag: 'admin',
  summary: 'Create an API key; the key is in this answer only (only its sha256 is stored)',
  body: ApiKeyBody,
  status: 201,
  response: CreatedApiKey,
  load: async (deps, { body }) => {
    const created = await createApiKey(deps.database.db, body.name);
    // Counts in this process at once (other processes hear the notification).
    deps.apiKeys.clear();
    return apiKeyView(created);
  },
});
