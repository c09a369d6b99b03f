// DELETE /api/admin/api-keys/{id} (ADMIN_SECRET): an API key revoked; every running service stops accepting it at once
// (a database notification).
import { Type } from 'typebox';
import { revokeApiKey } from '../../../domain/auth/api-keys.ts';
import { notFound } from '../../../errors.ts';
import { route } from '../../route.ts';

export const ApiKeyParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export default route({
  method: 'DELETE',
  url: '/api/admin/api-keys/:id',
  auth: 'adminSecret',
  tag: 'admin',
  summary: 'Revoke an API key; every running service stops accepting it at once (a database notification)',
  params: ApiKeyParams,
  response: Type.Object({ id: Type.String(), revoked: Type.Literal(true) }),
  load: async (deps, { params }) => {
    if (!(await revokeApiKey(deps.database.db, params.id))) {
      throw notFound(`No active API key has the id ${params.id}`);
    }
    deps.apiKeys.clear();
    return { id: params.id, revoked: true as const };
  },
});
