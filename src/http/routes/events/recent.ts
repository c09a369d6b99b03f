// GET /api/events/recent: the newest platform events held, newest first, public and read-only: what the web app's
// activity feed opens on (the stream gives what happens from now on).
import { type Static, Type } from 'typebox';
import { RECENT_EVENTS_MAX } from '../../../constants.ts';
import { readRecentEvents } from '../../../domain/events/store.ts';
import { route } from '../../route.ts';
import { PlatformEventSchema } from '../../schemas/events.ts';

/** GET /api/events/recent: the newest events, for the activity feed to open on. */
export const RecentEventsQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: RECENT_EVENTS_MAX, default: 50 }),
});

const RecentEvents = Type.Array(PlatformEventSchema, { description: 'Newest first' });

export default route({
  url: '/api/events/recent',
  auth: 'none',
  tag: 'events',
  summary: 'The newest platform events held, newest first (public, read-only)',
  description: `What the web app's activity feed opens on before the stream's live events: the newest \`limit\` events still kept (EVENT_BACKFILL_RETENTION_MS). 400 BAD_REQUEST for a limit outside 1-${RECENT_EVENTS_MAX}`,
  query: RecentEventsQuery,
  response: RecentEvents,
  // A stored event's payload is typed by its type only as the schema states it; the serializer checks it.
  load: async (deps, { query }) =>
    (await readRecentEvents(deps.database.db, query.limit)) as Static<typeof RecentEvents>,
});
