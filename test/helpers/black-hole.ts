// An RPC endpoint that accepts connections and never answers, like an overloaded RPC provider.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/**
 * Registers the start and stop of a black-hole RPC server as hooks of the calling scope (the file or a describe);
 * its URL is set by the time the tests run.
 */
export function useBlackHoleRpc(): { readonly url: string } {
  const rpc = { url: '' };
  let server: Server | undefined;
  beforeAll(async () => {
    const s = createServer(() => {});
    server = s;
    await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
    rpc.url = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    const s = server;
    if (!s) return;
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  });
  return rpc;
}
