// What the webhook routes share: an endpoint named in a path, an endpoint as they answer it, the decimal ids of
// deliveries and attempts, and their lists' pages by cursor, newest first.
import { Type } from 'typebox';
import { EVENT_TYPES, WEBHOOK_PAGE_DEFAULT, WEBHOOK_PAGE_MAX } from '../../../constants.ts';
import { WEBHOOK_DISABLED_REASONS, WEBHOOK_ENDPOINT_STATUSES } from '../../../db/schema/webhooks.ts';
import { validationError } from '../../../errors.ts';
import { decodeCursor, encodeCursor } from '../../../page-cursor.ts';
import { CursorQuery, IsoTimestamp, Nullable, StringEnum } from '../../schemas/common.ts';

const EndpointId = Type.String({ pattern: '^whe_[A-Za-z0-9_-]{1,60}$', description: 'Webhook endpoint id' });
export const DecimalId = (description: string) => Type.String({ pattern: '^[0-9]{1,19}$', description });

export const WebhookParams = Type.Object({ id: EndpointId });

const endpointProperties = {
  id: EndpointId,
  url: Type.String(),
  description: Type.String(),
  types: Nullable(Type.Array(StringEnum(EVENT_TYPES))),
  companies: Nullable(Type.Array(Type.String(), { description: 'Company ids' })),
  status: StringEnum(WEBHOOK_ENDPOINT_STATUSES),
  disabledReason: Nullable(
    StringEnum(WEBHOOK_DISABLED_REASONS, {
      description:
        'OWNER: disabled by its owner; FAILING: every delivery failed for 5 days, so the platform disabled it',
    }),
  ),
  disabledAt: Nullable(IsoTimestamp),
  failingSince: Nullable({ ...IsoTimestamp, description: 'Since when every attempt failed; null while it succeeds' }),
  createdAt: IsoTimestamp,
};
export const WebhookEndpoint = Type.Object(endpointProperties);
export const WebhookEndpointWithSecret = Type.Object({
  ...endpointProperties,
  secret: Type.String({
    pattern: '^whsec_[A-Za-z0-9+/=]+$',
    description: 'The signing secret (Standard Webhooks `whsec_<base64>`): shown once, here',
  }),
});

export const WebhookPageQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: WEBHOOK_PAGE_MAX, default: WEBHOOK_PAGE_DEFAULT }),
  ...CursorQuery('`pagination.nextCursor` of the page before: the older items after it'),
});

/** The id a cursor of these lists holds: the last item's id, decimal. */
export function beforeOf(cursor: string | undefined): bigint | undefined {
  if (cursor === undefined) return undefined;
  const [id] = decodeCursor(cursor, 1);
  if (!/^[0-9]{1,18}$/.test(id!))
    throw validationError('query.cursor', 'is not a cursor this list gave (pagination.nextCursor)');
  return BigInt(id!);
}

/** A page of items newest first: `limit + 1` were read, so whether more follow is known exactly. */
export function cursorPage<T extends { id: string }>(rows: T[], limit: number) {
  const data = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  const nextCursor = hasMore ? encodeCursor([data.at(-1)!.id]) : null;
  return { data, pagination: { page: 1, limit, total: data.length, hasMore, nextCursor } };
}
