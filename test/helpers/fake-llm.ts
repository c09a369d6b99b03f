// A fake OpenAI-compatible chat-completions server on loopback. Tests script its replies one request at a time
// (answers with usage, delays, error statuses, malformed bodies) and read back every request it received.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeLlmRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (undefined when it was not JSON). */
  body: any;
  raw: string;
}

export interface FakeLlmReply {
  /** Default 200. */
  status?: number;
  headers?: Record<string, string>;
  /** Wait this long before answering (a client timeout closes the socket first). */
  delayMs?: number;
  /** A normal answer with this content. */
  content?: string;
  /** The answer's usage; null leaves it out. Default: 10 prompt, 5 completion tokens. */
  usage?: { prompt_tokens: number; completion_tokens: number } | null;
  /** A raw body instead of a normal answer (string as is, anything else as JSON). */
  body?: unknown;
}

export type FakeLlmScript = FakeLlmReply | ((request: FakeLlmRequest) => FakeLlmReply);

export interface FakeLlm {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: FakeLlmRequest[];
  /** Queues replies, used one per request in order; once they run out, the default reply answers. */
  reply(...replies: FakeLlmScript[]): void;
  /** The reply when the queue is empty (initially: content "ok"). */
  setDefault(reply: FakeLlmScript): void;
  /** Forgets queued replies, the default reply and recorded requests. */
  reset(): void;
  close(): Promise<void>;
}

/** Builders of the usual replies. */
export const llmReply = {
  ok: (content: string, usage: FakeLlmReply['usage'] = { prompt_tokens: 10, completion_tokens: 5 }): FakeLlmReply => ({
    content,
    usage,
  }),
  slow: (delayMs: number, content = 'late'): FakeLlmReply => ({ delayMs, content }),
  status: (
    status: number,
    headers: Record<string, string> = {},
    body: unknown = { error: { message: `HTTP ${status}` } },
  ) => ({ status, headers, body }) satisfies FakeLlmReply,
  rateLimited: (retryAfter: string): FakeLlmReply => ({
    status: 429,
    headers: { 'retry-after': retryAfter },
    body: { error: { message: 'rate limited' } },
  }),
  notJson: (): FakeLlmReply => ({ body: '<html>bad gateway</html>' }),
  noChoices: (): FakeLlmReply => ({ body: { id: 'x', object: 'chat.completion', choices: [] } }),
  nonJsonContent: (): FakeLlmReply => ({ content: 'Sure! Here is the answer you asked for.' }),
};

function completion(model: string, reply: FakeLlmReply) {
  return {
    id: `chatcmpl-${Math.random().toString(36).slice(2)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: reply.content ?? 'ok' }, finish_reason: 'stop' }],
    ...(reply.usage !== null && {
      usage: {
        ...(reply.usage ?? { prompt_tokens: 10, completion_tokens: 5 }),
        total_tokens: (reply.usage?.prompt_tokens ?? 10) + (reply.usage?.completion_tokens ?? 5),
      },
    }),
  };
}

export async function startFakeLlm(): Promise<FakeLlm> {
  const requests: FakeLlmRequest[] = [];
  let queue: FakeLlmScript[] = [];
  let fallback: FakeLlmScript = { content: 'ok' };
  const timers = new Set<NodeJS.Timeout>();

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        body = undefined;
      }
      const request: FakeLlmRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body,
        raw,
      };
      requests.push(request);
      const script = queue.shift() ?? fallback;
      const reply = typeof script === 'function' ? script(request) : script;
      const send = () => {
        if (res.destroyed || res.writableEnded) return;
        const status = reply.status ?? 200;
        const payload =
          reply.body !== undefined
            ? typeof reply.body === 'string'
              ? reply.body
              : JSON.stringify(reply.body)
            : JSON.stringify(completion(String((body as { model?: unknown })?.model ?? ''), reply));
        res.writeHead(status, { 'content-type': 'application/json', ...reply.headers });
        res.end(payload);
      };
      if (!reply.delayMs) return send();
      const timer = setTimeout(() => {
        timers.delete(timer);
        send();
      }, reply.delayMs);
      timers.add(timer);
      res.on('close', () => {
        clearTimeout(timer);
        timers.delete(timer);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    reply: (...replies) => {
      queue.push(...replies);
    },
    setDefault: (reply) => {
      fallback = reply;
    },
    reset: () => {
      queue = [];
      fallback = { content: 'ok' };
      requests.length = 0;
    },
    close: async () => {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
