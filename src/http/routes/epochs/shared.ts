// What the epoch routes' schemas share: an epoch number, a company named by id or slug, 32-byte values.
import { Type } from 'typebox';

/** Epoch numbers are stored as PostgreSQL integers; a week each, that is 41 million years. */
export const EPOCH_NUMBER_MAX = 2_147_483_647;

export const EpochNumber = (description: string) =>
  Type.Integer({ minimum: 0, maximum: EPOCH_NUMBER_MAX, description });
export const Bytes32 = Type.String({ pattern: '^0x[0-9a-fA-F]{64}$', description: '0x followed by 64 hex characters' });
export const TxHash = Type.String({ pattern: '^0x[0-9a-fA-F]{64}$', description: 'Transaction hash' });
export const CompanyId = Type.String({ minLength: 1, maxLength: 64, description: 'Company id (CUID) or slug' });
