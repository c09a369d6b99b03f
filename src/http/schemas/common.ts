// Schemas shared by every area: envelopes, errors, pagination, addresses and enums.
import { type TSchema, Type } from 'typebox';
import { ADDRESS_FORMAT, ADDRESS_PATTERN, ADDRESS_RULE } from '../../address.ts';
import { PAGE_MAX } from '../../constants.ts';
import { ERROR_CODES } from '../../errors.ts';
import { CURSOR_MAX_LENGTH, CURSOR_PATTERN } from '../../page-cursor.ts';

/** A string enum rendered as `{ type: string, enum }`, which reads well in OpenAPI and in error messages. */
export const StringEnum = <const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });

/**
 * An enum of an answer that may grow (docs/api/README.md "Stability": new values may come): the known values for
 * documentation and generated types, and any other string accepted, so a client built today keeps working.
 */
export const OpenEnum = <const T extends readonly string[]>(values: T, description: string) =>
  Type.Unsafe<T[number]>({
    anyOf: [{ type: 'string', enum: [...values] }, { type: 'string' }],
    description: `${description}; new values may be added, so treat an unknown one as its family's default`,
  });

export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

export const IsoTimestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC timestamp' });
export const WeiString = Type.String({ pattern: '^[0-9]+$', description: 'Decimal string of a whole-number amount' });
/**
 * Every address a route accepts or returns: the pattern gives the form, and the format (checked by the request
 * validator with `parseAddress`) refuses mixed case with a wrong EIP-55 checksum.
 */
export const AddressString = Type.String({
  pattern: ADDRESS_PATTERN.source,
  format: ADDRESS_FORMAT,
  description: `Ethereum address: ${ADDRESS_RULE}`,
});

/** An address the service answers (EIP-55 checksummed, or lowercase where a field says so): its form as a pattern. */
export const AddressOut = (description = 'Checksummed address') =>
  Type.String({ pattern: ADDRESS_PATTERN.source, description });
/** A transaction or block hash, or another 32-byte hex value, as the service answers it. */
export const Hash32 = (description: string) => Type.String({ pattern: '^0x[0-9a-fA-F]{64}$', description });

export const ErrorBody = Type.Object({
  code: OpenEnum(ERROR_CODES, 'What went wrong, for programs (the status says its family)'),
  message: Type.String(),
  details: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }))),
});

export const InternalError = Type.Object({ success: Type.Literal(false), error: ErrorBody }, { $id: 'InternalError' });
export const V1Error = Type.Object(
  { error: ErrorBody, meta: Type.Object({ timestamp: IsoTimestamp }) },
  { $id: 'V1Error' },
);
export const BareError = Type.Object({ error: Type.String() }, { $id: 'BareError' });

export const Meta = Type.Object({ timestamp: IsoTimestamp });
export const Pagination = Type.Object({
  page: Type.Integer(),
  limit: Type.Integer(),
  total: Type.Integer(),
  hasMore: Type.Boolean(),
  nextCursor: Type.Optional(
    Nullable(
      Type.String({
        description:
          'Lists that page by cursor: pass it as `cursor` for the items after this page, stable under inserts (also in the `Link` header, rel="next"); null on the last page',
      }),
    ),
  ),
});

export const internalOk = <T extends TSchema>(data: T) => Type.Object({ success: Type.Literal(true), data });
export const v1Ok = <T extends TSchema>(data: T) => Type.Object({ data, meta: Meta });
export const v1List = <T extends TSchema>(item: T) =>
  Type.Object({ data: Type.Array(item), pagination: Pagination, meta: Meta });

const errorRef = (id: string) => Type.Unsafe({ $ref: `${id}#` });
/** Documented error responses of an internal route (4xx and 5xx share the envelope). */
export const internalErrors = { '4xx': errorRef('InternalError'), '5xx': errorRef('InternalError') };
export const v1Errors = { '4xx': errorRef('V1Error'), '5xx': errorRef('V1Error') };
export const bareErrors = { '4xx': errorRef('BareError') };

export const PageQuery = (defaultLimit: number, maxLimit: number) => ({
  page: Type.Integer({ minimum: 1, maximum: PAGE_MAX, default: 1 }),
  limit: Type.Integer({ minimum: 1, maximum: maxLimit, default: defaultLimit }),
});

/** The `cursor` parameter of a list that pages by cursor (src/page-cursor.ts), with what it means for that list. */
export const CursorQuery = (description: string) => ({
  cursor: Type.Optional(
    Type.String({ minLength: 1, maxLength: CURSOR_MAX_LENGTH, pattern: CURSOR_PATTERN, description }),
  ),
});

/**
 * A wallet path parameter a route parses itself: the pattern documents the accepted form, and the route decides with
 * `parseAddress` (form, then checksum) so that every bad wallet answers 400 BAD_REQUEST, as docs/api/README.md
 * "Errors" says, not an ajv VALIDATION_ERROR.
 */
export const WalletParams = Type.Object({
  wallet: Type.String({
    pattern: ADDRESS_PATTERN.source,
    format: ADDRESS_FORMAT,
    description:
      'Wallet address: 0x followed by 40 hex characters, all lowercase, all uppercase or EIP-55 checksummed (mixed case with a wrong checksum is refused)',
    examples: ['0x70997970C51812dc3A010C7d01b50e0d17dc79C8'],
  }),
});
