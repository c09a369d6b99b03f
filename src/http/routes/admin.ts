// Admin routes (Authorization: Bearer ADMIN_SECRET): API keys, so `npm run cli -- api-keys ...` works while the
// service holds the embedded database (PGlite admits one process). Rate-limited like every route; the key is in the
// body of the creation's answer only, and never logged.
import { createApiKey, listApiKeys, revokeApiKey } from '../../domain/auth/api-keys.ts';
import { notFound } from '../../errors.ts';
import { requireSecret } from '../auth/index.ts';
import { ok } from '../envelope.ts';
import {
  ApiKeyBody,
  ApiKeyParams,
  ApiKeysResponse,
  CreatedApiKeyResponse,
  RevokedApiKeyResponse,
} from '../schemas/admin.ts';
import { internalErrors } from '../schemas/common.ts';
import type { App, RouteOptions } from '../types.ts';

const iso = (d: Date | null) => d?.toISOString() ?? null;

export default async function adminRoutes(app: App, { deps }: RouteOptions) {
  const admin = requireSecret(deps, ['admin']);
  const security = [{ bearerSecret: [] }];
  const db = () => deps.database.db;

  app.post(
    '/api/admin/api-keys',
    {
      preValidation: admin,
      schema: {
        tags: ['admin'],
        summary: 'Create an API key; the key is in this answer only (only its sha256 is stored)',
        security,
        body: ApiKeyBody,
        response: { 201: CreatedApiKeyResponse, ...internalErrors },
      },
    },
    async (request, reply) => {
      const created = await createApiKey(db(), request.body.name);
      // Counts in this process at once (other processes hear the notification).
      deps.apiKeys.clear();
      reply.code(201);
      return ok({ ...created, createdAt: created.createdAt.toISOString(), revokedAt: iso(created.revokedAt) });
    },
  );

  app.get(
    '/api/admin/api-keys',
    {
      preValidation: admin,
      schema: {
        tags: ['admin'],
        summary: 'The API keys, newest first: id, name, prefix, created and revoked (never the keys)',
        security,
        response: { 200: ApiKeysResponse, ...internalErrors },
      },
    },
    async () =>
      ok(
        (await listApiKeys(db())).map((r) => ({
          ...r,
          createdAt: r.createdAt.toISOString(),
          revokedAt: iso(r.revokedAt),
        })),
      ),
  );

  app.delete(
    '/api/admin/api-keys/:id',
    {
      preValidation: admin,
      schema: {
        tags: ['admin'],
        summary: 'Revoke an API key; every running service stops accepting it at once (a database notification)',
        security,
        params: ApiKeyParams,
        response: { 200: RevokedApiKeyResponse, ...internalErrors },
      },
    },
    async (request) => {
      if (!(await revokeApiKey(db(), request.params.id))) {
        throw notFound(`No active API key has the id ${request.params.id}`);
      }
      deps.apiKeys.clear();
      return ok({ id: request.params.id, revoked: true as const });
    },
  );
}
