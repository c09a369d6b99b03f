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

export async function startRpcProxy(target: string): Promise<RpcProxy> {
  let paused = false;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (paused) return; // black hole: the request is never answered
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
