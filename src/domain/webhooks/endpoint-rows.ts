// The webhook tables as an endpoint's owner reads them (never its secrets): the endpoint's row, the columns that
// make it and the reads of an API key's endpoints, then an endpoint's deliveries and attempts. Every write to the
// webhook tables is in store.ts.
import { sql } from 'drizzle-orm';
import { rowsOf, type Tx } from '../../db/client.ts';
import {
  type WebhookDeliveryStatus,
  type WebhookDisabledReason,
  type WebhookEndpointStatus,
  webhookAttempts,
  webhookDeliveries,
  webhookEndpoints,
} from '../../db/schema/webhooks.ts';

export interface EndpointRow {
  id: string;
  apiKeyId: string;
  url: string;
  description: string;
  types: string[] | null;
  companyIds: string[] | null;
  status: WebhookEndpointStatus;
  disabledReason: WebhookDisabledReason | null;
  disabledAt: Date | null;
  failingSince: Date | null;
  createdAt: Date;
}

/** Every column an owner may read (never the secrets). */
export const endpointColumns = sql`id, api_key_id as "apiKeyId", url, description, types, company_ids as "companyIds",
  status, disabled_reason as "disabledReason", disabled_at as "disabledAt", failing_since as "failingSince",
  created_at as "createdAt"`;

export function toEndpoint(row: EndpointRow): EndpointRow {
  const date = (v: Date | string | null) => (v === null ? null : new Date(v));
  return {
    ...row,
    disabledAt: date(row.disabledAt),
    failingSince: date(row.failingSince),
    createdAt: new Date(row.createdAt),
  };
}

export async function countEndpoints(db: Tx, apiKeyId: string): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::integer as n from ${webhookEndpoints} where api_key_id = ${apiKeyId}`),
  );
  return row?.n ?? 0;
}

export async function listEndpoints(db: Tx, apiKeyId: string): Promise<EndpointRow[]> {
  return rowsOf<EndpointRow>(
    await db.execute(
      sql`select ${endpointColumns} from ${webhookEndpoints} where api_key_id = ${apiKeyId} order by seq`,
    ),
  ).map(toEndpoint);
}

/** The endpoint if this key owns it. */
export async function endpointOf(db: Tx, apiKeyId: string, id: string): Promise<EndpointRow | undefined> {
  const [row] = rowsOf<EndpointRow>(
    await db.execute(
      sql`select ${endpointColumns} from ${webhookEndpoints} where id = ${id} and api_key_id = ${apiKeyId}`,
    ),
  );
  return row && toEndpoint(row);
}

export interface DeliveryRow {
  id: string;
  eventId: string;
  eventType: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  nextAttemptAt: Date | null;
  createdAt: Date;
  completedAt: Date | null;
}

/** An endpoint's deliveries, newest first, after the delivery id `before` (exclusive) when given. */
export async function listDeliveries(
  db: Tx,
  endpointId: string,
  before: bigint | undefined,
  limit: number,
): Promise<DeliveryRow[]> {
  return rowsOf<DeliveryRow>(
    await db.execute(sql`
      select id::text as id, event_id::text as "eventId", event_type as "eventType", status, attempts,
        case when status = 'PENDING' then next_attempt_at end as "nextAttemptAt", created_at as "createdAt",
        completed_at as "completedAt"
      from ${webhookDeliveries}
      where endpoint_id = ${endpointId} ${before === undefined ? sql`` : sql`and id < ${before}`}
      order by id desc limit ${limit}`),
  );
}

export interface AttemptRow {
  id: string;
  deliveryId: string;
  eventId: string;
  attempt: number;
  attemptedAt: Date;
  statusCode: number | null;
  latencyMs: number;
  response: string;
  error: string | null;
}

/** An endpoint's attempts (of one delivery when given), newest first, after the attempt id `before` when given. */
export async function listAttempts(
  db: Tx,
  endpointId: string,
  options: { deliveryId?: bigint | undefined; before?: bigint | undefined; limit: number },
): Promise<AttemptRow[]> {
  return rowsOf<AttemptRow>(
    await db.execute(sql`
      select a.id::text as id, a.delivery_id::text as "deliveryId", d.event_id::text as "eventId", a.attempt,
        a.attempted_at as "attemptedAt", a.status_code as "statusCode", a.latency_ms as "latencyMs", a.response,
        a.error
      from ${webhookAttempts} a join ${webhookDeliveries} d on d.id = a.delivery_id
      where ${
        options.deliveryId === undefined
          ? sql`a.endpoint_id = ${endpointId}`
          : sql`a.delivery_id = ${options.deliveryId} and d.endpoint_id = ${endpointId}`
      }
        ${options.before === undefined ? sql`` : sql`and a.id < ${options.before}`}
      order by a.id desc limit ${options.limit}`),
  );
}
