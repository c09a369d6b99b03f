// An API key as the admin routes answer it (never the key itself, which only its creation's answer holds).
import { Type } from 'typebox';
import { IsoTimestamp, Nullable } from '../../schemas/common.ts';

export const apiKeyFields = {
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String({ description: 'The first characters of the key, to recognise it' }),
  createdAt: IsoTimestamp,
  revokedAt: Nullable(IsoTimestamp),
};
export const ApiKey = Type.Object(apiKeyFields);

/** A stored key's row with its times as ISO strings. */
export const apiKeyView = <R extends { createdAt: Date; revokedAt: Date | null }>(row: R) => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
  revokedAt: row.revokedAt?.toISOString() ?? null,
});
