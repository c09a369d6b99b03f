// Schemas of GET /api/v1/events: the filters, the resume point, and the platform event (for the OpenAPI document;
// the stream itself is written by the route, not serialized).
import { Type } from 'typebox';
import { EVENT_TYPES, SSE_FILTER_COMPANIES_MAX, SSE_FILTER_RAW_MAX } from '../../constants.ts';
import { EVENT_ID_PATTERN } from '../../domain/events/filters.ts';
import { IsoTimestamp, StringEnum } from './common.ts';

const EventId = (description: string) => Type.String({ pattern: EVENT_ID_PATTERN, description });

export const EventsQuery = Type.Object({
  companies: Type.Optional(
    Type.String({
      maxLength: SSE_FILTER_RAW_MAX,
      description: `Comma-separated company slugs or ids (at most ${SSE_FILTER_COMPANIES_MAX}); every one must name a company. All companies when absent`,
    }),
  ),
  types: Type.Optional(
    Type.String({
      maxLength: SSE_FILTER_RAW_MAX,
      description: `Comma-separated event types: ${EVENT_TYPES.join(', ')}. All types when absent`,
    }),
  ),
  api_key: Type.Optional(Type.String({ description: 'The API key, for clients that cannot send x-api-key' })),
  lastEventId: Type.Optional(
    EventId('Resume after this event id, for EventSource clients that cannot send Last-Event-ID'),
  ),
});

export const EventsHeaders = Type.Object({
  'last-event-id': Type.Optional(
    EventId('Resume after this event id: the retained events after it are sent first, then live ones'),
  ),
});

/** docs/api/events.md "Platform event": what each event's `data:` line holds. */
export const PlatformEventSchema = Type.Object(
  {
    id: Type.String({ description: 'Decimal string of the event sequence; ordered' }),
    type: StringEnum(EVENT_TYPES),
    companyId: Type.String(),
    data: Type.Object({}, { additionalProperties: true, description: 'Payload of the type (docs/api/events.md)' }),
    timestamp: IsoTimestamp,
  },
  { description: 'The JSON of the `data:` line of each event; the `connected` message holds { type, timestamp }' },
);

export const EventStreamResponse = {
  description:
    'A text/event-stream: first `event: connected` with `data: {"type":"connected","timestamp"}`, then each platform event as `id: <id>`, `event: <type>`, `data: <JSON PlatformEvent>` and a blank line; a `: ping` comment after SSE_HEARTBEAT_MS (30 s) of silence',
  content: { 'text/event-stream': { schema: PlatformEventSchema } },
};
