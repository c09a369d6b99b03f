// The webhooks role (docs/api/webhooks.md "Delivery"): each process of the role runs passes that fan new platform
// events out into deliveries (one process at a time, under an advisory lock) and then claim due deliveries with
// SKIP LOCKED, send them at once, and record every attempt in one statement. Several processes share the work
// without sending a delivery twice at once; a process that dies leaves its claims to be tried again when their lease
// ends (at least once: the receiver drops repeats by `webhook-id`).
import { sql } from 'drizzle-orm';
import { WEBHOOK_CLAIM_BATCH, WEBHOOK_FANOUT_BATCH, WEBHOOK_RETRY_DELAYS_MS } from '../../constants.ts';
import { rowsOf } from '../../db/client.ts';
import type { Deps } from '../deps.ts';
import { sendWebhook } from './send.ts';
import { webhookHeaders } from './signing.ts';
import { type AttemptRecord, claimDueDeliveries, fanOutEvents, recordAttempts } from './store.ts';

export type WebhookDeps = Pick<Deps, 'database' | 'config' | 'now'>;

export interface PassLogger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface PassResult {
  /** Deliveries made from events. */
  queued: number;
  /** Attempts sent. */
  attempted: number;
  /** Endpoints disabled for failing too long. */
  disabled: string[];
  /** A batch was full: run again at once. */
  more: boolean;
}

/** The pause before the next attempt after attempt `attempt` failed (with a tenth of jitter), or null: no more. */
export function retryDelayMs(attempt: number, random = Math.random): number | null {
  const base = WEBHOOK_RETRY_DELAYS_MS[attempt - 1];
  return base === undefined ? null : Math.round(base * (0.95 + random() * 0.1));
}

/** Fan-out under the lock, so two processes never read the same events at once; PGlite has one process. */
async function fanOut(deps: WebhookDeps, now: Date): Promise<{ deliveries: number; events: number }> {
  const { database } = deps;
  if (database.kind === 'pglite') return fanOutEvents(database.db, now);
  return database.db.transaction(async (tx) => {
    const [row] = rowsOf<{ locked: boolean }>(
      await tx.execute(sql`select pg_try_advisory_xact_lock(hashtext('webhook-fanout')) as locked`),
    );
    if (!row?.locked) return { deliveries: 0, events: 0 };
    return fanOutEvents(tx, now);
  });
}

/** One pass: fan out, claim what is due, send, record. */
export async function runWebhookPass(deps: WebhookDeps, log?: PassLogger): Promise<PassResult> {
  const { config } = deps;
  const db = deps.database.db;
  const fanned = await fanOut(deps, new Date(deps.now()));
  const limit = Math.min(WEBHOOK_CLAIM_BATCH, config.webhookConcurrency);
  // The lease outlasts an attempt's timeout, so a live dispatcher always records before anyone else may claim.
  const leaseMs = config.webhookTimeoutMs + 30_000;
  const claimed = await claimDueDeliveries(db, new Date(deps.now()), limit, leaseMs);
  const records = await Promise.all(
    claimed.map(async (d): Promise<AttemptRecord> => {
      const attemptedAt = new Date(deps.now());
      const headers = webhookHeaders(d.secrets, d.eventId, Math.floor(attemptedAt.getTime() / 1000), d.body);
      const result = await sendWebhook(d.url, headers, d.body, {
        timeoutMs: config.webhookTimeoutMs,
        allowLoopback: config.webhookAllowLoopback,
      });
      const delay = result.error === null ? null : retryDelayMs(d.attempt);
      return {
        deliveryId: d.id,
        endpointId: d.endpointId,
        attempt: d.attempt,
        attemptedAt,
        ...result,
        nextAttemptAt: delay === null ? null : new Date(deps.now() + delay),
      };
    }),
  );
  const disabled = await recordAttempts(db, new Date(deps.now()), records);
  for (const id of disabled)
    log?.info({ endpoint: id }, 'webhook endpoint disabled: it failed every delivery for days');
  return {
    queued: fanned.deliveries,
    attempted: records.length,
    disabled,
    more: fanned.events >= WEBHOOK_FANOUT_BATCH || claimed.length >= limit,
  };
}

/** The role's loop: a pass every WEBHOOK_POLL_MS, or at once after a full one. */
export function startWebhookDispatcher(deps: WebhookDeps, log: PassLogger): { stop(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let wakeUp: (() => void) | undefined;
  const loop = (async () => {
    while (!stopped) {
      let more = false;
      try {
        more = (await runWebhookPass(deps, log)).more;
      } catch (err) {
        log.error({ err }, 'webhook pass failed; trying again');
      }
      if (stopped || more) continue;
      await new Promise<void>((resolve) => {
        wakeUp = resolve;
        timer = setTimeout(resolve, deps.config.webhookPollMs);
      });
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      wakeUp?.();
      await loop;
    },
  };
}
