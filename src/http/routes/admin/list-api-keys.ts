// GET /api/admin/api-keys (ADMIN_SECRET): the API keys, newest first, never the keys themselves.
import { Type } from 'typebox';
import { listApiKeys } from '../../../domain/auth/api-keys.ts';
import { route } from '../../route.ts';
import { ApiKey, apiKeyView } from './api-key.ts';

export default route({
  url: '/api/admin/api-keys',
  auth: 'adminSecret',
  tag: 'admin',
  summary: 'The API keys, newest first: id, name, prefix, created and revoked (never the keys)',
  response: Type.Array(ApiKey),
  load: async (deps) => (await listApiKeys(deps.database.db)).map(apiKeyView),
});
