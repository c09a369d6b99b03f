// One HTTP request over loopback with node:http, its answer as the wire gave it: the header names in the order they
// came (fetch sorts them) and the body as bytes. For what `inject` cannot see: the server's own request listener.
import { request } from 'node:http';

export interface RawAnswer {
  statusCode: number;
  /** Lower-case names in the order the answer sent them. */
  names: string[];
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export function rawRequest(
  url: string,
  { method = 'GET', headers = {} }: { method?: string; headers?: Record<string, string> } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () =>
        resolve({
          statusCode: res.statusCode ?? 0,
          names: res.rawHeaders.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase()),
          headers: res.headers,
          body: Buffer.concat(chunks),
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}
