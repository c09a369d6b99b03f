// The platform event log behind GET /api/v1/events. Ids come from a sequence, so they are ordered and a stream
// resumes after `Last-Event-ID`; rows older than the retention are deleted by the purge-events job.
import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, jsonb, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { EVENT_TYPES, type EventType } from '../../constants.ts';

export const platformEvents = pgTable(
  'platform_events',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    type: text('type').$type<EventType>().notNull(),
    /** No foreign key: the log only records what happened, and rows live no longer than the retention. */
    companyId: text('company_id').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    timestamp: timestamp('timestamp', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    check('platform_events_type_check', sql.raw(`type in (${EVENT_TYPES.map((x) => `'${x}'`).join(', ')})`)),
    // Resuming a stream filtered to a few companies reads only their rows after the given id.
    index('platform_events_company_id_idx').on(t.companyId, t.id),
    // The retention purge.
    index('platform_events_timestamp_idx').on(t.timestamp),
    // A chain log's latest `trade` event (announced, or told removed by a reorg): src/domain/tokens/announced.ts.
    index('platform_events_trade_log_idx')
      .on(sql`(${t.data}->>'txHash')`, sql`(${t.data}->>'logIndex')`, t.id)
      .where(sql`${t.type} = 'trade'`),
  ],
);

/**
 * How far the retention purge has gone: the highest event id it ever deleted (one row). A resume or a backfill from
 * an id below it has lost events, which the API says (410 EVENTS_EXPIRED) instead of skipping them silently: ids
 * have gaps of their own (a rolled-back publish), so the oldest id still held cannot tell a loss from a gap.
 */
export const platformEventPurges = pgTable(
  'platform_event_purges',
  {
    id: smallint('id').primaryKey().default(1),
    purgedThrough: bigint('purged_through', { mode: 'bigint' }).notNull(),
    purgedAt: timestamp('purged_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [check('platform_event_purges_one_row', sql`${t.id} = 1`)],
);
