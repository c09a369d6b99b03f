// The bytes of the SSE protocol (docs/api/events.md "Protocol"). Each event's frame is built once and the same buffer is
// written to every stream that wants it.
import type { PlatformEvent } from './store.ts';

/** `id`, `event` and one `data` line (JSON never holds a raw newline), then a blank line. */
export const eventFrame = (event: PlatformEvent): Buffer =>
  Buffer.from(`id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);

/** The first message of every stream. */
export const connectedFrame = (timestamp: string): Buffer =>
  Buffer.from(`event: connected\ndata: ${JSON.stringify({ type: 'connected', timestamp })}\n\n`);

/** A comment line: ignored by SSE clients, it only keeps proxies from closing an idle connection. */
export const PING_FRAME = Buffer.from(': ping\n\n');
