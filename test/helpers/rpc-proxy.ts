// A JSON-RPC proxy on loopback in front of a chain node, switchable to black-hole mode: while paused it accepts
// connections and requests and never answers, like a node that died or an RPC provider that hangs. Resuming makes
// new requests reach the node again, without the app behind it changing its RPC URL.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RpcProxy {
  url: string;
  /** Requests received from now on hang until the proxy closes. */
  pause(): void;
  resume(): void;
  readonly paused: boolean;
  close(): Promise<void>;
}

/** One JSON-RPC call as the proxy sees it. */
export interface RpcCall {
  id: unknown;
  method: string;
  params?: unknown[];
}

/**
 * `answer`: when it returns `{ result }` for a call, the proxy answers that call with that result instead of the
 * node's (a read replica behind the sequencer: null receipts); undefined keeps the node's answer. Every call still
 * reaches the node (a send is still sent).
 */
export async function startRpcProxy(
  target: string,
  options: {
    answer?: (call: RpcCall) => { result: unknown } | undefined;
    /** When it returns true for a call, the call still reaches the node but its answer is lost (never sent back). */
    lose?: (call: RpcCall) => boolean;
    /**
     * Called with the calls of a request once the node's answer to it was passed back: pausing here starts an
     * outage right after the caller heard back (a broadcast answered, then the node gone while it waits to be mined).
     */
    onAnswered?: (calls: RpcCall[]) => void;
  } = {},
): Promise<RpcProxy> {
  let paused = false;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (paused) return; // black hole: the request is never answered
      if (options.lose && req.method === 'POST') {
        const body = Buffer.concat(chunks);
        const parsed = JSON.parse(body.toString('utf8')) as RpcCall | RpcCall[];
        if ((Array.isArray(parsed) ? parsed : [parsed]).some(options.lose)) {
          // Sent on, answered by the node, and the answer dropped: the caller waits until its own timeout.
          fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).catch(() => {});
          return;
        }
      }
      if (options.answer && req.method === 'POST') {
        rewritten(target, Buffer.concat(chunks), options.answer).then(
          (body) => {
            if (paused) return;
            res.writeHead(200, { 'content-type': 'application/json' }).end(body);
          },
          () => {
            if (!res.headersSent) res.writeHead(502).end();
          },
        );
        return;
      }
      fetch(target, {
        method: req.method ?? 'POST',
        headers: { 'content-type': req.headers['content-type'] ?? 'application/json' },
        ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body: Buffer.concat(chunks) }),
      })
        .then(async (upstream) => {
          const body = Buffer.from(await upstream.arrayBuffer());
          if (paused) return; // paused while the node answered: the caller never sees it
          res.writeHead(upstream.status, {
            'content-type': upstream.headers.get('content-type') ?? 'application/json',
          });
          res.end(body);
          if (options.onAnswered && req.method === 'POST') {
            const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RpcCall | RpcCall[];
            options.onAnswered(Array.isArray(parsed) ? parsed : [parsed]);
          }
        })
        .catch(() => {
          if (!res.headersSent) res.writeHead(502).end();
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    pause: () => {
      paused = true;
    },
    resume: () => {
      paused = false;
    },
    get paused() {
      return paused;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The node's answers to `raw` (one call or a batch), with the calls `answer` takes answered by it instead. */
async function rewritten(
  target: string,
  raw: Buffer,
  answer: (call: RpcCall) => { result: unknown } | undefined,
): Promise<string> {
  const parsed = JSON.parse(raw.toString('utf8')) as RpcCall | RpcCall[];
  const calls = Array.isArray(parsed) ? parsed : [parsed];
  const upstream = (await (
    await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: raw.toString('utf8') })
  ).json()) as { id: unknown }[] | { id: unknown };
  const answers = Array.isArray(upstream) ? upstream : [upstream];
  const out = answers.map((a) => {
    const call = calls.find((c) => c.id === a.id);
    const instead = call === undefined ? undefined : answer(call);
    return instead === undefined ? a : { jsonrpc: '2.0', id: a.id, result: instead.result };
  });
  return JSON.stringify(Array.isArray(parsed) ? out : out[0]);
}
