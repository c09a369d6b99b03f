// A stream's sink for tests that open streams on an event hub without a socket: it keeps every chunk written, never
// buffers, and is always drained.
import type { EventSink } from '../../src/http/events/hub.ts';

export function recordingSink(): EventSink & { text: () => string } {
  const chunks: string[] = [];
  return {
    write: (b) => {
      chunks.push(b.toString());
    },
    buffered: 0,
    cork() {},
    uncork() {},
    end() {},
    destroy() {},
    drainedTo: async () => true,
    text: () => chunks.join(''),
  };
}
