// The bytes of the SSE protocol (docs/api/events.md "Protocol"). Each event's frame is built once and the same buffer is
// written to every stream that wants it.
import type { PlatformEvent } from '../../domain/events/store.ts';

/**
 * `id`, `event` and one `data` line (JSON never holds a raw newline), then a blank line. The `id` field is where to
 * resume (`resumeId`, the reader's low-water mark): the event's own id, unless an earlier id is still missing and may
 * commit late; then the id below it, and a resume sends again what came after it (the client drops repeats by the
 * event's `id` in `data`).
 */
export const eventFrame = (event: PlatformEvent, resumeId: bigint = BigInt(event.id)): Buffer =>
  Buffer.from(`id: ${resumeId}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);

/**
 * The first message of every stream: the reconnection delay, and the id to resume from (the last event this stream
 * is caught up to), so a client that is cut off before any event arrives resumes without a gap.
 */
export const connectedFrame = (timestamp: string, resumeId: bigint, retryMs: number): Buffer =>
  Buffer.from(
    `retry: ${retryMs}\nid: ${resumeId}\nevent: connected\ndata: ${JSON.stringify({ type: 'connected', timestamp })}\n\n`,
  );

/** A comment line: ignored by SSE clients, it only keeps proxies from closing an idle connection. */
export const PING_FRAME = Buffer.from(': ping\n\n');
