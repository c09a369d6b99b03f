// The webhook tables' one writer: endpoints as their owners change them, the fan-out of platform events into
// deliveries, the dispatchers' claim of due deliveries and the record of their attempts, and the purge. What an
// owner reads (an endpoint's row, its deliveries and attempts) is in endpoint-rows.ts. Each dispatcher step is one
// statement over a whole batch (no statement per delivery).
import { sql } from 'drizzle-orm';
import { WEBHOOK_DISABLE_AFTER_MS, WEBHOOK_FANOUT_BATCH, WEBHOOK_LATE_EVENT_WINDOW_MS } from '../../constants.ts';
import { rowsOf, type Tx } from '../../db/client.ts';
import { companies } from '../../db/schema/companies.ts';
import { platformEvents } from '../../db/schema/events.ts';
import {
  type WebhookEndpointStatus,
  webhookAttempts,
  webhookDeliveries,
  webhookEndpoints,
  webhookFanout,
} from '../../db/schema/webhooks.ts';
import { PLATFORM_WIDE_TYPE } from '../events/store.ts';
import { type EndpointRow, endpointColumns, toEndpoint } from './endpoint-rows.ts';

/**
 * Runs a statement whose parameters hold a secret: a failure is rethrown without them (a driver's error names its
 * query's parameters, and errors are logged), keeping only the database's error code.
 */
async function withSecret<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    const e = err as { code?: unknown; cause?: { code?: unknown } };
    const code = e.cause?.code ?? e.code;
    throw new Error(`could not ${what}${typeof code === 'string' ? ` (database error ${code})` : ''}`);
  }
}

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;

export interface NewEndpoint {
  id: string;
  apiKeyId: string;
  url: string;
  description: string;
  secret: string;
  types: string[] | null;
  companyIds: string[] | null;
  now: Date;
}

const textArray = (list: string[] | null) =>
  list === null
    ? sql`null::text[]`
    : sql`array[${sql.join(
        list.map((v) => sql`${v}`),
        sql`, `,
      )}]::text[]`;

/** Inserts an endpoint that receives the events published after the newest one now. */
export async function insertEndpoint(db: Tx, e: NewEndpoint): Promise<EndpointRow> {
  const [row] = rowsOf<EndpointRow>(
    await withSecret('store the webhook endpoint', () =>
      db.execute(sql`
      insert into ${webhookEndpoints} (id, api_key_id, url, description, secret, types, company_ids, start_after, created_at)
      values (${e.id}, ${e.apiKeyId}, ${e.url}, ${e.description}, ${e.secret}, ${textArray(e.types)},
        ${textArray(e.companyIds)}, (select coalesce(max(id), 0) from ${platformEvents}), ${ts(e.now)})
      returning ${endpointColumns}`),
    ),
  );
  return toEndpoint(row!);
}

/** A new secret; the one before keeps signing until `previousUntil`. */
export async function rotateEndpointSecret(
  db: Tx,
  apiKeyId: string,
  id: string,
  secret: string,
  previousUntil: Date,
): Promise<EndpointRow | undefined> {
  const [row] = rowsOf<EndpointRow>(
    await withSecret('rotate the webhook secret', () =>
      db.execute(sql`
      update ${webhookEndpoints} set previous_secret = secret, previous_secret_until = ${ts(previousUntil)},
        secret = ${secret}
      where id = ${id} and api_key_id = ${apiKeyId}
      returning ${endpointColumns}`),
    ),
  );
  return row && toEndpoint(row);
}

/**
 * Disables an endpoint (its pending deliveries end FAILED), or enables it again: it then receives the events
 * published from now on, and its failure clock starts over.
 */
export async function setEndpointStatus(
  db: Tx,
  apiKeyId: string,
  id: string,
  status: WebhookEndpointStatus,
  now: Date,
): Promise<EndpointRow | undefined> {
  const rows = rowsOf<EndpointRow>(
    await db.execute(
      status === 'DISABLED'
        ? sql`
          with w as (
            update ${webhookEndpoints} set status = 'DISABLED',
              disabled_reason = case when status = 'DISABLED' then disabled_reason else 'OWNER' end,
              disabled_at = case when status = 'DISABLED' then disabled_at else ${ts(now)} end
            where id = ${id} and api_key_id = ${apiKeyId}
            returning ${endpointColumns}
          ), d as (
            update ${webhookDeliveries} set status = 'FAILED', completed_at = ${ts(now)}
            where endpoint_id in (select id from w) and status = 'PENDING'
          )
          select * from w`
        : sql`
          update ${webhookEndpoints} set status = 'ACTIVE', disabled_reason = null, disabled_at = null,
            failing_since = null,
            start_after = case when status = 'ACTIVE' then start_after
              else (select coalesce(max(id), 0) from ${platformEvents}) end
          where id = ${id} and api_key_id = ${apiKeyId}
          returning ${endpointColumns}`,
    ),
  );
  return rows[0] && toEndpoint(rows[0]);
}

/**
 * One fan-out pass: the events after `scannedThrough` (WEBHOOK_FANOUT_BATCH at most) and those read before but not
 * yet settled, each made into a delivery for every active endpoint whose filters it passes and which does not have
 * it yet. Returns how many deliveries it made and how many new events it read (a full batch: run again).
 */
export async function fanOutEvents(db: Tx, now: Date): Promise<{ deliveries: number; events: number }> {
  await db.execute(sql`
    insert into ${webhookFanout} (id, scanned_through, settled_through, mark_through, mark_at)
    select 1, m.id, m.id, m.id, ${ts(now)} from (select coalesce(
      (select min(start_after) from ${webhookEndpoints} where status = 'ACTIVE'),
      (select max(id) from ${platformEvents}), 0) as id) m
    on conflict (id) do nothing`);
  const late = new Date(now.getTime() - WEBHOOK_LATE_EVENT_WINDOW_MS);
  const [row] = rowsOf<{ deliveries: number; events: number }>(
    await db.execute(sql`
      with f as (select * from ${webhookFanout} where id = 1),
      fresh as (
        select e.id from ${platformEvents} e, f where e.id > f.scanned_through order by e.id limit ${WEBHOOK_FANOUT_BATCH}
      ),
      through as (select coalesce((select max(id) from fresh), (select scanned_through from f)) as id),
      scan as (
        select e.* from ${platformEvents} e, f, through
        where e.id > f.settled_through and e.id <= through.id
      ),
      made as (
        insert into ${webhookDeliveries} (endpoint_id, event_id, event_type, body, next_attempt_at, created_at)
        select w.id, e.id, e.type,
          json_build_object('id', e.id::text, 'type', e.type, 'companyId', e.company_id, 'companySlug', c.slug,
            'data', e.data,
            'timestamp', to_char(e.timestamp at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text,
          ${ts(now)}, ${ts(now)}
        from scan e join ${webhookEndpoints} w on w.status = 'ACTIVE' and e.id > w.start_after
          and (w.types is null or e.type = any(w.types))
          and (w.company_ids is null or e.company_id = any(w.company_ids) or e.type = ${PLATFORM_WIDE_TYPE})
        -- The slug beside the id, as the stream sends it: joined once in this statement.
        left join ${companies} c on c.id = e.company_id
        order by e.id
        on conflict (endpoint_id, event_id) do nothing
        returning 1
      ),
      moved as (
        update ${webhookFanout} u set scanned_through = through.id,
          settled_through = case when u.mark_at <= ${ts(late)} then greatest(u.settled_through, u.mark_through)
            else u.settled_through end,
          mark_through = case when u.mark_at <= ${ts(late)} then through.id else u.mark_through end,
          mark_at = case when u.mark_at <= ${ts(late)} then ${ts(now)} else u.mark_at end
        from through where u.id = 1
        returning 1
      )
      select (select count(*)::integer from made) as deliveries, (select count(*)::integer from fresh) as events,
        (select count(*)::integer from moved) as moved`),
  );
  return { deliveries: row?.deliveries ?? 0, events: row?.events ?? 0 };
}

/** A claimed delivery with what its attempt needs. */
export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  eventId: string;
  body: string;
  /** This attempt's number, from 1. */
  attempt: number;
  url: string;
  secrets: string[];
}

/**
 * Claims up to `limit` due deliveries of active endpoints: each one's next attempt is pushed to the end of the lease
 * (so a dispatcher that dies leaves it to be tried again then), and rows another dispatcher is claiming are skipped.
 */
export async function claimDueDeliveries(
  db: Tx,
  now: Date,
  limit: number,
  leaseMs: number,
): Promise<ClaimedDelivery[]> {
  const rows = rowsOf<{
    id: string;
    endpointId: string;
    eventId: string;
    body: string;
    attempt: number;
    url: string;
    secret: string;
    previousSecret: string | null;
  }>(
    await db.execute(sql`
      with due as (
        select d.id from ${webhookDeliveries} d join ${webhookEndpoints} w on w.id = d.endpoint_id
        where d.status = 'PENDING' and d.next_attempt_at <= ${ts(now)} and w.status = 'ACTIVE'
        order by d.next_attempt_at
        limit ${limit}
        for update of d skip locked
      )
      update ${webhookDeliveries} d set attempts = d.attempts + 1,
        next_attempt_at = ${ts(new Date(now.getTime() + leaseMs))}
      from due, ${webhookEndpoints} w
      where d.id = due.id and w.id = d.endpoint_id
      returning d.id::text as id, d.endpoint_id as "endpointId", d.event_id::text as "eventId", d.body,
        d.attempts as attempt, w.url, w.secret,
        case when w.previous_secret_until > ${ts(now)} then w.previous_secret end as "previousSecret"`),
  );
  return rows.map(({ secret, previousSecret, ...r }) => ({
    ...r,
    secrets: previousSecret ? [secret, previousSecret] : [secret],
  }));
}

export interface AttemptRecord {
  deliveryId: string;
  endpointId: string;
  attempt: number;
  attemptedAt: Date;
  statusCode: number | null;
  latencyMs: number;
  response: string;
  error: string | null;
  /** When to try again after a failure; null when this was the last attempt (or it succeeded). */
  nextAttemptAt: Date | null;
}

/**
 * Records a batch of attempts in one statement: the attempts, their deliveries' outcome, and each endpoint's
 * failure clock, disabling an endpoint that failed every attempt for WEBHOOK_DISABLE_AFTER_MS (its pending
 * deliveries end FAILED). Returns the ids of the endpoints it disabled.
 */
export async function recordAttempts(db: Tx, now: Date, records: readonly AttemptRecord[]): Promise<string[]> {
  if (records.length === 0) return [];
  const values = sql.join(
    records.map(
      (r) => sql`(${r.deliveryId}::bigint, ${r.endpointId}::text, ${r.attempt}::integer,
        ${r.attemptedAt.toISOString()}::timestamptz, ${r.statusCode}::integer, ${r.latencyMs}::integer,
        ${r.response}::text, ${r.error}::text, ${r.error === null}::boolean,
        ${r.nextAttemptAt?.toISOString() ?? null}::timestamptz)`,
    ),
    sql`, `,
  );
  const disableBefore = new Date(now.getTime() - WEBHOOK_DISABLE_AFTER_MS);
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`
      with r (delivery_id, endpoint_id, attempt, attempted_at, status_code, latency_ms, response, error, ok, next_at)
        as (values ${values}),
      a as (
        insert into ${webhookAttempts} (delivery_id, endpoint_id, attempt, attempted_at, status_code, latency_ms,
          response, error)
        select delivery_id, endpoint_id, attempt, attempted_at, status_code, latency_ms, response, error from r
      ),
      d as (
        update ${webhookDeliveries} d set
          status = case when r.ok then 'SUCCEEDED' when r.next_at is null then 'FAILED' else 'PENDING' end,
          next_attempt_at = coalesce(r.next_at, d.next_attempt_at),
          completed_at = case when r.ok or r.next_at is null then ${ts(now)} end
        from r where d.id = r.delivery_id and d.status = 'PENDING'
      ),
      e as (select endpoint_id, bool_or(ok) as any_ok, min(attempted_at) as first_at from r group by endpoint_id),
      w as (
        update ${webhookEndpoints} w set
          failing_since = case when e.any_ok then null else coalesce(w.failing_since, e.first_at) end,
          status = case when not e.any_ok and w.failing_since <= ${ts(disableBefore)} then 'DISABLED' else w.status end,
          disabled_reason = case when not e.any_ok and w.failing_since <= ${ts(disableBefore)} then 'FAILING'
            else w.disabled_reason end,
          disabled_at = case when not e.any_ok and w.failing_since <= ${ts(disableBefore)} then ${ts(now)}
            else w.disabled_at end
        from e where w.id = e.endpoint_id and w.status = 'ACTIVE'
        returning w.id, w.status
      )
      select id from w where status = 'DISABLED'`),
  );
  const disabled = rows.map((r) => r.id);
  if (disabled.length > 0) {
    await db.execute(sql`
      update ${webhookDeliveries} set status = 'FAILED', completed_at = ${ts(now)}
      where endpoint_id in (${sql.join(
        disabled.map((id) => sql`${id}`),
        sql`, `,
      )}) and status = 'PENDING'`);
  }
  return disabled;
}

/** Deletes finished deliveries (and their attempts) completed before `before`. */
export async function purgeWebhookDeliveries(db: Tx, before: Date): Promise<number> {
  const rows = rowsOf<{ n: number }>(
    await db.execute(sql`
      with gone as (delete from ${webhookDeliveries} where completed_at < ${ts(before)} returning 1)
      select count(*)::integer as n from gone`),
  );
  return rows[0]?.n ?? 0;
}
