// Webhooks (docs/api/webhooks.md): the endpoints an API key registers, one delivery per endpoint and platform event
// (its body fixed when it is made, so every attempt sends the same bytes), each attempt of a delivery, and how far
// the fan-out has read the event log. Deliveries outlive the event log's retention: retries last over three days.
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { apiKeys } from './auth.ts';

export const WEBHOOK_ENDPOINT_STATUSES = ['ACTIVE', 'DISABLED'] as const;
export type WebhookEndpointStatus = (typeof WEBHOOK_ENDPOINT_STATUSES)[number];
/** Why an endpoint is disabled: its owner asked, or it failed every delivery for WEBHOOK_DISABLE_AFTER_MS. */
export const WEBHOOK_DISABLED_REASONS = ['OWNER', 'FAILING'] as const;
export type WebhookDisabledReason = (typeof WEBHOOK_DISABLED_REASONS)[number];
export const WEBHOOK_DELIVERY_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

const oneOf = (column: string, values: readonly string[]) =>
  sql.raw(`${column} in (${values.map((v) => `'${v}'`).join(', ')})`);

export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    /** `whe_` and random characters. */
    id: text('id').primaryKey(),
    /** The API key that owns it: only requests with that key see or change it. */
    apiKeyId: text('api_key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    /**
     * The signing secret, `whsec_<base64>`. Kept in clear: each delivery is signed with it (an HMAC needs the key
     * itself); it is answered only by the creation and the rotation, and never logged.
     */
    secret: text('secret').notNull(),
    /** The secret before the last rotation, which also signs deliveries until `previousSecretUntil`. */
    previousSecret: text('previous_secret'),
    previousSecretUntil: timestamp('previous_secret_until', { withTimezone: true, mode: 'date' }),
    /** The stream's `types` filter; null for every type. */
    types: text('types').array(),
    /** The stream's `companies` filter, resolved to company ids; null for every company. */
    companyIds: text('company_ids').array(),
    status: text('status').$type<WebhookEndpointStatus>().notNull().default('ACTIVE'),
    disabledReason: text('disabled_reason').$type<WebhookDisabledReason>(),
    disabledAt: timestamp('disabled_at', { withTimezone: true, mode: 'date' }),
    /** Since when every attempt failed (the first failure after the last success); null while it succeeds. */
    failingSince: timestamp('failing_since', { withTimezone: true, mode: 'date' }),
    /** Events up to this id were published before the endpoint existed (or was enabled again): not delivered. */
    startAfter: bigint('start_after', { mode: 'bigint' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** Creation order within one tick of the clock. */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity().notNull(),
  },
  (t) => [
    check('webhook_endpoints_status_check', oneOf('status', WEBHOOK_ENDPOINT_STATUSES)),
    check('webhook_endpoints_disabled_reason_check', oneOf('disabled_reason', WEBHOOK_DISABLED_REASONS)),
    // An owner's list, in creation order.
    index('webhook_endpoints_api_key_idx').on(t.apiKeyId, t.seq),
    // The fan-out joins events with the active endpoints only.
    index('webhook_endpoints_active_idx')
      .on(t.status)
      .where(sql`${t.status} = 'ACTIVE'`),
  ],
);

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    /** The platform event's id: the `webhook-id` header, the receiver's idempotency key. */
    eventId: bigint('event_id', { mode: 'bigint' }).notNull(),
    eventType: text('event_type').notNull(),
    /** The JSON body every attempt sends. */
    body: text('body').notNull(),
    status: text('status').$type<WebhookDeliveryStatus>().notNull().default('PENDING'),
    attempts: integer('attempts').notNull().default(0),
    /** When the next attempt is due (PENDING); while an attempt runs, the end of its lease. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    check('webhook_deliveries_status_check', oneOf('status', WEBHOOK_DELIVERY_STATUSES)),
    // One delivery per endpoint and event, however often the fan-out reads the event again.
    uniqueIndex('webhook_deliveries_endpoint_event_idx').on(t.endpointId, t.eventId),
    // The dispatchers' claim: due PENDING deliveries, oldest due first.
    index('webhook_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'PENDING'`),
    // An endpoint's deliveries, newest first.
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.id),
    // The purge of finished deliveries.
    index('webhook_deliveries_completed_idx')
      .on(t.completedAt)
      .where(sql`${t.completedAt} is not null`),
  ],
);

export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    deliveryId: bigint('delivery_id', { mode: 'bigint' })
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    endpointId: text('endpoint_id').notNull(),
    /** 1 for the first attempt of its delivery. */
    attempt: integer('attempt').notNull(),
    attemptedAt: timestamp('attempted_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** The receiver's HTTP status; null when none came (refused target, timeout, network error). */
    statusCode: integer('status_code'),
    latencyMs: integer('latency_ms').notNull(),
    /** The first bytes of the receiver's answer (WEBHOOK_RESPONSE_PREFIX_BYTES), as text. */
    response: text('response').notNull().default(''),
    /** What went wrong when no status came, or the status was not 2xx. */
    error: text('error'),
  },
  (t) => [
    // A delivery's attempts, and an endpoint's, newest first.
    index('webhook_attempts_delivery_idx').on(t.deliveryId, t.id),
    index('webhook_attempts_endpoint_idx').on(t.endpointId, t.id),
  ],
);

/**
 * How far the fan-out has read the event log (one row). Every event up to `scannedThrough` has been read; those after
 * `settledThrough` are read again by each pass, since an id taken early may commit late. `markThrough` is the
 * `scannedThrough` of `markAt`: once WEBHOOK_LATE_EVENT_WINDOW_MS old it becomes `settledThrough`, so every id read
 * again was taken less than twice that window ago (docs/api/webhooks.md "Delivery").
 */
export const webhookFanout = pgTable(
  'webhook_fanout',
  {
    id: smallint('id').primaryKey().default(1),
    scannedThrough: bigint('scanned_through', { mode: 'bigint' }).notNull(),
    settledThrough: bigint('settled_through', { mode: 'bigint' }).notNull(),
    markThrough: bigint('mark_through', { mode: 'bigint' }).notNull(),
    markAt: timestamp('mark_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [check('webhook_fanout_one_row', sql`${t.id} = 1`)],
);
