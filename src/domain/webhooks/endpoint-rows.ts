// A webhook endpoint as its owner reads it (never its secrets): the row, the columns that make it, and the reads of
// an API key's endpoints. Every write to the webhook tables is in store.ts.
import { sql } from 'drizzle-orm';
import { rowsOf, type Tx } from '../../db/client.ts';
import { type WebhookDisabledReason, type WebhookEndpointStatus, webhookEndpoints } from '../../db/schema/webhooks.ts';

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
