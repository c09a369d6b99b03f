// An SSE client for the tests: node:http over loopback (one connection per stream, closed with it: fetch would keep
// a spare keep-alive connection that holds a closing server for seconds) and eventsource-parser, keeping every
// message and comment with the time it arrived, so tests can wait for messages and measure latency.
import http from 'node:http';
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface ReceivedMessage extends EventSourceMessage {
  receivedAt: number;
}

export interface SseStream {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The JSON body of a refused request. */
  body: any;
  messages: ReceivedMessage[];
  comments: string[];
  /** When each comment arrived (Date.now()). */
  commentTimes: number[];
  /** The last `retry:` field received, in ms. */
  retry: number | undefined;
  /** Resolves when the server ends the stream (or the connection is lost). */
  ended: Promise<void>;
  isEnded(): boolean;
  /** Waits until `count` messages matching `match` have arrived; returns them. */
  waitFor(count: number, match?: (m: ReceivedMessage) => boolean, timeoutMs?: number): Promise<ReceivedMessage[]>;
  /** The platform events received (every message but `connected`), data parsed. */
  events(): { id: string; event: string; data: any; receivedAt: number }[];
  close(): void;
}

export async function openStream(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const req = http.get(url, { agent: false, headers: { accept: 'text/event-stream', ...headers } });
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
    req.once('response', resolve);
    req.once('error', reject);
  });
  req.on('error', () => {}); // a reset after the response started ends the stream
  const messages: ReceivedMessage[] = [];
  const comments: string[] = [];
  const commentTimes: number[] = [];
  let retry: number | undefined;
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const w of [...waiters]) w();
  };
  let ended = false;
  let body: unknown;
  const endedPromise = new Promise<void>((resolve) => {
    res.once('close', () => {
      ended = true;
      notify();
      resolve();
    });
  });
  res.setEncoding('utf8');
  if (res.statusCode !== 200) {
    let text = '';
    res.on('data', (chunk: string) => {
      text += chunk;
    });
    await endedPromise;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  } else {
    const parser = createParser({
      onEvent: (m) => {
        messages.push({ ...m, receivedAt: Date.now() });
        notify();
      },
      onComment: (c) => {
        comments.push(c);
        commentTimes.push(Date.now());
        notify();
      },
      onRetry: (ms) => {
        retry = ms;
      },
    });
    res.on('data', (chunk: string) => parser.feed(chunk));
  }
  const stream: SseStream = {
    status: res.statusCode ?? 0,
    headers: res.headers,
    body,
    messages,
    comments,
    commentTimes,
    get retry() {
      return retry;
    },
    ended: endedPromise,
    isEnded: () => ended,
    waitFor(count, match = () => true, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.filter(match);
          if (found.length >= count) {
            done();
            resolve(found);
          } else if (ended) {
            done();
            reject(new Error(`stream ended with ${found.length} of ${count} messages`));
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`timed out with ${messages.filter(match).length} of ${count} messages`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    events: () =>
      messages
        .filter((m) => m.event !== 'connected')
        .map((m) => ({ id: m.id ?? '', event: m.event ?? '', data: JSON.parse(m.data), receivedAt: m.receivedAt })),
    close: () => req.destroy(),
  };
  return stream;
}
