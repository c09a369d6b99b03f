// Schemas of the admin routes (ADMIN_SECRET): API keys, as `npm run cli -- api-keys` manages them.
import { Type } from 'typebox';
import { IsoTimestamp, internalOk, Nullable } from './common.ts';

const apiKeyFields = {
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String({ description: 'The first characters of the key, to recognise it' }),
  createdAt: IsoTimestamp,
  revokedAt: Nullable(IsoTimestamp),
};
const ApiKey = Type.Object(apiKeyFields);

export const ApiKeyBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }) },
  { additionalProperties: false },
);
export const ApiKeyParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export const CreatedApiKeyResponse = internalOk(
  Type.Object({ ...apiKeyFields, key: Type.String({ description: 'The key itself: shown only this once' }) }),
);
export const ApiKeysResponse = internalOk(Type.Array(ApiKey));
export const RevokedApiKeyResponse = internalOk(Type.Object({ id: Type.String(), revoked: Type.Literal(true) }));
