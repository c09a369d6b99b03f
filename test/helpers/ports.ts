// A free TCP port on the loopback address, for a process this one starts and must name a port for (a service, a
// private PostgreSQL server). The port is free when this returns; another process could take it before the child
// binds it, which on a test machine's loopback does not happen in practice.
import { createServer } from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
